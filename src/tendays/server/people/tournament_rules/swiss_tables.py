"""A Swiss round at tables of three or four (a multiplayer Swiss): for a small field every split is
tried; a larger one is cut from the standings in order, then mended by swaps.

1. Sizes: as many tables of ``table_size`` as can be, the rest of ``table_size - 1`` (14 players
   at tables of four: 4 + 4 + 3 + 3). When no such split exists (5 players at tables of four),
   the lowest-ranked player without a bye sits out until one does; two players left at tables of
   four play one table of two.
2. Cost: a table's cost is, in strictly falling importance, its pairs across a block, its pairs
   who have met before, the sum over its pairs of the squared score gap, the sum of its pairs'
   rating gaps; a round's cost is the sum over its tables.
3. Up to ``EXACT_UP_TO`` players (see .table_search): every split into tables of those sizes is
   weighed, and the cheapest is taken (of equal ones, the nearest to the standings order), so
   nobody meets again when some split avoids it.
4. More players (see .table_mending): the players in standings order (score, rating, id) fill the
   tables in turn, top table first, so equal scores sit together; then, while swapping two
   players of tables at most ``SWAP_REACH`` apart lowers the cost of the two tables (blocks,
   rematches, score gaps: the ratings stay as the order cut them), the first such swap (top
   tables first, then seats in order) is made. Every swap lowers the total, so the
   mending ends; it can stop at a split that no single swap improves.
5. A block the swaps could not mend: the lowest-ranked player sitting with someone of a blocked
   pair sits out, and the round is cut again from step 1 without them (and with whoever step 1
   had set out).
"""

from __future__ import annotations

from collections.abc import Sequence

from .swiss_field import SwissCandidate, lowest_without_bye, rank_order
from .table_cost import TableCost
from .table_mending import mended
from .table_search import cheapest_split

__all__ = ["EXACT_UP_TO", "seat_tables", "table_sizes"]

EXACT_UP_TO = 12  # players: every split of 12 is weighed in well under a second


def table_sizes(count: int, table_size: int) -> list[int] | None:
    """The sizes of the tables for ``count`` players, largest first, or None when none fits."""
    if 2 <= count < table_size:
        return [count]
    smaller = -count % table_size
    larger = count - smaller * (table_size - 1)
    if larger < 0 or (smaller and table_size - 1 < 2):
        return None
    return [table_size] * (larger // table_size) + [table_size - 1] * smaller


def seat_tables(
    players: Sequence[SwissCandidate], table_size: int, blocked: set[frozenset[int]]
) -> tuple[list[tuple[int, ...]], list[int]]:
    """The tables (seats best-ranked first, top table first) and who sits out."""
    kept_apart: list[int] = []  # left without a table by a block (step 5)
    while True:
        seated = [player for player in players if player.id not in kept_apart]
        byes = list(kept_apart)
        while seated and table_sizes(len(seated), table_size) is None:
            byes.append(lowest_without_bye(seated))
            seated = [player for player in seated if player.id != byes[-1]]
        tables = _tables(seated, table_sizes(len(seated), table_size) or [], blocked)
        stuck = [
            one
            for table in tables
            for one in table
            if any(frozenset((one, other)) in blocked for other in table if other != one)
        ]
        if not stuck:
            return tables, byes
        order = rank_order(seated)
        kept_apart.append(max(stuck, key=order.index))


def _tables(
    players: Sequence[SwissCandidate], sizes: list[int], blocked: set[frozenset[int]]
) -> list[tuple[int, ...]]:
    """The tables of those sizes (steps 2 to 4), seats best first, top table first."""
    order = rank_order(players)
    position = {one: index for index, one in enumerate(order)}
    cost = TableCost({player.id: player for player in players}, blocked)
    if len(order) <= EXACT_UP_TO:
        tables = cheapest_split(order, sizes, cost)
    else:
        tables = mended(order, sizes, cost)
    seated = [tuple(sorted(table, key=position.__getitem__)) for table in tables]
    return sorted(seated, key=lambda table: position[table[0]])
