"""The values the tournament rules read and answer: who plays, how a game ended, a bye, a line of
the standings. Frozen dataclasses, so the director can keep and compare them."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = [
    "RATING_TENTHS",
    "Bye",
    "Entrant",
    "Standing",
    "TableResult",
    "TournamentKind",
    "distinct_ids",
]

# Ratings are openskill's mu (a new player 25, see people/ratings.py), shown to a tenth: the
# pairings weigh rating gaps in tenths, so that costs stay whole numbers.
RATING_TENTHS = 10


class TournamentKind(enum.StrEnum):
    """An arena (pair whoever is free, for a fixed time) or a Swiss (a fixed number of rounds)."""

    ARENA = "arena"
    SWISS = "swiss"


@dataclass(frozen=True)
class TableResult:
    """One finished tournament game."""

    round: int  # Swiss round, 1-based; 0 in an arena
    places: Mapping[int, int]  # entrant id -> place (1 = first; tied seats share a place)
    finished_at: float  # orders an arena's games (streaks)


@dataclass(frozen=True)
class Bye:
    """A Swiss round an entrant did not play."""

    entrant: int
    round: int
    points: float  # 1 for the odd one out, 0.5 for a round missed by a late joiner


@dataclass(frozen=True)
class Entrant:
    """A person in a tournament, as the standings name them."""

    id: int
    name: str
    rating: float


@dataclass(frozen=True)
class Standing:
    """One line of the standings; equal lines share a rank (1, 1, 3)."""

    entrant: int
    name: str
    score: float
    games: int
    rank: int
    # Swiss: {"buchholz": .., "sonneborn_berger": ..}; arena: {"performance": ..}
    tiebreaks: Mapping[str, float]
    fire: bool  # arena: on a streak (the next win scores double)


def distinct_ids(ids: Iterable[int], what: str) -> set[int]:
    """The ids as a set, or a ValueError naming the first that comes twice."""
    seen: set[int] = set()
    for one in ids:
        if one in seen:
            raise ValueError(f"entrant {one} appears twice among the {what}")
        seen.add(one)
    return seen
