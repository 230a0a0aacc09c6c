"""Where bots and hints think, so that no table ever waits on another table's bot.

The match master asks the engine's turn loop for the next decision
(:func:`tendays.engine.next_decision`: the seat, its view and its seeded random stream), and
:meth:`Thinker.choose` has the bot answer it off the event loop. The random bot answers in
microseconds and runs in place. Every other bot thinks in worker processes: the greedy bot takes
milliseconds and the expert a fifth of a second or more of pure Python, and on a thread either would
hold the interpreter lock while the event loop waits for it, delaying every table of the server. The
event loop writes each turn to a worker's pipe itself (:mod:`.workers`; on Windows through
``ProcessPoolExecutor``). A view crosses with its edition reduced to the edition's id and its
events and moves as their fields, and each worker keeps its own bots. Hints (well under a
millisecond) run on a thread. With no worker processes (``processes=0``, as in the tests) bots think
on the thread pool too.
"""

from __future__ import annotations

import asyncio
import contextvars
import copyreg
import dataclasses
import multiprocessing
import operator
import os
import random
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from tendays.bots import Bot, RandomBot, make_bot
from tendays.engine import (
    Decision,
    Edition,
    Event,
    Move,
    Options,
    PlayerView,
    available_editions,
    load_edition,
)

from .workers import Workers

__all__ = ["Thinker"]

T = TypeVar("T")

_WORKER_BOTS: dict[str, Bot] = {}


def _reduce_edition(edition: Edition) -> tuple[Callable[[str], Edition], tuple[str]]:
    # Editions are loaded by id and cached, so a worker rebuilds one from its id (and keeps its
    # journey tables) instead of unpickling the whole map each time.
    return load_edition, (edition.id,)


def _reducers() -> dict[type, Callable[[Any], Any]]:
    """How what crosses to a worker is pickled: an edition as its id, a view and what it holds
    as their fields."""
    reducers: dict[type, Callable[[Any], Any]] = {Edition: _reduce_edition}
    for cls in (PlayerView, Event, Move, Options):
        reducers[cls] = _by_fields(cls)
    return reducers


def _call(
    pool: Workers | Executor, function: Callable[..., T], args: tuple[Any, ...]
) -> Awaitable[T]:
    """The awaitable answer of ``function(*args)`` in ``pool``."""
    if isinstance(pool, Workers):
        return pool.submit(function, *args)
    return asyncio.get_running_loop().run_in_executor(pool, function, *args)


def _outcome_seen(future: Any) -> None:
    """Take a warm-up's outcome, so a failed one is not reported as never retrieved."""
    if not future.cancelled():
        future.exception()


def _by_fields(cls: type[T]) -> Callable[[T], tuple[type[T], tuple[Any, ...]]]:
    """A reducer that sends a dataclass as its fields, read in one C call: the default reads them
    in Python, one ``fields()`` walk per object, and a view holds one event per move played."""
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    get = operator.attrgetter(*names)

    def reduce(item: T) -> tuple[type[T], tuple[Any, ...]]:
        return cls, get(item)

    return reduce


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
        self._processes: Workers | Executor | None = None

    def _process_pool(self) -> Workers | Executor:
        if self._processes is None:
            # spawn, not fork: the server process has threads, and a
            # forked lock could be held forever.
            if sys.platform == "win32":  # its event loop watches no pipes: the executor's threads
                for cls, reduce in _reducers().items():
                    copyreg.pickle(cls, reduce)
                self._processes = ProcessPoolExecutor(
                    self._processes_wanted,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_exit_with_parent,
                    initargs=(os.getpid(),),
                )
            else:
                self._processes = Workers(self._processes_wanted, reducers=_reducers())
        return self._processes

    def warm_up(self) -> None:
        """Start the worker processes now, so the first bot turn does not wait for them."""
        if self._processes_wanted > 0:
            pool = self._process_pool()
            for _ in range(self._processes_wanted):
                pool.submit(_warm_up).add_done_callback(_outcome_seen)

    async def _in_worker(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker process."""
        pool = self._process_pool()
        try:
            return await _call(pool, function, args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start fresh workers and call again once.
            self._discard_pool(pool)
            return await _call(self._process_pool(), function, args)

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
            return await self._in_worker(_choose_in_worker, spec, seen, rng)
        return await self.run(bot.choose, seen, rng)

    async def compute(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the worker processes (on a thread when there are none), for long
        pure work such as a game's analysis. ``function`` and its arguments must cross to a worker
        (a module's function, plain data). Give one piece at a time, so the bots of live tables are
        never queued behind a batch."""
        if self._processes_wanted > 0:
            return await self._in_worker(function, *args)
        return await self.run(function, *args)

    def _discard_pool(self, pool: Workers | Executor | None = None) -> None:
        """End the worker processes (only ``pool``'s, if it is still the one in use)."""
        processes = self._processes
        if processes is None or (pool is not None and pool is not processes):
            return  # another caller started fresh workers already
        if isinstance(processes, Workers):
            processes.close()
        else:
            processes.shutdown(wait=False, cancel_futures=True)
        self._processes = None

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        self._discard_pool()
