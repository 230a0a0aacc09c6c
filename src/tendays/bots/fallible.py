"""The fallible bot: a player who knows the rules and sees good moves, but overlooks some.

It plays like the greedy bot, except that at each decision, with probability ``miss``, it overlooks
what greedy would see and plays some other *plausible* move instead: one a person who knows the
rules might make without thinking it through. Drafting, it puts the tile on any empty day; drawing,
it takes the top of the draw pile without checking the face-up tiles; placing, it puts the tile on a
day where it does not lengthen the journey, or throws it away, onto any pile. It never makes its
journey longer on purpose, so it finishes journeys and can win, but it misses a lot: the lower
levels of the ladder are this bot with different miss rates (see :mod:`tendays.bots.registry`).
"""

from __future__ import annotations

import random

from tendays.engine import Move, MoveKind, Phase, PlayerView

from .distance import analyze
from .greedy import GreedyBot, with_tile

__all__ = ["FallibleBot"]


class FallibleBot:
    """Greedy, but overlooking its best move in a share ``miss`` of its decisions."""

    def __init__(self, miss: float, name: str | None = None) -> None:
        if not 0.0 <= miss <= 1.0:
            raise ValueError(f"the share of overlooked moves is between 0 and 1, not {miss}")
        self.miss = miss
        self.name = name or f"fallible:{miss:g}"
        self._greedy = GreedyBot()

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        # Draw the die first, so the stream of choices does not depend on
        # what greedy would have done.
        if rng.random() >= self.miss:
            return self._greedy.choose(view, rng)
        return rng.choice(self._plausible(view, moves))

    @staticmethod
    def _plausible(view: PlayerView, moves: tuple[Move, ...]) -> list[Move]:
        if view.phase is Phase.DRAFT:
            return list(moves)
        if view.phase is Phase.DRAW:
            draws = [m for m in moves if m.kind is MoveKind.DRAW]
            return draws or [m for m in moves if m.kind is MoveKind.TAKE]
        rack, held = view.rack, view.in_hand
        assert rack is not None and held is not None
        distance = analyze(view.edition, rack).distance
        keeps = {
            day
            for day in range(1, len(rack) + 1)
            if analyze(view.edition, with_tile(rack, day, held)).distance <= distance
        }
        return [m for m in moves if m.kind is MoveKind.DISCARD or m.day in keeps]
