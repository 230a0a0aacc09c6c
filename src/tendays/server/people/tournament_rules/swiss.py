"""The Swiss: a fixed number of rounds; each round seats players of equal score who have not met,
at tables of two (:mod:`.swiss_pairs`) or of three or four (:mod:`.swiss_tables`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .swiss_field import SwissCandidate, SwissRound
from .swiss_pairs import pair_two_player_round
from .swiss_tables import seat_tables
from .values import distinct_ids

__all__ = ["pair_swiss"]

SMALLEST_TABLE, LARGEST_TABLE = 2, 4


def pair_swiss(
    players: Sequence[SwissCandidate], table_size: int, blocked: Collection[frozenset[int]]
) -> SwissRound:
    """The tables of the next round (seats best-ranked first, top table first) and who sits out.

    ``players`` are those to seat this round; ``blocked`` holds the pairs of entrants of whom one
    blocked the other: they never share a table, and a player whom blocks leave without a table
    sits out too."""
    if not SMALLEST_TABLE <= table_size <= LARGEST_TABLE:
        raise ValueError(
            f"a Swiss table seats {SMALLEST_TABLE} to {LARGEST_TABLE} players, not {table_size}"
        )
    distinct_ids((player.id for player in players), "players")
    barred = {pair for pair in blocked if len(pair) == 2}
    if table_size == 2:
        pairs, byes = pair_two_player_round(players, barred)
        return SwissRound(tables=tuple(pairs), byes=tuple(byes))
    tables, byes = seat_tables(players, table_size, barred)
    return SwissRound(tables=tuple(tables), byes=tuple(byes))
