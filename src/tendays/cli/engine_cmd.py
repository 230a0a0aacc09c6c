"""``tendays engine``: serve a built-in bot over the line-based engine protocol (stdin/stdout).

See ``docs/engine-protocol.md``. Example: ``tendays simulate --players "cmd:tendays engine --bot expert",greedy``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import TextIO


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from tendays.bots import BOTS, bot_names

    forms = [*bot_names(), *(f"{entry.name}:{entry.budget}" for entry in BOTS.values() if entry.budget)]
    parser.add_argument("--bot", default="greedy",
                        help=f"the bot to serve: {', '.join(forms)} (default: greedy)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bot's dice (default: 0)")


def serve(bot_spec: str, seed: int, source: TextIO, sink: TextIO) -> int:
    """Answer protocol commands from ``source`` on ``sink`` until 'quit' or end of input."""
    from tendays.bots import make_bot
    from tendays.bots.engine_client import PROTOCOL_VERSION
    from tendays.engine.wire import view_from_json

    bot = make_bot(bot_spec)
    games = 0
    rng = random.Random(f"tendays-engine/{seed}/{games}")

    def say(line: str) -> None:
        sink.write(line + "\n")
        sink.flush()

    for raw in source:
        command, _, rest = raw.strip().partition(" ")
        if not command or command.startswith("#"):
            continue
        if command == "quit":
            return 0
        if command == "tendays":
            if rest.strip() != str(PROTOCOL_VERSION):
                say(f"error this engine speaks protocol {PROTOCOL_VERSION}, not {rest.strip()!r}")
                continue
            say(f"ready {bot.name}")
        elif command == "newgame":
            games += 1
            rng = random.Random(f"tendays-engine/{seed}/{games}")
            say("ok")
        elif command == "go":
            try:
                view = view_from_json(json.loads(rest))
            except ValueError as error:
                say(f"error the view could not be read: {error}")
                continue
            if not view.legal_moves():
                say("error it is not this player's turn")
                continue
            say(f"move {bot.choose(view, rng)}")
        else:
            say(f"error unknown command {command!r}; commands: tendays, newgame, go, quit")
    return 0


def run(args: argparse.Namespace) -> int:
    from tendays.bots import make_bot

    if args.bot.startswith("cmd:"):
        print("tendays engine: serve a built-in bot, not another engine", file=sys.stderr)
        return 2
    try:
        make_bot(args.bot)
    except ValueError as error:
        print(f"tendays engine: {error}", file=sys.stderr)
        return 2
    return serve(args.bot, args.seed, sys.stdin, sys.stdout)
