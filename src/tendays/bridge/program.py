"""The program the bridge runs: one process per game, spoken to through the engine protocol
(:class:`~tendays.bots.engine_client.EngineBot`), restarted when it fails.

The engine client is synchronous (it waits on the program's lines with deadlines); each call runs on
a worker thread so that one slow program never holds up the others or the streams.
"""

from __future__ import annotations

import asyncio
import random
import shlex

from tendays.bots.engine_client import EngineBot, EngineError
from tendays.engine import Move, Options, PlayerView, load_edition, new_game, view

__all__ = ["EngineError", "Program", "probe"]


def probe(command: str, edition: str) -> str:
    """Start ``command`` and ask it for the first move of a fresh game of ``edition``, as a game
    would; its name (from its greeting). Raises :class:`EngineError` naming what went wrong (it
    does not start, does not answer as the protocol says, or answers a move the rules refuse)."""
    if not shlex.split(command):
        raise EngineError("no command was given to run")
    bot = EngineBot(command)
    try:
        seen = view(new_game(load_edition(edition), Options(players=2), seed=1), 0)
        move = bot.choose(seen, random.Random(0))
        if move not in seen.legal_moves():
            raise EngineError(f"the engine answered the first move with '{move}', not a legal move")
        return bot.engine_name or command
    finally:
        bot.close()


class Program:
    """The program of one game. :meth:`ask` starts it if it is not running; a failure stops it,
    and the next :meth:`ask` starts a fresh process (a restart)."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.restarts = 0
        self._bot: EngineBot | None = None
        self._started = False  # a process was started once: the next start is a restart

    async def ask(self, seen: PlayerView) -> Move:
        """The program's answer to ``seen`` (not yet checked against the rules). Raises
        :class:`EngineError` if the program failed; it is then stopped."""
        if self._bot is None:
            if self._started:
                self.restarts += 1
            self._bot, self._started = EngineBot(self.command), True
        bot = self._bot
        try:
            return await asyncio.to_thread(bot.choose, seen, random.Random(0))
        except EngineError:
            await self.stop()
            raise

    async def stop(self) -> None:
        """Say ``quit`` and make sure the process has ended."""
        bot, self._bot = self._bot, None
        if bot is not None:
            await asyncio.to_thread(bot.close)
