"""How far a rack is from a complete journey, as a count of satisfied conditions.

A rack of ``D`` days has ``D + 1`` conditions: each of the ``D - 1`` gaps between neighbouring days
is *sound*, and day 1 and day ``D`` are regions. A gap is sound when it is part of a valid step: two
bordering regions, or a region, a transport tile and a region that it connects. A rack is a complete
journey exactly when all ``D + 1`` conditions hold, so the count is a natural progress measure for
features and reward shaping. Only the player's own rack and the public edition are used.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tendays.engine import Edition

__all__ = ["RackProgress"]

_TABLE_CACHE_SIZE = 512

Rack = Sequence[int | None]


class RackProgress:
    """Counts the satisfied journey conditions of racks of one edition,
    from its connection tables."""

    def __init__(self, edition: Edition) -> None:
        tables = edition.tables
        self.is_region = tables.is_region
        self._n = n = tables.n
        self._steps = tables.step
        self._hops = tables.hop
        # The gain tables read rows of the connection tables; index n (an empty day, or no day at
        # all) reads zeros. Step and hop are 1 only between regions (through a transport tile for a
        # hop), so a sum of look-ups covers every case of a gap without asking what kind each tile
        # is (see gain_table).
        m = n + 1
        step = np.zeros((m, m), np.int16)
        step[:n, :n] = np.frombuffer(tables.step, np.uint8).reshape(n, n)
        hop = np.zeros((m, m, m), np.int16)
        hop[:n, :n, :n] = np.frombuffer(tables.hop, np.uint8).reshape(n, n, n)
        self._padded_step = step.astype(np.uint8).tobytes()
        self._padded_hop = hop.astype(np.uint8).tobytes()
        region = np.array([*tables.is_region, False], np.int16)
        # Rows over the placed tile x (m columns, the last for "no tile", all zero), each table
        # addressed by a pair of neighbouring days' tiles (a * m + b), and one extra row for the
        # ends of the rack: left[a, b] = step[b, x] + 2 hop[a, b, x], right[a, b] = step[x, a] + 2
        # hop[x, a, b], middle[a, b] = 2 hop[a, x, b].
        left = np.broadcast_to(step[None], (m, m, m)) + 2 * hop
        right = step.T[:, None, :] + 2 * hop.transpose(1, 2, 0)
        middle = 2 * hop.transpose(0, 2, 1)
        rows = [np.concatenate([t.reshape(m * m, m), region[None]]) for t in (left, right, middle)]
        self._rows = np.concatenate(rows)
        self._pairs = m * m + 1  # rows per table; row m * m is the end row
        self._tables: dict[tuple[int | None, ...], np.ndarray] = {}

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
        """Soundness of each of the ``len(rack) - 1`` gaps (``gap_sound`` of
        each, in one pass over the rack)."""
        n, m = self._n, self._n + 1
        step, hop = self._padded_step, self._padded_hop
        pad = [n, *[n if t is None else t for t in rack], n]
        # Gap i is sound by a step, by a hop from day i over a transport, or by a hop over day i
        # onto day i + 1.
        return [
            bool(step[a * m + b] or hop[(a * m + b) * m + c] or hop[(z * m + a) * m + b])
            for z, a, b, c in zip(pad, pad[1:], pad[2:], pad[3:], strict=False)
        ]

    def score(self, rack: Rack) -> int:
        """The number of satisfied conditions, from 0 to ``len(rack) + 1``."""
        first, end = rack[0], rack[-1]
        return (
            sum(self.sound_gaps(rack))
            + (first is not None and self.is_region[first])
            + (end is not None and self.is_region[end])
        )

    def gains(self, rack: Rack, tile: int, sound: list[bool] | None = None) -> tuple[int, ...]:
        """For each day, how the score changes if ``tile`` is put on that day (from -4 to 4).

        ``sound`` (``sound_gaps(rack)``) is not needed; it is accepted so callers that know it may
        pass it.
        """
        return tuple(self.gain_table(rack)[:, tile].tolist())

    def gain_table(self, rack: Rack, sound: list[bool] | None = None) -> np.ndarray:
        """int16[days, tiles]: for every day and every kind of tile, how the score changes if that
        tile is put on that day. Kept for the racks asked about recently (the array is shared and
        read-only).

        Putting ``x`` on day ``d`` changes at most the gaps ``d - 2 .. d + 1``. Gaps ``d - 1`` and
        ``d`` hold ``x``; gap ``d - 2`` reads ``x`` only through a hop of day ``d - 2`` over a
        transport on day ``d - 1`` (and gap ``d + 1`` likewise), and such a hop also makes gap ``d -
        1`` (gap ``d``) sound, so it is one look-up counted twice; a transport ``x`` between days
        ``d - 1`` and ``d + 1`` makes both of its gaps sound. Every other gap keeps its soundness,
        so the sum of these look-ups with the tile now on day ``d`` (or none) is what day ``d``
        contributes to the score now. ``sound`` is not needed (accepted for symmetry with
        :meth:`gains`).
        """
        key = tuple(rack)
        kept = self._tables.get(key)
        if kept is not None:
            return kept
        n, days, pairs = self._n, len(rack), self._pairs
        m = n + 1
        own = [n if t is None else t for t in rack]
        pad = [n, n, *own, n, n]  # pad[d + 2] is day d; outside the rack: no tile
        index = [a * m + b for a, b in zip(pad, pad[1 : days + 1], strict=False)]
        index[0] = pairs - 1
        index += [pairs + a * m + b for a, b in zip(pad[3:], pad[4 : days + 4], strict=False)]
        index[-1] = 2 * pairs - 1
        index += [2 * pairs + a * m + b for a, b in zip(pad[1:], pad[3 : days + 3], strict=False)]
        rows = self._rows.take(index, axis=0)
        raw = rows[:days] + rows[days : 2 * days] + rows[2 * days :]
        # The same sum with each day's own tile (or none) is what the day
        # gives the score now: subtract it.
        raw -= raw.take([d * m + t for d, t in enumerate(own)])[:, None]
        table: np.ndarray = raw[:, :n]
        table.flags.writeable = False
        if len(self._tables) >= _TABLE_CACHE_SIZE:
            self._tables.clear()
        self._tables[key] = table
        return table
