"""Where bots and hints think, so that no table ever waits on another table's bot.

The match master asks the engine's turn loop for the next decision
(:func:`tendays.engine.next_decision`: the seat, its view and its seeded random stream), and
:meth:`Thinker.choose` has the bot answer it off the event loop. The random bot answers in
microseconds and runs in place. Every other bot thinks in worker processes: the greedy bot takes
milliseconds and the expert a fifth of a second or more of pure Python, and on a thread either would
hold the interpreter lock while the event loop waits for it, delaying every table of the server. A
view crosses to a worker with its edition reduced to the edition's id, and each worker keeps its own
bots. Hints (well under a millisecond) run on a thread. With no worker processes (``processes=0``,
as in the tests) bots think on the thread pool too.
"""

from __future__ import annotations

import asyncio
import contextvars
import copyreg
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from tendays.bots import Bot, RandomBot, make_bot
from tendays.engine import Decision, Edition, Move, PlayerView, available_editions, load_edition

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


def _exit_with_parent(parent: int) -> None:
    """In a worker: end when the server process is gone, even if it was killed outright."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="tendays-parent-watch", daemon=True).start()


def _warm_up() -> None:
    """In a new worker: load every edition and build its tables, before
    the first bot turn needs them."""
    for edition in available_editions():
        _ = load_edition(edition).tables


class Thinker:
    """Runs bot decisions and hints off the event loop."""

    def __init__(self, processes: int = 1, threads: int = 2) -> None:
        self._threads = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="tendays-think")
        self._processes_wanted = processes
        self._processes: ProcessPoolExecutor | None = None

    def _process_pool(self) -> Executor:
        if self._processes is None:
            copyreg.pickle(Edition, _reduce_edition)
            # spawn, not fork: the server process has threads, and a
            # forked lock could be held forever.
            spawn = multiprocessing.get_context("spawn")
            self._processes = ProcessPoolExecutor(
                self._processes_wanted,
                mp_context=spawn,
                initializer=_exit_with_parent,
                initargs=(os.getpid(),),
            )
        return self._processes

    def warm_up(self) -> None:
        """Start the worker processes now, so the first bot turn does not wait for them."""
        if self._processes_wanted > 0:
            pool = self._process_pool()
            for _ in range(self._processes_wanted):
                pool.submit(_warm_up)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` on a thread, in the caller's context (its language,
        :func:`use_language`)."""
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(
            self._threads, context.run, function, *args
        )

    async def choose(self, spec: str, bot: Bot, decision: Decision) -> Move:
        """The answer of ``bot`` (named ``spec``) to ``decision``, thought
        out where it delays no table."""
        seen, rng = decision.view, decision.rng
        if isinstance(bot, RandomBot):
            return bot.choose(seen, rng)
        if self._processes_wanted > 0:
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(
                    self._process_pool(), _choose_in_worker, spec, seen, rng
                )
            except BrokenProcessPool:
                # A worker died (killed, out of memory): start fresh workers and think again once.
                self._discard_pool()
                return await loop.run_in_executor(
                    self._process_pool(), _choose_in_worker, spec, seen, rng
                )
        return await self.run(bot.choose, seen, rng)

    async def compute(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the worker processes (on a thread when there are none), for long
        pure work such as a game's analysis. ``function`` and its arguments must cross to a worker
        (a module's function, plain data). Give one piece at a time, so the bots of live tables are
        never queued behind a batch."""
        if self._processes_wanted > 0:
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._process_pool(), function, *args)
            except BrokenProcessPool:
                self._discard_pool()
                return await loop.run_in_executor(self._process_pool(), function, *args)
        return await self.run(function, *args)

    def _discard_pool(self) -> None:
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
            self._processes = None

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        self._discard_pool()
