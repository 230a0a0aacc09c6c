"""The tournament director, in one process, on SQLite and PostgreSQL: a three-round Swiss of four people and
two ladder bots run to its end (people's games scripted as forfeits, the bots' played out), its standings
and tie-breaks as worked out here from the places the games stored; an arena that never pairs the same two
twice in a row and finishes when its time is up once its last game ends; a table whose game is missing
(the process died between the pairing and the game) gets its game, never a second pairing; the reminder
five minutes before the start; a paused old owner pairs nobody."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from typing import Any

import pytest
from sqlalchemy import delete, func, select, update
from test_ratings import add_accounts, open_lobby

from tendays.bots import ladder_ratings
from tendays.server.matches.lobby import Lobby
from tendays.server.people.tournament_director import Director
from tendays.server.people.tournament_rules import TournamentKind
from tendays.server.people.tournament_running import LostLease, advance, claim
from tendays.server.people.tournament_spec import EventSpec, TournamentError, check_spec
from tendays.server.people.tournament_views import player_tournaments, tournament_page
from tendays.server.people.tournaments import create, join
from tendays.server.storage.schema import (
    GameTable,
    SeatTable,
    TournamentSeatTable,
    TournamentTable,
    TournamentTableTable,
)

pytestmark = pytest.mark.slow  # whole tournaments run by the director

SHORT = {"days": 3}


def event(lobby: Lobby, kind: TournamentKind, **fields: Any) -> int:
    spec = check_spec(EventSpec("Test event", kind, "usa", SHORT, **fields), lobby.settings)
    now = time.time()
    return create(lobby.journal.store.engine, spec, now, now, None)


def page(lobby: Lobby, tournament_id: int, reader: int | None = None) -> dict[str, Any]:
    return tournament_page(lobby.journal.store.engine, tournament_id, reader)


async def end_games(lobby: Lobby, tournament_id: int) -> None:
    """End every game being played: at a table of people the one whose name sorts first wins (the other
    leaves: a forfeit); at a bot's table the person leaves and the bots play it out."""
    for game in page(lobby, tournament_id)["games"]:
        if game["status"] != "playing":
            continue
        match = await lobby.get(game["id"])
        assert match is not None
        try:
            people = sorted((s for s in match.seats if s.kind == "human"), key=lambda s: s.name or "")
            for seat in people[1:] if len(people) == len(match.seats) else people:
                await match.leave(seat.index)
            for _ in range(600):
                if match.status == "over":
                    break
                await asyncio.sleep(0.05)
            assert match.status == "over"
        finally:
            lobby.release(match)
    await lobby.results_written()


def worked_out(tables: list[dict[str, Any]], names: list[str]) -> dict[str, tuple[float, float, float]]:
    """(score, Buchholz, Sonneborn-Berger) of each name, from the tables' places: a win 1, a tie 0.5, a loss
    0; Buchholz the sum of the opponents' final scores; Sonneborn-Berger the sum of each game's points times
    the opponent's final score."""
    points: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for table in tables:
        (first, second), (one, two) = table["seats"], table["places"]
        mine = 1.0 if one < two else 0.5 if one == two else 0.0
        points[first].append((second, mine))
        points[second].append((first, 1.0 - mine))
    score = {n: sum(p for _o, p in points[n]) for n in names}
    return {n: (score[n], sum(score[o] for o, _p in points[n]), sum(p * score[o] for o, p in points[n])) for n in names}


async def test_a_swiss_of_four_people_and_two_bots_runs_to_its_end(db_url: str) -> None:
    lobby = open_lobby(db_url)
    director = Director(lobby)
    director.watch_games()
    try:
        engine = lobby.journal.store.engine
        people = add_accounts(lobby.journal.store, "Ann", "Ben", "Cat", "Dan")
        swiss = event(lobby, TournamentKind.SWISS, rounds=3, bots=("easy", "normal"))
        for account in people:
            join(engine, swiss, account, time.time())
        for _round in range(1, 4):
            await director.tick()
            now = page(lobby, swiss)
            assert now["status"] == "running" and now["round"] == _round
            playing = [g for g in now["games"] if g["status"] == "playing"]
            assert len(playing) == 3 and all(g["round"] == _round for g in playing)
            assert sorted(n for g in playing for n in g["seats"]) == sorted(
                ["Ann", "Ben", "Cat", "Dan", "Easy bot", "Normal bot"]
            )
            await end_games(lobby, swiss)
        await director.tick()
        final = page(lobby, swiss)
        assert final["status"] == "finished" and final["ends_at"] is not None
        tables = final["games"]
        assert len(tables) == 9 and all(g["status"] == "finished" and g["places"] for g in tables)
        met = [frozenset(g["seats"]) for g in tables]
        assert len(set(met)) == 9, "nobody meets anyone twice"
        assert frozenset({"Easy bot", "Normal bot"}) not in met, "the bots play people"
        with engine.connect() as db:  # people's games rated, a bot's not; seats held by the entrants' accounts
            for game in tables:
                rated = db.scalar(select(GameTable.rated).where(GameTable.id == game["id"]))
                assert bool(rated) == (not any(n.endswith(" bot") for n in game["seats"]))
                accounts = list(
                    db.scalars(
                        select(SeatTable.account_id).where(SeatTable.game_id == game["id"]).order_by(SeatTable.seat)
                    )
                )
                assert [a is not None for a in accounts] == [not n.endswith(" bot") for n in game["seats"]]
        names = ["Ann", "Ben", "Cat", "Dan", "Easy bot", "Normal bot"]
        expected = worked_out(tables, names)
        lines = {line["name"]: line for line in final["standings"]}
        for name, (score, buchholz, sonneborn) in expected.items():
            line = lines[name]
            assert line["games"] == 3
            assert line["score"] == pytest.approx(score)
            assert line["tiebreaks"]["buchholz"] == pytest.approx(buchholz)
            assert line["tiebreaks"]["sonneborn_berger"] == pytest.approx(sonneborn)
        # ranked by score, Buchholz, Sonneborn-Berger, then rating (people start at 25, the bots have the
        # ladder's); equal on all shares a rank
        rating = {n: lines[n]["rating"] for n in names}
        ladder = ladder_ratings()["ratings"]
        assert rating["Ann"] == 25.0
        assert rating["Easy bot"] == ladder["easy"]["mu"] and rating["Normal bot"] == ladder["normal"]["mu"]
        key = {n: (-expected[n][0], -expected[n][1], -expected[n][2], -rating[n]) for n in names}
        assert {n: lines[n]["rank"] for n in names} == {n: 1 + sum(key[o] < key[n] for o in names) for n in names}
        # every person who left a bot's table lost it: the bots won all six of their games
        assert expected["Easy bot"][0] == expected["Normal bot"][0] == 3.0
        assert [p["name"] for p in final["podium"]] == [s["name"] for s in final["standings"][:3]]
        # a profile's results: the player's line of each tournament they entered
        [entered] = player_tournaments(engine, "ben")
        assert entered["id"] == swiss and entered["status"] == "finished"
        assert entered["standing"] == {k: v for k, v in lines["Ben"].items()}
        with pytest.raises(TournamentError, match="no player called 'Nobody'"):
            player_tournaments(engine, "Nobody")
        # the people's games went as scripted: at a table of two people, the name that sorts first won
        for game in tables:
            if not any(n.endswith(" bot") for n in game["seats"]):
                winner = game["seats"][game["places"].index(1)]
                assert winner == min(game["seats"])
    finally:
        await director.close()
        await lobby.close()
        await lobby.journal.close()


async def test_an_arena_never_pairs_the_same_two_in_a_row_and_ends_on_time(db_url: str) -> None:
    lobby = open_lobby(db_url, tournament_min_minutes=1.0)
    director = Director(lobby)
    try:
        engine = lobby.journal.store.engine
        people = add_accounts(lobby.journal.store, "Ann", "Ben", "Cat")
        arena = event(lobby, TournamentKind.ARENA, minutes=1)
        for account in people:
            join(engine, arena, account, time.time())
        last: dict[str, str] = {}
        for _game in range(6):
            await director.tick()
            [playing] = [g for g in page(lobby, arena)["games"] if g["status"] == "playing"]
            first, second = playing["seats"]
            assert last.get(first) != second and last.get(second) != first
            last[first], last[second] = second, first
            await end_games(lobby, arena)
        await director.tick()  # the next game starts ...
        with engine.begin() as db:  # ... and then the arena's time is up
            db.execute(update(TournamentTable).where(TournamentTable.id == arena).values(ends_at=time.time() - 1))
        await director.tick()
        assert page(lobby, arena)["status"] == "running", "a game playing at the end still counts"
        await end_games(lobby, arena)
        await director.tick()
        final = page(lobby, arena)
        assert final["status"] == "finished" and len(final["games"]) == 7
        assert sum(line["games"] for line in final["standings"]) == 14
        wins = defaultdict(int)
        for game in final["games"]:
            wins[game["seats"][game["places"].index(1)]] += 1
        assert {line["name"]: line["score"] >= 2 * wins[line["name"]] for line in final["standings"]} == {
            "Ann": True,
            "Ben": True,
            "Cat": True,
        }
    finally:
        await director.close()
        await lobby.close()
        await lobby.journal.close()


async def test_a_table_whose_game_is_missing_gets_its_game_not_a_second_pairing(db_url: str) -> None:
    lobby = open_lobby(db_url)
    director = Director(lobby)
    try:
        engine = lobby.journal.store.engine
        people = add_accounts(lobby.journal.store, "Ann", "Ben")
        swiss = event(lobby, TournamentKind.SWISS, rounds=1)
        for account in people:
            join(engine, swiss, account, time.time())
        dead = "a process killed mid-round"  # its lease has run out by the time the director looks
        [(tournament, epoch)] = claim(engine, dead, -1.0, time.time()).items()
        step = advance(engine, tournament, dead, epoch, time.time())  # paired, and then the process dies
        [table] = step.to_make
        assert not table.exists and step.paired == 1
        with engine.connect() as db:
            assert db.scalar(select(func.count()).select_from(GameTable)) == 0
        await director.tick()  # the next owner makes the game of the pairing
        with engine.connect() as db:
            assert list(db.scalars(select(GameTable.id))) == [table.game_id]
            assert sorted(db.scalars(select(SeatTable.account_id).where(SeatTable.game_id == table.game_id))) == sorted(
                people
            )
            assert db.scalar(select(func.count()).select_from(TournamentTableTable)) == 1
        # a paused old owner, its epoch taken over, writes nothing
        assert director.held == {tournament: epoch + 1}
        with pytest.raises(LostLease):
            advance(engine, tournament, dead, epoch, time.time())
        # and the database refuses a second table for a player in one round, whoever writes it
        with engine.begin() as db:
            db.execute(delete(TournamentSeatTable).where(TournamentSeatTable.seat == 1))
        with pytest.raises(Exception, match="(?i)unique|duplicate"), engine.begin() as db:
            entrant = db.scalar(select(TournamentSeatTable.entrant_id))
            other = db.scalar(select(TournamentTableTable.id))
            db.execute(
                TournamentTableTable.__table__.insert().values(
                    id=other + 1,
                    tournament_id=tournament,
                    round=1,
                    game_id="second",
                    created=0.0,
                    epoch=epoch,
                    playing=True,
                )
            )
            db.execute(
                TournamentSeatTable.__table__.insert().values(
                    table_id=other + 1, entrant_id=entrant, seat=0, round=1, playing=True
                )
            )
    finally:
        await director.close()
        await lobby.close()
        await lobby.journal.close()


async def test_every_entrant_is_told_once_five_minutes_before_the_start(db_url: str) -> None:
    from tendays.server.storage.schema import NotificationTable

    lobby = open_lobby(db_url)
    director = Director(lobby)
    try:
        engine = lobby.journal.store.engine
        people = add_accounts(lobby.journal.store, "Ann", "Ben", "Cat")
        spec = check_spec(EventSpec("Evening arena", TournamentKind.ARENA, "usa", SHORT, minutes=30), lobby.settings)
        now = time.time()
        soon = create(engine, spec, now + 400, now, None)
        for account in people[:2]:
            join(engine, soon, account, now)
        await director.tick()  # more than five minutes before the start: nobody is told yet
        with engine.connect() as db:
            assert db.scalar(select(func.count()).select_from(NotificationTable)) == 0
        with engine.begin() as db:
            db.execute(update(TournamentTable).values(starts_at=time.time() + 240))
        await director.tick()
        await director.tick()
        with engine.connect() as db:
            told = db.execute(
                select(NotificationTable.account_id, NotificationTable.kind, NotificationTable.data)
            ).all()
        assert sorted(row.account_id for row in told) == sorted(people[:2])
        assert {row.kind for row in told} == {"tournament_starting"}
        assert all(f'"url":"/tournaments/{soon}"' in row.data for row in told)
        assert page(lobby, soon)["status"] == "upcoming"
    finally:
        await director.close()
        await lobby.close()
        await lobby.journal.close()


def test_a_series_event_is_made_once_however_many_processes_make_it(db_url: str) -> None:
    from server_helpers import at_once

    from tendays.server.people.tournaments import make_series_events, schedule, unschedule
    from tendays.server.storage.store import Store

    store = Store(db_url)
    try:
        spec = check_spec(EventSpec("Hourly arena", TournamentKind.ARENA, "usa", SHORT, minutes=30), open_settings())
        now = time.time()
        series = schedule(store.engine, spec, 1200.0, now - 600, now)  # every 20 minutes, from 10 ago
        made = at_once(6, lambda _n: make_series_events(store.engine, now))
        # the starts within the hour: 10, 30 and 50 minutes from now, each once
        assert sum(made) == 3
        with store.engine.connect() as db:
            starts = sorted(db.scalars(select(TournamentTable.starts_at).where(TournamentTable.series_id == series)))
        assert starts == pytest.approx([now + 600, now + 1800, now + 3000])
        assert make_series_events(store.engine, now + 1200) == 1  # 70 minutes from the first look
        assert unschedule(store.engine, series) and not unschedule(store.engine, series)
        assert make_series_events(store.engine, now + 7200) == 0
    finally:
        store.close()


def open_settings() -> Any:
    from server_helpers import settings

    return settings()


async def test_the_odd_one_out_has_a_full_point_bye_and_a_late_joiner_half_points(db_url: str) -> None:
    lobby = open_lobby(db_url)
    director = Director(lobby)
    try:
        engine = lobby.journal.store.engine
        ann, ben, cat, dan = add_accounts(lobby.journal.store, "Ann", "Ben", "Cat", "Dan")
        swiss = event(lobby, TournamentKind.SWISS, rounds=2)
        for account in (ann, ben, cat):
            join(engine, swiss, account, time.time())
        await director.tick()
        first = page(lobby, swiss)
        [table] = first["games"]
        [odd] = {"Ann", "Ben", "Cat"} - set(table["seats"])
        assert {line["name"]: line["score"] for line in first["standings"]}[odd] == 1.0  # the bye's point
        join(engine, swiss, dan, time.time())  # after round 1 was paired: its round counts half a point
        await end_games(lobby, swiss)
        await director.tick()
        second = page(lobby, swiss)
        assert second["round"] == 2 and len([g for g in second["games"] if g["round"] == 2]) == 2
        scores = {line["name"]: line["score"] for line in second["standings"]}
        winner = min(table["seats"])
        assert scores == {winner: 1.0, max(table["seats"]): 0.0, odd: 1.0, "Dan": 0.5}
        games = {line["name"]: line["games"] for line in second["standings"]}
        assert games[odd] == 0 and games["Dan"] == 0
    finally:
        await director.close()
        await lobby.close()
        await lobby.journal.close()


async def test_people_who_block_each_other_never_meet_in_an_arena(db_url: str) -> None:
    from tendays.server.storage.schema import BlockTable

    lobby = open_lobby(db_url, tournament_min_minutes=1.0)
    director = Director(lobby)
    try:
        engine = lobby.journal.store.engine
        ann, ben, cat, dan = add_accounts(lobby.journal.store, "Ann", "Ben", "Cat", "Dan")
        with engine.begin() as db:
            db.execute(BlockTable.__table__.insert().values(blocker_id=ben, blocked_id=ann, created=0.0))
        arena = event(lobby, TournamentKind.ARENA, minutes=1)
        for account in (ann, ben, cat, dan):
            join(engine, arena, account, time.time())
        met = []
        for _round in range(4):
            await director.tick()
            playing = [frozenset(g["seats"]) for g in page(lobby, arena)["games"] if g["status"] == "playing"]
            assert len(playing) == 2, "all four are paired at once"
            met += playing
            await end_games(lobby, arena)
        assert frozenset({"Ann", "Ben"}) not in met
        # never the same two in a row: with Ann and Ben apart, the pairs alternate
        assert set(met) == {
            frozenset({"Ann", "Cat"}),
            frozenset({"Ben", "Dan"}),
            frozenset({"Ann", "Dan"}),
            frozenset({"Ben", "Cat"}),
        }
    finally:
        await director.close()
        await lobby.close()
        await lobby.journal.close()


async def test_a_suspended_or_withdrawn_entrant_is_never_paired(db_url: str) -> None:
    from tendays.server.people.tournaments import withdraw
    from tendays.server.storage.schema import AccountTable

    lobby = open_lobby(db_url)
    director = Director(lobby)
    try:
        engine = lobby.journal.store.engine
        people = add_accounts(lobby.journal.store, "Ann", "Ben", "Cat", "Dan")
        swiss = event(lobby, TournamentKind.SWISS, rounds=1)
        for account in people:
            join(engine, swiss, account, time.time())
        with engine.begin() as db:
            db.execute(update(AccountTable).where(AccountTable.id == people[2]).values(status="suspended"))
        withdraw(engine, swiss, people[3], time.time())
        await director.tick()
        assert [sorted(g["seats"]) for g in page(lobby, swiss)["games"]] == [["Ann", "Ben"]]
        lines = {line["name"]: line for line in page(lobby, swiss)["standings"]}
        assert lines["Dan"]["withdrawn"] is True and lines["Cat"]["score"] == 0 == lines["Dan"]["score"]
    finally:
        await director.close()
        await lobby.close()
        await lobby.journal.close()


async def test_a_swiss_round_at_tables_of_three_makes_three_seat_games(db_url: str) -> None:
    lobby = open_lobby(db_url)
    director = Director(lobby)
    try:
        engine = lobby.journal.store.engine
        people = add_accounts(lobby.journal.store, "Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
        swiss = event(lobby, TournamentKind.SWISS, rounds=1, table_size=3)
        for account in people:
            join(engine, swiss, account, time.time())
        await director.tick()
        tables = page(lobby, swiss)["games"]
        assert sorted(len(g["seats"]) for g in tables) == [3, 3]
        with engine.connect() as db:
            for game in tables:
                seated = list(db.scalars(select(SeatTable.account_id).where(SeatTable.game_id == game["id"])))
                assert len(seated) == 3 and None not in seated
        await end_games(lobby, swiss)  # two of each table leave: the third wins
        await director.tick()
        final = page(lobby, swiss)
        assert final["status"] == "finished"
        # at a table of three, place 1 scores 1, places 2 and 3 score 0.5 and 0: two sharing second have 0.25
        scores = {line["name"]: line["score"] for line in final["standings"]}
        winners = {min(g["seats"]) for g in tables}
        assert scores == {n: 1.0 if n in winners else 0.25 for n in scores}
    finally:
        await director.close()
        await lobby.close()
        await lobby.journal.close()
