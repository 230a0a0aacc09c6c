"""The legal moves of a state: every move the current player may make now, the lists of each kind
built once and shared (states are many; the shapes of their move lists are few)."""

from __future__ import annotations

from typing import Any, Protocol

from .moves import Move
from .options import PILES, Options
from .phase import Phase, Rack


class Position(Protocol):
    """What the legal moves read of a :class:`~tendays.engine.state.State` (named here, not
    imported, so that the state may build on this module)."""

    @property
    def options(self) -> Options: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def current(self) -> int: ...
    @property
    def racks(self) -> tuple[Rack, ...]: ...
    @property
    def draw_pile(self) -> tuple[int, ...]: ...
    @property
    def piles(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def forced_pile(self) -> int: ...


_DRAFT = [Move.draft(d) for d in range(21)]
_DRAW = Move.draw()
_TAKE = [Move.take(p) for p in range(PILES + 1)]
_DISCARD = [Move.discard(p) for p in range(PILES + 1)]
_MOVE_CACHE: dict[tuple[Any, ...], tuple[Move, ...]] = {}


def _cached(key: tuple[Any, ...], build: Any) -> tuple[Move, ...]:
    moves = _MOVE_CACHE.get(key)
    if moves is None:
        moves = _MOVE_CACHE[key] = tuple(build())
    return moves


def legal_moves(state: Position) -> tuple[Move, ...]:
    """Every move the current player may make now (empty when the game is over)."""
    phase = state.phase
    days = state.options.days
    if phase is Phase.DRAW:
        can_draw = bool(state.draw_pile)
        takeable = tuple(p + 1 for p in range(PILES) if state.piles[p])
        swap = state.options.swap
        return _cached(
            ("draw", can_draw, takeable, swap, days),
            lambda: (
                ([_DRAW] if can_draw else [])
                + [_TAKE[p] for p in takeable]
                + (
                    [Move.swap(d, e) for d in range(1, days + 1) for e in range(d + 1, days + 1)]
                    if swap
                    else []
                )
            ),
        )
    if phase is Phase.PLACE:
        forced = state.forced_pile
        piles = (forced,) if forced else tuple(range(1, PILES + 1))
        return _cached(
            ("place", piles, days),
            lambda: (
                [Move.replace(d, p) for d in range(1, days + 1) for p in piles]
                + [_DISCARD[p] for p in piles]
            ),
        )
    if phase is Phase.DRAFT:
        rack = state.racks[state.current]
        return tuple(_DRAFT[d + 1] for d in range(days) if rack[d] is None)
    return ()
