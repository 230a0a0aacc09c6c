"""Every split of a small Swiss field into tables, the cheapest taken: a depth-first search that
seats the best-ranked player still free at each step (with companions in standings order), and
drops a branch as soon as its cost reaches the best found. Of equal splits the first found wins,
which is the one nearest to the standings order."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .table_cost import NOTHING, Cost, TableCost, added

__all__ = ["cheapest_split"]


def cheapest_split(order: Sequence[int], sizes: Sequence[int], cost: TableCost) -> list[list[int]]:
    """The cheapest tables of ``sizes`` for the players in ``order`` (best first)."""
    best: list[list[int]] = []
    best_cost: Cost | None = None

    def search(
        free: list[int], sizes_left: list[int], tables: list[list[int]], so_far: Cost
    ) -> None:
        nonlocal best, best_cost
        if best_cost is not None and so_far >= best_cost:
            return
        if not free:
            best, best_cost = [list(table) for table in tables], so_far
            return
        first, rest = free[0], free[1:]
        for size in sorted(set(sizes_left), reverse=True):
            left = list(sizes_left)
            left.remove(size)
            for companions in combinations(rest, size - 1):
                table = [first, *companions]
                remaining = [one for one in rest if one not in companions]
                search(remaining, left, [*tables, table], added(so_far, cost(table)))

    search(list(order), list(sizes), [], NOTHING)
    return best
