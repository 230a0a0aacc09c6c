"""The journal's writer thread: every caller is answered once, moves that wait together share one
batch, a failed batch fails only its bad rows, and closing answers everything queued first."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, cast

import pytest

from tendays.server.storage.journal import Journal
from tendays.server.storage.rows import MoveConflict, MoveRow
from tendays.server.storage.store import Store


class FakeStore:
    """Records the batches it is given; a move numbered ``bad`` is refused, as a taken number is.
    ``gate``: each batch waits for it, so that the moves asked for meanwhile queue up."""

    def __init__(self, bad: int | None = None, gate: threading.Event | None = None) -> None:
        self.bad = bad
        self.gate = gate
        self.batches: list[list[int]] = []
        self.stored: list[int] = []
        self.closed = False
        self.entered = threading.Event()  # a batch is being written

    def append_moves(self, rows: list[MoveRow]) -> None:
        self.entered.set()
        if self.gate is not None:
            self.gate.wait(5)
        self.batches.append([r.number for r in rows])
        if any(r.number == self.bad for r in rows):
            raise MoveConflict(f"move {self.bad} is taken")
        self.stored += [r.number for r in rows]

    def close(self) -> None:
        self.closed = True


def journal_of(store: FakeStore) -> Journal:
    return Journal(cast(Store, store))


def row(number: int) -> MoveRow:
    return MoveRow(f"g{number}", number, 0, "x")


def test_every_mover_is_answered_once_and_waiting_moves_share_a_batch() -> None:
    gate = threading.Event()
    store = FakeStore(gate=gate)

    async def play() -> list[Any]:
        journal = journal_of(store)
        first = asyncio.create_task(journal.append_move(row(0)))
        await asyncio.to_thread(store.entered.wait, 5)  # the thread holds the first batch
        rest = [asyncio.create_task(journal.append_move(row(n))) for n in range(1, 40)]
        await asyncio.sleep(0)  # each has asked
        gate.set()
        results = await asyncio.gather(first, *rest)
        await journal.close()
        return results

    assert asyncio.run(play()) == [None] * 40
    assert store.batches == [[0], list(range(1, 40))]
    assert sorted(store.stored) == list(range(40))
    assert store.closed


def test_a_failed_batch_fails_only_its_bad_row() -> None:
    gate = threading.Event()
    store = FakeStore(bad=5, gate=gate)

    async def play() -> list[Any]:
        journal = journal_of(store)
        first = asyncio.create_task(journal.append_move(row(0)))
        await asyncio.to_thread(store.entered.wait, 5)
        rest = [asyncio.create_task(journal.append_move(row(n))) for n in range(1, 10)]
        await asyncio.sleep(0)
        gate.set()
        results = await asyncio.gather(first, *rest, return_exceptions=True)
        await journal.close()
        return results

    results = asyncio.run(play())
    assert isinstance(results[5], MoveConflict)
    assert [r for n, r in enumerate(results) if n != 5] == [None] * 9
    assert sorted(store.stored) == [n for n in range(10) if n != 5]


def test_close_answers_everything_queued_and_later_calls_are_refused() -> None:
    store = FakeStore()

    async def play() -> tuple[list[Any], BaseException | None]:
        journal = journal_of(store)
        moves = [asyncio.create_task(journal.append_move(row(n))) for n in range(20)]
        calls = [asyncio.create_task(journal.run(lambda n=n: n * 2)) for n in range(5)]
        await asyncio.sleep(0)  # every task has queued its job
        await journal.close()
        assert all(task.done() for task in [*moves, *calls])
        refused = None
        try:
            await journal.run(lambda: None)
        except RuntimeError as error:
            refused = error
        return [task.result() for task in [*moves, *calls]], refused

    results, refused = asyncio.run(play())
    assert results == [None] * 20 + [0, 2, 4, 6, 8]
    assert sorted(store.stored) == list(range(20))
    assert refused is not None


def test_a_call_that_raises_raises_in_its_caller_only() -> None:
    store = FakeStore()

    def fails() -> None:
        raise ValueError("no")

    async def play() -> list[Any]:
        journal = journal_of(store)
        try:
            return await asyncio.gather(journal.run(fails), journal.run(lambda: 1), return_exceptions=True)
        finally:
            await journal.close()

    failed, answered = asyncio.run(play())
    assert isinstance(failed, ValueError)
    assert answered == 1


def test_a_mover_that_stopped_waiting_leaves_the_others_answered() -> None:
    gate = threading.Event()
    store = FakeStore(gate=gate)

    async def play() -> list[Any]:
        journal = journal_of(store)
        tasks = [asyncio.create_task(journal.append_move(row(n))) for n in range(3)]
        await asyncio.sleep(0)
        tasks[1].cancel()
        gate.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        await journal.close()
        return results

    results = asyncio.run(play())
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], asyncio.CancelledError)
    assert sorted(store.stored) == [0, 1, 2]  # stored all the same


@pytest.mark.parametrize("count", [1, 3])
def test_moves_and_calls_from_another_loop_are_answered_in_it(count: int) -> None:
    store = FakeStore()
    journal = journal_of(store)

    async def play() -> None:
        await asyncio.gather(*(journal.append_move(row(n)) for n in range(count)))

    asyncio.run(play())
    asyncio.run(play())  # a second loop: its answers go to it, not to the first (closed) one
    asyncio.run(journal.close())
    assert sorted(store.stored) == sorted([*range(count), *range(count)])
