"""Clocks: a game's pace, and the deadline of the turn being played.

A *live* game gives each turn ``per_move`` seconds plus what is left of the seat's bank: time beyond
``per_move`` is taken from the bank. A *correspondence* game gives each turn ``per_move`` seconds
(hours or days) and has no bank. A game without a pace has no clock. The deadline is a moment (Unix
seconds), stored with the game, so reloading a page or restarting the server neither resets nor loses
it. The clock runs only while the game is being played, for the seat whose turn it is; a turn (a draft,
or a draw and what follows it) ends when the turn passes to another seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

__all__ = ["Pace", "PaceLimits", "TurnClock"]


@dataclass(frozen=True, slots=True)
class Pace:
    """How fast a game is played: ``kind`` is "live" or "correspondence"; seconds per move and of bank."""

    kind: str
    per_move: float
    bank: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "per_move": self.per_move, "bank": self.bank}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pace:
        return cls(str(data["kind"]), float(data["per_move"]), float(data.get("bank") or 0.0))

    def describe(self) -> str:
        if self.kind == "live":
            bank = f" and a bank of {_duration(self.bank)}" if self.bank else ""
            return f"live: {_duration(self.per_move)} a move{bank}"
        return f"correspondence: {_duration(self.per_move)} a move"


@dataclass(frozen=True, slots=True)
class PaceLimits:
    """What the operator allows a game's pace to be (seconds)."""

    live_min: float = 10
    live_max: float = 600
    bank_max: float = 1800
    correspondence_min: float = 3600
    correspondence_max: float = 14 * 86400

    def check(self, pace: Pace) -> None:
        """Raise ``ValueError`` (in words) for a pace outside the operator's limits."""
        if pace.kind == "live":
            low, high = self.live_min, self.live_max
            if not 0 <= pace.bank <= self.bank_max:
                raise ValueError(_("a live game's bank is 0 to {most}, not {given}").format(
                    most=_duration(self.bank_max), given=_duration(pace.bank)))
        elif pace.kind == "correspondence":
            low, high = self.correspondence_min, self.correspondence_max
            if pace.bank:
                raise ValueError(_("a correspondence game has no bank; each move has the same time"))
        else:
            raise ValueError(_("unknown pace '{kind}'; choose live or correspondence").format(kind=pace.kind))
        if not low <= pace.per_move <= high:
            words = (_("a live game gives each move {least} to {most}, not {given}") if pace.kind == "live" else
                     _("a correspondence game gives each move {least} to {most}, not {given}"))
            raise ValueError(words.format(least=_duration(low), most=_duration(high), given=_duration(pace.per_move)))


def _duration(seconds: float) -> str:
    if seconds >= 86400 and seconds % 86400 == 0:
        days = int(seconds // 86400)
        return ngettext("{n} day", "{n} days", days).format(n=days)
    if seconds >= 3600 and seconds % 3600 == 0:
        hours = int(seconds // 3600)
        return ngettext("{n} hour", "{n} hours", hours).format(n=hours)
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes)
    return ngettext("{n} second", "{n} seconds", 1 if seconds == 1 else 2).format(n=f"{seconds:g}")


class TurnClock:
    """The running clock of one game: each seat's bank, and the deadline of the turn being played."""

    def __init__(self, pace: Pace, players: int, banks: list[float | None] | None = None,
                 deadline: float | None = None, turn_started: float | None = None) -> None:
        self.pace = pace
        given = banks or []
        self.banks = [pace.bank if i >= len(given) or given[i] is None else float(given[i] or 0.0)
                      for i in range(players)]
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

    def to_json(self, now: float) -> dict[str, Any]:
        """The clock as the table shows it; ``now`` lets a client with a wrong clock count correctly."""
        return {**self.pace.to_json(), "banks": [round(b, 1) for b in self.banks], "deadline": self.deadline,
                "now": round(now, 3)}
