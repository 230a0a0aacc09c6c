"""The connection tables of an edition, built once and shared by every part that asks "does this connect?".

Tiles are numbered by their index in ``Edition.tiles`` (``n`` kinds of tile). The tables are flat byte
arrays, so array libraries can wrap them without copying (``numpy.frombuffer(t.step, numpy.uint8)
.reshape(n, n)``) and pure Python can index them directly:

- ``step[a * n + b]`` is 1 when regions ``a`` and ``b`` share a border (a walk from ``a`` to ``b``);
- ``hop[(a * n + via) * n + b]`` is 1 when transport tile ``via`` joins regions ``a`` and ``b``: a colour
  link whose colour both ends have (or any colour), or a skip standing for a region that borders both.

Get them with ``edition.tables`` (built on first use, then kept with the edition).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .edition import Role

if TYPE_CHECKING:
    from .edition import Edition

__all__ = ["EditionTables", "build_tables"]


@dataclass(frozen=True, slots=True)
class EditionTables:
    """Every connection fact of one edition, as flat arrays indexed by tile index."""

    n: int  # kinds of tile
    is_region: tuple[bool, ...]
    regions: tuple[int, ...]  # tile indices of the regions, in order
    transports: tuple[int, ...]  # tile indices of the transport tiles, in order
    counts: tuple[int, ...]  # copies of each tile in the box
    color: tuple[int, ...]  # index into ``Edition.colors``; -1: any colour (a region) or none (a skip)
    neighbors: tuple[frozenset[int], ...]  # bordering regions of each region (empty for transports)
    step: bytes  # n * n
    hop: bytes  # n * n * n

    def connects(self, a: int, b: int, via: int | None = None) -> bool:
        """Whether region ``a`` connects to region ``b`` on foot (``via`` None) or through transport ``via``."""
        n = self.n
        if via is None:
            return bool(self.step[a * n + b])
        return bool(self.hop[(a * n + via) * n + b])


def build_tables(edition: Edition) -> EditionTables:
    """Compute the tables of ``edition`` (use ``edition.tables``, which caches them)."""
    tiles = edition.tiles
    n = len(tiles)
    is_region = tuple(t.is_region for t in tiles)
    regions = tuple(t.index for t in tiles if t.is_region)
    transports = tuple(t.index for t in tiles if not t.is_region)
    color_index = {c: i for i, c in enumerate(edition.colors)}
    color = tuple(color_index[t.color] if t.color is not None else -1 for t in tiles)
    neighbors = tuple(
        frozenset(edition.by_id[r.upper()].index for r in edition.regions[t.index].neighbors) if t.is_region
        else frozenset()
        for t in tiles
    )
    step = bytearray(n * n)
    for a in regions:
        for b in neighbors[a]:
            step[a * n + b] = 1
    hop = bytearray(n * n * n)
    for via in transports:
        link = tiles[via]
        for a in regions:
            for b in regions:
                if a == b:
                    continue
                if link.role is Role.LINK:
                    joins = color[a] in (-1, color[via]) and color[b] in (-1, color[via])
                else:
                    joins = bool(neighbors[a] & neighbors[b])
                if joins:
                    hop[(a * n + via) * n + b] = 1
    return EditionTables(
        n=n,
        is_region=is_region,
        regions=regions,
        transports=transports,
        counts=tuple(t.count for t in tiles),
        color=color,
        neighbors=neighbors,
        step=bytes(step),
        hop=bytes(hop),
    )
