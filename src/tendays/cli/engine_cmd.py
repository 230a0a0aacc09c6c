"""``tendays engine``: serve a built-in bot over the line-based engine protocol (stdin/stdout).

See ``docs/engine-protocol.md``. Example: ``tendays simulate --players "cmd:tendays engine --bot
expert",greedy``.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from typing import Any, TextIO

from tendays.engine import json_text
from tendays.engine.chance import Purpose, stream
from tendays.engine.i18n import gettext as _

from .command_error import CommandError


def servable_bots() -> list[str]:
    """The bots ``--bot`` can serve: every name and level of the registry, with
    a budget where one is taken."""
    from tendays.bots import BOTS, bot_names

    return [
        *bot_names(),
        *(f"{entry.name}:{entry.budget}" for entry in BOTS.values() if entry.budget),
    ]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bot",
        default="greedy",
        help=f"the bot to serve: {', '.join(servable_bots())} (default: greedy)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the bot's dice (default: 0)")


# The protocol's answers (``error ...``) are read by the program at the other end and, like the
# protocol's commands, are always English (docs/engine-protocol.md); only what is printed to a
# person is translated.


ECHO_LIMIT = 40  # an answer quotes at most this many characters of what it was sent


def _quote(text: str) -> str:
    """``text`` as an answer quotes it: a long line (a stray paste of a
    megabyte) is cut, and says so."""
    return (
        repr(text)
        if len(text) <= ECHO_LIMIT
        else f"{text[:ECHO_LIMIT]!r}… ({len(text)} characters)"
    )


def _json_object(command: str, text: str, what: str) -> tuple[dict[str, Any] | None, str]:
    """The JSON object after ``command``, or None and the protocol error
    naming what is wrong with it."""
    try:
        data = json_text.loads(text)
    except ValueError as error:
        return None, f"'{command}' needs {what} as one JSON object on the same line: {error}"
    if not isinstance(data, dict):
        return None, f"'{command}' needs {what} as a JSON object, not {type(data).__name__}"
    return data, ""


def newgame_problem(text: str) -> str:
    """What is wrong with a ``newgame`` line's JSON, or "" when it describes
    a game this engine can play."""
    from tendays.engine import EditionError, Options, load_edition

    data, problem = _json_object("newgame", text, '{"edition", "options", "player"}')
    if data is None:
        return problem
    missing = [key for key in ("edition", "options", "player") if key not in data]
    if missing:
        return f"'newgame' has no {', '.join(repr(key) for key in missing)}"
    try:
        edition = load_edition(str(data["edition"]))
        if not isinstance(data["options"], dict):
            raise ValueError(f"'options' must be an object, not {json.dumps(data['options'])[:40]}")
        options = Options.from_json(data["options"])
        options.validate(edition)
    except (EditionError, ValueError, TypeError) as error:
        return f"'newgame' describes no game: {error}"
    player = data["player"]
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < options.players:
        shown = json.dumps(player)[:40]
        return f"'player' must be a seat from 0 to {options.players - 1}, not {shown}"
    return ""


def read_view(text: str) -> tuple[Any, str]:
    """The view of a ``go`` line, or None and the protocol error naming what is wrong with it."""
    from tendays.engine.wire import VIEW_FIELDS, view_from_json

    data, problem = _json_object("go", text, "the view")
    if data is None:
        return None, problem
    missing = [key for key in VIEW_FIELDS if key not in data]
    if missing:
        return (
            None,
            f"the view has no {', '.join(repr(key) for key in missing)} (see 'The view' in the "
            f"protocol)",
        )
    try:
        return view_from_json(data), ""
    except ValueError as error:
        return None, f"the view could not be read: {error}"


def serve(bot_spec: str, seed: int, source: TextIO, sink: TextIO) -> int:
    """Answer protocol commands from ``source`` on ``sink`` until 'quit' or end of input. A line
    longer than :data:`~tendays.bots.engine_client.MAX_LINE` characters is answered with an error
    without being held whole."""
    from tendays.bots import make_bot
    from tendays.bots.engine_client import (
        MAX_LINE,
        PROTOCOL_VERSION,
        LongLine,
        bounded_lines,
        not_utf8_at,
    )

    bot = make_bot(bot_spec)
    games = 0
    rng = stream(Purpose.ENGINE_MATCH, seed, games)

    def say(line: str) -> None:
        sink.write(line + "\n")
        sink.flush()

    for raw in bounded_lines(source):
        if isinstance(raw, LongLine):
            say(f"error a line of {raw.length} characters; a line has at most {MAX_LINE}")
            continue
        bad_byte = not_utf8_at(raw)
        if bad_byte is not None:
            say(f"error the line is not UTF-8 text (byte {bad_byte})")
            continue
        command, _, rest = raw.strip().partition(" ")
        if not command or command.startswith("#"):
            continue
        if command == "quit":
            return 0
        if command == "tendays":
            if rest.strip() != str(PROTOCOL_VERSION):
                say(
                    f"error this engine speaks protocol {PROTOCOL_VERSION}, not "
                    f"{_quote(rest.strip())}"
                )
                continue
            say(f"ready {bot.name}")
        elif command == "newgame":
            problem = newgame_problem(rest)
            if problem:
                say(f"error {problem}")
                continue
            games += 1
            rng = stream(Purpose.ENGINE_MATCH, seed, games)
            say("ok")
        elif command == "go":
            view, problem = read_view(rest)
            if view is None:
                say(f"error {problem}")
                continue
            if not view.legal_moves():
                say("error it is not this player's turn")
                continue
            try:
                move = bot.choose(view, rng)
            # a view that reads but is not a position the bot can play from
            except Exception as error:
                say(f"error the bot could not choose a move from this view: {error}")
                continue
            say(f"move {move}")
        else:
            say(f"error unknown command {_quote(command)}; commands: tendays, newgame, go, quit")
    return 0


def run(args: argparse.Namespace) -> int:
    from tendays.bots import make_bot

    if args.bot.startswith("cmd:"):
        raise CommandError(_("serve a built-in bot, not another engine"))
    name = args.bot.partition(":")[0].lower()
    if name not in servable_bots():
        raise CommandError(
            _("unknown bot {bot!r}; serve one of: {bots}").format(
                bot=args.bot, bots=", ".join(servable_bots())
            )
        )
    try:
        make_bot(args.bot)
    except ValueError as error:  # a bad budget, e.g. expert:many
        raise CommandError(str(error)) from None
    if isinstance(sys.stdin, io.TextIOWrapper):
        # a line that is not UTF-8 gets a protocol error, not a crash
        sys.stdin.reconfigure(errors="surrogateescape")
    return serve(args.bot, args.seed, sys.stdin, sys.stdout)
