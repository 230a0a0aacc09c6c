"""The difficulty ladder: every level against every other, on deals kept apart for choosing and for
reporting.

Two ranges of deals, never mixed:

- **tuning** (``--deals tune``, tournament seed 1000): the only deals looked at while the levels
  were chosen and tuned (the miss rates of beginner and easy, any variation of hard);
- **report** (``--deals report``, the default, tournament seed 20261130): never used while tuning;
  every figure in docs/bots.md, the README and ``bots/ratings.json`` comes from these.

Usage::

    python benchmarks/ladder.py --workers 2               # report tables (over an hour on two idle
                                                          # cores: a game of hard takes about 4 s of
                                                          # one core)
    python benchmarks/ladder.py --only usa --workers 2    # one part: usa, germany, four or solo
    python benchmarks/ladder.py --write-ratings           # also store the USA ratings in
                                                          # bots/ratings.json
    python benchmarks/ladder.py --deals tune --only usa   # the tuning deals (for development only)

Games where bots meet are duplicate (``tendays simulate --duplicate``): each deal is played once per
seating, so the luck of the deal cancels; the tables give the deals won on every seating, split and
won on none beside the win rate, whose 95% interval is taken over the deals. Prints Markdown tables
as pasted into docs/measurements/2026-12-bots-ladder.md (the summary: docs/bots.md). Each row names
its ``tendays simulate`` command.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import shlex
import statistics
import sys
import time
from pathlib import Path

from tendays.bots import LEVELS
from tendays.sim import GameResult, Summary, Tournament, run_local, summarize
from tendays.sim.stats import rate_games

SEEDS = {"tune": 1000, "report": 20261130}
MAX_TURNS = 300
RATINGS = Path(__file__).resolve().parent.parent / "src" / "tendays" / "bots" / "ratings.json"

# Adjacent rungs decide the ladder's aims and get the most games; the rest fill in the ratings.
ADJACENT_GAMES = 400
OTHER_GAMES = 200
HARD_GAMES = 1000  # hard against normal: enough deals to see a few points


def command(t: Tournament) -> str:
    return (
        f"tendays simulate --edition {t.edition} --players {shlex.quote(','.join(t.players))} "
        f"--games {t.games} --seed {t.seed} --max-turns {t.max_turns}"
        + (" --duplicate" if t.duplicate else "")
    )


def play(
    edition: str, players: tuple[str, ...], games: int, seed: int, workers: int
) -> tuple[Tournament, list[GameResult], Summary, float]:
    tournament = Tournament(
        edition, players, games=games, seed=seed, max_turns=MAX_TURNS, duplicate=len(players) > 1
    )
    started = time.perf_counter()
    results = run_local(tournament, workers=workers)
    return tournament, results, summarize(tournament, results), time.perf_counter() - started


def pair_table(
    edition: str, seed: int, workers: int, games_for: dict[tuple[str, str], int]
) -> list[tuple[Tournament, list[GameResult]]]:
    print(f"\n### {edition}, 2 players, deals of seed {seed}\n")
    print(
        "| stronger vs weaker | games | wins of the stronger | win rate | 95% CI (over deals) | "
        "deals won on both seatings / split / lost | ms per move (each) | at turn limit |"
    )
    print("|---|---|---|---|---|---|---|---|")
    played = []
    for (strong, weak), games in games_for.items():
        tournament, results, summary, seconds = play(edition, (strong, weak), games, seed, workers)
        a, b = summary.players
        deals = f"{a.paired.won} / {a.paired.split} / {a.paired.lost}" if a.paired else "-"
        print(
            f"| {strong} vs {weak} | {summary.games} | {a.wins} | {a.win_rate:.3f} | "
            f"{a.ci95[0]:.3f}-{a.ci95[1]:.3f} | {deals} | {a.mean_think_ms or 0:.1f} / "
            f"{b.mean_think_ms or 0:.1f} | {a.limit_games} |"
        )
        print(f"| `{command(tournament)}` | | | | | | | ({seconds:.0f} s) |")
        sys.stdout.flush()
        played.append((tournament, results))
    return played


def ladder_ratings(
    played: list[tuple[Tournament, list[GameResult]]],
) -> dict[str, dict[str, float]]:
    """One openskill rating per level over every game, the pairs'
    games interleaved in game order."""
    levels = list(LEVELS)
    games: list[list[int]] = []
    ordered = [sorted(results, key=lambda r: r.index) for _, results in played]
    for index in range(max(len(r) for r in ordered)):
        for (tournament, _), results in zip(played, ordered, strict=True):
            if index >= len(results):
                continue
            result = results[index]
            ranks = [0] * len(levels)
            for p, name in enumerate(tournament.players):
                won = result.winner is None or result.winner == p
                ranks[levels.index(name)] = 1 if won else 2
            games.append(ranks)
    rated = rate_games(len(levels), games)
    return {
        name: {"mu": round(r.mu, 2), "sigma": round(r.sigma, 2)}
        for name, r in zip(levels, rated, strict=True)
    }


def all_pairs(adjacent_games: int, other_games: int, hard_games: int) -> dict[tuple[str, str], int]:
    levels = list(LEVELS)[::-1]  # strongest first
    pairs = {}
    for strong, weak in itertools.combinations(levels, 2):
        adjacent = levels.index(weak) - levels.index(strong) == 1
        pairs[(strong, weak)] = adjacent_games if adjacent else other_games
    # The beginner must win sometimes against normal: that pair decides an aim too.
    pairs[("normal", "beginner")] = adjacent_games
    pairs[("hard", "normal")] = hard_games
    return pairs


def four_players(seed: int, workers: int, games: int) -> None:
    print(
        f"\n### usa, 4 players (one seat per level, each deal once per seating), deals of seed "
        f"{seed}\n"
    )
    print("| level | wins | win rate | 95% CI | ms per move |")
    print("|---|---|---|---|---|")
    tournament, _, summary, seconds = play("usa", tuple(LEVELS)[::-1], games, seed, workers)
    for p in summary.players:
        ms = p.mean_think_ms or 0.0
        print(
            f"| {p.name} | {p.wins} | {p.win_rate:.3f} | {p.ci95[0]:.3f}-{p.ci95[1]:.3f} | "
            f"{ms:.1f} |"
        )
    print(f"| `{command(tournament)}` | | | | ({seconds:.0f} s) |")


def turns_spread(results: list[GameResult]) -> tuple[float, float, float] | None:
    """The standard deviation of the turns to finish alone and the 95% interval of their mean
    (normal approximation), over the finished games; None with fewer than two."""
    turns = [r.turns for r in results if r.winner == 0]
    if len(turns) < 2:
        return None
    sd = statistics.stdev(turns)
    mean = statistics.fmean(turns)
    half = 1.96 * sd / math.sqrt(len(turns))
    return sd, mean - half, mean + half


def solo(seed: int, workers: int, games: int) -> None:
    print(f"\n### Solo, usa: turns to finish a journey, deals of seed {seed}\n")
    print(
        "| level | games | finished | mean turns (sd) | 95% CI of the mean | median turns | "
        "lower bound (mean distance after the draft) | ms per move |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for level in tuple(LEVELS):
        tournament, results, summary, seconds = play("usa", (level,), games, seed, workers)
        (p,) = summary.players
        spread = turns_spread(results)
        mean, interval = "-", "-"
        if p.mean_turns_to_win is not None:
            mean = f"{p.mean_turns_to_win:.2f}"
        if spread is not None:
            mean += f" ({spread[0]:.2f})"
            interval = f"{spread[1]:.2f}-{spread[2]:.2f}"
        median = f"{p.median_turns_to_win:.0f}" if p.median_turns_to_win is not None else "-"
        bound = f"{p.mean_start_distance:.2f}" if p.mean_start_distance is not None else "-"
        print(
            f"| {level} | {games} | {p.wins} | {mean} | {interval} | {median} | {bound} | "
            f"{p.mean_think_ms or 0:.1f} |"
        )
        print(f"| `{command(tournament)}` | | | | | | | ({seconds:.0f} s) |")
        sys.stdout.flush()


def even(games: float) -> int:
    """A number of two-player games that duplicate play allows (a
    multiple of two, at least one deal)."""
    return 2 * max(1, round(games / 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", choices=sorted(SEEDS), default="report")
    parser.add_argument("--only", choices=("usa", "germany", "four", "solo"))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiply every number of games (quick looks)"
    )
    parser.add_argument(
        "--write-ratings", action="store_true", help="store the USA ratings in bots/ratings.json"
    )
    args = parser.parse_args()
    seed = SEEDS[args.deals]
    adjacent, other = even(ADJACENT_GAMES * args.scale), even(OTHER_GAMES * args.scale)
    hard = even(HARD_GAMES * args.scale)
    if args.only in (None, "usa"):
        played = pair_table("usa", seed, args.workers, all_pairs(adjacent, other, hard))
        ratings = ladder_ratings(played)
        print("\n| level | bot | openskill rating (mu ± sigma) |\n|---|---|---|")
        for name, level in LEVELS.items():
            print(
                f"| {name} | `{level.bot}` | {ratings[name]['mu']:.1f} ± "
                f"{ratings[name]['sigma']:.1f} |"
            )
        if args.write_ratings:
            if args.deals != "report" or args.scale != 1.0:
                sys.exit("ratings are published only from the full report run")
            RATINGS.write_text(
                json.dumps(
                    {
                        "tournament": {
                            "edition": "usa",
                            "players": 2,
                            "seed": seed,
                            "max_turns": MAX_TURNS,
                            "games": {
                                f"{a} vs {b}": n
                                for (a, b), n in all_pairs(adjacent, other, hard).items()
                            },
                            "command": "python benchmarks/ladder.py --only usa --write-ratings",
                        },
                        "ratings": ratings,
                    },
                    indent=1,
                )
                + "\n",
                encoding="utf-8",
            )
    if args.only in (None, "germany"):
        levels = list(LEVELS)[::-1]
        rungs = {(levels[i], levels[i + 1]): other for i in range(len(levels) - 1)}
        pair_table("germany", seed, args.workers, rungs)
    if args.only in (None, "four"):
        four_players(seed, args.workers, 4 * max(1, round(OTHER_GAMES * args.scale / 4)))
    if args.only in (None, "solo"):
        solo(seed, args.workers, max(2, round(100 * args.scale)))


if __name__ == "__main__":
    main()
