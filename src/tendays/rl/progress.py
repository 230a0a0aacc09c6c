"""How far a rack is from a complete journey, as a count of satisfied conditions.

A rack of ``D`` days has ``D + 1`` conditions: each of the ``D - 1`` gaps between neighbouring days is
*sound*, and day 1 and day ``D`` are regions. A gap is sound when it is part of a valid step: two
bordering regions, or a region, a transport tile and a region that it connects. A rack is a complete
journey exactly when all ``D + 1`` conditions hold, so the count is a natural progress measure for
features and reward shaping. Only the player's own rack and the public edition are used.
"""

from __future__ import annotations

from collections.abc import Sequence

from tendays.engine import Edition, checker_for

__all__ = ["RackProgress"]

Rack = Sequence[int | None]


class RackProgress:
    """Counts the satisfied journey conditions of racks of one edition."""

    def __init__(self, edition: Edition) -> None:
        self.checker = checker_for(edition)
        self.is_region = self.checker.is_region

    def gap_sound(self, rack: Rack, i: int) -> bool:
        """Whether the gap after the 0-based day ``i`` is part of a valid step of the journey."""
        a, b = rack[i], rack[i + 1]
        if a is None or b is None:
            return False
        is_region, connects = self.is_region, self.checker.connects
        if is_region[a]:
            if is_region[b]:
                return connects(a, b)
            c = rack[i + 2] if i + 2 < len(rack) else None
            return c is not None and is_region[c] and connects(a, c, b)
        if not is_region[b] or i == 0:
            return False
        z = rack[i - 1]
        return z is not None and is_region[z] and connects(z, b, a)

    def score(self, rack: Rack) -> int:
        """The number of satisfied conditions, from 0 to ``len(rack) + 1``."""
        last = len(rack) - 1
        total = sum(self.gap_sound(rack, i) for i in range(last))
        first, end = rack[0], rack[last]
        return total + (first is not None and self.is_region[first]) + (end is not None and self.is_region[end])

    def gains(self, rack: Rack, tile: int) -> list[int]:
        """For each day, how the score changes if ``tile`` is put on that day (from -4 to 4)."""
        days = len(rack)
        is_region = self.is_region
        work = list(rack)
        result = []
        for d in range(days):
            # Only the gaps whose validity can look at day d change: d-2 .. d+1.
            low, high = max(0, d - 2), min(days - 2, d + 1)
            before = sum(self.gap_sound(work, i) for i in range(low, high + 1))
            old = work[d]
            work[d] = tile
            after = sum(self.gap_sound(work, i) for i in range(low, high + 1))
            work[d] = old
            gain = after - before
            if d == 0 or d == days - 1:
                gain += is_region[tile] - (old is not None and is_region[old])
            result.append(gain)
        return result
