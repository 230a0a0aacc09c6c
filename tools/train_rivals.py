"""Measure how far from a journey players are, by how many tiles they replaced:
``src/tendays/bots/rivals.json``.

    python tools/train_rivals.py --games 3000 --write     # about a minute on two cores

Greedy bots play 2- to 4-player games of each edition (deal seeds from their own range, apart from
the deals on which bots are tuned and reported). At a sample of the decisions after the draft, every
player's true journey distance is recorded beside the number of tiles they have replaced so far,
which every player at the table can count. The table keeps, per edition and count (the last row for
every larger count), the share of each distance; the expert deals the other players' racks that far
from a journey (:mod:`tendays.bots.rivals`). The held-out games check that the rows say more than
one row for all.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tendays.bots import GreedyBot
from tendays.bots.distance import analyze
from tendays.bots.reading import table_facts
from tendays.engine import Game, Options, Phase, available_editions, next_decision

OUT = Path(__file__).resolve().parent.parent / "src" / "tendays" / "bots" / "rivals.json"
SEED_BASE = 8_000_000  # deal seeds of these games: a range no tournament uses
ROWS = 8  # counts of replaced tiles 0..6, then 7 or more
_SAMPLE = 0.3  # share of decisions recorded: neighbouring decisions say nearly the same


def samples(task: tuple[str, int]) -> list[tuple[int, int]]:
    """(replaced tiles, distance) pairs from one self-play game."""
    edition, number = task
    rng = random.Random(f"rivals/{edition}/{number}")
    players = rng.choice((2, 2, 3, 4))
    game = Game(edition, Options(players=players, turn_limit=200), SEED_BASE + number)
    bot = GreedyBot()
    pairs: list[tuple[int, int]] = []
    while (decision := next_decision(game)) is not None:
        seen = decision.view
        if seen.phase is Phase.DRAW and rng.random() < _SAMPLE:
            facts = table_facts(seen)
            for p in range(players):
                distance = analyze(game.state.edition, game.state.racks[p]).distance
                pairs.append((min(facts.replaced[p], ROWS - 1), distance))
        game.play(bot.choose(seen, decision.rng), decision.seat)
    return pairs


def table(pairs: list[tuple[int, int]]) -> list[list[float]]:
    """Per row: the share of distances 1, 2, ... (distance 0 is a
    finished game and never seen here)."""
    counts = [Counter[int]() for _ in range(ROWS)]
    for row, distance in pairs:
        counts[row][max(1, distance)] += 1
    result = []
    for counter in counts:
        total = sum(counter.values())
        longest = max(counter, default=1)
        result.append(
            [
                round(counter[d] / total, 4) if total else (1.0 if d == 1 else 0.0)
                for d in range(1, longest + 1)
            ]
        )
    return result


def log_likelihood(rows: list[list[float]], pairs: list[tuple[int, int]]) -> float:
    """Mean log chance of the held-out distances (a floor of 1e-4 for distances a row never saw)."""
    total = 0.0
    for row, distance in pairs:
        shares = rows[row]
        total += math.log(max(shares[distance - 1] if distance <= len(shares) else 0.0, 1e-4))
    return total / len(pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3000, help="games per edition")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--write", action="store_true", help=f"store the table in {OUT.name}")
    args = parser.parse_args()
    if args.games < 5 or args.workers < 1:
        parser.error("give at least 5 games (a fifth are held out) and at least one worker")
    split = args.games * 4 // 5
    tables: dict[str, list[list[float]]] = {}
    checks: dict[str, dict[str, float]] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for edition in available_editions():
            games = list(pool.map(samples, [(edition, n) for n in range(args.games)], chunksize=20))
            train = [pair for game in games[:split] for pair in game]
            held_out = [pair for game in games[split:] for pair in game]
            rows = table(train)
            one_row = table([(0, d) for _, d in train])[0]
            checks[edition] = {
                "log_likelihood": round(log_likelihood(rows, held_out), 4),
                "one_row_log_likelihood": round(log_likelihood([one_row] * ROWS, held_out), 4),
            }
            tables[edition] = rows
            print(
                f"{edition}: {len(train):,} training and {len(held_out):,} held-out records; "
                f"held-out mean log chance {checks[edition]['log_likelihood']} (one row for all: "
                f"{checks[edition]['one_row_log_likelihood']})"
            )
            for count, row in enumerate(rows):
                mean = sum((d + 1) * share for d, share in enumerate(row))
                print(
                    f"  replaced {count}{'+' if count == ROWS - 1 else ''}: mean distance "
                    f"{mean:.2f}  {row}"
                )
    if args.write:
        OUT.write_text(
            json.dumps(
                {
                    "what": "per edition and count of replaced tiles (last row: that many or "
                    "more), the share of each journey distance (1, 2, ...)",
                    "measured_on": f"{args.games} greedy self-play games per edition, deal seeds "
                    f"from {SEED_BASE}",
                    "command": f"python tools/train_rivals.py --games {args.games} --write",
                    "held_out": checks,
                    "distances": tables,
                },
                indent=1,
            )
            + "\n",
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
