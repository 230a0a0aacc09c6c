"""``tendays replay FILE``: step through a saved game with the arrow keys, every rack and the log
shown.

``--text`` prints the game instead (the log, and every rack at the end), for a terminal without a
screen.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from tendays.engine import GameRecord, RecordError, State, checker_for, use_language, view
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext
from tendays.engine.plain_text import shown

from .command_error import CommandError
from .language import add_language_argument, choose_language


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from .tui.palettes import PALETTES

    parser.add_argument(
        "file", type=Path, help=_("a saved game (tendays play's save file, or any game record)")
    )
    parser.add_argument(
        "--reveal",
        action="store_true",
        help=_("show the racks of an unfinished game too (a finished game always shows them)"),
    )
    parser.add_argument(
        "--step",
        type=float,
        default=0.8,
        metavar="SECONDS",
        help=_("seconds per move when playing the game back with the space key (default 0.8)"),
    )
    parser.add_argument(
        "--text", action="store_true", help=_("print the game's log and final racks instead")
    )
    parser.add_argument(
        "--palette",
        choices=PALETTES,
        default=None,
        help=_(
            "the tile colours: the edition's (normal) or colours for colour-blind players (cb); "
            "the c key switches them (default: the save file's, else normal)"
        ),
    )
    add_language_argument(parser, by_edition=True)


def run(args: argparse.Namespace) -> int:
    from .tui.replay_app import ReplayApp
    from .tui.save_file import load_save, saved_palette

    try:
        record, _seats = load_save(args.file)
        states = record.states()
    except RecordError as error:
        raise CommandError(str(error)) from None
    # a German game replays in German unless asked otherwise
    lang = choose_language(args.lang, record.edition)
    if args.text:
        with use_language(lang):
            print_game(record, states, reveal=args.reveal or states[-1].is_over)
        return 0
    if args.step <= 0:
        raise CommandError(_("--step must be a positive number of seconds"))
    palette = args.palette or saved_palette(args.file) or "normal"
    ReplayApp(
        record, reveal=args.reveal, step_seconds=args.step, language=lang, palette=palette
    ).run()
    return 0


def print_game(record: GameRecord, states: Sequence[State], reveal: bool) -> None:
    """The log of the game and, if public, every rack at the end with its verdict."""
    from rich.console import Console

    from .tui.render import log_line, person, tile_text

    final = states[-1]
    # names from a file: load_save refused unsafe ones; shown() is the last line of defence
    names = tuple(map(shown, record.names)) or tuple(
        _("Player {number}").format(number=i + 1) for i in range(record.options.players)
    )
    console = Console(highlight=False)
    spectator = view(final, None)
    for event in spectator.events:
        console.print(log_line(final.edition, event, names))
    if not reveal:
        console.print(_("(the game is unfinished: its racks stay hidden; --reveal shows them)"))
        return
    checker = checker_for(final.edition)
    for seat in range(record.options.players):
        rack = view(final, seat).rack or ()
        verdict = checker.check(rack)
        problems = len(verdict.problems)
        console.print(
            f"\n{person(names[seat])}: "
            + (
                _("a complete journey")
                if verdict.valid
                else ngettext("{count} problem", "{count} problems", problems).format(
                    count=problems
                )
            ),
            style="bold",
        )
        for day, tile in enumerate(rack, 1):
            console.print(f"{day:>3} ", tile_text(final.edition, tile), sep="")
        for problem in verdict.problems:
            console.print(f"    ✗ {problem}")
