"""The password hashing queue: a bounded number of Argon2id hashes at once, places shared fairly,
and an answer at once when there is no place.

Each hash takes 64 MiB and about a tenth of a second of a core, so at most ``workers`` run at once
(on threads: the event loop never waits for one). Whoever asks for a hash takes a place in one of
two lanes, and a lane's places (waiting or running) are few, so nobody waits long:

- :attr:`Lane.KNOWN`: sign-ins from a known device and the checks of a signed-in account's own
  password. They are served first whenever a worker is free.
- :attr:`Lane.STRANGER`: sign-ins from browsers the account does not know, and sign-ups. They use at
  most ``stranger_workers`` of the workers (one less than all, by default), so a worker is always
  free or about to be for a known asker, and its hash shares the cores with one stranger's at most.

Within a lane one asker (an address, a known device, an account) holds at most ``per_asker``
places, so a few addresses cannot take a lane. When there is no place, :class:`HashingBusy` is
raised at once: the caller answers 429 and the attempt is not counted. A flood of wrong sign-ins
from many addresses therefore fills the stranger lane and is refused beyond it, while the owner's
sign-in from a known device waits at most for one hash already running.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["Asker", "HashingBusy", "HashingQueue", "Lane"]

T = TypeVar("T")


class Lane(enum.Enum):
    """Who waits for a hash, in the order they are served."""

    KNOWN = "known"
    STRANGER = "stranger"


@dataclass(frozen=True, slots=True)
class Asker:
    """Who asks for a hash: its lane and what its fair share is counted by."""

    lane: Lane
    key: str


class HashingBusy(Exception):
    """No place in the asker's lane, or the asker holds its share already."""


class HashingQueue:
    """See the module's text. ``places``: the places of each lane (waiting or running);
    ``per_asker``: the most one asker holds in its lane; ``stranger_workers``: the most workers
    strangers use at once (default: all but one)."""

    def __init__(
        self,
        workers: int = 2,
        places: int = 8,
        per_asker: int = 2,
        stranger_workers: int | None = None,
    ) -> None:
        self.workers = workers
        self.places = places
        self.per_asker = per_asker
        self.stranger_workers = stranger_workers or max(1, workers - 1)
        self._running: Counter[Lane] = Counter()
        self._held: Counter[Lane] = Counter()
        self._held_by: Counter[Asker] = Counter()
        self._waiting: dict[Lane, deque[asyncio.Future[None]]] = {lane: deque() for lane in Lane}

    async def run(self, asker: Asker, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` on a thread once a worker is free; :class:`HashingBusy` at once when
        ``asker`` has no place."""
        with self.place(asker):
            return await self.hash_in_place(asker.lane, function, *args)

    @contextlib.contextmanager
    def place(self, asker: Asker) -> Iterator[None]:
        """Hold a place in ``asker``'s lane while inside (:class:`HashingBusy` at once when there is
        none): a caller may take its place before other work, so that a request the queue could not
        serve costs nothing more."""
        if self._held[asker.lane] >= self.places or self._held_by[asker] >= self.per_asker:
            raise HashingBusy(asker.lane.value)
        self._held[asker.lane] += 1
        self._held_by[asker] += 1
        try:
            yield
        finally:
            self._held[asker.lane] -= 1
            self._held_by[asker] -= 1
            if not self._held_by[asker]:
                del self._held_by[asker]

    async def hash_in_place(self, lane: Lane, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` on a thread once a worker is free, for a caller that holds a place
        in ``lane`` (:meth:`place`)."""
        await self._worker(lane)
        try:
            return await asyncio.to_thread(function, *args)
        finally:
            self._hand_on(lane)

    def _may_start(self, lane: Lane) -> bool:
        if sum(self._running.values()) >= self.workers:
            return False
        return lane is Lane.KNOWN or self._running[Lane.STRANGER] < self.stranger_workers

    async def _worker(self, lane: Lane) -> None:
        if self._may_start(lane) and not self._waiting[lane]:
            self._running[lane] += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[lane].append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._hand_on(lane)  # the worker was handed over as the caller went away
            else:
                self._waiting[lane].remove(turn)
            raise

    def _hand_on(self, lane: Lane) -> None:
        """A hash of ``lane`` ended: free workers go to the known askers waiting first, then to
        the strangers within their share."""
        self._running[lane] -= 1
        for waiting_lane in Lane:
            waiting = self._waiting[waiting_lane]
            while waiting and self._may_start(waiting_lane):
                turn = waiting.popleft()
                if not turn.done():
                    self._running[waiting_lane] += 1
                    turn.set_result(None)
