"""What ``/tv`` shows, on SQLite and PostgreSQL: of the games being played now (unfinished, every seat
taken), the one whose seats have the highest mean rating (an account's in the game's edition, the start
for one with none there, a bot's ladder rating, an anonymous person left out), ties by the most recent
move; none when no game is being played. Games are written straight into the database."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from server_helpers import HUMAN, TestClient, bot, new_game
from sqlalchemy import insert, update
from sqlalchemy.engine import Engine

from tendays.bots import ladder_ratings
from tendays.server.matches.text import name_key
from tendays.server.people.ratings import START
from tendays.server.people.tv import best_game
from tendays.server.storage.schema import AccountTable, GameTable, RatingTable, SeatTable
from tendays.server.storage.store import Store

HARD = float(ladder_ratings()["ratings"]["hard"]["mu"])


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = Store(db_url)
    yield opened
    opened.close()


def account(engine: Engine, name: str, ratings: dict[str, float] | None = None) -> int:
    with engine.begin() as db:
        account_id = int(
            db.execute(
                insert(AccountTable)
                .values(name=name, name_key=name_key(name), password_hash="x", created=time.time())
                .returning(AccountTable.id)
            ).scalar_one()
        )
        for edition, mu in (ratings or {}).items():
            db.execute(
                insert(RatingTable).values(
                    account_id=account_id, edition=edition, mu=mu, sigma=2.0, rating=mu, games=10, updated=time.time()
                )
            )
    return account_id


def game(
    engine: Engine, game_id: str, seats: list[Any], edition: str = "usa", last_move: float = 0.0, finished: bool = False
) -> str:
    """A game whose seats are account ids, bot levels ("bot:hard"), "anonymous" or None (free)."""
    with engine.begin() as db:
        db.execute(
            insert(GameTable).values(
                id=game_id,
                edition=edition,
                options="{}",
                seed=1,
                created=datetime.now(UTC),
                finished=finished,
                last_move_at=last_move or time.time(),
            )
        )
        rows = []
        for number, seat in enumerate(seats):
            row: dict[str, Any] = {
                "game_id": game_id,
                "seat": number,
                "kind": "human",
                "bot": None,
                "name": None,
                "token_hash": None,
                "account_id": None,
            }
            if isinstance(seat, int):
                row.update(name=f"Account{seat}", token_hash=f"hash-{game_id}-{number}", account_id=seat)
            elif isinstance(seat, str) and seat.startswith("bot:"):
                row.update(kind="bot", bot=seat[4:], name=f"{seat[4:].capitalize()} bot")
            elif seat == "anonymous":
                row.update(name=f"Guest{number}", token_hash=f"hash-{game_id}-{number}")
            rows.append(row)
        db.execute(insert(SeatTable), rows)
    return game_id


def test_no_game_being_played_means_none(store: Store) -> None:
    ann = account(store.engine, "Ann", {"usa": 40.0})
    assert best_game(store.engine) is None
    game(store.engine, "waiting", [ann, None])  # a free seat: not started
    game(store.engine, "over", [ann, "bot:hard"], finished=True)
    assert best_game(store.engine) is None


def test_the_highest_mean_rating_wins(store: Store) -> None:
    engine = store.engine
    ann = account(engine, "Ann", {"usa": 30.0, "germany": 45.0})
    ben = account(engine, "Ben", {"usa": 20.0})
    cid = account(engine, "Cid", {"usa": 33.0})
    new = account(engine, "New")  # no rating yet: counted at the start
    game(engine, "guests", ["anonymous", "anonymous"])  # no rating at all: last
    assert best_game(engine) is not None and best_game(engine).id == "guests"  # type: ignore[union-attr]
    game(engine, "annben", [ann, ben])  # 25
    game(engine, "cidbot", [cid, "bot:hard"])  # (33 + hard) / 2
    game(engine, "newbot", [new, "bot:beginner", "anonymous"])  # the guest is left out of the mean
    chosen = best_game(engine)
    assert chosen is not None and chosen.id == "cidbot" and chosen.edition == "usa"
    assert [(s.name, s.rating) for s in chosen.seats] == [(f"Account{cid}", 33.0), ("Hard bot", HARD)]
    game(engine, "german", [ann, ben], edition="germany")  # Ann's German rating, Ben's start there
    chosen = best_game(engine)
    assert chosen is not None and chosen.id == "german"
    assert [s.rating for s in chosen.seats] == [45.0, round(START.mu, 2)]
    with engine.begin() as db:  # both end: the next best
        db.execute(update(GameTable).where(GameTable.id.in_(["german", "cidbot"])).values(finished=True))
    assert best_game(engine).id == "annben"  # type: ignore[union-attr]


def test_equal_means_go_to_the_most_recent_move(store: Store) -> None:
    engine = store.engine
    ann, ben = account(engine, "Ann", {"usa": 30.0}), account(engine, "Ben", {"usa": 30.0})
    now = time.time()
    game(engine, "older", [ann, "bot:hard"], last_move=now - 60)
    game(engine, "newer", [ben, "bot:hard"], last_move=now - 5)
    assert best_game(engine).id == "newer"  # type: ignore[union-attr]
    with engine.begin() as db:
        db.execute(update(GameTable).where(GameTable.id == "older").values(last_move_at=now))
    assert best_game(engine).id == "older"  # type: ignore[union-attr]


def test_the_api_names_the_game_and_its_seats(client: TestClient) -> None:
    assert client.get("/api/tv").json() == {"game": None, "edition": None, "seats": []}
    waiting = new_game(client, [HUMAN, HUMAN], name="Alice")
    assert client.get("/api/tv").json()["game"] is None
    playing = new_game(client, [HUMAN, bot("hard")], name="Bea")
    answer = client.get("/api/tv")
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
    assert answer.json() == {
        "game": playing["id"],
        "edition": "usa",
        "seats": [
            {"name": "Bea", "rating": None, "bot_account": False},
            {"name": "Hard bot", "rating": HARD, "bot_account": False},
        ],
    }
    assert waiting["id"] != playing["id"]
    assert client.get("/tv").status_code == 200
