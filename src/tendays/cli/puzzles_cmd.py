"""``tendays puzzles [EDITION] [--count N] [--seed S] [--kind KIND] [--daily [--date D]] [--json]``:
puzzles from real bot games.

``--daily`` is the site's puzzle of the day (one choice for both: :func:`tendays.puzzles.daily` of
:func:`tendays.puzzles.daily_date`).

With ``--json`` one puzzle a line, in the form :meth:`tendays.puzzles.Puzzle.to_json` writes (its
solution included). Without it a person solves them at a prompt: each answer is judged, and
explained, by the engine. Exit status: 0, or 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import shutil
import textwrap
from collections.abc import Callable

from tendays.engine import (
    Edition,
    EditionError,
    available_editions,
    default_edition,
    load_edition,
)
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext
from tendays.puzzles import Answer, Kind, Puzzle, PuzzleError, daily, daily_date, pick
from tendays.puzzles.explain import judge, parse_answer

from .command_error import CommandError
from .language import add_language_argument


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "edition",
        nargs="?",
        default=None,
        help=_("one of: {editions} (default {edition})").format(
            editions=", ".join(available_editions()), edition=default_edition()
        ),
    )
    parser.add_argument("--count", type=int, default=5, help=_("how many puzzles (5)"))
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help=_("which puzzles: the same seed gives the same ones (default: new ones each time)"),
    )
    parser.add_argument(
        "--kind",
        choices=[kind.value for kind in Kind],
        default=None,
        help=_(
            "only puzzles of this kind: finish (complete the journey now) or block (the discard "
            "that leaves the next player no finish); default: both"
        ),
    )
    parser.add_argument(
        "--daily",
        action="store_true",
        help=_("the puzzle of the day, the same one as on the site's puzzle page (a day in UTC)"),
    )
    parser.add_argument(
        "--date",
        type=datetime.date.fromisoformat,
        default=None,
        metavar="YYYY-MM-DD",
        help=_("with --daily: the puzzle of that day instead of today's"),
    )
    parser.add_argument(
        "--json", action="store_true", help=_("print the puzzles, one JSON object a line, and stop")
    )
    add_language_argument(parser, by_edition=True)


def run(args: argparse.Namespace) -> int:
    try:
        edition = load_edition((args.edition or default_edition()).lower())
    except EditionError as error:
        raise CommandError(str(error)) from None
    if args.count < 1:
        raise CommandError(_("ask for at least one puzzle, not {count}").format(count=args.count))
    if args.daily:
        return _daily(edition, args)
    if args.date is not None:
        raise CommandError(_("--date goes with --daily"))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    puzzles = pick(edition.id, args.count, seed, Kind(args.kind) if args.kind else None)
    if not puzzles:
        raise CommandError(_("no puzzles are shipped for {edition}").format(edition=edition.name))
    if args.json:
        for puzzle in puzzles:
            print(json.dumps(puzzle.to_json(), ensure_ascii=False))
        return 0
    return solve(puzzles, input, say_wrapped)


def _daily(edition: Edition, args: argparse.Namespace) -> int:
    """``--daily``: the site's puzzle of the day (:func:`tendays.puzzles.daily`), to solve or
    print."""
    chosen = [
        option
        for option, given in (("--count", args.count != 5), ("--seed", args.seed is not None))
        if given
    ] + (["--kind"] if args.kind else [])
    if chosen:
        raise CommandError(
            _("--daily is one puzzle chosen by the date; leave out {options}").format(
                options=", ".join(chosen)
            )
        )
    day = args.date or daily_date()
    try:
        puzzle = daily(edition.id, day)
    except PuzzleError:
        raise CommandError(
            _("no puzzles are shipped for {edition}").format(edition=edition.name)
        ) from None
    if args.json:
        print(json.dumps({**puzzle.to_json(), "daily": day.isoformat()}, ensure_ascii=False))
        return 0
    say_wrapped(_("The puzzle of the day, {date}").format(date=date_text(day)))
    return solve([puzzle], input, say_wrapped)


def date_text(day: datetime.date) -> str:
    """A date as the reader's language writes it: 2026-12-04 in English, 4.12.2026 in German."""
    # TRANSLATORS: a date; order the fields as your language writes one ("{day}.{month}.{year}")
    return _("{year}-{month:02}-{day:02}").format(year=day.year, month=day.month, day=day.day)


def say_wrapped(text: str = "") -> None:
    """Print ``text``, its long sentences broken between words at the
    terminal's width (not mid-word)."""
    width = shutil.get_terminal_size().columns
    print(textwrap.fill(text, width=width, subsequent_indent="  ") if len(text) > width else text)


def tile_text(puzzle: Puzzle, tile: int) -> str:
    """A tile as players read it: "Ohio (yellow)", "pink airplane"."""
    edition = puzzle.game_edition
    words = edition.words()
    if edition.tiles[tile].is_region:
        return f"{words.name(tile)} ({words.color(edition.tiles[tile].color)})"
    return words.name(tile)


def show(puzzle: Puzzle, number: int, total: int) -> list[str]:
    """The puzzle as lines of text."""
    edition = puzzle.game_edition
    lines = [
        _("Puzzle {number} of {total} ({id}, rated {rating})").format(
            number=number, total=total, id=puzzle.id, rating=puzzle.rating
        )
    ]
    if puzzle.kind is Kind.FINISH:
        lines.append(
            _(
                "Finish now: take the top tile of one discard pile and put it on one day, so that "
                "your journey is complete."
            )
        )
    else:
        assert puzzle.held is not None and puzzle.opponent is not None
        lines.append(
            _(
                "Block: you drew {tile}, which does not finish your journey. Discard it onto the "
                "pile that leaves the next player no pile top completing their journey."
            ).format(tile=tile_text(puzzle, puzzle.held))
        )
        lines.append(_("The next player's journey:"))
        lines += [
            f"  {day:>2}  {tile_text(puzzle, tile)}" for day, tile in enumerate(puzzle.opponent, 1)
        ]
    lines.append(_("Your journey ({edition}):").format(edition=edition.name))
    lines += [f"  {day:>2}  {tile_text(puzzle, tile)}" for day, tile in enumerate(puzzle.rack, 1)]
    lines.append(_("The discard piles (top last):"))
    for number_, pile in enumerate(puzzle.piles, 1):
        lines.append(
            _("  pile {pile}: {tiles}   top: {top}").format(
                pile=number_,
                tiles=", ".join(tile_text(puzzle, t) for t in pile[:-1]) or "-",
                top=tile_text(puzzle, pile[-1]),
            )
        )
    return lines


def read_answer(
    puzzle: Puzzle, ask: Callable[[str], str], say: Callable[..., None]
) -> Answer | None:
    """Ask until the answer is a pile (and day) of the puzzle; None when the person quits."""
    if puzzle.kind is Kind.FINISH:
        question = _("Your answer, a pile and a day (e.g. 2 7), or q to stop: ")
    else:
        question = _("Your answer, a pile (e.g. 2), or q to stop: ")
    while True:
        try:
            text = ask(question).strip().lower()
        except EOFError:
            return None
        if text in ("q", "quit", "exit"):
            return None
        parts = text.replace(",", " ").split()
        wanted = 2 if puzzle.kind is Kind.FINISH else 1
        if len(parts) != wanted or not all(part.isdigit() for part in parts):
            say(
                _("Type a pile and a day, as two numbers: 2 7")
                if wanted == 2
                else _("Type the number of a pile: 1, 2 or 3")
            )
            continue
        try:
            return parse_answer(puzzle, *map(int, parts))
        except PuzzleError as error:
            say(str(error))


def solve(puzzles: list[Puzzle], ask: Callable[[str], str], say: Callable[..., None]) -> int:
    """The prompt loop: show each puzzle, judge each answer, explain it; a summary at the end."""
    solved = tried = 0
    for number, puzzle in enumerate(puzzles, 1):
        say("")
        for line in show(puzzle, number, len(puzzles)):
            say(line)
        answer = read_answer(puzzle, ask, say)
        if answer is None:
            break
        tried += 1
        judgement = judge(puzzle, answer)
        say(judgement.explanation)
        if judgement.correct:
            solved += 1
        else:
            say(_("The answer: {why}").format(why=judgement.solution_explanation))
    say("")
    say(
        ngettext(
            "Solved {solved} of {count} puzzle.", "Solved {solved} of {count} puzzles.", tried
        ).format(solved=solved, count=tried)
    )
    return 0
