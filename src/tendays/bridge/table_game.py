"""One game as the bridge follows it on the game stream, and the engine's view of it.

The game stream sends the table's ``game`` object (docs/protocol.md, "WebSocket"): first whole
(``gameFull``, the log from 0), then on each change with only the log entries and chat lines from
``log_from`` and ``chat_from`` on (``gameState``). The table's object is the engine's view JSON
(:func:`tendays.engine.wire.view_to_json`) with the seat named ``you`` instead of ``player`` and the
public history as ``log`` (each event with its sentence) instead of ``events``, plus the site's
additions. :meth:`TableGame.engine_view` undoes exactly that, so a program reads the view the engine
protocol defines, byte for byte what ``tendays simulate`` would send it from the same position.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tendays.engine import PlayerView
from tendays.engine.wire import EVENT_FIELDS, VIEW_FIELDS, view_from_json

__all__ = ["LogGap", "TableGame"]

Json = dict[str, Any]

# The table carries each field of the engine protocol's view (engine/wire.py VIEW_FIELDS) under the
# same name but these two; its log entries are events with their sentences ("text") added.
_TABLE_NAMES = {"player": "you"}  # "events" is made from the log


class LogGap(ValueError):
    """A ``gameState`` starts its log past the entries held: the stream must be opened again
    (its ``gameFull`` carries everything)."""


class TableGame:
    """The latest table of one game for one seat, with its whole log."""

    def __init__(self, full: Mapping[str, Any]) -> None:
        self.table: Json = dict(full)
        self.log: list[Json] = list(full.get("log") or ())

    def update(self, state: Mapping[str, Any]) -> None:
        """Take in a ``gameState``'s game: its fields replace the held ones, its log entries
        are appended from ``log_from`` on. Raises :class:`LogGap` if entries are missing."""
        log_from = int(state.get("log_from", 0))
        if log_from > len(self.log):
            raise LogGap(f"the game's log goes on from entry {log_from}; {len(self.log)} are held")
        del self.log[log_from:]  # a later copy of an entry replaces the one held
        self.log.extend(state.get("log") or ())
        self.table = dict(state)

    @property
    def game_id(self) -> str:
        return str(self.table.get("id"))

    @property
    def seat(self) -> int | None:
        seat = self.table.get("you")
        return seat if isinstance(seat, int) else None

    @property
    def over(self) -> bool:
        """The game is over for this seat: played out, ended early, or the seat has left it
        (its stream then ends too)."""
        table = self.table
        seats = table.get("seats") or ()
        seat = self.seat
        left = seat is not None and seat < len(seats) and bool(seats[seat].get("left"))
        return (
            table.get("phase") == "over"
            or table.get("status") == "over"
            or table.get("ended") is not None
            or left
        )

    @property
    def position(self) -> int:
        """How many events the game has had: every move adds at least one, so a position is
        answered once."""
        return len(self.log)

    @property
    def to_move(self) -> bool:
        """The seat has moves to make now."""
        return bool(self.table.get("legal_moves")) and not self.over

    def engine_view(self) -> Json:
        """The view the engine protocol sends for this seat and position."""
        events = [{key: entry[key] for key in EVENT_FIELDS} for entry in self.log]
        return {
            field: events if field == "events" else self.table[_TABLE_NAMES.get(field, field)]
            for field in VIEW_FIELDS
        }

    def player_view(self) -> PlayerView:
        """:meth:`engine_view` as the engine's value; raises ``ValueError`` for a table that is
        not one."""
        try:
            return view_from_json(self.engine_view())
        except KeyError as error:
            raise ValueError(f"the table has no {error}") from None
