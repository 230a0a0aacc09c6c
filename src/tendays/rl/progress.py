"""How far a rack is from a complete journey, as a count of satisfied conditions.

A rack of ``D`` days has ``D + 1`` conditions: each of the ``D - 1`` gaps between neighbouring days is
*sound*, and day 1 and day ``D`` are regions. A gap is sound when it is part of a valid step: two
bordering regions, or a region, a transport tile and a region that it connects. A rack is a complete
journey exactly when all ``D + 1`` conditions hold, so the count is a natural progress measure for
features and reward shaping. Only the player's own rack and the public edition are used.
"""

from __future__ import annotations

from collections.abc import Sequence

from tendays.engine import Edition

__all__ = ["RackProgress"]

_GAINS_CACHE_SIZE = 4096

Rack = Sequence[int | None]


class RackProgress:
    """Counts the satisfied journey conditions of racks of one edition, from its connection tables."""

    def __init__(self, edition: Edition) -> None:
        tables = edition.tables
        self.is_region = tables.is_region
        self._n = tables.n
        self._steps = tables.step
        self._hops = tables.hop
        # A rack keeps its tiles for several turns and pile tops change slowly, so the same questions recur.
        self._gains: dict[tuple[tuple[int | None, ...], int], tuple[int, ...]] = {}

    def gap_sound(self, rack: Rack, i: int) -> bool:
        """Whether the gap after the 0-based day ``i`` is part of a valid step of the journey."""
        a, b = rack[i], rack[i + 1]
        if a is None or b is None:
            return False
        is_region, n = self.is_region, self._n
        if is_region[a]:
            if is_region[b]:
                return bool(self._steps[a * n + b])
            c = rack[i + 2] if i + 2 < len(rack) else None
            return c is not None and bool(self._hops[(a * n + b) * n + c])
        if not is_region[b] or i == 0:
            return False
        z = rack[i - 1]
        return z is not None and bool(self._hops[(z * n + a) * n + b])

    def sound_gaps(self, rack: Rack) -> list[bool]:
        """Soundness of each of the ``len(rack) - 1`` gaps."""
        return [self.gap_sound(rack, i) for i in range(len(rack) - 1)]

    def score(self, rack: Rack) -> int:
        """The number of satisfied conditions, from 0 to ``len(rack) + 1``."""
        first, end = rack[0], rack[-1]
        return (sum(self.sound_gaps(rack)) + (first is not None and self.is_region[first])
                + (end is not None and self.is_region[end]))

    def gains(self, rack: Rack, tile: int, sound: list[bool] | None = None) -> tuple[int, ...]:
        """For each day, how the score changes if ``tile`` is put on that day (from -4 to 4).

        ``sound`` may pass ``sound_gaps(rack)`` when it is already known.
        """
        key = (tuple(rack), tile)
        cached = self._gains.get(key)
        if cached is not None:
            return cached
        if sound is None:
            sound = self.sound_gaps(rack)
        days = len(rack)
        is_region, gap_sound = self.is_region, self.gap_sound
        work = list(rack)
        result = []
        for d in range(days):
            # Only the gaps whose soundness can look at day d change: d-2 .. d+1.
            low, high = max(0, d - 2), min(days - 2, d + 1)
            old = work[d]
            work[d] = tile
            gain = 0
            for i in range(low, high + 1):
                gain += gap_sound(work, i) - sound[i]
            work[d] = old
            if d == 0 or d == days - 1:
                gain += is_region[tile] - (old is not None and is_region[old])
            result.append(gain)
        if len(self._gains) >= _GAINS_CACHE_SIZE:
            self._gains.clear()
        gains = self._gains[key] = tuple(result)
        return gains
