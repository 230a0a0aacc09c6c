"""Strength of the bots: head-to-head, four players, solo, and how much of the expert's edge is
search.

Every row is one seeded tournament; the command printed beside it reproduces it exactly (the results
do not depend on the number of workers, only the thinking times do). Usage::

    python benchmarks/strength.py                 # everything (about half an hour on two cores)
    python benchmarks/strength.py --only solo     # one table: pairs, four, solo or search
    python benchmarks/strength.py --workers 8

Prints Markdown tables, as pasted into docs/measurements/2026-11-bots-strength.md.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time

from tendays.sim import Summary, Tournament, run_local, summarize

EDITION = "usa"
SEED = 1

# (players, games): sized so the whole run fits in about half an hour on two cores.
Rows = list[tuple[tuple[str, ...], int]]
PAIRS: Rows = [
    (("greedy", "random"), 200),
    (("expert", "random"), 100),
    (("expert", "greedy"), 400),
]
FOUR: Rows = [
    (("expert", "expert", "greedy", "greedy"), 100),
    (("expert", "greedy", "greedy", "random"), 100),
]
SOLO: Rows = [(("random",), 20), (("greedy",), 200), (("expert",), 100)]
SEARCH: Rows = [(("expert:0", "greedy"), 400), (("expert:32", "greedy"), 400)]


def command(tournament: Tournament) -> str:
    players = ",".join(tournament.players)
    return (
        f"tendays simulate --edition {tournament.edition} --players {shlex.quote(players)} "
        f"--games {tournament.games} --seed {tournament.seed} --max-turns {tournament.max_turns}"
    )


def play(players: tuple[str, ...], games: int, workers: int) -> tuple[Tournament, Summary, float]:
    tournament = Tournament(EDITION, players, games=games, seed=SEED, max_turns=300)
    started = time.perf_counter()
    results = run_local(tournament, workers=workers)
    return tournament, summarize(tournament, results), time.perf_counter() - started


def head_to_head(rows: Rows, workers: int, title: str) -> None:
    print(f"\n### {title}\n")
    print(
        "| players | games | player | wins | win rate | 95% CI | mean / median turns to win | ms "
        "per move | rating (mu ± sigma) | at turn limit |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for players, games in rows:
        tournament, summary, seconds = play(players, games, workers)
        for i, p in enumerate(summary.players):
            label = " vs ".join(players) if i == 0 else ""
            turns = (
                f"{p.mean_turns_to_win:.1f} / {p.median_turns_to_win:.0f}"
                if p.mean_turns_to_win is not None
                else "-"
            )
            print(
                f"| {label} | {summary.games if i == 0 else ''} | {p.name} | {p.wins} | "
                f"{p.win_rate:.3f} | {p.ci95[0]:.3f}-{p.ci95[1]:.3f} | {turns} | "
                f"{p.mean_think_ms or 0:.1f} | {p.rating.mu:.1f} ± {p.rating.sigma:.1f} | "
                f"{p.limit_games if i == 0 else ''} |"
            )
        print(f"| `{command(tournament)}` | | | | | | | | | ({seconds:.0f} s) |")
        sys.stdout.flush()


def solo(workers: int) -> None:
    print("\n### Solo: turns to finish a journey\n")
    print(
        "| bot | games | finished | 95% CI (finished) | mean turns | median turns | lower bound "
        "(mean distance after the draft) | ms per move |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for players, games in SOLO:
        tournament, summary, seconds = play(players, games, workers)
        (p,) = summary.players
        mean = f"{p.mean_turns_to_win:.1f}" if p.mean_turns_to_win is not None else "-"
        median = f"{p.median_turns_to_win:.0f}" if p.median_turns_to_win is not None else "-"
        bound = f"{p.mean_start_distance:.2f}" if p.mean_start_distance is not None else "-"
        print(
            f"| {p.name} | {games} | {p.wins} | {p.ci95[0]:.3f}-{p.ci95[1]:.3f} | {mean} | "
            f"{median} | {bound} | {p.mean_think_ms or 0:.1f} |"
        )
        print(f"| `{command(tournament)}` | | | | | | | ({seconds:.0f} s) |")
        sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", choices=("pairs", "four", "solo", "search"))
    args = parser.parse_args()
    print(f"Edition {EDITION}, seed {SEED}, turn limit 300, seats rotated, {args.workers} workers.")
    if args.only in (None, "pairs"):
        head_to_head(PAIRS, args.workers, "Two players, head to head")
    if args.only in (None, "four"):
        head_to_head(FOUR, args.workers, "Four players")
    if args.only in (None, "solo"):
        solo(args.workers)
    if args.only in (None, "search"):
        head_to_head(
            SEARCH,
            args.workers,
            "The expert's edge comes from search (budget in rollouts per decision)",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
