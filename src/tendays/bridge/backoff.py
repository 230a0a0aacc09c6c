"""How long the bridge waits before it tries again after a dropped connection: 0.5 s, doubling to
10 s, each wait jittered so that many bridges do not return to a restarted server at once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

__all__ = ["Backoff"]

FIRST_WAIT = 0.5
LONGEST_WAIT = 10.0


class Backoff:
    """The waits of one connection's attempts; :meth:`reset` once one succeeds."""

    def __init__(
        self,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        self._sleep = sleep
        self._jitter = jitter
        self._next = FIRST_WAIT

    def reset(self) -> None:
        self._next = FIRST_WAIT

    def next_wait(self) -> float:
        """The next wait in seconds: between half and all of the current step, which then
        doubles up to :data:`LONGEST_WAIT`."""
        step = self._next
        self._next = min(step * 2, LONGEST_WAIT)
        return step * (0.5 + 0.5 * self._jitter())

    async def sleep_for(self, seconds: float) -> None:
        """Wait as the site asked (its ``Retry-After``)."""
        await self._sleep(seconds)

    async def wait(self) -> float:
        seconds = self.next_wait()
        await self._sleep(seconds)
        return seconds
