"""What a table's places are worth and how equal lines share a rank: the arithmetic that the arena
and the Swiss standings share. Points are exact fractions, so that equal scores compare equal."""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction

from .values import TableResult

__all__ = ["check_results", "place_points", "ranked", "shared_ranks"]


def place_points(places: Mapping[int, int]) -> dict[int, Fraction]:
    """Each seat's points at a table of k seats: place p scores (k - p) / (k - 1), so first scores 1
    and last 0; seats tied on a place share the mean of the points of the places they fill (two
    seats tied first at a table of three: (1 + 1/2) / 2 = 3/4 each)."""
    seats = len(places)
    in_order = sorted(places, key=lambda seat: (places[seat], seat))
    points: dict[int, Fraction] = {}
    start = 0
    while start < seats:
        end = start
        while end < seats and places[in_order[end]] == places[in_order[start]]:
            end += 1
        filled = [Fraction(seats - 1 - position, seats - 1) for position in range(start, end)]
        for seat in in_order[start:end]:
            points[seat] = sum(filled, Fraction(0)) / len(filled)
        start = end
    return points


def shared_ranks(keys: Sequence[Hashable]) -> list[int]:
    """Ranks for lines already sorted best first: equal keys share a rank, and the next rank
    counts everyone above it (1, 1, 3)."""
    ranks: list[int] = []
    for index, key in enumerate(keys):
        ranks.append(ranks[-1] if index and key == keys[index - 1] else index + 1)
    return ranks


def ranked(
    entrants: Iterable[int], key: Callable[[int], tuple[Fraction | float, ...]]
) -> list[tuple[int, int]]:
    """(entrant, rank) best first: the highest ``key`` first, equal keys sharing a rank
    (:func:`shared_ranks`), the lower number first among them."""
    order = sorted(entrants, key=lambda one: (*(-part for part in key(one)), one))
    return list(zip(order, shared_ranks([key(one) for one in order]), strict=True))


def check_results(
    results: Sequence[TableResult], known: Collection[int], seats: int | None
) -> None:
    """A ValueError in words unless every game names known entrants, each once, with places from 1,
    at a table of ``seats`` (any size from 2 when None)."""
    for result in results:
        count = len(result.places)
        if count < 2 or (seats is not None and count != seats):
            wanted = f"{seats}" if seats is not None else "at least 2"
            raise ValueError(f"a game has {count} seats; a table here has {wanted}")
        for entrant, place in result.places.items():
            if entrant not in known:
                raise ValueError(f"a game names entrant {entrant}, who is not in the tournament")
            if not 1 <= place <= count:
                raise ValueError(f"entrant {entrant} has place {place} at a table of {count}")
