"""The ``tendays`` command: one subcommand per module, loaded lazily so each stays light."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tendays.engine.i18n import gettext as _

from .command_error import CommandError


def N_(message: str) -> str:
    """Marks a sentence for the catalogues where it is defined; it is translated where shown."""
    return message


# name -> module under tendays.cli; each module defines ``add_arguments(parser)`` and ``run(args) ->
# int``. Heavy dependencies (Textual, FastAPI, ...) are imported inside ``run`` so
# ``tendays check`` stays fast.
COMMANDS = {
    "map": ("map_cmd", N_("show an edition's regions, colours, borders and tiles")),
    "check": ("check_cmd", N_("check whether tiles form a complete journey")),
    "play": ("play_cmd", N_("play a game in the terminal")),
    "learn": ("learn_cmd", N_("learn to play: a guided first game against gentle bots")),
    "replay": ("replay_cmd", N_("step through a saved game")),
    "simulate": ("simulate_cmd", N_("play many bot games and report statistics")),
    "puzzles": ("puzzles_cmd", N_("solve puzzles taken from real games, or print them as JSON")),
    "engine": ("engine_cmd", N_("serve a built-in bot over the line-based engine protocol")),
    "bridge": (
        "bridge_cmd",
        N_("play on a tendays site as a bot account, with a program speaking the engine protocol"),
    ),
    "serve": ("serve_cmd", N_("start the web server for browser games")),
    "admin": (
        "admin_cmd",
        N_("the operator's commands for a running server, and database backups"),
    ),
    "accounts": (
        "accounts_cmd",
        N_("the operator's account commands: reset a forgotten password"),
    ),
}


def build_parser() -> argparse.ArgumentParser:
    from tendays import __version__

    parser = argparse.ArgumentParser(prog="tendays", description=_("The 10 Days travel games."))
    parser.add_argument(
        "--version",
        action="version",
        version=f"tendays {__version__}",
        help=_("show the version of tendays and exit"),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        try:
            module = importlib.import_module(f"tendays.cli.{module_name}")
        except ModuleNotFoundError as error:
            if error.name != f"tendays.cli.{module_name}":
                raise
            continue
        command = sub.add_parser(name, help=_(help_text), description=_(help_text))
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def help_language(argv: Sequence[str]) -> str:
    """The language of ``--help`` and of refused arguments, before the arguments are parsed: the
    ``--lang`` given, else the one ``LANGUAGE``/``LANG`` asks for, else English."""
    from tendays.engine import available_languages

    from .language import environment_language

    for index, word in enumerate(argv):
        lang = word.partition("=")[2] if word.startswith("--lang=") else None
        if word == "--lang" and index + 1 < len(argv):
            lang = argv[index + 1]
        if lang in available_languages():
            return lang
    return environment_language() or "en"


def main(argv: Sequence[str] | None = None) -> int:
    from tendays.engine import use_language

    from .argparse_words import speak_argparse
    from .language import command_language

    argv = list(sys.argv[1:] if argv is None else argv)
    speak_argparse()
    with use_language(help_language(argv)):  # --help and refused arguments
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help()
            return 0

    try:
        # what the command says, in its reader's language
        with use_language(command_language(args)):
            return int(args.run(args) or 0)
    except CommandError as error:
        named = f"tendays {args.command}: {error.message}"
        print(named if error.named else error.message, file=sys.stderr)
        return error.status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
