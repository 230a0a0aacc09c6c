"""One fixed numbering of every decision of the game: move ↔ action index, and legal-action masks.

The server, the RL environments and array-based engines all use this numbering, so an action index
means the same move everywhere.

With ``D`` days per rack the layout is (indices count from 0, days and piles from 1)::

    [0, D)                 draft d           index d - 1
    D                      draw
    [D+1, D+4)             take p            D + p
    [D+4, 4D+4)            replace d p       D + 4 + 3(d - 1) + (p - 1)
    [4D+4, 4D+7)           discard p         4D + 3 + p
    [4D+7, 4D+7+D(D-1)/2)  swap a b (a < b)  4D + 7 + (pairs before a) + (b - a - 1)

The swap block is present even when the swap variant is off (it is then always masked), so the index
of every other action depends only on the number of days. With 10 days there are 92 actions, with 5
days 37. Masks are ``bytes`` of 0 and 1 (``numpy.frombuffer(mask, numpy.int8)`` views one as an
array).
"""

from __future__ import annotations

from collections.abc import Iterable

from .moves import Move, MoveKind
from .state import PILES

__all__ = ["ActionCodec"]

_MASK_CACHE_SIZE = 512


class ActionCodec:
    """Maps moves to action indices and back for racks of ``days`` days."""

    def __init__(self, days: int) -> None:
        if days < 2:
            raise ValueError(f"a rack has at least 2 days, not {days}")
        self.days = days
        self.draw_index = days
        self.take_start = days + 1
        self.replace_start = days + 1 + PILES
        self.discard_start = self.replace_start + PILES * days
        self.swap_start = self.discard_start + PILES
        pairs = [(a, b) for a in range(1, days + 1) for b in range(a + 1, days + 1)]
        self.size = self.swap_start + len(pairs)
        moves: list[Move] = [Move.draft(d) for d in range(1, days + 1)]
        moves.append(Move.draw())
        moves += [Move.take(p) for p in range(1, PILES + 1)]
        moves += [Move.replace(d, p) for d in range(1, days + 1) for p in range(1, PILES + 1)]
        moves += [Move.discard(p) for p in range(1, PILES + 1)]
        moves += [Move.swap(a, b) for a, b in pairs]
        self._moves: tuple[Move, ...] = tuple(moves)
        self._index: dict[Move, int] = {move: i for i, move in enumerate(moves)}
        # The engine hands out the same tuple of legal moves for the same situation; remembering the
        # mask of each such tuple (held here, so its id stays unique) saves
        # hashing every move each step.
        self._masks: dict[int, tuple[tuple[Move, ...], bytes]] = {}
        assert len(self._moves) == self.size

    def encode(self, move: Move) -> int:
        """The action index of ``move``; a swap may name its days in either order."""
        if move.kind is MoveKind.SWAP and move.a > move.b:
            move = Move.swap(move.b, move.a)
        index = self._index.get(move)
        if index is None:
            raise ValueError(f"'{move}' has no action in a game of {self.days} days")
        return index

    def decode(self, action: int) -> Move:
        """The move of an action index (any integer type, numpy included)."""
        index = int(action)
        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is outside the action space 0-{self.size - 1}")
        return self._moves[index]

    def mask(self, moves: Iterable[Move]) -> bytes:
        """``size`` bytes with 1 at the index of each move in ``moves`` and 0 elsewhere."""
        cached = self._masks.get(id(moves))
        if cached is not None and cached[0] is moves:
            return cached[1]
        built = bytearray(self.size)
        index = self._index
        for move in moves:
            built[index[move]] = 1
        mask = bytes(built)
        if isinstance(moves, tuple):
            if len(self._masks) >= _MASK_CACHE_SIZE:
                self._masks.clear()  # draft-phase tuples are one-off; start over rather than grow
            self._masks[id(moves)] = (moves, mask)
        return mask

    def describe(self, action: int) -> str:
        """The move of an action index in the game's notation, e.g. ``'replace 4 2'``."""
        return str(self.decode(action))
