"""``tendays replay FILE``: step through a saved game with the arrow keys, every rack and the log shown.

``--text`` prints the game instead (the log, and every rack at the end), for a terminal without a screen.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tendays.engine import GameRecord, RecordError, State, checker_for, describe_event, view


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a saved game (tendays play's save file, or any game record)")
    parser.add_argument("--reveal", action="store_true",
                        help="show the racks of an unfinished game too (a finished game always shows them)")
    parser.add_argument("--step", type=float, default=0.8, metavar="SECONDS",
                        help="seconds per move when playing the game back with the space key (default 0.8)")
    parser.add_argument("--text", action="store_true", help="print the game's log and final racks instead")


def run(args: argparse.Namespace) -> int:
    from .tui.replay_app import ReplayApp, replay_states
    from .tui.table import load_save

    try:
        record, _ = load_save(args.file)
        states = replay_states(record)
    except RecordError as error:
        print(f"tendays replay: {error}", file=sys.stderr)
        return 2
    if args.text:
        print_game(record, states, reveal=args.reveal or states[-1].is_over)
        return 0
    if args.step <= 0:
        print("tendays replay: --step must be a positive number of seconds", file=sys.stderr)
        return 2
    ReplayApp(record, reveal=args.reveal, step_seconds=args.step).run()
    return 0


def print_game(record: GameRecord, states: Sequence[State], reveal: bool) -> None:
    """The log of the game and, if public, every rack at the end with its verdict."""
    from rich.console import Console

    from .tui.render import tile_text

    final = states[-1]
    names = record.names or tuple(f"Player {i + 1}" for i in range(record.options.players))
    console = Console(highlight=False)
    spectator = view(final, None)
    for event in spectator.events:
        console.print(describe_event(final.edition, event, names))
    if not reveal:
        console.print("(the game is unfinished: its racks stay hidden; --reveal shows them)")
        return
    checker = checker_for(final.edition)
    for seat in range(record.options.players):
        rack = view(final, seat).rack or ()
        verdict = checker.check(rack)
        problems = len(verdict.problems)
        console.print(f"\n{names[seat]}: " + ("a complete journey" if verdict.valid
                                               else f"{problems} problem{'s' if problems != 1 else ''}"),
                      style="bold")
        for day, tile in enumerate(rack, 1):
            console.print(f"{day:>3} ", tile_text(final.edition, tile), sep="")
        for problem in verdict.problems:
            console.print(f"    ✗ {problem}")
