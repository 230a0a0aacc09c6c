"""A 500-player arena, simulated on the tournament director's own steps: how long a free player
waits to be paired, what a pairing costs, and what an update of the standings costs.

    python benchmarks/arena_pairing.py --players 500 [--minutes 20] [--seed 1] [--json]

What runs is the server below its HTTP face, on a throwaway SQLite database: the event is made and
joined with people/tournaments.py (``create``, ``join``, ``pause``), and the director's step
(people/tournament_running.py ``advance``: one transaction that reads what changed in the event
since the last step, closes the ended games' tables, recomputes the standings and pairs everyone
free with the tournament rules) runs exactly as a server process runs it. What is scripted is
everything a real game would do: each paired table's game is written to the database as the lobby
would make it, and ends after a time drawn from the seed (``--game-seconds``, uniform) with places
drawn from the players' ratings (the stronger wins more often; one game in 50 a tie), written as
people/results.py writes them. One player in 20 pauses once, for 1 to 3 minutes, and comes back.
The players' ratings are drawn around 25 (sd 5), the site's scale.

The clock is simulated: the director runs when a game ends (the lobby wakes it) and at least every
``--tick`` seconds, and each step takes the CPU time it really took (``time.process_time``: on this
shared machine wall time measures the other programs too; the wall times are printed beside). A
player's pairing latency is from the moment they became free (the start, their game's end, their
return from a pause) to the commit of the step that paired them; it includes any wait for a partner
(the odd one out, a last opponent who is the only other one free). The pairing's own cost is the CPU
time of the rules' ``pair_arena`` in each step; the standings' cost is the CPU time of the rules'
``arena_standings`` in each step, and per finished game.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine

import tendays.server.people.tournament_arena_scores as arena_scores
import tendays.server.people.tournament_running as running
import tendays.server.people.tournament_state as state_module
from tendays.server.matches.text import name_key
from tendays.server.people.tournament_rules import (
    Entrant,
    TournamentKind,
    arena_standings,
    pair_arena,
)
from tendays.server.people.tournament_running import advance, claim
from tendays.server.people.tournament_spec import EventSpec, TournamentStatus, check_spec
from tendays.server.people.tournaments import create, join, pause
from tendays.server.settings import MasterSettings
from tendays.server.storage.schema import (
    AccountTable,
    GameTable,
    SeatTable,
    TournamentEntrantTable,
)
from tendays.server.storage.store import Store

OWNER = "benchmark"
GROWTH_BUCKET = 500  # games: the step's cost is shown per this many games played before it
TIE_RATE = 0.02
PAUSING = 0.05  # of the players pause once
SPREAD = math.sqrt(2) * 25 / 6  # two settled players' rating gap at odds of e to one (see arena.py)


class Timed:
    """Wraps a function and keeps the CPU seconds of each call."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.seconds: list[float] = []
        self.sizes: list[int] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return self.function(*args, **kwargs)
        finally:
            self.seconds.append(time.process_time() - started)
            self.sizes.append(len(args[0]) if args else 0)


def percentiles(values: list[float], scale: float = 1.0) -> dict[str, float]:
    if not values:
        return {"count": 0}
    ordered = sorted(values)

    def at(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))] * scale, 2)

    return {
        "count": len(values),
        "p50": at(0.50),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": round(ordered[-1] * scale, 2),
        "mean": round(statistics.fmean(values) * scale, 2),
    }


class Arena:
    """The scripted side of the arena: games that end, pauses, and who waits since when."""

    def __init__(self, engine: Engine, args: argparse.Namespace, rng: random.Random) -> None:
        self.engine = engine
        self.args = args
        self.rng = rng
        self.endings: list[tuple[float, str]] = []  # (when, game id), a heap
        self.seats: dict[str, list[int]] = {}  # game id: entrant ids by seat
        self.waiting: dict[int, float] = {}  # entrant id: free since
        self.paused: set[int] = set()
        self.rating: dict[int, float] = {}
        self.account: dict[int, int] = {}  # entrant id: account id
        self.latencies: list[float] = []
        self.start_latencies: list[float] = []
        self.games_ended = 0

    def make_game(self, game_id: str, entrants: list[Any], now: float) -> None:
        """The game of a paired table, as the lobby makes it; it ends after a drawn time."""
        with self.engine.begin() as db:
            db.execute(
                insert(GameTable).values(
                    id=game_id,
                    edition="usa",
                    options="{}",
                    seed=self.rng.randrange(2**31),
                    created=datetime.fromtimestamp(now, UTC),
                    finished=False,
                    rated=False,
                )
            )
            db.execute(
                insert(SeatTable),
                [
                    {
                        "game_id": game_id,
                        "seat": seat,
                        "kind": "human",
                        "name": e.name,
                        "account_id": e.account_id,
                    }
                    for seat, e in enumerate(entrants)
                ],
            )
        low, high = self.args.game_seconds
        heapq.heappush(self.endings, (now + self.rng.uniform(low, high), game_id))
        self.seats[game_id] = [e.id for e in entrants]

    def end_game(self, game_id: str, when: float) -> None:
        """The game ends: places drawn from the ratings, written as people/results.py does."""
        first, second = self.seats.pop(game_id)
        gap = self.rating[first] - self.rating[second]
        first_wins = 1 / (1 + math.exp(-gap / SPREAD))
        draw = self.rng.random()
        if draw < TIE_RATE:
            places = [1, 1]
        elif self.rng.random() < first_wins:
            places = [1, 2]
        else:
            places = [2, 1]
        with self.engine.begin() as db:
            db.execute(
                update(GameTable)
                .where(GameTable.id == game_id)
                .values(finished=True, finished_at=when, ended="over")
            )
            for seat, place in enumerate(places):
                db.execute(
                    update(SeatTable)
                    .where(SeatTable.game_id == game_id, SeatTable.seat == seat)
                    .values(place=place)
                )
        self.games_ended += 1
        for entrant in (first, second):
            if entrant not in self.paused:
                self.waiting[entrant] = when

    def paired(self, entrants: list[int], when: float, at_start: bool) -> None:
        for entrant in entrants:
            since = self.waiting.pop(entrant, None)
            if since is not None:
                (self.start_latencies if at_start else self.latencies).append(when - since)


def simulate(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    # the director's step calls the rules through these names: time each call
    pairing, standings = Timed(pair_arena), Timed(arena_standings)
    running.pair_arena = pairing  # type: ignore[attr-defined]
    state_module.arena_standings = standings  # type: ignore[attr-defined]
    arena_scores.arena_standings = standings  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'arena.db'}")
        engine = store.engine
        settings = MasterSettings()
        spec = check_spec(
            EventSpec(
                "Benchmark arena",
                TournamentKind.ARENA,
                "usa",
                {},
                minutes=args.minutes,
                rated=False,
            ),
            settings,
        )
        opened = time.time()
        starts_at = opened + 60
        tournament = create(engine, spec, starts_at, opened, None)
        with engine.begin() as db:
            accounts = [
                db.execute(
                    insert(AccountTable)
                    .values(
                        name=f"Player {n}",
                        name_key=name_key(f"Player {n}"),
                        password_hash="-",
                        created=opened,
                    )
                    .returning(AccountTable.id)
                ).scalar_one()
                for n in range(args.players)
            ]
        for n, account in enumerate(accounts):
            join(engine, tournament, account, opened + n * 0.01)
        arena = Arena(engine, args, rng)
        with engine.begin() as db:
            rows = db.execute(
                select(TournamentEntrantTable.id, TournamentEntrantTable.account_id).where(
                    TournamentEntrantTable.tournament_id == tournament
                )
            ).all()
            for entrant, holder in rows:
                assert holder is not None  # people only: the event has no bots
                rating = rng.gauss(25, 5)
                arena.rating[entrant] = rating
                arena.account[entrant] = holder
                db.execute(
                    update(TournamentEntrantTable)
                    .where(TournamentEntrantTable.id == entrant)
                    .values(rating=rating)
                )
        ends_at = starts_at + args.minutes * 60
        pauses = sorted(
            (rng.uniform(starts_at, ends_at - 300), entrant, rng.uniform(60, 180))
            for entrant in rng.sample(sorted(arena.rating), int(PAUSING * args.players))
        )
        returns: list[tuple[float, int]] = []
        arena.waiting = dict.fromkeys(arena.rating, starts_at)
        epoch = claim(engine, OWNER, 1e9, starts_at)[tournament]

        now, steps, first = starts_at, [], True
        kept: state_module.EventState | None = None
        step_wall: list[float] = []
        games_then: list[int] = []  # games ended before each step
        while True:
            # what happened up to now: games that ended, pauses, returns
            while arena.endings and arena.endings[0][0] <= now:
                when, game_id = heapq.heappop(arena.endings)
                arena.end_game(game_id, when)
            while pauses and pauses[0][0] <= now:
                when, entrant, length = pauses.pop(0)
                pause(engine, tournament, arena.account[entrant], when, True)
                arena.paused.add(entrant)
                arena.waiting.pop(entrant, None)
                heapq.heappush(returns, (when + length, entrant))
            while returns and returns[0][0] <= now:
                when, entrant = heapq.heappop(returns)
                pause(engine, tournament, arena.account[entrant], when, False)
                arena.paused.discard(entrant)
                if not any(entrant in seats for seats in arena.seats.values()):
                    arena.waiting[entrant] = when
            # one step of the director, taking the CPU time it takes
            cpu, wall = time.process_time(), time.perf_counter()
            step = advance(engine, tournament, OWNER, epoch, now, kept)
            kept = step.state  # what the director keeps between its steps
            spent = time.process_time() - cpu
            step_wall.append(time.perf_counter() - wall)
            steps.append(spent)
            games_then.append(arena.games_ended)
            now += spent
            for table in step.to_make:
                arena.make_game(table.game_id, list(table.entrants), now)
                arena.paired([e.id for e in table.entrants], now, first)
            first = False
            if step.status is TournamentStatus.FINISHED:
                break
            # the director sleeps until a game ends (the lobby wakes it) or its tick
            wake = now + args.tick
            if arena.endings:
                wake = min(wake, arena.endings[0][0])
            if pauses:
                wake = min(wake, pauses[0][0])
            if returns:
                wake = min(wake, returns[0][0])
            now = max(now, wake)

        final_state = None
        with engine.connect() as db:
            final_state = state_module.read_state(db, tournament)
        assert final_state is not None
        entrants = [Entrant(e.id, e.name, e.rating) for e in final_state.entrants.values()]
        results = final_state.results()
        repeats = []
        for _ in range(20):
            cpu = time.process_time()
            arena_standings(entrants, results)
            repeats.append(time.process_time() - cpu)
        busy_pairing = [s for s, n in zip(pairing.seconds, pairing.sizes, strict=True) if n]
        return {
            "players": args.players,
            "minutes": args.minutes,
            "game_seconds": list(args.game_seconds),
            "tick_seconds": args.tick,
            "seed": args.seed,
            "games_finished": len(results),
            "director_steps": len(steps),
            "pairing_latency_s_at_start": percentiles(arena.start_latencies),
            "pairing_latency_s": percentiles(arena.latencies),
            "pair_arena_cpu_ms": percentiles(busy_pairing, 1000),
            "free_players_per_pairing": percentiles([float(n) for n in pairing.sizes if n], 1),
            "standings_cpu_ms_per_step": percentiles(standings.seconds, 1000),
            "standings_cpu_ms_final_recompute": percentiles(repeats, 1000),
            "standings_cpu_ms_per_finished_game": round(
                1000 * sum(standings.seconds) / max(1, len(results)), 2
            ),
            "director_step_cpu_ms": percentiles(steps, 1000),
            # a step reads what changed since the last one: its cost should not grow with the games
            "director_step_cpu_ms_p50_by_games_so_far": {
                f"{low}-{low + GROWTH_BUCKET - 1}": percentiles(
                    [
                        s
                        for s, n in zip(steps, games_then, strict=True)
                        if low <= n < low + GROWTH_BUCKET
                    ],
                    1000,
                ).get("p50")
                for low in range(0, max(games_then) + 1, GROWTH_BUCKET)
            },
            "director_step_wall_ms": percentiles(step_wall, 1000),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--minutes", type=int, default=20, help="the arena's length (20 to 180)")
    parser.add_argument(
        "--game-seconds",
        type=float,
        nargs=2,
        default=(60.0, 300.0),
        metavar=("LOW", "HIGH"),
        help="a game's length, drawn uniformly",
    )
    parser.add_argument("--tick", type=float, default=1.0, help="the director's tick, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.players < 2:
        parser.error("an arena needs at least two players")
    if not 0 < args.game_seconds[0] <= args.game_seconds[1]:
        parser.error("give a game's length as LOW HIGH seconds, 0 < LOW <= HIGH")
    figures = simulate(args)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for name, value in figures.items():
        print(f"{name:38} {value}")


if __name__ == "__main__":
    main()
