"""``tendays bridge``: put a program that speaks the engine protocol on a tendays site, as the bot
account of an API token (see :mod:`tendays.bridge`).

``tendays bridge --server https://site --token TOKEN --editions usa --games 2 -- python my_bot.py``
runs until SIGINT or SIGTERM (exit 0); a token the site refuses, or a program that does not start
or does not speak the protocol, ends it with status 2 and the reason. The token may also come from
``TENDAYS_BOT_TOKEN``, so that it never shows in the process list.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shlex
import signal
from pathlib import Path
from typing import TYPE_CHECKING

from tendays.engine.i18n import gettext as _

from .command_error import CommandError
from .language import add_language_argument

if TYPE_CHECKING:  # the bridge (and httpx) load only when the command runs
    from tendays.bridge.runner import Bridge

TOKEN_VARIABLE = "TENDAYS_BOT_TOKEN"


def _choices(enum_name: str) -> list[str]:
    from tendays.bridge import policy

    return [choice.value for choice in getattr(policy, enum_name)]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add = parser.add_argument
    add("--server", required=True, metavar="URL", help="the site, e.g. https://tendays.example")
    add(
        "--token",
        metavar="TOKEN",
        help=f"an API token of the bot account with the bot:play scope [{TOKEN_VARIABLE}]",
    )
    add(
        "--editions",
        metavar="LIST",
        help="accept challenges of these editions only, e.g. usa,germany (default: every edition)",
    )
    add(
        "--games",
        type=int,
        default=1,
        metavar="N",
        help="games played at once; challenges beyond them are declined (default 1)",
    )
    add(
        "--rated",
        choices=_choices("RatedChoice"),
        default="any",
        help="accept rated challenges, casual ones, or any (default any)",
    )
    add(
        "--clocks",
        choices=_choices("ClockChoice"),
        default="any",
        help="accept challenges with this kind of clock (none: without a clock; default any)",
    )
    add("--log-file", type=Path, metavar="FILE", help="also append the log to FILE")
    add_language_argument(parser)
    add(
        "program",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND",
        help="the program to run for each game, after --, e.g. -- tendays engine --bot greedy",
    )


def run(args: argparse.Namespace) -> int:
    try:
        from tendays.bridge import ClockChoice, Policy, RatedChoice
        from tendays.bridge.logs import close_log, open_log
        from tendays.bridge.program import EngineError, probe
        from tendays.bridge.runner import Bridge, BridgeStopped
        from tendays.bridge.site import Site
    except ModuleNotFoundError as error:
        raise CommandError(
            _(
                "{module} is missing; install the bridge extra: pip install -e '.[bridge]' in a "
                "clone of tendays"
            ).format(module=error.name)
        ) from None
    from tendays.engine import available_editions, default_edition

    words = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not words:
        raise CommandError(
            _("name the program to run after --, e.g. -- tendays engine --bot greedy")
        )
    command = shlex.join(words)
    token = (args.token or os.environ.get(TOKEN_VARIABLE, "")).strip()
    if not token:
        raise CommandError(
            _("give the bot account's API token with --token or {variable}").format(
                variable=TOKEN_VARIABLE
            )
        )
    server = args.server.rstrip("/")
    if not server.startswith(("http://", "https://")):
        raise CommandError(_("--server needs an address such as https://tendays.example"))
    editions = [e.strip() for e in (args.editions or "").split(",") if e.strip()]
    unknown = [e for e in editions if e not in available_editions()]
    if unknown:
        raise CommandError(
            _("no edition {unknown}: the editions are {known}").format(
                unknown=", ".join(unknown), known=", ".join(available_editions())
            )
        )
    if args.games < 1:
        raise CommandError(_("--games must be at least 1"))
    try:
        log = open_log(token, args.log_file)
    except OSError as error:
        raise CommandError(_("cannot write the log file: {error}").format(error=error)) from None
    try:
        name = probe(command, editions[0] if editions else default_edition())
    except EngineError as error:
        close_log(log)
        raise CommandError(
            _("the program {command} cannot play: {error}").format(command=command, error=error)
        ) from None
    policy = Policy(
        editions=frozenset(editions),
        games=args.games,
        rated=RatedChoice(args.rated),
        clocks=ClockChoice(args.clocks),
    )
    bridge = Bridge(Site(server, token), policy, command, log, program_name=name)
    try:
        asyncio.run(_until_stopped(bridge))
    except BridgeStopped as stopped:
        raise CommandError(
            _(
                "the server refused the token ({status}: {detail}); make a token with bot:play "
                "at {server}/account/tokens"
            ).format(status=stopped.status, detail=stopped.detail, server=server)
        ) from None
    finally:
        close_log(log)
    return 0


async def _until_stopped(bridge: Bridge) -> None:
    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on this platform
            loop.add_signal_handler(signal_number, bridge.stop)
    await bridge.run()
