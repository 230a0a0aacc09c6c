"""One tournament played on several tournament seeds: each seed's figure, their spread, and the
95% interval of the figure over every deal of every seed.

    python benchmarks/seed_spread.py --players learned,greedy --seeds 20261201-20261220 \
        --games 400 --duplicate --workers 2
    python benchmarks/seed_spread.py --player "cmd:python my_engine.py" --player normal \
        --seeds 20261201-20261220 --games 400 --duplicate      # a program, as simulate's cmd:

A figure measured on one tournament seed (one set of deals) differs from seed to seed by the luck of
the deals. This script plays the same tournament as ``tendays simulate`` (same bots, rules and
games) on each seed named, so every row is exactly what ``tendays simulate ... --seed S`` prints
for the first player, and then pools them: the seeds' deals are independent draws, so the pooled
interval treats every deal (in duplicate: its share of wins over both seatings; otherwise: each
game) as one observation. The spread over seeds (standard deviation, least and most) shows how far
a single seed's figure may stray; the sampling spread expected from one seed's deals alone is
printed beside it, so a seed-to-seed spread no larger than that says the seeds differ by luck only.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

from tendays.sim import Tournament, run_local, summarize, wilson

Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class SeedResult:
    """The first player's result on one tournament seed."""

    seed: int
    games: int
    wins: int
    # each deal's share of the first player's wins (one game per deal outside duplicate)
    shares: tuple[float, ...]
    think_ms: float | None  # None: the player never had a decision
    seconds: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "deals": len(self.shares),
            "deals_won": sum(share == 1 for share in self.shares),
            "deals_lost": sum(share == 0 for share in self.shares),
            "think_ms": self.think_ms,
            "seconds": self.seconds,
        }


def parse_seeds(text: str) -> list[int]:
    """``"5,7,20-22"`` -> ``[5, 7, 20, 21, 22]``; refuses an empty or backward range."""
    seeds: list[int] = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"{part!r} is not a seed or a range of seeds such as 20-29")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ValueError(f"the range {part!r} runs backwards")
        seeds.extend(range(low, high + 1))
    if len(set(seeds)) != len(seeds):
        raise ValueError("a seed is named twice")
    return seeds


def play_seed(tournament: Tournament, workers: int) -> SeedResult:
    started = time.perf_counter()
    results = run_local(tournament, workers)
    seconds = time.perf_counter() - started
    first = summarize(tournament, results).players[0]
    seatings = len(tournament.players)
    by_deal: dict[int, list[bool]] = {}
    for result in results:
        by_deal.setdefault(tournament.deal(result.index), []).append(result.winner == 0)
    shares = (
        tuple(sum(won) / seatings for won in by_deal.values())
        if tournament.duplicate
        else (tuple(float(won[0]) for won in by_deal.values()))
    )
    return SeedResult(
        tournament.seed, tournament.games, first.wins, shares, first.mean_think_ms, seconds
    )


def pooled(results: list[SeedResult], duplicate: bool) -> dict[str, Any]:
    """The pooled win rate with its 95% interval over all deals, and the spread over seeds."""
    games = sum(r.games for r in results)
    wins = sum(r.wins for r in results)
    shares = [share for r in results for share in r.shares]
    if duplicate and statistics.pstdev(shares) > 0:
        mean = statistics.fmean(shares)
        half = Z95 * statistics.stdev(shares) / math.sqrt(len(shares))
        interval = (mean - half, mean + half)
        # one seed's sampling spread: the deals' spread over one seed's number of deals
        one_seed = statistics.stdev(shares) / math.sqrt(len(results[0].shares))
    else:
        interval = wilson(wins, games)
        rate = wins / games
        one_seed = math.sqrt(rate * (1 - rate) / results[0].games)
    rates = [r.win_rate for r in results]
    return {
        "seeds": len(results),
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "ci95": list(interval),
        "seed_sd": statistics.stdev(rates) if len(rates) > 1 else 0.0,
        "seed_min": min(rates),
        "seed_max": max(rates),
        "one_seed_sampling_sd": one_seed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", default="", help="comma-separated bot specs, as simulate's")
    parser.add_argument(
        "--player",
        action="append",
        default=[],
        metavar="SPEC",
        help="add one player (repeatable; for a cmd: line that contains commas)",
    )
    parser.add_argument("--edition", default="usa")
    parser.add_argument("--seeds", required=True, help="e.g. 20261201-20261220 or 5,7,9")
    parser.add_argument("--games", type=int, default=400, help="games per seed")
    parser.add_argument("--max-turns", type=int, default=300)
    parser.add_argument("--days", type=int, default=10)
    parser.add_argument("--duplicate", action="store_true")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of text")
    args = parser.parse_args()
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError as error:
        parser.error(str(error))
    players = tuple(spec for spec in args.players.split(",") if spec) + tuple(args.player)
    if not players:
        parser.error("name the players with --players or --player")
    tournaments = [
        Tournament(
            edition=args.edition,
            players=players,
            games=args.games,
            seed=seed,
            max_turns=args.max_turns or None,
            days=args.days,
            duplicate=args.duplicate,
        )
        for seed in seeds
    ]
    try:
        tournaments[0].validate()
    except ValueError as error:
        parser.error(str(error))
    first = tournaments[0].players[0]
    results = []
    for tournament in tournaments:
        result = play_seed(tournament, args.workers)
        results.append(result)
        think = "-" if result.think_ms is None else f"{result.think_ms:.1f}"
        # with --json, each seed's line goes to stderr as it finishes (a long run shows progress)
        print(
            f"seed {result.seed}: {first} wins {result.wins} of {result.games}, "
            f"{result.win_rate:.2%} ({think} ms/move, {result.seconds:.0f} s)",
            file=sys.stderr if args.json else sys.stdout,
            flush=True,
        )
    summary = pooled(results, args.duplicate)
    if args.json:
        json.dump(
            {
                "players": list(tournaments[0].players),
                "edition": args.edition,
                "duplicate": args.duplicate,
                "games_per_seed": args.games,
                "per_seed": [r.to_json() for r in results],
                "pooled": summary,
            },
            sys.stdout,
        )
        print()
        return
    low, high = summary["ci95"]
    print(
        f"{first} over {summary['seeds']} seeds: {summary['wins']} of {summary['games']}, "
        f"{summary['win_rate']:.2%} (95% interval over the deals {low:.2%}-{high:.2%}); "
        f"per seed sd {summary['seed_sd']:.2%}, least {summary['seed_min']:.2%}, most "
        f"{summary['seed_max']:.2%}; one seed's sampling sd {summary['one_seed_sampling_sd']:.2%}"
    )


if __name__ == "__main__":
    main()
