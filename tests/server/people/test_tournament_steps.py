"""The director's step, on SQLite and PostgreSQL: a step that reads only what changed since the last one
(the closed tables kept by the lease holder) sees exactly what a full reading of the database sees, and
reads everything again when the database disagrees with what it kept; and a Swiss round whose table's game
can never be made (a person's account deleted or suspended between the pairing and the game) is settled as
a forfeit of the one who is gone, so the round and the event finish."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import delete, select, update
from test_ratings import add_accounts, add_game, open_lobby

from tendays.server.people.tournament_director import Director
from tendays.server.people.tournament_rules import TournamentKind
from tendays.server.people.tournament_running import advance, claim
from tendays.server.people.tournament_spec import EventSpec, check_spec
from tendays.server.people.tournament_state import EventState, read_state
from tendays.server.people.tournament_views import tournament_page
from tendays.server.people.tournaments import create, join
from tendays.server.storage.schema import (
    AccountTable,
    GameTable,
    SeatTable,
    TournamentSeatTable,
    TournamentTableTable,
)
from tendays.server.storage.store import Store

OWNER = "this process"


def seen(state: EventState) -> tuple[Any, ...]:
    """What a step decides by: the entrants and the tables with their places."""
    return tuple(state.entrants.values()), tuple(state.tables)


def end(store: Store, game_id: str, places: list[int]) -> None:
    """The game ends with these places, as people/results.py writes them."""
    with store.engine.begin() as db:
        db.execute(
            update(GameTable)
            .where(GameTable.id == game_id)
            .values(finished=True, finished_at=time.time(), ended="over")
        )
        for seat, place in enumerate(places):
            db.execute(
                update(SeatTable).where(SeatTable.game_id == game_id, SeatTable.seat == seat).values(place=place)
            )


def test_a_step_reading_what_changed_sees_what_a_full_reading_sees(db_url: str) -> None:
    from server_helpers import settings

    store = Store(db_url)
    try:
        engine = store.engine
        people = add_accounts(store, "Ann", "Ben", "Cat", "Dan", "Eve")
        spec = check_spec(
            EventSpec("Kept", TournamentKind.ARENA, "usa", {"days": 3}, minutes=1), settings(tournament_min_minutes=1.0)
        )
        arena = create(engine, spec, time.time(), time.time(), None)
        for account in people:
            join(engine, arena, account, time.time())
        [(tournament, epoch)] = claim(engine, OWNER, 60.0, time.time()).items()
        kept: EventState | None = None
        ended, fired = 0, False
        for turn in range(12):
            step = advance(engine, tournament, OWNER, epoch, time.time(), kept)
            with engine.connect() as db:
                full = read_state(db, tournament)
            assert full is not None and seen(step.state) == seen(full), f"step {turn}"
            # the scores kept between steps, worked out again only for whose table closed, are the whole
            # standings' scores (streaks' double points included)
            scores = step.state.arena_scores().scores(step.state.entrants)
            assert {e: scores.get(e, 0.0) for e in full.entrants} == {s.entrant: s.score for s in full.standings()}
            fired = fired or any(line.fire for line in full.standings())
            kept = step.state
            for table in step.to_make:
                add_game(store, table.game_id, [e.account_id for e in table.entrants], finished=False)
            playing = [t for t in step.state.tables if t.playing]
            assert playing, "four of five are always at a table"
            end(store, playing[0].game_id, [1, 1] if turn % 5 == 4 else [1, 2])
            ended += 1
        assert fired, "a streak doubled someone's points on the way"
        assert sum(1 for t in kept.tables if not t.playing) == ended - 1  # the last one closes next step
        # should the database say a table kept open is closed (nothing but the lease holder closes one),
        # the step believes the database: it reads everything again
        open_table = next(t for t in kept.tables if t.playing)
        with engine.begin() as db:
            db.execute(
                update(TournamentTableTable)
                .where(TournamentTableTable.id == open_table.id)
                .values(playing=False, finished_at=time.time())
            )
            for seat, entrant in enumerate(open_table.entrants):
                db.execute(
                    update(TournamentSeatTable)
                    .where(TournamentSeatTable.table_id == open_table.id, TournamentSeatTable.entrant_id == entrant)
                    .values(playing=False, place=seat + 1)
                )
        step = advance(engine, tournament, OWNER, epoch, time.time(), kept)
        with engine.connect() as db:
            full = read_state(db, tournament)
        assert full is not None and seen(step.state) == seen(full)
        assert next(t for t in step.state.tables if t.id == open_table.id).places == (1, 2)
    finally:
        store.close()


async def test_a_swiss_table_whose_person_is_gone_before_its_game_is_settled(db_url: str) -> None:
    lobby = open_lobby(db_url)
    director = Director(lobby)
    director.watch_games()
    try:
        engine = lobby.journal.store.engine
        people = add_accounts(lobby.journal.store, "Ann", "Ben", "Cat", "Dan")
        spec = check_spec(EventSpec("Gone", TournamentKind.SWISS, "usa", {"days": 3}, rounds=2), lobby.settings)
        swiss = create(engine, spec, time.time(), time.time(), None)
        for account in people:
            join(engine, swiss, account, time.time())
        # round 1 is paired, and the process dies before it makes the games (its lease has run out)
        dead = "a process killed mid-round"
        [(tournament, epoch)] = claim(engine, dead, -1.0, time.time()).items()
        first, second = (table.entrants for table in advance(engine, tournament, dead, epoch, time.time()).to_make)
        deleted, suspended = first[0], second[1]
        with engine.begin() as db:  # meanwhile one person deletes their account, another is suspended
            db.execute(delete(AccountTable).where(AccountTable.id == deleted.account_id))
            db.execute(update(AccountTable).where(AccountTable.id == suspended.account_id).values(status="suspended"))
        await director.tick()  # the next owner settles both tables, and pairs the two left in round 2
        now = tournament_page(engine, swiss, None)
        assert now["status"] == "running" and now["round"] == 2
        round_one = [g for g in now["games"] if g["round"] == 1]
        assert all(g["status"] == "finished" for g in round_one)
        assert {g["seats"][g["places"].index(2)] for g in round_one} == {deleted.name, suspended.name}
        left = sorted([first[1].name, second[0].name])
        [round_two] = [g for g in now["games"] if g["round"] == 2]
        assert sorted(round_two["seats"]) == left
        with engine.connect() as db:  # the settled tables' games were never made; round 2's was
            assert list(db.scalars(select(GameTable.id))) == [round_two["id"]]
        match = await lobby.get(round_two["id"])
        assert match is not None
        try:
            loser = next(s for s in match.seats if s.name == left[1])
            await match.leave(loser.index)
        finally:
            lobby.release(match)
        await lobby.results_written()
        await director.tick()
        final = tournament_page(engine, swiss, None)
        assert final["status"] == "finished"
        scores = {line["name"]: line["score"] for line in final["standings"]}
        assert scores == {left[0]: 2.0, left[1]: 1.0, deleted.name: 0.0, suspended.name: 0.0}
    finally:
        await director.close()
        await lobby.close()
        await lobby.journal.close()
