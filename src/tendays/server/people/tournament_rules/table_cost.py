"""What a multiplayer Swiss table costs: the rules of a good table as a tuple compared in order,
so that no amount of a lesser rule outweighs one unit of a greater."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

from .swiss_field import SwissCandidate
from .values import RATING_TENTHS

__all__ = ["Cost", "TableCost", "added"]

SCORE_UNIT = 12  # scores are in twelfths (thirds and quarters of a point): costs stay integers

# (pairs across a block, pairs who met before, sum of squared score gaps, sum of rating gaps in
# tenths)
Cost = tuple[int, int, int, int]
NOTHING: Cost = (0, 0, 0, 0)


class TableCost:
    """The cost of a table of the given players (remembered: a search weighs a table many times)."""

    def __init__(self, by_id: dict[int, SwissCandidate], blocked: set[frozenset[int]]) -> None:
        self.met = {one: player.met for one, player in by_id.items()}
        self.score = {one: round(Fraction(p.score) * SCORE_UNIT) for one, p in by_id.items()}
        self.rating = {one: player.rating for one, player in by_id.items()}
        self.blocked = blocked
        self.known: dict[tuple[int, ...], Cost] = {}

    def __call__(self, table: Sequence[int]) -> Cost:
        key = tuple(sorted(table))
        if key not in self.known:
            self.known[key] = self._weighed(key)
        return self.known[key]

    def _weighed(self, table: tuple[int, ...]) -> Cost:
        blocks = rematches = score_gaps = rating_gaps = 0
        for one, other in combinations(table, 2):
            blocks += frozenset((one, other)) in self.blocked
            rematches += other in self.met[one] or one in self.met[other]
            score_gaps += (self.score[one] - self.score[other]) ** 2
            rating_gaps += round(abs(self.rating[one] - self.rating[other]) * RATING_TENTHS)
        return blocks, rematches, score_gaps, rating_gaps


def added(one: Cost, other: Cost) -> Cost:
    """Two costs together."""
    return (one[0] + other[0], one[1] + other[1], one[2] + other[2], one[3] + other[3])
