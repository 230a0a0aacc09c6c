"""Tournaments with two ``tendays serve`` processes on one PostgreSQL database: a burst of joins by one person
sent to both processes makes one entry; and the process running a Swiss tournament, killed (SIGKILL) in the
middle of a round, loses no pairing and pairs nobody twice: the other process takes the tournament over, the
round's games end and count, and the event runs to its end with every pairing made once and each pairing's
game made once; a SQLite server killed mid-round and started again runs the event on to its end."""

from __future__ import annotations

import json
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("psycopg")
from cluster_nodes import Node, Person, call  # noqa: E402
from sqlalchemy import func, select  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from tendays.server.storage.schema import (  # noqa: E402
    AccountTable,
    GameTable,
    SeatTable,
    TournamentEntrantTable,
    TournamentSeatTable,
    TournamentTable,
    TournamentTableTable,
)
from tendays.server.storage.store import Store  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve processes on PostgreSQL

SWISS = {"name": "Cluster Swiss", "kind": "swiss", "edition": "usa", "rounds": 3, "options": {"days": 3}, "rated": True}


def ask(person: Person, node: Node, method: str, path: str, body: Any = None) -> int:
    """The status of ``person``'s request (a refusal is an answer too)."""
    try:
        person.ask(node, method, path, body)
    except AssertionError as refused:  # "POST /api/...: 409 {...}"
        return int(str(refused).split(": ", 1)[1].split(" ", 1)[0])
    return 200


def wait_for(what: str, check: Any, seconds: float = 60.0) -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {seconds} s")


def round_games(store: Store, tournament: int, round_: int) -> dict[str, dict[int, int]]:
    """The round's games that exist with every seat taken by its entrant's account: {game: {seat: account}}."""
    with store.engine.connect() as db:
        planned = db.execute(
            select(TournamentTableTable.game_id, TournamentSeatTable.seat, TournamentEntrantTable.account_id)
            .join(TournamentSeatTable, TournamentSeatTable.table_id == TournamentTableTable.id)
            .join(TournamentEntrantTable, TournamentEntrantTable.id == TournamentSeatTable.entrant_id)
            .where(TournamentTableTable.tournament_id == tournament, TournamentTableTable.round == round_)
        ).all()
        seated = {
            (row.game_id, row.seat): row.account_id
            for row in db.execute(
                select(SeatTable.game_id, SeatTable.seat, SeatTable.account_id).where(
                    SeatTable.game_id.in_([p.game_id for p in planned])
                )
            )
        }
    games: dict[str, dict[int, int]] = {}
    for row in planned:
        games.setdefault(row.game_id, {})[row.seat] = row.account_id
    return (
        games
        if planned and all(seated.get((g, s)) == a for g, seats in games.items() for s, a in seats.items())
        else {}
    )


def leave(node: Node, person: Person, game_id: str) -> None:
    """``person`` opens their seat signed in (as a browser of the site does) and leaves the game."""
    with connect(
        f"ws://127.0.0.1:{node.port}/ws/games/{game_id}",
        open_timeout=20,
        additional_headers={"Cookie": person.cookie, "Origin": node.base},
    ) as ws:
        ws.send(json.dumps({"type": "hello", "account": True}))
        first = json.loads(ws.recv(timeout=20))
        assert first.get("type") == "state", first
        ws.send(json.dumps({"type": "leave"}))
        ws.recv(timeout=20)


def finished(store: Store, game_id: str) -> bool:
    with store.engine.connect() as db:
        return bool(db.scalar(select(GameTable.finished).where(GameTable.id == game_id)))


def end_round(node: Node, store: Store, people: dict[int, Person], games: dict[str, dict[int, int]]) -> None:
    """At each table the person whose name sorts last leaves: the other wins by forfeit."""
    for game_id, seats in games.items():
        loser = max((people[a] for a in seats.values()), key=lambda p: p.name)
        leave(node, loser, game_id)
        wait_for(f"game {game_id} ends", lambda g=game_id: finished(store, g))


def holder(store: Store, tournament: int, nodes: list[Node]) -> Node:
    with store.engine.connect() as db:
        owner = db.scalar(select(TournamentTable.lease_owner).where(TournamentTable.id == tournament)) or ""
    [node] = [n for n in nodes if f":{n.process.pid}:" in owner]
    return node


def test_a_burst_of_joins_through_two_processes_makes_one_entry(postgres_url: str, nodes: list[Node]) -> None:
    store = Store(postgres_url)
    try:
        first, second = Node(postgres_url), Node(postgres_url)
        nodes.extend([first, second])
        ann = Person(first, "Ann")
        made, _headers = call(
            first,
            "POST",
            "/api/tournaments",
            {**SWISS, "starts_at": time.time() + 3600},
            {"Cookie": ann.cookie, "X-CSRF-Token": ann.csrf},
        )
        path = f"/api/tournaments/{made['id']}/join"
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda n: ask(ann, (first, second)[n % 2], "POST", path), range(8)))
        assert sorted(answers) == [200] + [409] * 7
        with store.engine.connect() as db:
            assert db.scalar(select(func.count()).select_from(TournamentEntrantTable)) == 1
    finally:
        store.close()


def test_a_killed_pairing_process_loses_no_pairing_and_pairs_nobody_twice(postgres_url: str, nodes: list[Node]) -> None:
    store = Store(postgres_url)
    try:
        both = [Node(postgres_url), Node(postgres_url)]
        nodes.extend(both)
        names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
        with ThreadPoolExecutor(2) as pool:
            signed = list(pool.map(lambda n: Person(both[n % 2], names[n]), range(len(names))))
        with store.engine.connect() as db:
            ids = {str(row.name): int(row.id) for row in db.execute(select(AccountTable.id, AccountTable.name))}
        people = {ids[p.name]: p for p in signed}
        ann = signed[0]
        made, _headers = call(
            both[0],
            "POST",
            "/api/tournaments",
            {**SWISS, "starts_at": time.time() + 3600},
            {"Cookie": ann.cookie, "X-CSRF-Token": ann.csrf},
        )
        tournament = int(made["id"])
        for number, person in enumerate(signed):
            assert ask(person, both[number % 2], "POST", f"/api/tournaments/{tournament}/join") == 200
        with store.engine.begin() as db:
            db.execute(TournamentTable.__table__.update().values(starts_at=time.time()))
        first = wait_for("round 1 is paired and its games made", lambda: round_games(store, tournament, 1))
        assert len(first) == 3
        running = holder(store, tournament, both)
        survivor = next(n for n in both if n is not running)
        # one table of the round ends; then the process running the tournament is killed mid-round
        some = next(iter(first))
        end_round(survivor, store, people, {some: first[some]})
        running.process.kill()
        running.process.wait(10)
        end_round(survivor, store, people, {g: s for g, s in first.items() if g != some})
        for round_ in (2, 3):
            games = wait_for(
                f"round {round_} is paired by the other process", lambda r=round_: round_games(store, tournament, r)
            )
            assert holder(store, tournament, both) is survivor
            end_round(survivor, store, people, games)
        wait_for(
            "the tournament finishes",
            lambda: call(survivor, "GET", f"/api/tournaments/{tournament}")[0]["status"] == "finished",
        )
        with store.engine.connect() as db:
            tables = db.execute(
                select(
                    TournamentTableTable.id,
                    TournamentTableTable.round,
                    TournamentTableTable.game_id,
                    TournamentTableTable.epoch,
                )
            ).all()
            seats = db.execute(
                select(TournamentSeatTable.entrant_id, TournamentSeatTable.round, TournamentSeatTable.place)
            ).all()
            games = list(db.scalars(select(GameTable.id)))
        assert Counter(t.round for t in tables) == {1: 3, 2: 3, 3: 3}, "every round paired once"
        assert Counter((s.entrant_id, s.round) for s in seats) == {
            (e, r): 1 for e, r in {(s.entrant_id, s.round) for s in seats}
        }
        assert len(seats) == 18 and all(s.place in (1, 2) for s in seats)
        assert sorted(games) == sorted(t.game_id for t in tables), "each pairing's game made once, no other"
        epochs = {t.round: t.epoch for t in tables}
        assert epochs[2] > epochs[1], "the later rounds were paired under the new owner's lease"
        page = call(survivor, "GET", f"/api/tournaments/{tournament}")[0]
        assert sum(line["games"] for line in page["standings"]) == 18
        assert [p["name"] for p in page["podium"]] == [s["name"] for s in page["standings"][:3]]
    finally:
        store.close()


def test_a_swiss_round_goes_on_after_a_killed_sqlite_server_restarts(tmp_path: Any, nodes: list[Node]) -> None:
    url = f"sqlite:///{tmp_path / 'tendays.db'}"
    store = Store(url)
    try:
        first = Node(url)
        nodes.append(first)
        signed = [Person(first, name) for name in ("Ann", "Ben", "Cat", "Dan")]
        with store.engine.connect() as db:
            ids = {str(row.name): int(row.id) for row in db.execute(select(AccountTable.id, AccountTable.name))}
        people = {ids[p.name]: p for p in signed}
        later = {**SWISS, "rounds": 2, "starts_at": time.time() + 3600}
        made, _headers = call(
            first, "POST", "/api/tournaments", later, {"Cookie": signed[0].cookie, "X-CSRF-Token": signed[0].csrf}
        )
        tournament = int(made["id"])
        for person in signed:
            assert ask(person, first, "POST", f"/api/tournaments/{tournament}/join") == 200
        with store.engine.begin() as db:
            db.execute(TournamentTable.__table__.update().values(starts_at=time.time()))
        games = wait_for("round 1 is paired and its games made", lambda: round_games(store, tournament, 1))
        first.process.kill()
        first.process.wait(10)
        again = Node(url)  # the same server, started again on its database
        nodes.append(again)
        end_round(again, store, people, games)
        games = wait_for("round 2 is paired after the restart", lambda: round_games(store, tournament, 2))
        end_round(again, store, people, games)
        wait_for(
            "the tournament finishes",
            lambda: call(again, "GET", f"/api/tournaments/{tournament}")[0]["status"] == "finished",
        )
        with store.engine.connect() as db:
            rounds = Counter(db.scalars(select(TournamentTableTable.round)))
            made_games = db.scalar(select(func.count()).select_from(GameTable))
        assert rounds == {1: 2, 2: 2} and made_games == 4
    finally:
        store.close()
