"""The password hashing queue: no more hashes at once than its workers, few places per lane, a fair share
per asker, an answer at once when there is no place, and known askers served before strangers."""

from __future__ import annotations

import asyncio
import threading

import pytest

from tendays.server.people.hashing import Asker, HashingBusy, HashingQueue, Lane


class Gate:
    """A stand-in for a hash that runs until the test opens its gate, and says who ran in which order."""

    def __init__(self) -> None:
        self.opened = threading.Event()
        self.ran: list[str] = []

    def hash(self, who: str) -> str:
        self.opened.wait(10)
        self.ran.append(who)
        return who


async def until(condition: object, what: str) -> None:
    """Let the event loop run until ``condition()`` holds (at most 5 s)."""
    for _ in range(500):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def test_a_lane_has_few_places_and_an_asker_a_fair_share_of_them() -> None:
    async def run() -> None:
        queue, gate = HashingQueue(workers=1, places=3, per_asker=2), Gate()
        alice = Asker(Lane.STRANGER, "address:192.0.2.1")
        held = [asyncio.create_task(queue.run(alice, gate.hash, f"a{n}")) for n in range(2)]
        await until(lambda: queue._held[Lane.STRANGER] == 2, "two places held")
        with pytest.raises(HashingBusy):  # her share, at once: no waiting
            await queue.run(alice, gate.hash, "a2")
        bob = Asker(Lane.STRANGER, "address:192.0.2.2")
        held.append(asyncio.create_task(queue.run(bob, gate.hash, "b0")))
        await until(lambda: queue._held[Lane.STRANGER] == 3, "the third place held")
        carol = Asker(Lane.STRANGER, "address:192.0.2.3")
        with pytest.raises(HashingBusy):  # the lane is full
            await queue.run(carol, gate.hash, "c0")
        known = asyncio.create_task(queue.run(Asker(Lane.KNOWN, "device:d"), gate.hash, "known"))
        await until(lambda: queue._held[Lane.KNOWN] == 1, "the known lane has its own places")
        gate.opened.set()
        assert await asyncio.gather(*held, known) == ["a0", "a1", "b0", "known"]
        assert queue._held[Lane.STRANGER] == queue._held[Lane.KNOWN] == 0 and not queue._held_by
        assert await queue.run(carol, gate.hash, "c1") == "c1"  # places come back

    asyncio.run(run())


def test_a_known_asker_is_served_before_strangers_who_waited_longer() -> None:
    async def run() -> None:
        queue, gate = HashingQueue(workers=1, places=8, per_asker=2), Gate()
        strangers = [
            asyncio.create_task(queue.run(Asker(Lane.STRANGER, f"address:{n}"), gate.hash, f"s{n}")) for n in range(4)
        ]
        await until(lambda: queue._held[Lane.STRANGER] == 4, "four strangers in the queue")
        known = asyncio.create_task(queue.run(Asker(Lane.KNOWN, "device:d"), gate.hash, "known"))
        await until(lambda: queue._held[Lane.KNOWN] == 1, "the known asker in the queue")
        gate.opened.set()
        await asyncio.gather(*strangers, known)
        # s0 was running already; the known asker goes next, before the strangers who came earlier
        assert gate.ran == ["s0", "known", "s1", "s2", "s3"]

    asyncio.run(run())


def test_no_more_hashes_run_at_once_than_the_workers() -> None:
    async def run() -> None:
        queue, running, most = HashingQueue(workers=2, places=8, per_asker=8, stranger_workers=2), [0], [0]
        lock = threading.Lock()
        pair = threading.Barrier(2, timeout=10)  # each hash waits until a second one runs beside it

        def work(_: int) -> None:
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            pair.wait()
            with lock:
                running[0] -= 1
            pair.wait()  # both counted out before the next pair comes in

        asker = Asker(Lane.STRANGER, "address:a")
        await asyncio.gather(*(queue.run(asker, work, n) for n in range(8)))
        assert most[0] == 2

    asyncio.run(run())


def test_an_asker_that_goes_away_gives_its_place_back() -> None:
    async def run() -> None:
        queue, gate = HashingQueue(workers=1, places=2, per_asker=2), Gate()
        asker = Asker(Lane.STRANGER, "address:a")
        first = asyncio.create_task(queue.run(asker, gate.hash, "first"))
        second = asyncio.create_task(queue.run(asker, gate.hash, "second"))
        await until(lambda: queue._held[Lane.STRANGER] == 2, "both places held")
        second.cancel()  # it was waiting for the worker
        with pytest.raises(asyncio.CancelledError):
            await second
        assert queue._held[Lane.STRANGER] == 1
        gate.opened.set()
        assert await first == "first"
        assert await queue.run(asker, gate.hash, "third") == "third" and not +queue._running

    asyncio.run(run())


def test_strangers_leave_a_worker_for_known_askers() -> None:
    async def run() -> None:
        queue, gate = HashingQueue(workers=2, places=8, per_asker=2), Gate()
        strangers = [
            asyncio.create_task(queue.run(Asker(Lane.STRANGER, f"address:{n}"), gate.hash, f"s{n}")) for n in range(3)
        ]
        await until(lambda: queue._held[Lane.STRANGER] == 3, "three strangers in the queue")
        assert queue._running == {Lane.STRANGER: 1}  # one stranger hashes; a worker stays free
        known = asyncio.create_task(queue.run(Asker(Lane.KNOWN, "device:d"), gate.hash, "known"))
        await until(lambda: queue._running[Lane.KNOWN] == 1, "the known asker hashing at once")
        gate.opened.set()
        await asyncio.gather(*strangers, known)
        assert not +queue._running

    asyncio.run(run())
