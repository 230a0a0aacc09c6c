"""The ``tendays`` command: one subcommand per module, loaded lazily so each stays light."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# name -> module under tendays.cli; each module defines ``add_arguments(parser)`` and ``run(args) ->
# int``. Heavy dependencies (Textual, FastAPI, ...) are imported inside ``run`` so
# ``tendays check`` stays fast.
COMMANDS = {
    "map": ("map_cmd", "show an edition's regions, colours, borders and tiles"),
    "check": ("check_cmd", "check whether tiles form a complete journey"),
    "play": ("play_cmd", "play a game in the terminal"),
    "learn": ("learn_cmd", "learn to play: a guided first game against gentle bots"),
    "replay": ("replay_cmd", "step through a saved game"),
    "simulate": ("simulate_cmd", "play many bot games and report statistics"),
    "puzzles": ("puzzles_cmd", "solve puzzles taken from real games, or print them as JSON"),
    "engine": ("engine_cmd", "serve a built-in bot over the line-based engine protocol"),
    "serve": ("serve_cmd", "start the web server for browser games"),
    "admin": ("admin_cmd", "the operator's commands for a running server, and database backups"),
    "accounts": ("accounts_cmd", "the operator's account commands: reset a forgotten password"),
}


def build_parser() -> argparse.ArgumentParser:
    from tendays import __version__

    parser = argparse.ArgumentParser(prog="tendays", description="The 10 Days travel games.")
    parser.add_argument("--version", action="version", version=f"tendays {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        try:
            module = importlib.import_module(f"tendays.cli.{module_name}")
        except ModuleNotFoundError as error:
            if error.name != f"tendays.cli.{module_name}":
                raise
            continue
        command = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 0
    from tendays.engine import use_language

    from .language import command_language

    try:
        # what the command says, in its reader's language
        with use_language(command_language(args)):
            return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
