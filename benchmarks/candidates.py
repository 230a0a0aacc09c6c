"""Candidates for the hard level against greedy, on tuning deals only (never the report deals).

    python benchmarks/candidates.py expert+rivals expert --games 400 --workers 2

Each candidate plays 2-player games against ``greedy`` on the deals of game seeds 1000, 1001, ...
(the tuning range: see ``benchmarks/ladder.py``), taking the first seat in even-numbered games and
the second in odd ones, so every candidate meets the same deals from the same seats and their
difference is their own. Prints wins, the win rate with its 95% Wilson interval, and the wall time.
Variations of the hard level are chosen with this script; the figures reported for the levels come
from ``benchmarks/ladder.py`` on the report deals, which this script never plays.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor

from tendays.bots import make_bot
from tendays.engine import Game, Options, available_editions, play_bots
from tendays.sim.stats import wilson

FIRST_SEED = 1000
TURN_LIMIT = 300


def _won(task: tuple[str, str, int]) -> bool:
    candidate, edition, seed = task
    seat = seed % 2
    names = [candidate, "greedy"] if seat == 0 else ["greedy", candidate]
    game = Game(edition, Options(players=2, turn_limit=TURN_LIMIT), seed)
    play_bots(game, [make_bot(name) for name in names])
    return game.state.winner == seat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("candidates", nargs="+", help="bot specs, e.g. expert+rivals expert:256")
    parser.add_argument("--edition", default="usa")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1:
        parser.error("give at least one game and at least one worker")
    if args.edition not in available_editions():
        parser.error(
            f"unknown edition {args.edition!r}; choose one of: {', '.join(available_editions())}"
        )
    for candidate in args.candidates:
        try:
            make_bot(candidate)
        except ValueError as error:
            parser.error(str(error))
    with ProcessPoolExecutor(args.workers) as pool:
        for candidate in args.candidates:
            started = time.perf_counter()
            tasks = [(candidate, args.edition, FIRST_SEED + i) for i in range(args.games)]
            wins = sum(pool.map(_won, tasks, chunksize=4))
            low, high = wilson(wins, args.games)
            seeds = f"{FIRST_SEED}-{FIRST_SEED + args.games - 1}"
            print(
                f"{candidate} against greedy, {args.edition}, tuning seeds {seeds}: {wins} of "
                f"{args.games}, {wins / args.games:.1%} ({low:.1%}-{high:.1%}), "
                f"{time.perf_counter() - started:.0f} s"
            )


if __name__ == "__main__":
    main()
