"""Where bots and hints think, so that no table ever waits on another table's bot.

The match master asks the engine's turn loop for the next decision
(:func:`tendays.engine.next_decision`: the seat, its view and its seeded random stream), and
:meth:`Thinker.choose` has the bot answer it off the event loop. The random bot answers in
microseconds and runs in place. Every other bot thinks in worker processes: the greedy bot takes
milliseconds and the expert a fifth of a second or more of pure Python, and on a thread either would
hold the interpreter lock while the event loop waits for it, delaying every table of the server. The
event loop writes each turn to a worker's pipe itself (:mod:`.workers`; on Windows through
``ProcessPoolExecutor``). A view crosses with its edition reduced to the edition's id, its
history packed (each event once per game) and its moves as their fields, the random stream as its
state's words, and the answer comes back as the move's place among the legal moves; each worker
keeps its own bots. Hints (well under a millisecond) run on a thread. With no worker processes
(``processes=0``, as in the tests) bots think on the thread pool too.
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
import struct
import sys
import threading
import time
from array import array
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from tendays.bots import Bot, RandomBot, make_bot
from tendays.engine import (
    Decision,
    Edition,
    Event,
    EventKind,
    EventLog,
    Move,
    Options,
    PlayerView,
    available_editions,
    decision_rng,
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
    as their fields, the public history packed (:func:`_reduce_log`), a random stream as its
    state's words."""
    reducers: dict[type, Callable[[Any], Any]] = {
        Edition: _reduce_edition,
        EventLog: _reduce_log,
        random.Random: _reduce_random,
    }
    for cls in (PlayerView, Event, Move, Options):
        reducers[cls] = _by_fields(cls)
    return reducers


# An event packed as seven signed 16-bit numbers: its kind's index, then its fields (None: -1).
_PACKED = struct.Struct("<7h")
_KINDS = tuple(EventKind)
_KIND_INDEX = {kind: index for index, kind in enumerate(_KINDS)}
# The packed events of the logs sent lately, by line of play (EventLog.lineage): a bot's view
# holds the game's whole history, and each turn adds an event or two to it.
_SENT_LOGS: OrderedDict[int, tuple[object, list[bytes]]] = OrderedDict()
_SENT_LOGS_KEPT = 1024
# In a worker: the events unpacked so far, by their packed bytes (most recur from game to game).
_UNPACKED: dict[bytes, Event] = {}


def _pack(event: Event) -> bytes:
    player, tile = event.player, event.tile
    return _PACKED.pack(
        _KIND_INDEX[event.kind],
        -1 if player is None else player,
        event.day,
        event.day2,
        event.pile,
        -1 if tile is None else tile,
        event.count,
    )


def _reduce_log(log: EventLog) -> tuple[Any, ...]:
    """A game's history crosses as one string of packed events, each packed once per line of
    play: pickling the events one by one took most of a bot turn's handoff."""
    lineage = log.lineage()
    sent = _SENT_LOGS.get(id(lineage))
    if sent is None or sent[0] is not lineage:
        sent = _SENT_LOGS[id(lineage)] = (lineage, [])
        if len(_SENT_LOGS) > _SENT_LOGS_KEPT:
            _SENT_LOGS.popitem(last=False)
    else:
        _SENT_LOGS.move_to_end(id(lineage))
    packed = sent[1]
    if len(packed) < len(log):
        try:
            packed.extend(_pack(event) for event in log[len(packed) :])
        except struct.error:  # a field beyond 16 bits: the events one by one, as pickle would
            return EventLog, (list(log),)
    return _unpack_log, (b"".join(packed[: len(log)]),)


def _unpack_log(data: bytes) -> EventLog:
    """The history :func:`_reduce_log` packed."""
    events = []
    for start in range(0, len(data), _PACKED.size):
        chunk = data[start : start + _PACKED.size]
        event = _UNPACKED.get(chunk)
        if event is None:
            if len(_UNPACKED) > 100_000:
                _UNPACKED.clear()
            kind, player, day, day2, pile, tile, count = _PACKED.unpack(chunk)
            event = _UNPACKED[chunk] = Event(
                _KINDS[kind],
                None if player < 0 else player,
                day,
                day2,
                pile,
                None if tile < 0 else tile,
                count,
            )
        events.append(event)
    return EventLog(events)


def _reduce_random(rng: random.Random) -> tuple[Any, ...]:
    """A random stream as its state, the 625 words as one string: pickled as a tuple of numbers
    (the default), half of them too large for pickle's short form, it cost as much as the view."""
    version, words, gauss = rng.getstate()
    return _random_from, (version, array("I", words).tobytes(), gauss)


def _random_from(version: int, words: bytes, gauss: float | None) -> random.Random:
    rng = random.Random(0)
    rng.setstate((version, tuple(array("I", words)), gauss))
    return rng


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


def _choice_in_worker(spec: str, seen: PlayerView, seed: int, seat: int, number: int) -> int | Move:
    """:func:`_choose_in_worker`'s move, with the random stream of ``seat`` for the game's move
    ``number`` made here from the game's ``seed``, as its place among the legal moves (a number
    crosses back for less than a move); a move that is not legal as itself."""
    move = _choose_in_worker(spec, seen, decision_rng(seed, seat, number))
    legal = seen.legal_moves()
    return legal.index(move) if move in legal else move


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
        seen = decision.view
        if isinstance(bot, RandomBot):
            return bot.choose(seen, decision.rng)
        if self._processes_wanted > 0:  # the worker makes the random stream from the seed
            where = (decision.seed, decision.seat, decision.number)
            choice = await self._in_worker(_choice_in_worker, spec, seen, *where)
            return seen.legal_moves()[choice] if isinstance(choice, int) else choice
        return await self.run(bot.choose, seen, decision.rng)

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
