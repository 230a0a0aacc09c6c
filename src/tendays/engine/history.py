"""The public history of a game, as an append-only log whose append costs the same at any length.

States are immutable values, so each state needs its own history; copying a growing tuple on every
move would make move 10,000 cost far more than move 10. An :class:`EventLog` is a window of a shared
list instead: appending to the newest log extends the list in place, and only a log that branches
from an older state (search, undo) copies the part it shares.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import islice
from typing import Any, overload

__all__ = ["Event", "EventKind", "EventLog"]


class EventKind(StrEnum):
    """What happened. The values are the names records, logs and the wire have always used."""

    DRAFT = "draft"  # a player put a tile on a day before play
    REVEAL = "reveal"  # a tile was turned up to start a discard pile
    START = "start"  # play begins with this player
    DRAW = "draw"
    TAKE = "take"
    SWAP = "swap"
    REPLACE = "replace"
    DISCARD = "discard"
    RESHUFFLE = "reshuffle"  # the discard piles became the new draw pile
    WIN = "win"
    LIMIT = "limit"  # the turn limit ended the game without a winner


@dataclass(frozen=True, slots=True)
class Event:
    """One public happening, as every player at the table sees it.

    Only public facts go in: a draw from the draw pile carries no tile; a taken or discarded
    tile is face up and so is named.
    """

    kind: EventKind
    player: int | None = None
    day: int = 0
    day2: int = 0
    pile: int = 0
    tile: int | None = None
    count: int = 0


# Two states may append to the same shared list from two threads; the lock keeps "am I the newest
# log?" and the append one step.
_APPEND = threading.Lock()


class EventLog(Sequence[Event]):
    """An immutable sequence of events; ``log.append(event)`` returns a new, longer log."""

    __slots__ = ("_items", "_length")

    def __init__(self, events: Sequence[Event] = ()) -> None:
        self._items: list[Event] = list(events)
        self._length = len(self._items)

    @classmethod
    def _window(cls, items: list[Event], length: int) -> EventLog:
        log = cls.__new__(cls)
        log._items = items
        log._length = length
        return log

    def append(self, *events: Event) -> EventLog:
        """This log followed by ``events``, leaving this log unchanged."""
        length = self._length
        with _APPEND:
            items = self._items
            if len(items) != length:  # a later state already extended the list: branch off a copy
                items = items[:length]
            items.extend(events)
        return EventLog._window(items, length + len(events))

    def lineage(self) -> object:
        """The list this log is a window of: logs of one line of play share it, and the events it
        holds up to any log's length never change (a branch copies). Caches of what a history
        implies key on it."""
        return self._items

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._length)
            if step == 1:
                return tuple(self._items[start:stop])
            return tuple(self._items[i] for i in range(start, stop, step))
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("event index out of range")
        return self._items[index]

    def __iter__(self) -> Iterator[Event]:
        return islice(self._items, self._length)

    def __reversed__(self) -> Iterator[Event]:
        items = self._items
        return (items[i] for i in range(self._length - 1, -1, -1))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog):
            return self._length == other._length and (
                self._items is other._items
                or self._items[: self._length] == other._items[: other._length]
            )
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"EventLog({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (EventLog, (self._items[: self._length],))
