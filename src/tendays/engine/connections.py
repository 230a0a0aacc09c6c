"""The connection tables of an edition, built once and shared by every part that asks "does this
connect?".

Tiles are numbered by their index in ``Edition.tiles`` (``n`` kinds of tile). The tables are flat
byte arrays, so array libraries can wrap them without copying (``numpy.frombuffer(t.step,
numpy.uint8) .reshape(n, n)``) and pure Python can index them directly:

- ``step[a * n + b]`` is 1 when regions ``a`` and ``b`` share a border (a walk from ``a`` to ``b``);
- ``hop[(a * n + via) * n + b]`` is 1 when transport tile ``via`` joins regions ``a`` and ``b``: a
  colour link whose colour both ends have (or any colour), or a skip standing for a region that
  borders both;
- ``link[(a * m + b) * m + c]`` (``m = n + 1``; index ``n`` is an empty day, or no day) is 1 when a
  day holding ``a`` is sound in a journey, given the tiles ``b`` and ``c`` on the two days after it:
  the table the array engines walk a rack with (the batched engine, the learned bot and its
  trainer).

Get them with ``edition.tables`` (built on first use, then kept with the edition). This module knows
tiles only by the few facts it reads (:class:`TileFacts`), so it imports nothing of the edition.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = ["EditionTables", "TileFacts", "build_tables"]


class TileFacts(Protocol):
    """What the tables read of a tile (``tendays.engine.Tile`` has it)."""

    @property
    def is_region(self) -> bool: ...
    @property
    def role(self) -> str: ...  # "region", "link" (a colour link) or "skip"
    @property
    def color(self) -> str | None: ...
    @property
    def count(self) -> int: ...


@dataclass(frozen=True, slots=True)
class EditionTables:
    """Every connection fact of one edition, as flat arrays indexed by tile index."""

    n: int  # kinds of tile
    is_region: tuple[bool, ...]
    regions: tuple[int, ...]  # tile indices of the regions, in order
    transports: tuple[int, ...]  # tile indices of the transport tiles, in order
    counts: tuple[int, ...]  # copies of each tile in the box
    # index into ``Edition.colors``; -1: any colour (a region) or none (a skip)
    color: tuple[int, ...]
    neighbors: tuple[frozenset[int], ...]  # bordering regions of each region (empty for transports)
    step: bytes  # n * n
    hop: bytes  # n * n * n
    link: bytes  # (n + 1) ** 3

    def connects(self, a: int, b: int, via: int | None = None) -> bool:
        """Whether region ``a`` connects to region ``b`` on foot (``via`` None)
        or through transport ``via``."""
        n = self.n
        if via is None:
            return bool(self.step[a * n + b])
        return bool(self.hop[(a * n + via) * n + b])


def build_tables(
    tiles: Sequence[TileFacts], colors: Sequence[str], neighbors: Sequence[frozenset[int]]
) -> EditionTables:
    """Compute the tables of an edition's ``tiles`` (in index order), its ``colors`` and each tile's
    bordering regions (use ``edition.tables``, which caches them)."""
    n = len(tiles)
    is_region = tuple(t.is_region for t in tiles)
    regions = tuple(i for i, t in enumerate(tiles) if t.is_region)
    transports = tuple(i for i, t in enumerate(tiles) if not t.is_region)
    color_index = {c: i for i, c in enumerate(colors)}
    color = tuple(color_index[t.color] if t.color is not None else -1 for t in tiles)
    neighbors = tuple(neighbors)
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
                if link.role == "link":
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
        link=_link(n, regions, transports, step, hop),
    )


def _link(
    n: int, regions: Sequence[int], transports: Sequence[int], step: bytearray, hop: bytearray
) -> bytes:
    """The link table (see the module's docstring). A region followed by a region must share a
    border; a region followed by a transport must reach the day after through it; a transport must
    be followed by a region (its own day is judged with the day before it). With day 1 a region and
    every day sound, the rack is a complete journey."""
    m = n + 1
    link = bytearray(m * m * m)
    for a in regions:
        for b in regions:
            if step[a * n + b]:
                start = (a * m + b) * m
                link[start : start + m] = b"\x01" * m
        for via in transports:
            row, start = (a * n + via) * n, (a * m + via) * m
            link[start : start + n] = hop[row : row + n]
    for via in transports:
        for b in regions:
            start = (via * m + b) * m
            link[start : start + m] = b"\x01" * m
    return bytes(link)
