"""Clocks: the deadline of the turn being played, at the game's pace
(:class:`~tendays.server.settings.Pace`).

A *live* game gives each turn ``per_move`` seconds plus what is left of the seat's bank: time beyond
``per_move`` is taken from the bank. A *correspondence* game gives each turn ``per_move`` seconds
(hours or days) and has no bank. A game without a pace has no clock. The deadline is a moment (Unix
seconds), stored with the game, so reloading a page or restarting the server neither resets nor
loses it. The clock runs only while the game is being played, for the seat whose turn it is; a turn
(a draft, or a draw and what follows it) ends when the turn passes to another seat.
"""

from __future__ import annotations

from typing import Any

from tendays.engine import State

from ..settings import Pace

__all__ = ["ClockReading", "TurnClock"]

ClockReading = tuple[list[float], float | None, float | None]
"""A clock's banks, deadline and turn start, kept to put it back when a move cannot be stored."""


class TurnClock:
    """The running clock of one game: each seat's bank, and the deadline
    of the turn being played."""

    def __init__(
        self,
        pace: Pace,
        players: int,
        banks: list[float | None] | None = None,
        deadline: float | None = None,
        turn_started: float | None = None,
    ) -> None:
        self.pace = pace
        given = banks or []
        self.banks = [
            pace.bank if i >= len(given) or given[i] is None else float(given[i] or 0.0)
            for i in range(players)
        ]
        self.deadline = deadline
        self.turn_started = turn_started

    def start(self, seat: int, now: float) -> None:
        """The turn of ``seat`` begins now."""
        self.turn_started = now
        self.deadline = now + self.pace.per_move + self.banks[seat]

    def finish(self, seat: int, now: float) -> None:
        """The turn of ``seat`` ended now: time beyond the move's limit comes out of its bank."""
        if self.turn_started is not None:
            over = max(0.0, now - self.turn_started - self.pace.per_move)
            self.banks[seat] = max(0.0, self.banks[seat] - over)
        self.deadline = self.turn_started = None

    def stop(self) -> None:
        self.deadline = self.turn_started = None

    def passed(self, mover: int, state: State, now: float) -> None:
        """After a move of ``mover`` that led to ``state``: the turn that
        ended stops, the next one starts."""
        if state.is_over:
            self.finish(mover, now)
        elif state.current != mover:
            self.finish(mover, now)
            self.start(state.current, now)

    def reading(self) -> ClockReading:
        return list(self.banks), self.deadline, self.turn_started

    def restore(self, reading: ClockReading) -> None:
        self.banks, self.deadline, self.turn_started = reading

    def to_json(self, now: float) -> dict[str, Any]:
        """The clock as the table shows it; ``now`` lets a client with a
        wrong clock count correctly."""
        return {
            **self.pace.to_json(),
            "banks": [round(b, 1) for b in self.banks],
            "deadline": self.deadline,
            "now": round(now, 3),
        }
