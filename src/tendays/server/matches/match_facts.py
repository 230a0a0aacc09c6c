"""What a match says of itself: its summary in the lobby's list, the facts its table carries beside
the view, and the result of a forfeit.

A forfeit (a rated game left to one person) ends in that person's favour although the game was not
played out, so its winner and places are said here rather than by the engine's view. Each function
reads its match through :class:`DescribedTable`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from tendays.engine import Edition, Options

from ..vocabulary import EndReason, MatchStatus, SeatKind
from .seats import Seat
from .timing import TurnClock
from .wire import listed_name

__all__ = ["DescribedTable", "forfeit_result", "forfeit_winner", "summary", "table_facts"]


class DescribedTable(Protocol):
    """What the facts are read from."""

    id: str
    created: datetime
    edition: Edition
    options: Options
    clock: TurnClock | None
    ended: str | None
    rematch: str | None
    rated: bool
    rated_outcome: Any
    end_votes: set[int]

    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def status(self) -> str: ...


def forfeit_winner(table: DescribedTable) -> int | None:
    """The seat that won a forfeit (a rated game left to one person: theirs), else None."""
    if table.ended != EndReason.FORFEIT:
        return None
    staying = [s.index for s in table.seats if s.kind == SeatKind.HUMAN and not s.left]
    return staying[0] if len(staying) == 1 else None


def forfeit_result(table: DescribedTable) -> dict[str, Any]:
    """A forfeit's result as data: the winner's seat and each seat's place (1 the winner, 2 the
    others who left); nothing for any other game (its ``winner`` is the view's)."""
    winner = forfeit_winner(table)
    if winner is None:
        return {}
    return {"winner": winner, "places": [1 if s.index == winner else 2 for s in table.seats]}


def summary(table: DescribedTable) -> dict[str, Any]:
    """The lobby's public summary of a game; bots' and deleted accounts'
    names in the current language."""
    options = table.options
    return {
        "id": table.id,
        "edition": table.edition.id,
        "status": table.status,
        "ended": table.ended,
        "winner": None,
        "places": None,
        **forfeit_result(table),
        "seats": [
            {
                "seat": s.index,
                "kind": s.kind,
                "name": listed_name(s.index, s.kind, s.name, s.bot),
                "bot": s.bot,
                "taken": s.taken,
                "reserved": s.reserved and not s.taken,
                "left": s.left,
                "account": s.account_id is not None,
                "bot_account": s.bot_account,
            }
            for s in table.seats
        ],
        "options": {
            "days": options.days,
            "swap": options.swap,
            "open_hands": options.open_hands,
            "turn_limit": options.turn_limit,
        },
        "pace": table.clock.pace.to_json() if table.clock else None,
        "created": table.created.isoformat(),
        "rematch": table.rematch,
        "rated": table.rated,
        "rated_outcome": table.rated_outcome,
    }


def table_facts(table: DescribedTable, now: float) -> dict[str, Any]:
    """The table's facts beside the view: the clock (running only while the game is played), why
    it ended, the rematch offered, whether (and who asked) to end a game someone left, and
    whether it is rated."""
    playing = table.status == MatchStatus.PLAYING
    clock = None
    if table.clock is not None:
        clock = (
            table.clock.to_json(now)
            if playing
            else {**table.clock.pace.to_json(), "deadline": None}
        )
    gone = any(s.kind == SeatKind.HUMAN and (s.left or s.away) for s in table.seats)
    return {
        "clock": clock,
        "ended": table.ended,
        "rematch": table.rematch,
        "end_votes": sorted(table.end_votes),
        "can_end": playing and gone,
        "rated": table.rated,
        "rated_outcome": table.rated_outcome,
        **forfeit_result(table),  # the view says no winner: the game was not played out
    }
