"""``tendays check EDITION TILE... [--json] [--days N]``: is this a complete journey?

The answer is the engine's verdict (:meth:`tendays.engine.JourneyChecker.check`), which names every
broken step and every tile held more often than the box has it. Exit status: 0 complete, 1 not
complete, 2 bad input (an unknown edition or tile, or the wrong number of days).

Tile ids are separated by spaces or commas, in arguments (``WA,OR,CA``) as on standard input. With
no tiles, journeys are read from standard input, one per line, and one JSON answer is printed per
line read, with its ``line`` number: the verdict, ``{"error": ...}``, or ``{"empty": true}`` for a
blank line. The exit status is then 2 if any line was bad input, else 1 if any journey was not
complete, else 0.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence

from tendays.bots.engine_client import LongLine, bounded_lines
from tendays.engine import Edition, EditionError, available_editions, checker_for, load_edition
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from .command_error import CommandError
from .language import add_language_argument

# The longest line read from standard input: a journey of the most days is under 100 bytes, and a
# line that never ends (``tendays check usa < /dev/zero``) must not fill the memory.
MAX_JOURNEY_LINE = 4096


# between the tile ids of a journey: spaces or commas ("WA OR CA", "WA,OR,CA")
TILE_SEPARATORS = re.compile(r"[\s,]+")


class BadJourney(ValueError):
    """Input that is not a journey of this edition at all."""


STDIN_HELP = """\
with no TILE, journeys are read from standard input, one per line (tile ids separated by spaces or
commas), and one JSON answer is printed per line read, with its "line" number: the verdict,
{"error": "..."} for a line that is not a journey of the edition (unknown tiles, the wrong number of
days, bytes that are not UTF-8 text), or {"empty": true} for a blank line. Exit status: 0 every
journey complete, 1 some journey not complete, 2 some line was bad input. Example:
  printf 'WA OR CA NV UT CO NM TX OK KS\\nWA XX\\n' | tendays check usa"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = STDIN_HELP  # stays English: its JSON and example are read by programs
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "edition", help=_("one of: {editions}").format(editions=", ".join(available_editions()))
    )
    parser.add_argument(
        "tiles",
        nargs="*",
        metavar="TILE",
        help=_(
            "tile ids, day 1 first, separated by spaces or commas (e.g. WA OR plane-blue HI, or "
            "WA,OR,plane-blue,HI); none: read journeys from standard input (below)"
        ),
    )
    parser.add_argument("--json", action="store_true", help=_("print the verdict as JSON"))
    parser.add_argument(
        "--days",
        type=int,
        default=None,
        help=_("number of days the journey must have (default 10)"),
    )
    add_language_argument(parser, by_edition=True)


def parse_journey(edition: Edition, ids: Sequence[str], days: int | None) -> list[int]:
    """Tile ids to tile indices, checking the ids and the length (the verdict judges the rest)."""
    unknown = [i for i in ids if i.upper() not in edition.by_id]
    if unknown:
        raise BadJourney(
            ngettext(
                "{edition} has no tile {tiles}", "{edition} has no tiles {tiles}", len(unknown)
            ).format(edition=edition.name, tiles=", ".join(repr(u) for u in unknown))
        )
    tiles = [edition.tile(i) for i in ids]
    expected = days if days is not None else 10
    if len(tiles) != expected:
        raise BadJourney(
            ngettext(
                "a journey has {days} days, but {count} tile was given",
                "a journey has {days} days, but {count} tiles were given",
                len(tiles),
            ).format(days=expected, count=len(tiles))
        )
    return [t.index for t in tiles]


def run(args: argparse.Namespace) -> int:
    try:
        edition = load_edition(args.edition.lower())
    except EditionError as error:
        raise CommandError(str(error)) from None
    if args.days is not None and args.days < 2:
        raise CommandError(_("a journey needs at least 2 days"))
    checker = checker_for(edition)
    if not args.tiles:
        return check_lines(edition, args.days)
    # "WA,OR,CA" as one argument, as standard input takes it
    ids = [part for word in args.tiles for part in TILE_SEPARATORS.split(word) if part]
    try:
        journey = parse_journey(edition, ids, args.days)
    except BadJourney as error:
        raise CommandError(str(error)) from None
    verdict = checker.check(journey)
    if args.json:
        print(json.dumps(verdict.to_json(), ensure_ascii=False))
    elif verdict.valid:
        print(_("a complete {days}-day journey").format(days=len(journey)))
    else:
        count = len(verdict.problems)
        print(
            ngettext(
                "not a complete journey ({count} problem):",
                "not a complete journey ({count} problems):",
                count,
            ).format(count=count)
        )
        for problem in verdict.problems:
            print(f"  {problem}")
    return 0 if verdict.valid else 1


def check_lines(edition: Edition, days: int | None) -> int:
    """Standard input mode: a JSON verdict per journey line; the exit
    status sums up the worst line."""
    if sys.stdin.isatty():
        print(
            _(
                "Type a journey of {edition} per line, tile ids day 1 first (e.g. WA OR CA ...); "
                "Ctrl-D ends."
            ).format(edition=edition.name),
            file=sys.stderr,
        )
    worst = 0
    for number, raw in enumerate(bounded_lines(sys.stdin.buffer, MAX_JOURNEY_LINE), 1):
        status, answer = _line_answer(edition, days, number, raw)
        worst = max(worst, status)
        # every answer names its line, so answers line up with the lines read
        print(json.dumps({"line": number, **answer}, ensure_ascii=False), flush=True)
    return worst


def _line_answer(
    edition: Edition, days: int | None, number: int, raw: bytes | LongLine
) -> tuple[int, dict[str, object]]:
    """The exit status a line of standard input calls for (0 complete or empty, 1 not complete, 2
    bad input) and its JSON answer: the verdict, ``{"empty": true}`` or ``{"error": ...}``."""
    if isinstance(raw, LongLine):
        message = _("line {number} has {length} bytes: a journey line has at most {most}")
        return 2, {"error": message.format(number=number, length=raw.length, most=MAX_JOURNEY_LINE)}
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        message = _("line {number} is not UTF-8 text (byte {byte})")
        return 2, {"error": message.format(number=number, byte=error.start + 1)}
    ids = [part for part in TILE_SEPARATORS.split(line.strip()) if part]
    if not ids:  # answered, not skipped
        return 0, {"empty": True}
    try:
        verdict = checker_for(edition).check(parse_journey(edition, ids, days))
    except BadJourney as error:
        return 2, {"error": str(error)}
    return (0 if verdict.valid else 1), verdict.to_json()
