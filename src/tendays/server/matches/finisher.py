"""The finisher: tells the layers above the matches that a game ended or that its turn passed.

Places, ratings and "your move" notifications live above the matches (the face installs
:attr:`Finisher.on_finished` and :attr:`Finisher.on_turn`); the finisher runs each as a task of its
own, so a move is never held up by them, and keeps the tasks until they are done
(:meth:`Finisher.written`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .master import Match

# Told when the turn of a game passes; answers with what to run, or None when nothing is to be done.
TurnPassed = Callable[["Match", int, int | None], Coroutine[Any, Any, None] | None]

__all__ = ["Finisher"]


class Finisher:
    """The lobby's hooks for games that end and turns that pass, and their running tasks."""

    def __init__(self) -> None:
        # Told of every game that ends here; it may be told twice of one game, by this process or
        # another, and must not mind.
        self.on_finished: Callable[[Match], Coroutine[Any, Any, None]] | None = None
        # Told when the turn of a game passes to a seat here (match, seat, the mover or None when
        # the game starts); it answers at once with what to run, or None: nothing to do (a task a
        # move for nothing costs more than the check).
        self.on_turn: TurnPassed | None = None
        self.pending: set[asyncio.Task[None]] = set()

    def finished(self, match: Match) -> None:
        """A game ended (here, or another process told of it): tell :attr:`on_finished`."""
        if self.on_finished is not None:
            self._run(self.on_finished(match), f"results of game {match.id}")

    def turn(self, match: Match, seat: int, mover: int | None) -> None:
        """The turn of a game passed here: tell :attr:`on_turn`."""
        if self.on_turn is not None:
            told = self.on_turn(match, seat, mover)
            if told is not None:
                self._run(told, f"turn of game {match.id}")

    def _run(self, told: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(told, name=name)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def written(self) -> None:
        """Wait until what was told so far is done (places, ratings, notifications written)."""
        await asyncio.gather(*self.pending, return_exceptions=True)
