"""The phases of a game (the draft, a turn's draw and placing, the end) and a rack's shape: the
vocabulary a :class:`~tendays.engine.state.State` and the legal moves share."""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    DRAFT = 0  # filling the racks, one tile at a time, round-robin
    DRAW = 1  # the current player draws (or swaps, in the swap variant)
    PLACE = 2  # the current player places or discards the drawn tile
    OVER = 3


Rack = tuple[int | None, ...]
