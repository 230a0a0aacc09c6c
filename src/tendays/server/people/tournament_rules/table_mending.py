"""A large multiplayer Swiss field: tables cut in standings order, then mended one swap at a
time (see .swiss_tables, step 4)."""

from __future__ import annotations

from collections.abc import Sequence

from .table_cost import TableCost, added

__all__ = ["SWAP_REACH", "mended"]

SWAP_REACH = 8  # tables apart: a swap mends a rematch near the player's own score group
# The parts of a table's cost that a swap mends: blocks, rematches and score gaps. Rating gaps
# stay as the standings order cut them (the order sorts by rating within a score): mending them
# too would take thousands of swaps in a large field for little.
MENDED = 3


def mended(order: Sequence[int], sizes: Sequence[int], cost: TableCost) -> list[list[int]]:
    """Tables of ``sizes`` cut from ``order`` (best first), then swapped until no swap helps."""
    tables: list[list[int]] = []
    for size in sizes:
        start = sum(len(table) for table in tables)
        tables.append(list(order[start : start + size]))
    mender = _Mender(tables, cost)
    while mender.one_pass():
        pass
    return mender.tables


class _Mender:
    """Tables and their costs, improved one swap at a time."""

    def __init__(self, tables: list[list[int]], cost: TableCost) -> None:
        self.tables = tables
        self.cost = cost
        self.costs = [cost(table) for table in tables]

    def one_pass(self) -> bool:
        """Tries every pair of tables in reach, top first; True if any swap was made."""
        swapped = False
        count = len(self.tables)
        for first in range(count):
            for second in range(first + 1, min(first + 1 + SWAP_REACH, count)):
                swapped |= self.first_better_swap(first, second)
        return swapped

    def first_better_swap(self, first: int, second: int) -> bool:
        """Makes the first swap between the two tables that lowers their cost."""
        before = added(self.costs[first], self.costs[second])[:MENDED]
        for one_seat in range(len(self.tables[first])):
            for other_seat in range(len(self.tables[second])):
                one_table, other_table = list(self.tables[first]), list(self.tables[second])
                one_table[one_seat], other_table[other_seat] = (
                    other_table[other_seat],
                    one_table[one_seat],
                )
                one_cost, other_cost = self.cost(one_table), self.cost(other_table)
                if added(one_cost, other_cost)[:MENDED] < before:
                    self.tables[first], self.tables[second] = one_table, other_table
                    self.costs[first], self.costs[second] = one_cost, other_cost
                    return True
        return False
