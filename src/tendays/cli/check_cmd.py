"""``tendays check EDITION TILE... [--json] [--days N]``: is this a complete journey?

The answer is the engine's verdict (:meth:`tendays.engine.JourneyChecker.check`), which names every
broken step and every tile held more often than the box has it. Exit status: 0 complete, 1 not
complete, 2 bad input (an unknown edition or tile, or the wrong number of days).

With no tiles, journeys are read from standard input, one per line, and one JSON verdict (or
``{"error": ...}``) is printed per line; blank lines are skipped. The exit status is then 2 if any
line was bad input, else 1 if any journey was not complete, else 0.
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

from .language import add_language_argument

# The longest line read from standard input: a journey of the most days is under 100 bytes, and a
# line that never ends (``tendays check usa < /dev/zero``) must not fill the memory.
MAX_JOURNEY_LINE = 4096


class BadJourney(ValueError):
    """Input that is not a journey of this edition at all."""


STDIN_HELP = """\
with no TILE, journeys are read from standard input, one per line (tile ids separated by spaces or
commas; blank lines are skipped), and one JSON verdict is printed per line: the verdict, or
{"error": "..."} for a line that is not a journey of the edition (unknown tiles, the wrong number of
days, bytes that are not UTF-8 text). Exit status: 0 every journey complete, 1 some journey not
complete, 2 some line was bad input. Example:
  printf 'WA OR CA NV UT CO NM TX OK KS\\nWA XX\\n' | tendays check usa"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = STDIN_HELP
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("edition", help=f"one of: {', '.join(available_editions())}")
    parser.add_argument(
        "tiles",
        nargs="*",
        metavar="TILE",
        help="tile ids, day 1 first (e.g. WA OR plane-blue HI); none: read journeys from standard "
        "input (below)",
    )
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    parser.add_argument(
        "--days", type=int, default=None, help="number of days the journey must have (default 10)"
    )
    add_language_argument(parser)


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
        print(f"tendays check: {error}", file=sys.stderr)
        return 2
    if args.days is not None and args.days < 2:
        print("tendays check: " + _("a journey needs at least 2 days"), file=sys.stderr)
        return 2
    checker = checker_for(edition)
    if not args.tiles:
        return check_lines(edition, args.days)
    try:
        journey = parse_journey(edition, args.tiles, args.days)
    except BadJourney as error:
        print(f"tendays check: {error}", file=sys.stderr)
        return 2
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
    checker = checker_for(edition)
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
        if isinstance(raw, LongLine):
            worst = 2
            message = _("line {number} has {length} bytes: a journey line has at most {most}")
            print(
                json.dumps(
                    {
                        "error": message.format(
                            number=number, length=raw.length, most=MAX_JOURNEY_LINE
                        )
                    }
                ),
                flush=True,
            )
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            worst = 2
            message = _("line {number} is not UTF-8 text (byte {byte})").format(
                number=number, byte=error.start + 1
            )
            print(json.dumps({"error": message}, ensure_ascii=False), flush=True)
            continue
        ids = [part for part in re.split(r"[\s,]+", line.strip()) if part]
        if not ids:
            continue
        try:
            verdict = checker.check(parse_journey(edition, ids, days))
        except BadJourney as error:
            worst = 2
            print(json.dumps({"error": str(error)}, ensure_ascii=False), flush=True)
            continue
        worst = max(worst, 0 if verdict.valid else 1)
        print(json.dumps(verdict.to_json(), ensure_ascii=False), flush=True)
    return worst
