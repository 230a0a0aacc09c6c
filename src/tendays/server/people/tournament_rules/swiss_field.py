"""The players of a Swiss round as the pairing sees them, and the order it ranks them in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["SwissCandidate", "SwissRound", "lowest_without_bye", "rank_order"]


@dataclass(frozen=True)
class SwissCandidate:
    """A Swiss entrant to seat in the next round."""

    id: int
    score: float  # byes included
    rating: float
    met: frozenset[int]  # everyone they have sat at a table with
    had_bye: bool  # has sat out a round as the odd one out (a full-point bye)


@dataclass(frozen=True)
class SwissRound:
    """The tables of one Swiss round and who sits out (each sitting out scores a full point)."""

    tables: tuple[tuple[int, ...], ...]  # entrant ids per table, seat order = table order
    byes: tuple[int, ...]


def rank_order(players: Sequence[SwissCandidate]) -> list[int]:
    """The ids best first: higher score, then higher rating, then lower id."""
    return [
        player.id
        for player in sorted(players, key=lambda player: (-player.score, -player.rating, player.id))
    ]


def lowest_without_bye(players: Sequence[SwissCandidate]) -> int:
    """Who sits out when one must: the lowest-ranked player who has had no bye, or the
    lowest-ranked of all when everyone has had one."""
    order = rank_order(players)
    had = {player.id for player in players if player.had_bye}
    waiting = [one for one in order if one not in had]
    return (waiting or order)[-1]
