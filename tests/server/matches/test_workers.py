"""The bots' worker processes, reached through their pipes: answers, errors, a worker killed."""

from __future__ import annotations

import asyncio
import math
import os
import signal
from concurrent.futures.process import BrokenProcessPool

import pytest

from tendays.engine import Game, Options, load_edition, next_decision
from tendays.server.matches.thinking import Thinker, _choose_in_worker
from tendays.server.matches.workers import Workers

# each test starts worker processes (spawned: a fresh interpreter each, about a second)
pytestmark = pytest.mark.slow


async def test_each_call_is_answered_to_its_caller_and_errors_cross() -> None:
    workers = Workers(2)
    try:
        answers = await asyncio.gather(*(workers.submit(pow, n, 2) for n in range(20)))
        assert answers == [n * n for n in range(20)]
        with pytest.raises(ValueError, match="math domain error"):
            await workers.submit(math.sqrt, -1)
    finally:
        workers.close()
    with pytest.raises(BrokenProcessPool):
        workers.submit(pow, 2, 2)


async def test_a_view_crosses_and_the_bot_answers_as_in_process() -> None:
    game = Game(load_edition("usa"), Options(players=3), seed=4, keep_states=False)
    decision = next_decision(game)
    assert decision is not None
    thinker = Thinker(processes=1)
    try:
        there = await thinker.compute(_choose_in_worker, "normal", decision.view, decision.rng)
        here = _choose_in_worker("normal", decision.view, decision.rng)
        assert there == here and there in decision.view.legal_moves()
    finally:
        thinker.close()


async def test_a_killed_worker_fails_its_calls_and_the_thinker_starts_fresh_ones() -> None:
    thinker = Thinker(processes=1)
    try:
        assert await thinker.compute(math.factorial, 5) == 120
        pool = thinker._processes
        assert isinstance(pool, Workers)
        worker = pool._workers[0].process
        os.kill(worker.pid, signal.SIGKILL)
        worker.join(10)
        # the call fails in the dead worker and is made again once in a fresh one
        assert await thinker.compute(math.factorial, 6) == 720
        assert thinker._processes is not pool and pool.closed
    finally:
        thinker.close()
