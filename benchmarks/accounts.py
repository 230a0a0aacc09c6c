"""The people's pages under a full database: profiles, the leaderboard and the lobby, answered by a
real server.

    python benchmarks/accounts.py             # 10,000 accounts, 100,000 finished games, SQLite
    python benchmarks/accounts.py --json      # one JSON object
    python benchmarks/accounts.py --postgres  # the same on a throwaway PostgreSQL
    python benchmarks/accounts.py --accounts 1000 --games 5000 --requests 200   # a quick look

Seeds a fresh database (the migrations make it, as ``tendays serve`` does): ``--accounts`` accounts
and ``--games`` finished games between them (two players in seven games of ten, three in two, four
in one; four in five in the USA, the rest in Germany; created over the last 90 days), rated in the
order they were played with the server's own model
(:func:`tendays.server.people.ratings.rate_places`), with every seat's place, every rating history
row and every final rating stored as the server would have stored them. On PostgreSQL the tables are
then analysed, as autovacuum would soon do. Each person has a hidden strength, and a game's places
follow the players' strengths plus luck, so the ratings spread as on a real site. The games carry no
moves (their replays are not asked for here); the accounts carry no usable password (nobody signs
in). ``--waiting`` games wait for players in the lobby.

Then starts ``tendays serve`` on the database and asks, one request at a time over one keep-alive
connection, for ``--requests`` profiles of random people (``GET /api/players/{name}``, the first
page of their games), leaderboard pages (``GET /api/leaderboard?edition=...``, pages 1 to 5), lobby
pages (``GET /api/games``, pages 1 to 5) and the lobby's list of games being played (``GET
/api/games?show=playing``, which the lobby page asks for beside the other), and reports each call's
p50 and p99 in milliseconds, from sending the request to having the whole answer. Last, with the
server stopped, it rates ``--rate`` more games through
:func:`~tendays.server.people.ratings.rate_game` (one transaction each, as a game's end does) and
reports the time per game.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import insert, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import Server, percentile, postgres_cluster  # noqa: E402

from tendays.engine import Options  # noqa: E402
from tendays.server.people.ratings import START, Rating, rate_game, rate_places  # noqa: E402
from tendays.server.storage.schema import (  # noqa: E402
    AccountTable,
    GameTable,
    RatingHistoryTable,
    RatingTable,
    SeatTable,
)
from tendays.server.storage.store import Store, StoredGame, StoredSeat  # noqa: E402

DAY = 86400.0
BATCH = 5000


def players_at_table(rng: random.Random) -> int:
    roll = rng.random()
    return 2 if roll < 0.7 else 3 if roll < 0.9 else 4


def seed(url: str, accounts: int, games: int, waiting: int, rng: random.Random) -> dict[str, Any]:
    """Fill the database; what was made, and how long it took."""
    started = time.perf_counter()
    store = Store(url)
    now = time.time()
    names = [f"player{n:05d}" for n in range(accounts)]
    strength = [rng.gauss(0.0, 1.0) for _ in range(accounts)]
    with store.engine.begin() as db:
        db.execute(
            insert(AccountTable),
            [
                {
                    "id": n + 1,
                    "name": name,
                    "name_key": name,
                    "password_hash": "-",
                    "created": now - 120 * DAY,
                }
                for n, name in enumerate(names)
            ],
        )
    ratings: dict[tuple[int, str], Rating] = {}
    game_rows: list[dict[str, Any]] = []
    seat_rows: list[dict[str, Any]] = []
    history_rows: list[dict[str, Any]] = []
    rating_seconds = 0.0

    def flush() -> None:
        with store.engine.begin() as db:
            for table, rows in (
                (GameTable, game_rows),
                (SeatTable, seat_rows),
                (RatingHistoryTable, history_rows),
            ):
                if rows:
                    db.execute(insert(table), rows)
        game_rows.clear()
        seat_rows.clear()
        history_rows.clear()

    for number in range(games):
        at = now - 90 * DAY + number * (90 * DAY / games)
        edition = "usa" if rng.random() < 0.8 else "germany"
        people = rng.sample(range(accounts), players_at_table(rng))
        luck = [strength[p] + rng.gauss(0.0, 1.5) for p in people]
        winner = max(range(len(people)), key=lambda i: luck[i])
        places = [1 if i == winner else 2 for i in range(len(people))]
        game_id = f"s{number:07d}"
        game_rows.append(
            {
                "id": game_id,
                "edition": edition,
                "options": json.dumps({"players": len(people)}),
                "seed": number,
                "created": datetime.fromtimestamp(at - 1800, UTC),
                "finished": True,
                "finished_at": at,
                "last_move_at": at,
                "rated": True,
            }
        )
        clock = time.perf_counter()
        after = rate_places([ratings.get((p + 1, edition), START) for p in people], places)
        rating_seconds += time.perf_counter() - clock
        for seat, (person, place, rating) in enumerate(zip(people, places, after, strict=True)):
            account = person + 1
            ratings[(account, edition)] = rating
            seat_rows.append(
                {
                    "game_id": game_id,
                    "seat": seat,
                    "kind": "human",
                    "name": names[person],
                    "account_id": account,
                    "place": place,
                }
            )
            history_rows.append(
                {
                    "account_id": account,
                    "edition": edition,
                    "game_id": game_id,
                    "at": at,
                    "rating": rating.mu,
                    "deviation": rating.sigma,
                }
            )
        if len(game_rows) >= BATCH:
            flush()
    flush()
    with store.engine.begin() as db:
        db.execute(
            insert(RatingTable),
            [
                {
                    "account_id": a,
                    "edition": e,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "rating": r.mu,
                    "games": r.games,
                    "updated": now,
                }
                for (a, e), r in ratings.items()
            ],
        )
    for number in range(waiting):  # real games, dealt and waiting for a second player
        store.create_game(
            StoredGame(
                id=f"w{number:05d}",
                edition="usa",
                options=Options.from_json({"players": 2}),
                seed=number,
                created=datetime.fromtimestamp(now - number, UTC),
                last_move_at=now - number,
                seats=[
                    StoredSeat(0, "human", name=names[number % accounts], token_hash="0" * 64),
                    StoredSeat(1, "human"),
                ],
            )
        )
    if store.shared:  # as autovacuum would before long: the planner knows the tables' sizes
        with store.engine.connect() as db:
            db.execute(text("ANALYZE"))
            db.commit()
    store.close()
    return {
        "accounts": accounts,
        "games": games,
        "waiting": waiting,
        "ratings": len(ratings),
        "seed_s": round(time.perf_counter() - started, 1),
        "rate_places_us": round(1e6 * rating_seconds / max(1, games), 1),
    }


def measure(
    base: str, requests: int, accounts: int, rng: random.Random
) -> dict[str, dict[str, float]]:
    """p50 and p99 (ms) of each call, asked one at a time, the calls interleaved."""
    calls = {
        "profile": lambda: f"/api/players/player{rng.randrange(accounts):05d}",
        "leaderboard": lambda: (
            f"/api/leaderboard?edition={rng.choice(['usa', 'germany'])}&page={rng.randint(1, 5)}"
        ),
        "lobby": lambda: f"/api/games?show=joinable&page={rng.randint(1, 5)}",
        "playing": lambda: "/api/games?show=playing",
    }
    times: dict[str, list[float]] = {name: [] for name in calls}
    with httpx.Client(base_url=base, timeout=30) as http:
        for path in calls.values():  # warm up: the first answer of each kind loads code
            http.get(path()).raise_for_status()
        for _ in range(requests):
            for name, path in calls.items():
                address = path()
                clock = time.perf_counter()
                answer = http.get(address)
                spent = time.perf_counter() - clock
                answer.raise_for_status()
                times[name].append(spent)
    return {
        name: {
            "p50_ms": round(1000 * percentile(values, 50), 2),
            "p99_ms": round(1000 * percentile(values, 99), 2),
            "requests": len(values),
        }
        for name, values in times.items()
    }


def rate_more(url: str, games: int, accounts: int, rng: random.Random) -> float:
    """Milliseconds per game to rate ``games`` more two-player games,
    each in its own transaction."""
    store = Store(url)
    try:
        now = time.time()
        with store.engine.begin() as db:
            for number in range(games):
                game_id = f"r{number:05d}"
                db.execute(
                    insert(GameTable).values(
                        id=game_id,
                        edition="usa",
                        options="{}",
                        seed=number,
                        rated=True,
                        created=datetime.fromtimestamp(now, UTC),
                        finished=True,
                        finished_at=now,
                    )
                )
                people = rng.sample(range(1, accounts + 1), 2)
                db.execute(
                    insert(SeatTable),
                    [
                        {
                            "game_id": game_id,
                            "seat": s,
                            "kind": "human",
                            "name": f"p{a}",
                            "account_id": a,
                        }
                        for s, a in enumerate(people)
                    ],
                )
        clock = time.perf_counter()
        for number in range(games):
            rate_game(store.engine, f"r{number:05d}", [1, 2])
        return 1000 * (time.perf_counter() - clock) / max(1, games)
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accounts", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument(
        "--waiting", type=int, default=200, help="games waiting for players in the lobby"
    )
    parser.add_argument("--requests", type=int, default=1000, help="requests of each kind")
    parser.add_argument("--rate", type=int, default=200, help="games rated one by one at the end")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--db", help="a database URL (default: a new SQLite file in a temporary folder)"
    )
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL cluster")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="tendays-accounts-"))
    cluster = postgres_cluster() if args.postgres else None
    url = args.db or (
        cluster.database() if cluster is not None else f"sqlite:///{folder / 'tendays.db'}"
    )
    try:
        seeded = seed(url, args.accounts, args.games, args.waiting, rng)
        if not args.json:
            print(
                f"seeded {args.accounts:,} accounts and {args.games:,} finished games in "
                f"{seeded['seed_s']} s"
            )
        server = Server(url, folder / "server.log", 10.0)
        try:
            answers = measure(f"http://127.0.0.1:{server.port}", args.requests, args.accounts, rng)
        finally:
            server.stop()
        rate_ms = rate_more(url, args.rate, args.accounts, rng)
    finally:
        if cluster is not None:
            cluster.stop()
    database = "postgresql" if url.startswith("postgresql") else "sqlite"
    report = {"database": database, **seeded, "answers": answers, "rate_game_ms": round(rate_ms, 2)}
    if args.json:
        print(json.dumps(report))
        return
    print("\n| call | requests | p50 | p99 |\n|---|---|---|---|")
    for name, figures in answers.items():
        print(
            f"| {name} | {figures['requests']} | {figures['p50_ms']} ms | {figures['p99_ms']} ms |"
        )
    print(
        f"\nrating a finished game (one transaction, {database}): {rate_ms:.2f} ms a game; the "
        f"model alone: {seeded['rate_places_us']} µs a game"
    )


if __name__ == "__main__":
    main()
