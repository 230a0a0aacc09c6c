"""What the people's pages and the lobby's lists cost the database, on SQLite and PostgreSQL: a profile is
three statements whatever the person played, a page of the leaderboard or of the lobby's lists one, and the
plans start from an index (the leaderboard's settled players, the seats of each unfinished game) instead of
reading every seat or every rating; the answers stay right; and such a read never waits behind the writer."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import event, insert, text
from sqlalchemy.engine import Engine

from tendays.server.matches.text import name_key
from tendays.server.people.profiles import leaderboard, profile
from tendays.server.people.ratings import rate_game
from tendays.server.storage.journal import Journal
from tendays.server.storage.schema import AccountTable, GameTable, RatingTable, SeatTable
from tendays.server.storage.store import Store


@contextmanager
def statements(engine: Engine) -> Iterator[list[tuple[str, Any]]]:
    """Every statement the engine sends meanwhile, with its parameters."""
    sent: list[tuple[str, Any]] = []

    def heard(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        sent.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", heard)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", heard)


def plan(engine: Engine, statement: str, parameters: Any) -> str:
    """The database's plan for a statement as it was sent."""
    explain = "EXPLAIN QUERY PLAN " if engine.dialect.name == "sqlite" else "EXPLAIN "
    with engine.connect() as db:
        return "\n".join(str(row[-1]) for row in db.exec_driver_sql(explain + statement, parameters))


def add_people(store: Store, count: int) -> list[int]:
    with store.engine.begin() as db:
        db.execute(
            insert(AccountTable),
            [
                {"name": f"P{n}", "name_key": name_key(f"P{n}"), "password_hash": "-", "created": time.time()}
                for n in range(count)
            ],
        )
        return list(db.scalars(text("SELECT id FROM accounts ORDER BY id")))


def add_games(store: Store, games: list[tuple[str, str, list[int | None], bool]]) -> None:
    """(id, edition, the seats' accounts (None: free), finished) each, created in this order."""
    with store.engine.begin() as db:
        db.execute(
            insert(GameTable),
            [
                {
                    "id": game_id,
                    "edition": edition,
                    "options": "{}",
                    "seed": 1,
                    "rated": True,
                    "finished": finished,
                    "created": datetime.fromtimestamp(1_700_000_000 + number, UTC),
                    "finished_at": 1.0 if finished else None,
                }
                for number, (game_id, edition, _seats, finished) in enumerate(games)
            ],
        )
        db.execute(
            insert(SeatTable),
            [
                {
                    "game_id": game_id,
                    "seat": seat,
                    "kind": "human",
                    "name": None if account is None else f"P{account}",
                    "account_id": account,
                    "token_hash": None if account is None else "0" * 64,
                }
                for game_id, _edition, seats, _finished in games
                for seat, account in enumerate(seats)
            ],
        )


def test_a_profile_is_three_statements_whatever_was_played(db_url: str) -> None:
    store = Store(db_url)
    try:
        ada, bob, cy = add_people(store, 3)
        games = [(f"u{n}", "usa", [ada, bob], True) for n in range(4)] + [
            (f"g{n}", "germany", [cy, ada, bob], True) for n in range(3)
        ]
        add_games(store, games)
        for day, (game_id, _edition, seats, _finished) in enumerate(games):  # a day apart: the repeat cap
            rate_game(store.engine, game_id, list(range(1, len(seats) + 1)), at=1_700_000_000 + day * 90_000)
        with statements(store.engine) as sent:
            found = profile(store.engine, "p0", page=1, per_page=5)
        # Beside the pool's check that the connection is alive (PostgreSQL), and nothing else.
        assert len([s for s, _ in sent if s.strip().upper() != "SELECT 1"]) == 3, sent
        assert found is not None and found["total"] == 7 and found["pages"] == 2
        assert set(found["ratings"]) == set(found["history"]) == {"usa", "germany"}
        assert [p["game"] for p in found["history"]["usa"]] == ["u0", "u1", "u2", "u3"]
        assert [g["id"] for g in found["games"]] == ["g2", "g1", "g0", "u3", "u2"]
        newest = found["games"][0]
        assert newest["result"] == "lost" and newest["place"] == 2 and newest["players"] == 3
        assert [o["name"] for o in newest["others"]] == ["P3", "P2"]  # the seats of Cy and Bob
        assert profile(store.engine, "p0", page=3, per_page=5)["total"] == 7  # past the last page: counted apart
        nobody = profile(store.engine, "P9")
        assert nobody is None
    finally:
        store.close()


def test_a_page_of_the_lobbys_lists_is_one_statement(db_url: str) -> None:
    store = Store(db_url)
    try:
        people = add_people(store, 2)
        add_games(
            store,
            [
                ("done", "usa", people, True),
                ("open1", "usa", [people[0], None], False),
                ("full", "usa", people, False),
                ("open2", "usa", [people[1], None], False),
            ],
        )
        with statements(store.engine) as sent:
            assert store.page_ids("joinable", 0, 20) == (["open2", "open1"], 2)
            assert store.page_ids("playing", 0, 20) == (["full"], 1)
        assert len([s for s, _ in sent if s.strip().upper() != "SELECT 1"]) == 2, sent
        assert store.page_ids("joinable", 1, 1) == (["open1"], 2)
        assert store.page_ids("joinable", 5, 20) == ([], 2)  # past the end: counted apart
    finally:
        store.close()


def test_the_leaderboard_reads_the_index_of_settled_players(db_url: str) -> None:
    store = Store(db_url)
    try:
        people = add_people(store, 3000)
        with store.engine.begin() as db:  # the USA's players settled, Germany's provisional
            db.execute(
                insert(RatingTable),
                [
                    {
                        "account_id": a,
                        "edition": edition,
                        "mu": 20 + a % 97 / 10,
                        "sigma": sigma,
                        "rating": 20 + a % 97 / 10,
                        "games": 20,
                        "updated": 1.0,
                    }
                    for a in people
                    for edition, sigma in (("usa", 3.0), ("germany", 7.0))
                ],
            )
            if db.dialect.name == "postgresql":
                db.execute(text("ANALYZE ratings"))
        with statements(store.engine) as sent:
            board = leaderboard(store.engine, "germany")
        assert board["players"] == [] and board["total"] == 0
        usa = leaderboard(store.engine, "usa", page=2, per_page=50)
        assert usa["total"] == 3000 and [p["rank"] for p in usa["players"]] == list(range(51, 101))
        ratings = [p["rating"] for p in usa["players"]]
        assert ratings == sorted(ratings, reverse=True)
        counted = next((s, p) for s, p in sent if "count" in s.lower())
        assert "ix_ratings_settled" in plan(store.engine, *counted)
        with statements(store.engine) as sent:
            leaderboard(store.engine, "usa", page=3)
        paged = next((s, p) for s, p in sent if "ORDER BY" in s)
        assert "ix_ratings_settled" in plan(store.engine, *paged)
    finally:
        store.close()


def test_the_games_being_played_are_found_without_reading_every_seat(db_url: str) -> None:
    store = Store(db_url)
    try:
        people = add_people(store, 2)
        add_games(
            store,
            [(f"f{n}", "usa", people, True) for n in range(10_000)]
            + [("full", "usa", people, False), ("open", "usa", [people[0], None], False)],
        )
        if store.engine.dialect.name == "postgresql":
            with store.engine.begin() as db:
                db.execute(text("ANALYZE"))
        for show, found in (("playing", ["full"]), ("joinable", ["open"])):
            with statements(store.engine) as sent:
                assert store.page_ids(show, 0, 20) == (found, 1)
            listed = next((s, p) for s, p in sent if "ORDER BY" in s)
            read = plan(store.engine, *listed)
            assert "Seq Scan on seats" not in read and "SCAN seats" not in read, read
    finally:
        store.close()


def test_a_page_is_read_while_the_writer_is_busy(db_url: str) -> None:
    async def scenario() -> None:
        journal = Journal(Store(db_url))
        busy, done = threading.Event(), threading.Event()

        def writing() -> None:  # a batch of moves, lease renewals or the pairing sweep, taking its time
            busy.set()
            done.wait(30)

        writer = asyncio.create_task(journal.run(writing))
        try:
            await asyncio.to_thread(busy.wait, 30)
            assert await journal.read(leaderboard, journal.store.engine, "usa") is not None
            assert not writer.done()  # read while the writer was still at work
        finally:
            done.set()
            await writer
            await journal.close()

    asyncio.run(scenario())
