"""``tendays simulate``: play many seeded bot games with seats rotated and
report per-player statistics."""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from collections.abc import Iterable, Iterator
from typing import Any

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from .command_error import CommandError


def ladder_note() -> str:
    """The levels with their published ratings, as the help and the report show them."""
    from tendays.bots import LEVELS, ladder_ratings

    rated = ", ".join(
        f"{level.name} {level.rating:.1f}" for level in LEVELS.values() if level.rating is not None
    )
    if not rated:
        return ""
    command = ladder_ratings()["tournament"]["command"]
    return _(
        "levels and their ratings in the published ladder (openskill mu, {command}): {rated}"
    ).format(command=command, rated=rated)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from tendays.bots import BOTS, bot_names
    from tendays.engine import available_editions, default_edition

    forms = [
        *bot_names(),
        *(f"{entry.name}:{entry.budget}" for entry in BOTS.values() if entry.budget),
        "cmd:COMMAND LINE",
    ]
    parser.epilog = ladder_note()
    parser.add_argument(
        "--edition",
        default=default_edition(),
        choices=available_editions(),
        help=f"edition id (default: {default_edition()})",
    )
    parser.add_argument(
        "--players",
        default="",
        help="comma-separated bot specs, one per player, e.g. expert,greedy (1 to 4 players); "
        f"bots: {', '.join(forms)}",
    )
    parser.add_argument(
        "--player",
        action="append",
        default=[],
        metavar="SPEC",
        help="add one player (repeatable; use it for a cmd: line that contains commas)",
    )
    parser.add_argument("--games", type=int, default=400, help="number of games (default: 400)")
    parser.add_argument("--seed", type=int, default=1, help="tournament seed (default: 1)")
    parser.add_argument(
        "--max-turns",
        type=int,
        default=300,
        help="end a game with no winner after this many turns, one per player's turn "
        "(default: 300; 0: no limit)",
    )
    parser.add_argument("--days", type=int, default=10, help="days per rack (default: 10)")
    parser.add_argument("--swap", action="store_true", help="play with the swap variant")
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal once per seating, so the luck of the deal cancels (--games must "
        "be a multiple of the number of players); adds each player's deals "
        "won on every "
        "seating, split and lost",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes for the local backend (default: one per CPU)",
    )
    parser.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local processes, or a Ray cluster (needs the 'distributed' extra)",
    )
    parser.add_argument(
        "--ray-address", default=None, help="Ray cluster address (default: start a local Ray)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of a table"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def split_players(text: str) -> list[str]:
    """Split a comma-separated player list; a ``cmd:`` spec runs to the
    next item that is a spec itself."""
    from tendays.bots import bot_names

    names = bot_names()
    specs: list[str] = []
    for item in text.split(","):
        word = item.strip()
        base = word.split(":", 1)[0].lower()
        if (
            specs
            and specs[-1].startswith("cmd:")
            and base not in names
            and not word.startswith("cmd:")
        ):
            specs[-1] += "," + item
        elif word:
            specs.append(word)
    return specs


def run(args: argparse.Namespace) -> int:
    from tendays.sim import Tournament, run_local, run_ray, summarize

    players = split_players(args.players) + [p.strip() for p in args.player]
    if not players:
        raise CommandError(_("name the players, e.g. --players expert,greedy"))
    tournament = Tournament(
        edition=args.edition,
        players=tuple(players),
        games=args.games,
        seed=args.seed,
        max_turns=args.max_turns or None,
        days=args.days,
        swap=args.swap,
        duplicate=args.duplicate,
    )
    if args.duplicate and args.games % len(players):
        raise CommandError(
            _(
                "--duplicate plays each deal once per seating: --games must be a multiple "
                "of the number of players ({players}), not {games}"
            ).format(players=len(players), games=args.games)
        )
    try:
        tournament.validate()
    except (ValueError, KeyError) as error:
        raise CommandError(str(error)) from None
    if args.workers < 1:
        raise CommandError(
            _("--workers must be at least 1, not {workers}").format(workers=args.workers)
        )

    def progress(results: Iterable[Any], total: int) -> Iterator[Any]:
        if args.quiet:
            yield from results
            return
        from tqdm import tqdm

        yield from tqdm(
            results, total=total, desc=_("games"), unit=_("game"), file=sys.stderr, leave=False
        )

    if args.backend == "ray":
        try:
            results = run_ray(tournament, address=args.ray_address, progress=progress)
        except RuntimeError as error:
            raise CommandError(str(error)) from None
    else:
        results = run_local(
            tournament, workers=min(args.workers, tournament.games), progress=progress
        )
    summary = summarize(tournament, results)
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        print(format_summary(summary))
    return 0


WIDTH = 80  # the table fits an 80-column terminal
NAME_WIDTH = 16


def _number(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, subsequent_indent="    ", break_on_hyphens=False)


def _columns(
    first: str, names: list[str], rows: list[list[str]], width: int, widths: tuple[int, ...]
) -> list[str]:
    """A header row and a row per player: names left-aligned, figures right-aligned, each column as
    wide as its figures or its heading in the current language, whichever is wider."""
    widths = tuple(max(w, len(heading)) for w, heading in zip(widths, rows[0], strict=True))
    width = max(width, len(first))
    return [
        " ".join(
            [f"{name:<{width}}", *(f"{cell:>{w}}" for cell, w in zip(row, widths, strict=True))]
        )
        for name, row in zip([first, *names], rows, strict=True)
    ]


def format_summary(summary: Any) -> str:
    """The summary as a plain-text table of at most 80 columns, with notes under it."""
    t = summary.tournament
    solo = len(t.players) == 1
    names = [p.name for p in summary.players]
    width = max(6, min(NAME_WIDTH, max(len(n) for n in names)))
    shown = [n if len(n) <= width else n[: width - 1] + "…" for n in names]
    limit = str(t.max_turns) if t.max_turns else _("none")
    if t.duplicate:
        heading = ngettext(
            "{games} games of {edition}, {players} player, seed {seed}, turn limit {limit}; "
            "duplicate: each of {deals} deals played once per seating",
            "{games} games of {edition}, {players} players, seed {seed}, turn "
            "limit {limit}; "
            "duplicate: each of {deals} deals played once per seating",
            len(t.players),
        )
    else:
        heading = ngettext(
            "{games} games of {edition}, {players} player, seed {seed}, turn limit {limit}; "
            "seats rotated",
            "{games} games of {edition}, {players} players, seed {seed}, turn "
            "limit {limit}; seats rotated",
            len(t.players),
        )
    lines = _wrap(
        heading.format(
            games=summary.games,
            edition=t.edition,
            players=len(t.players),
            seed=t.seed,
            limit=limit,
            deals=summary.games // len(t.players),
        )
    )
    if solo:
        lines.append(
            _(
                "solo: a win is a finished journey; the lower bound is the distance when the draft "
                "ends"
            )
        )
        rows = [
            [_("finished"), _("turns"), _("median"), _("lower bound"), _("at limit"), _("ms/move")]
        ]
        rows += [
            [
                str(p.wins),
                _number(p.mean_turns_to_win),
                _number(p.median_turns_to_win),
                _number(p.mean_start_distance, 2),
                str(p.limit_games),
                _number(p.mean_think_ms, 2),
            ]
            for p in summary.players
        ]
        lines += _columns(_("player"), shown, rows, width, (8, 6, 6, 11, 8, 8))
    else:
        rows = [
            [
                _("wins"),
                _("win %"),
                _("95% CI %"),
                _("turns"),
                _("median"),
                _("limit"),
                _("ms/move"),
                _("rating"),
            ]
        ]
        rows += [
            [
                str(p.wins),
                f"{100 * p.win_rate:.1f}",
                f"{100 * p.ci95[0]:.0f}-{100 * p.ci95[1]:.0f}",
                _number(p.mean_turns_to_win),
                _number(p.median_turns_to_win),
                str(p.limit_games),
                _number(p.mean_think_ms, 2),
                f"{p.rating.mu:.1f}±{p.rating.sigma:.1f}",
            ]
            for p in summary.players
        ]
        lines += _columns(_("player"), shown, rows, width, (5, 5, 9, 5, 6, 5, 8, 9))
        lines.append(
            _("draws (no winner): {draws}; mean turns per game: {turns}").format(
                draws=summary.draws, turns=f"{summary.mean_turns:.1f}"
            )
        )
        for p in summary.players:
            if p.paired is not None:
                lines += _wrap(
                    _(
                        "{name}: of {deals} deals won on every seating {won}, split {split}, won "
                        "on none {lost}"
                    ).format(
                        name=p.name,
                        deals=p.paired.deals,
                        won=p.paired.won,
                        split=p.paired.split,
                        lost=p.paired.lost,
                    )
                )
        if t.duplicate:
            lines += _wrap(
                _(
                    "95% CI: each deal's share of wins counted once (the games' own interval where "
                    "every deal ended alike)"
                )
            )
    lines.append(
        _(
            "turns: mean turns to win a game by completing a journey (wins by forfeit not "
            "counted); ms/move: mean thinking time per decision in the games a player finished"
        )
    )
    for name, short in zip(names, shown, strict=True):
        if short != name:
            lines += _wrap(f"{short} = {name}")
    for p in summary.players:
        if p.never_played:
            lines += _wrap(
                ngettext(
                    "{name} never played a move: it forfeited its {games} game at its first "
                    "decision",
                    "{name} never played a move: it forfeited all {games} games at "
                    "its first "
                    "decision",
                    p.games,
                ).format(name=p.name, games=p.games)
            )
        elif p.forfeits:
            lines += _wrap(
                ngettext(
                    "{name} forfeited {forfeits} of {games} game",
                    "{name} forfeited {forfeits} of {games} games",
                    p.games,
                ).format(name=p.name, forfeits=p.forfeits, games=p.games)
            )
        if p.wins_by_forfeit:
            lines += _wrap(
                ngettext(
                    "{name} won {count} game by another player's forfeit",
                    "{name} won {count} games by another player's forfeit",
                    p.wins_by_forfeit,
                ).format(name=p.name, count=p.wins_by_forfeit)
            )
    for reason in summary.forfeit_reasons[:10]:
        lines += _wrap(_("forfeit: {reason}").format(reason=reason))
    if len(summary.forfeit_reasons) > 10:
        more = len(summary.forfeit_reasons) - 10
        lines.append(
            ngettext("... and {count} more forfeit", "... and {count} more forfeits", more).format(
                count=more
            )
        )
    from tendays.bots import LEVELS

    if any(spec in LEVELS for spec in t.players) and ladder_note():
        lines.append(ladder_note())
    lines = [line for text in lines for line in (_wrap(text) if len(text) > WIDTH else [text])]
    return "\n".join(lines)
