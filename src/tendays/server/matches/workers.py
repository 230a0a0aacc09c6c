"""Worker processes that the event loop talks to directly, one pipe each.

``concurrent.futures.ProcessPoolExecutor`` hands each call to its workers through a queue that a
thread of its own pickles and feeds, and reads the answers on another thread that wakes the event
loop through a third pipe: for a bot's turn of a millisecond, those threads, locks and wake-ups cost
the server as much CPU as pickling the view. Here the event loop writes each call to a worker's
pipe itself and reads the answer when the pipe is readable (``loop.add_reader``): no thread, no
lock. A call waits in one queue while every worker has two calls sent (one thought, one
waiting in its pipe), so a pipe never holds more than two calls and a write never blocks for long.

A worker ends when its pipe closes (the server went away, even killed outright). A worker that dies
fails the calls it held with ``BrokenProcessPool``, as the executor does; the caller starts
fresh workers. Needs an event loop that watches pipes (``add_reader``): not Windows' proactor.
"""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import pickle
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any

__all__ = ["Workers"]

# calls sent to one worker and not answered yet, at most
IN_FLIGHT = 2

Reducers = Mapping[type, Callable[[Any], Any]]


def _serve(pipe: Connection, start: Callable[[], None] | None) -> None:
    """A worker's life: answer each call read from ``pipe`` until the pipe closes."""
    if start is not None:
        start()
    while True:
        try:
            number, function, args = pickle.loads(pipe.recv_bytes())
        except (EOFError, OSError):
            return  # the server went away
        try:
            answer: tuple[bool, Any] = (True, function(*args))
        except BaseException as error:  # the caller gets it, as from an executor
            answer = (False, error)
        try:
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an answer that cannot cross: the caller hears why
            data = pickle.dumps((False, RuntimeError(repr(error))))
        try:
            # the call's number apart, so that an answer the server cannot read still finds it
            pipe.send_bytes(number.to_bytes(8, "little") + data)
        except OSError:
            return


class _Worker:
    def __init__(self, start: Callable[[], None] | None) -> None:
        context = multiprocessing.get_context("spawn")  # never fork a process that has threads
        self.pipe, theirs = context.Pipe(duplex=True)
        # daemonic: ended with the server, however it ends
        self.process = context.Process(
            target=_serve, args=(theirs, start), name="tendays-worker", daemon=True
        )
        self.process.start()
        theirs.close()
        self.sent: dict[int, asyncio.Future[Any]] = {}


class Workers:
    """``processes`` worker processes, each started with ``start()`` (if given), that run calls
    for the event loop they were made in. ``reducers``: how to pickle the types that cross (a
    pickler's ``dispatch_table``)."""

    def __init__(
        self,
        processes: int,
        start: Callable[[], None] | None = None,
        reducers: Reducers | None = None,
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self._reducers = dict(reducers or {})
        self._waiting: deque[tuple[int, bytes, asyncio.Future[Any]]] = deque()
        self._number = 0
        self._workers = [_Worker(start) for _ in range(processes)]
        for worker in self._workers:
            self._loop.add_reader(worker.pipe.fileno(), self._read, worker)

    def submit(self, function: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """``function(*args)`` in a worker; its answer (or exception) comes in the future."""
        if not self._workers:
            raise BrokenProcessPool("the worker processes ended")
        self._number += 1
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = self._reducers
        pickler.dump((self._number, function, args))
        future: asyncio.Future[Any] = self._loop.create_future()
        self._waiting.append((self._number, buffer.getvalue(), future))
        self._send()
        return future

    def _send(self) -> None:
        """Send waiting calls to the workers with room, the least busy first."""
        while self._waiting:
            worker = min(self._workers, key=lambda w: len(w.sent), default=None)
            if worker is None or len(worker.sent) >= IN_FLIGHT:
                return
            number, data, future = self._waiting.popleft()
            if future.done():
                continue  # its caller stopped waiting
            try:
                worker.pipe.send_bytes(data)
            except OSError:
                future.set_exception(BrokenProcessPool("a worker process ended"))
                self.close()  # a worker died (killed, out of memory): start afresh
                return
            worker.sent[number] = future

    def _read(self, worker: _Worker) -> None:
        """The worker's pipe is readable: take one answer (the loop calls again while it holds
        more; ``poll`` would build a selector each time)."""
        try:
            data = worker.pipe.recv_bytes()
        except (EOFError, OSError):
            self.close()  # the worker died (killed, out of memory): start afresh
            return
        future = worker.sent.pop(int.from_bytes(data[:8], "little"), None)
        if future is not None and not future.done():
            try:
                ok, value = pickle.loads(data[8:])
            except Exception as error:  # an answer this process cannot read
                ok, value = False, RuntimeError(f"a worker's answer could not be read: {error!r}")
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._send()

    @property
    def closed(self) -> bool:
        return not self._workers

    def close(self) -> None:
        """End the workers; calls not answered fail with ``BrokenProcessPool`` (the callers may
        start fresh workers and call again)."""
        broken = BrokenProcessPool("the worker processes ended")
        for worker in self._workers:
            self._loop.remove_reader(worker.pipe.fileno())
            for future in worker.sent.values():
                if not future.done():
                    future.set_exception(broken)
            worker.sent.clear()
            worker.pipe.close()
            worker.process.terminate()
        for _number, _data, future in self._waiting:
            if not future.done():
                future.set_exception(broken)
        self._waiting.clear()
        self._workers = []
