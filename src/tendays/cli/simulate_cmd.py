"""``tendays simulate``: play many seeded bot games with seats rotated and report per-player statistics."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any

SOLO_NOTE = "solo: a win is a finished journey; the lower bound is the distance when the draft ends"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from tendays.bots import BOTS, bot_names
    from tendays.engine import available_editions

    forms = [*bot_names(), *(f"{entry.name}:{entry.budget}" for entry in BOTS.values() if entry.budget),
             "cmd:COMMAND LINE"]
    parser.add_argument("--edition", default="usa", choices=available_editions(), help="edition id (default: usa)")
    parser.add_argument("--players", default="",
                        help="comma-separated bot specs, one per player, e.g. expert,greedy (1 to 4 players); "
                             f"bots: {', '.join(forms)}")
    parser.add_argument("--player", action="append", default=[], metavar="SPEC",
                        help="add one player (repeatable; use it for a cmd: line that contains commas)")
    parser.add_argument("--games", type=int, default=400, help="number of games (default: 400)")
    parser.add_argument("--seed", type=int, default=1, help="tournament seed (default: 1)")
    parser.add_argument("--max-turns", type=int, default=300,
                        help="end a game with no winner after this many turns, one per player's turn "
                             "(default: 300; 0: no limit)")
    parser.add_argument("--days", type=int, default=10, help="days per rack (default: 10)")
    parser.add_argument("--swap", action="store_true", help="play with the swap variant")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="worker processes for the local backend (default: one per CPU)")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="local processes, or a Ray cluster (needs the 'distributed' extra)")
    parser.add_argument("--ray-address", default=None, help="Ray cluster address (default: start a local Ray)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def split_players(text: str) -> list[str]:
    """Split a comma-separated player list; a ``cmd:`` spec runs to the next item that is a spec itself."""
    from tendays.bots import bot_names

    names = bot_names()
    specs: list[str] = []
    for item in text.split(","):
        word = item.strip()
        base = word.split(":", 1)[0].lower()
        if specs and specs[-1].startswith("cmd:") and base not in names and not word.startswith("cmd:"):
            specs[-1] += "," + item
        elif word:
            specs.append(word)
    return specs


def run(args: argparse.Namespace) -> int:
    from tendays.sim import Tournament, run_local, run_ray, summarize

    players = split_players(args.players) + [p.strip() for p in args.player]
    if not players:
        print("tendays simulate: name the players, e.g. --players expert,greedy", file=sys.stderr)
        return 2
    tournament = Tournament(
        edition=args.edition,
        players=tuple(players),
        games=args.games,
        seed=args.seed,
        max_turns=args.max_turns or None,
        days=args.days,
        swap=args.swap,
    )
    try:
        tournament.validate()
    except (ValueError, KeyError) as error:
        print(f"tendays simulate: {error}", file=sys.stderr)
        return 2
    if args.workers < 1:
        print(f"tendays simulate: --workers must be at least 1, not {args.workers}", file=sys.stderr)
        return 2

    def progress(results: Iterable[Any], total: int) -> Iterator[Any]:
        if args.quiet:
            yield from results
            return
        from tqdm import tqdm

        yield from tqdm(results, total=total, desc="games", unit="game", file=sys.stderr, leave=False)

    if args.backend == "ray":
        try:
            results = run_ray(tournament, address=args.ray_address, progress=progress)
        except RuntimeError as error:
            print(f"tendays simulate: {error}", file=sys.stderr)
            return 2
    else:
        results = run_local(tournament, workers=min(args.workers, tournament.games), progress=progress)
    summary = summarize(tournament, results)
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        print(format_summary(summary))
    return 0


def _number(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def format_summary(summary: Any) -> str:
    """The summary as a plain-text table."""
    t = summary.tournament
    solo = len(t.players) == 1
    width = max(22, *(len(p.name) for p in summary.players))
    lines = [
        f"{summary.games} games of {t.edition}, {len(t.players)} player{'s' * (not solo)}, seed {t.seed}, "
        f"turn limit {t.max_turns or 'none'}; seats rotated",
    ]
    if solo:
        lines.append(SOLO_NOTE)
        header = f"{'player':<{width}} {'finished':>9} {'mean turns':>10} {'median':>7} {'lower bound':>11} " \
                 f"{'at limit':>8} {'ms/move':>8}"
        lines.append(header)
        for p in summary.players:
            lines.append(f"{p.name:<{width}} {p.wins:>9} {_number(p.mean_turns_to_win):>10} "
                         f"{_number(p.median_turns_to_win):>7} {_number(p.mean_start_distance, 2):>11} "
                         f"{p.limit_games:>8} {p.mean_think_ms:>8.2f}")
        return "\n".join(lines)
    header = f"{'player':<{width}} {'wins':>5} {'win rate':>8} {'95% CI':>13} {'turns to win':>12} {'median':>7} " \
             f"{'at limit':>8} {'ms/move':>8} {'rating':>14}"
    lines.append(header)
    for p in summary.players:
        ci = f"{p.ci95[0]:.3f}-{p.ci95[1]:.3f}"
        rating = f"{p.rating.mu:.1f}±{p.rating.sigma:.1f}"
        lines.append(f"{p.name:<{width}} {p.wins:>5} {p.win_rate:>8.3f} {ci:>13} {_number(p.mean_turns_to_win):>12} "
                     f"{_number(p.median_turns_to_win):>7} {p.limit_games:>8} {p.mean_think_ms:>8.2f} {rating:>14}")
    lines.append(f"draws (no winner): {summary.draws}; mean turns per game: {summary.mean_turns:.1f}")
    for reason in summary.forfeit_reasons[:10]:
        lines.append(f"forfeit: {reason}")
    if len(summary.forfeit_reasons) > 10:
        lines.append(f"... and {len(summary.forfeit_reasons) - 10} more forfeits")
    return "\n".join(lines)
