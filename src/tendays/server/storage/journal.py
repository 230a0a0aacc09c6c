"""The one database thread: every write goes through it, and moves that arrive together share a
commit.

Each caller is answered only once its transaction is committed ("group commit"), so a busy server
does not pay one disk flush per move, and no move is acknowledged before it is stored.

The writer is a thread of its own fed by a queue, not an executor: a batch of moves is taken
whole by the thread as soon as it is free and answered with one call into the event loop (one
wake-up for every mover of the batch), and a call costs no executor future chained to an asyncio
one.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from .rows import MoveRow
from .store import Store

__all__ = ["Journal"]

T = TypeVar("T")
READERS = 2  # threads for reads beside the writer: one for each core of a small server

_MOVES = object()  # the queue's token: take the moves waiting (``Journal._moves``)
_STOP = object()  # the queue's token: the thread ends
Waiter = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]"]
# (waiter, function, context): a call to run on the writer thread
Call = tuple[Waiter, Callable[[], Any], contextvars.Context]


class Journal:
    """Runs every database call on one thread and batches concurrent moves into one commit; reads
    that change nothing may run beside it (:meth:`read`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._jobs: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._readers = ThreadPoolExecutor(
            max_workers=READERS, thread_name_prefix="tendays-db-read"
        )
        self._lock = threading.Lock()  # guards _moves and _asked, shared with the writer thread
        self._moves: list[tuple[MoveRow, Waiter]] = []
        self._asked = False  # a _MOVES token is in the queue, not yet taken
        self._closed = False
        # A daemon, so that a journal never closed (a test's) does not keep the interpreter
        # alive; close() drains it, and a move is only acknowledged once committed anyway.
        self._thread = threading.Thread(target=self._work, name="tendays-db", daemon=True)
        self._thread.start()

    async def run(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Call ``function(*args, **kwargs)`` on the database thread, in the caller's context (the
        reader's language for the words it writes)."""
        if self._closed:
            raise RuntimeError("the journal is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        call: Call = ((loop, future), lambda: function(*args, **kwargs), contextvars.copy_context())
        self._jobs.put(call)
        return await future

    async def read(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Call ``function(*args, **kwargs)``, which only reads (a profile, a leaderboard or lobby
        page), on a reader thread: a page for a visitor never waits behind the writer's batch of
        moves, lease renewals or pairing sweep (SQLite's WAL lets readers run beside the writer;
        PostgreSQL has a connection each). It runs in the caller's context, as :meth:`run`: a
        bot's name on a German reader's profile is German."""
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        return await loop.run_in_executor(
            self._readers, lambda: context.run(function, *args, **kwargs)
        )

    async def append_move(self, row: MoveRow) -> None:
        """Return once ``row`` is committed; raise if it could not be."""
        if self._closed:
            raise RuntimeError("the journal is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            self._moves.append((row, (loop, future)))
            asked, self._asked = self._asked, True
        if not asked:  # the moves that come before the thread takes them join this batch
            self._jobs.put(_MOVES)
        await future

    def _work(self) -> None:
        """The writer thread: each job in turn, until :data:`_STOP`."""
        while True:
            job = self._jobs.get()
            if job is _STOP:
                return
            if job is _MOVES:
                with self._lock:
                    batch, self._moves, self._asked = self._moves, [], False
                _answer(self._write(batch))
                continue
            assert isinstance(job, tuple)
            call: Call = job
            waiter, function, context = call
            try:
                result = context.run(function)
            except BaseException as error:  # noqa: BLE001 - the caller gets it, as from an executor
                _answer([(waiter, None, error)])
            else:
                _answer([(waiter, result, None)])

    def _write(self, batch: list[tuple[MoveRow, Waiter]]) -> list[Outcome]:
        """Commit a batch of moves; each mover's outcome."""
        try:
            self.store.append_moves([row for row, _ in batch])
        except Exception as error:
            if len(batch) == 1:
                return [(batch[0][1], None, error)]
            # One bad row must not fail the moves of other games: retry them one by one.
            outcomes: list[Outcome] = []
            for row, waiter in batch:
                try:
                    self.store.append_moves([row])
                except Exception as row_error:
                    outcomes.append((waiter, None, row_error))
                else:
                    outcomes.append((waiter, None, None))
            return outcomes
        return [(waiter, None, None) for _, waiter in batch]

    async def close(self) -> None:
        """Finish what is queued (every caller is answered), then end the threads and close the
        store."""
        if not self._closed:
            await self.run(lambda: None)  # everything queued before it is done and answered
            self._closed = True
            self._jobs.put(_STOP)
            await asyncio.get_running_loop().run_in_executor(None, self._thread.join)
        self._readers.shutdown(wait=True)
        self.store.close()


# (waiter, result, error): what a caller is answered
Outcome = tuple[Waiter, Any, BaseException | None]


def _answer(outcomes: list[Outcome]) -> None:
    """Settle the callers' futures in their loops: one call a loop, whatever the number."""
    by_loop: dict[asyncio.AbstractEventLoop, list[Outcome]] = {}
    for outcome in outcomes:
        by_loop.setdefault(outcome[0][0], []).append(outcome)
    for loop, settled in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(_settle_all, settled)


def _settle_all(outcomes: list[Outcome]) -> None:
    for (_, future), result, error in outcomes:
        if future.done():  # the caller stopped waiting; the outcome still stands in the database
            continue
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)
