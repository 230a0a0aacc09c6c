"""Helpers of the rated-result tests: playing a rated table past the abort rule's line, and rating games
from a process of its own (for the repeat cap decided by two processes at once)."""

from __future__ import annotations

import time
from multiprocessing.synchronize import Barrier
from typing import Any

from tendays.server.matches.master import Match
from tendays.server.matches.seats import Rejected

__all__ = ["play_past_the_draft", "rate_from_a_process"]


async def play_past_the_draft(match: Match) -> None:
    """Every person at the table drafts, and then makes one move of their own after the draft (the first
    legal move each time): from here on, a rated game that ends counts. Stops early if the game ends."""
    while match.status == "playing" and not all(s.moved_after_draft for s in match.seats if s.kind == "human"):
        seat = match.state.current
        try:
            await match.submit(seat, str(match.state.legal_moves()[0]), match.version)
        except Rejected as refused:
            if refused.code != "stale":  # a clock's stand-in moved meanwhile: look again
                raise


def rate_from_a_process(url: str, games: list[str], barrier: Barrier, at: float, answers: Any) -> None:
    """A process of its own rates ``games`` (each won by seat 0) once every other such process is ready;
    puts (game, whether this call wrote it) on ``answers``."""
    from tendays.server.people.ratings import rate_game
    from tendays.server.storage.store import Store

    store = Store(url)
    try:
        barrier.wait(timeout=60)
        for game in games:
            answers.put((game, rate_game(store.engine, game, [1, 2], at=at or time.time())))
    finally:
        store.close()
