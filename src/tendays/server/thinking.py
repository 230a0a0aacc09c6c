"""Where bots and hints think, so that no table ever waits on another table's bot.

Light thinking (the random and greedy bots, hints: milliseconds) runs on a small thread pool. The
expert bot searches for a fifth of a second or more of pure Python, which on a thread would hold the
interpreter lock against the event loop; it runs in worker processes instead. A view crosses to a
worker with its edition reduced to the edition's id, and each worker keeps its own bots.
"""

from __future__ import annotations

import asyncio
import copyreg
import multiprocessing
import random
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from tendays.bots import Bot, ExpertBot, make_bot
from tendays.engine import Edition, Move, PlayerView, load_edition

__all__ = ["Thinker"]

T = TypeVar("T")

_WORKER_BOTS: dict[str, Bot] = {}


def _reduce_edition(edition: Edition) -> tuple[Callable[[str], Edition], tuple[str]]:
    # Editions are loaded by id and cached, so a worker rebuilds one from its id (and keeps its
    # journey tables) instead of unpickling the whole map each time.
    return load_edition, (edition.id,)


def _choose_in_worker(spec: str, seen: PlayerView, rng: random.Random) -> Move:
    bot = _WORKER_BOTS.get(spec)
    if bot is None:
        bot = _WORKER_BOTS[spec] = make_bot(spec)
    return bot.choose(seen, rng)


class Thinker:
    """Runs bot decisions and hints off the event loop."""

    def __init__(self, processes: int = 1, threads: int = 2) -> None:
        self._threads = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="tendays-think")
        self._processes_wanted = processes
        self._processes: ProcessPoolExecutor | None = None

    def _process_pool(self) -> Executor:
        if self._processes is None:
            copyreg.pickle(Edition, _reduce_edition)
            # spawn, not fork: the server process has threads, and a forked lock could be held forever.
            spawn = multiprocessing.get_context("spawn")
            self._processes = ProcessPoolExecutor(self._processes_wanted, mp_context=spawn)
        return self._processes

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` on a thread."""
        return await asyncio.get_running_loop().run_in_executor(self._threads, function, *args)

    async def choose(self, spec: str, bot: Bot, seen: PlayerView, rng: random.Random) -> Move:
        """The bot's move. Heavy bots go to a worker process (which keeps its own copy of the bot)."""
        if self._processes_wanted > 0 and isinstance(bot, ExpertBot):
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._process_pool(), _choose_in_worker, spec, seen, rng)
        return await self.run(bot.choose, seen, rng)

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
