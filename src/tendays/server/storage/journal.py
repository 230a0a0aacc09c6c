"""The one database thread: every write goes through it, and moves that arrive together share a
commit.

Each caller is answered only once its transaction is committed ("group commit"), so a busy server
does not pay one disk flush per move, and no move is acknowledged before it is stored.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from .rows import MoveRow
from .store import Store

__all__ = ["Journal"]

T = TypeVar("T")
READERS = 2  # threads for reads beside the writer: one for each core of a small server


class Journal:
    """Runs every database call on one thread and batches concurrent moves into one commit; reads
    that change nothing may run beside it (:meth:`read`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tendays-db")
        self._readers = ThreadPoolExecutor(
            max_workers=READERS, thread_name_prefix="tendays-db-read"
        )
        self._pending: list[tuple[MoveRow, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def run(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Call ``function(*args, **kwargs)`` on the database thread, in the caller's context (the
        reader's language for the words it writes)."""
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        return await loop.run_in_executor(
            self._executor, lambda: context.run(function, *args, **kwargs)
        )

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
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((row, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending())
        await future

    async def _write_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self.run(self.store.append_moves, [row for row, _ in batch])
            except Exception as error:
                if len(batch) == 1:
                    _settle(batch[0][1], error)
                    continue
                # One bad row must not fail the moves of other games: retry them one by one.
                for row, future in batch:
                    try:
                        await self.run(self.store.append_moves, [row])
                    except Exception as row_error:
                        _settle(future, row_error)
                    else:
                        _settle(future, None)
            else:
                for _, future in batch:
                    _settle(future, None)

    async def close(self) -> None:
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)
        self._executor.shutdown(wait=True)
        self._readers.shutdown(wait=True)
        self.store.close()


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():  # the mover stopped waiting; the outcome still stands in the database
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
