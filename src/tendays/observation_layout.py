"""Named stretches of a flat observation vector, shared by the scalar encoder (:mod:`tendays.rl`) and the
batched one (:mod:`tendays.batch`); plain Python, so neither brings the other's libraries with it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Block", "contiguous_blocks"]


@dataclass(frozen=True, slots=True)
class Block:
    """One named stretch of the observation vector."""

    name: str
    start: int
    size: int

    @property
    def stop(self) -> int:
        return self.start + self.size


def contiguous_blocks(sizes: Iterable[tuple[str, int]]) -> dict[str, Block]:
    """Blocks of the given names and sizes laid end to end from index 0, in order."""
    blocks: dict[str, Block] = {}
    start = 0
    for name, size in sizes:
        blocks[name] = Block(name, start, size)
        start += size
    return blocks
