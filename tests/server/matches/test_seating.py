"""One person, one seat, and no two look-alike names at a table, on SQLite and PostgreSQL: joins sent at
once by one account give it one seat; look-alike names sent at once seat one of them; an anonymous person
cannot sit under a registered account's name; and revision 0007 keys the rows already stored."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime

import pytest
from alembic import command
from alembic.config import Config
from server_helpers import close_lobby, open_lobby
from sqlalchemy import MetaData, Table, insert, select, text

from tendays.engine import Options
from tendays.server.matches.lobby import Lobby
from tendays.server.matches.lookalikes import name_skeleton
from tendays.server.matches.seats import LobbyError, hash_token
from tendays.server.matches.text import name_key
from tendays.server.storage.rows import SeatRefused, SeatRule, StoredGame, StoredSeat
from tendays.server.storage.schema import MIGRATIONS, AccountTable, SeatTable
from tendays.server.storage.store import Store

HUMANS = [("human", None)] * 4


def add_account(store: Store, name: str) -> int:
    with store.engine.begin() as db:
        return int(
            db.execute(
                insert(AccountTable).values(
                    name=name,
                    name_key=name_key(name),
                    name_skeleton=name_skeleton(name),
                    password_hash="-",
                    created=time.time(),
                )
            ).inserted_primary_key[0]
        )  # type: ignore[index]


def stored_game(game_id: str, seats: int, account_id: int | None, name: str = "Ann") -> StoredGame:
    """A waiting game of ``seats`` people, seat 1 taken by ``name`` (signed in to ``account_id``)."""
    return StoredGame(
        game_id,
        "usa",
        Options(players=seats),
        7,
        datetime.now(UTC),
        [
            StoredSeat(
                0,
                "human",
                name=name,
                token_hash=hash_token("ann"),
                account_id=account_id,
                name_skeleton=name_skeleton(name),
            ),
            *(StoredSeat(i, "human") for i in range(1, seats)),
        ],
        rated=True,
    )


def at_once(*calls: Callable[[], None]) -> list[BaseException | None]:
    """Run ``calls`` on threads of their own, released together; what each raised (None: nothing)."""
    start = threading.Barrier(len(calls))
    raised: list[BaseException | None] = [None] * len(calls)

    def run(index: int) -> None:
        start.wait()
        try:
            calls[index]()
        except BaseException as error:  # noqa: BLE001 - the test reads it
            raised[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return raised


def seats_of(store: Store, game_id: str) -> list[tuple[int, str | None, int | None]]:
    with store.engine.connect() as db:
        rows = db.execute(
            select(SeatTable.seat, SeatTable.name, SeatTable.account_id)
            .where(SeatTable.game_id == game_id)
            .order_by(SeatTable.seat)
        ).all()
    return [(row.seat, row.name, row.account_id) for row in rows]


# -- the database's own rules, whoever writes -------------------------------------------------------------


def test_three_seats_taken_at_once_by_one_account_give_it_one(db_url: str) -> None:
    store = Store(db_url)
    try:
        ann, xena = add_account(store, "Ann"), add_account(store, "Xena")
        store.create_game(stored_game("g1", 4, ann))
        # under three names, so that only the rule of one seat per account can refuse them
        raised = at_once(
            *(
                lambda seat=seat: store.take_seat(
                    "g1",
                    seat,
                    f"Xena {seat}",
                    hash_token(f"x{seat}"),
                    1.0,
                    account_id=xena,
                    name_skeleton=name_skeleton(f"Xena {seat}"),
                )
                for seat in (1, 2, 3)
            )
        )
        assert raised.count(None) == 1, raised
        refusals = [error for error in raised if error is not None]
        assert all(isinstance(e, SeatRefused) and e.rule is SeatRule.ONE_SEAT_PER_ACCOUNT for e in refusals)
        assert [account for _seat, _name, account in seats_of(store, "g1")].count(xena) == 1
    finally:
        store.close()


def test_look_alike_names_taken_at_once_seat_one_of_them(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.create_game(stored_game("g2", 3, None))
        names = ["Alice", "\u0410lice"]  # the second with a Cyrillic A
        raised = at_once(
            *(
                lambda seat=seat, name=name: store.take_seat(
                    "g2", seat, name, hash_token(name), 1.0, name_skeleton=name_skeleton(name)
                )
                for seat, name in zip((1, 2), names, strict=True)
            )
        )
        assert raised.count(None) == 1, raised
        refusal = next(error for error in raised if error is not None)
        assert isinstance(refusal, SeatRefused) and refusal.rule is SeatRule.DISTINCT_NAMES
        assert sum(name in names for _seat, name, _account in seats_of(store, "g2")) == 1
    finally:
        store.close()


def test_an_anonymous_person_cannot_sit_under_a_registered_name(db_url: str) -> None:
    store = Store(db_url)
    try:
        alice = add_account(store, "Alice")
        store.create_game(stored_game("g3", 3, None))
        with pytest.raises(SeatRefused) as refused:
            store.take_seat("g3", 1, "Alic\u0435", hash_token("a"), 1.0, name_skeleton=name_skeleton("Alic\u0435"))
        assert refused.value.rule is SeatRule.ACCOUNT_NAME
        store.take_seat(
            "g3", 1, "Alice", hash_token("a"), 1.0, account_id=alice, name_skeleton=name_skeleton("Alice")
        )  # signed in to it: hers
        with pytest.raises(SeatRefused):  # nor can anyone create a game under it
            store.create_game(stored_game("g4", 2, None, name="ALICE"))
    finally:
        store.close()


# -- the lobby: the same rules in the game's words ----------------------------------------------------------


@pytest.fixture
async def lobby(db_url: str) -> AsyncIterator[Lobby]:
    made = open_lobby(db_url)
    yield made
    await close_lobby(made)


async def test_three_joins_sent_at_once_by_one_account_give_it_one_seat_of_a_rated_game(lobby: Lobby) -> None:
    store = lobby.journal.store
    ann, xena = add_account(store, "Ann"), add_account(store, "Xena")
    for _trial in range(5):
        match, _token = await lobby.create("usa", HUMANS, {}, "Ann", rated=True, account_id=ann)
        answers = await asyncio.gather(*(lobby.join(match.id, "Xena", xena) for _ in range(3)), return_exceptions=True)
        assert sum(not isinstance(a, BaseException) for a in answers) == 1, answers
        for answer in answers:
            if isinstance(answer, LobbyError):
                assert answer.status == 409 and answer.message == "you already have a seat at this game"
        assert [s.account_id for s in match.seats].count(xena) == 1
        assert [account for _seat, _name, account in seats_of(store, match.id)].count(xena) == 1


async def test_a_look_alike_name_is_refused_at_a_table_naming_who_sits_there(lobby: Lobby) -> None:
    match, _token = await lobby.create("usa", [("human", None), ("human", None), ("bot", "easy")], {}, "Alice")
    for alike in ("\u0410lice", "Alic\u0435", "AIice", "alice"):
        with pytest.raises(LobbyError) as refused:
            await lobby.join(match.id, alike)
        assert refused.value.status == 422
        assert refused.value.message == "someone at this table is already called Alice; choose another name"
    with pytest.raises(LobbyError) as refused:
        await lobby.join(match.id, "Easy b\u043et")  # a Cyrillic o, beside the easy bot
    assert "already called Easy bot" in refused.value.message
    await lobby.join(match.id, "Bob")


async def test_joins_with_look_alike_names_sent_at_once_seat_one(lobby: Lobby) -> None:
    match, _token = await lobby.create("usa", HUMANS, {}, "Ann")
    names = ["Bob", "B\u03bfb", "B0b"]  # a Greek omicron, a zero
    answers = await asyncio.gather(*(lobby.join(match.id, name) for name in names), return_exceptions=True)
    assert sum(not isinstance(a, BaseException) for a in answers) == 1, answers
    assert all(a.status == 422 for a in answers if isinstance(a, LobbyError))


async def test_an_anonymous_person_may_not_take_a_registered_name_at_a_table(lobby: Lobby) -> None:
    add_account(lobby.journal.store, "Alice")
    match, _token = await lobby.create("usa", HUMANS, {}, "Ann")
    with pytest.raises(LobbyError) as refused:
        await lobby.join(match.id, "\u0410lice")
    assert refused.value.status == 422 and "is the name of a registered player" in refused.value.message
    with pytest.raises(LobbyError) as refused:
        await lobby.create("usa", HUMANS, {}, "alice")
    assert refused.value.status == 422
    assert not any(s.name == "alice" for m in lobby.matches.values() for s in m.seats)


# -- revision 0007 on the rows already stored ----------------------------------------------------------------


def test_revision_0007_keys_stored_names_and_lets_the_older_of_two_look_alikes_keep_its_key(db_url: str) -> None:
    store = Store(db_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as db:
        config.attributes["connection"] = db
        command.downgrade(config, "0006")
    engine = store.engine
    tables = MetaData()
    games, seats, accounts = (Table(name, tables, autoload_with=engine) for name in ("games", "seats", "accounts"))
    with engine.begin() as db:  # look-alike accounts and a table that breaks both rules, as written before 0007
        db.execute(
            accounts.insert(),
            [
                {"id": n, "name": name, "name_key": name_key(name), "password_hash": "-", "created": 1.0}
                for n, name in ((1, "Alice"), (2, "\u0410lice"))
            ],
        )
        db.execute(
            games.insert().values(
                id="old",
                edition="usa",
                options='{"players": 4, "rules": 2}',
                seed=7,
                created=datetime.now(UTC),
                finished=True,
                lease_epoch=0,
            )
        )
        rows = (
            (0, "human", "Alice", 1),
            (1, "human", "Alice", 1),
            (2, "human", "Alic\u0435", None),
            (3, "bot", "Easy bot", None),
        )
        db.execute(
            seats.insert(),
            [
                {
                    "game_id": "old",
                    "seat": seat,
                    "kind": kind,
                    "name": name,
                    "account_id": account,
                    "token_hash": hash_token(str(seat)),
                }
                for seat, kind, name, account in rows
            ],
        )
    store.close()
    store = Store(db_url)  # upgrades to the newest revision
    try:
        with store.engine.connect() as db:
            keyed = db.execute(text("SELECT id, name_skeleton FROM accounts ORDER BY id")).all()
            seated = db.execute(
                text("SELECT seat, account_id, name_skeleton FROM seats WHERE game_id = 'old' ORDER BY seat")
            ).all()
        assert [tuple(row) for row in keyed] == [(1, name_skeleton("Alice")), (2, None)]
        assert [tuple(row) for row in seated] == [
            (0, 1, name_skeleton("Alice")),
            (1, None, None),
            (2, None, None),
            (3, None, None),
        ]
        game = store.load_game("old")
        assert game is not None and [s.name for s in game.seats] == ["Alice", "Alice", "Alic\u0435", "Easy bot"]
    finally:
        store.close()
