"""The layouts of the observation vectors: which named stretch (block) of a flat vector says what,
as :class:`~tendays.engine.ActionCodec` numbers the actions. Plain data, so the numpy encoders (the
RL environments, the learned bot) and the JAX one (the batched engine) read the same table.

Two vectors are laid out here, each documented with its encoder:

- :func:`env_layout`, the Gymnasium and PettingZoo environments' (``tendays.rl.observation``): the
  view with the own rack's journey progress worked in;
- :func:`array_layout`, the batched engine's (``tendays.batch.observe``), which the learned bot
  encodes from a scalar view (``tendays.bots.learned.encode``): the view alone;
- :func:`index_layout`, the batched engine's indices form (``tendays.batch.indices``): the same
  view as tile ids and counts, one slot per other seat of the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .options import MAX_PLAYERS, PILES

__all__ = [
    "OPPONENT_SLOTS",
    "Block",
    "array_layout",
    "contiguous_blocks",
    "env_layout",
    "index_layout",
]

OPPONENT_SLOTS = MAX_PLAYERS - 1  # a block per other seat, in turn order after the viewer


@dataclass(frozen=True, slots=True)
class Block:
    """One named stretch of an observation vector."""

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


def env_layout(tiles: int, days: int) -> dict[str, Block]:
    """The blocks of the environments' observation, for ``tiles`` kinds
    of tile and racks of ``days``."""
    t, d = tiles, days
    return contiguous_blocks(
        [
            ("phase", 4),
            ("to_move", MAX_PLAYERS),
            ("progress", 1),
            ("rack", d * t),
            ("rack_empty", d),
            ("rack_sound", d + 1),
            ("held", t),
            ("held_source", PILES + 1),
            ("held_gain", d),
            ("pile_top", PILES * t),
            ("pile_contents", PILES * t),
            ("pile_size", PILES),
            ("pile_top_gain", PILES),
            ("draw_pile_size", 1),
            ("unseen", t),
            ("opponents", OPPONENT_SLOTS * (2 + d * t)),
        ]
    )


def array_layout(tiles: int, days: int) -> dict[str, Block]:
    """The blocks of the batched engine's observation, for ``tiles`` kinds
    of tile and racks of ``days``."""
    t, d = tiles, days
    return contiguous_blocks(
        [
            ("phase", 4),
            ("to_move", MAX_PLAYERS),
            ("progress", 1),
            ("rack", d * t),
            ("rack_empty", d),
            ("held", t),
            ("held_hidden", 1),
            ("held_source", PILES + 1),
            ("forced_pile", PILES),
            ("pile_top", PILES * t),
            ("pile_contents", PILES * t),
            ("pile_size", PILES),
            ("draw_size", 1),
            ("unseen", t),
            ("opponents", OPPONENT_SLOTS * (2 + d * t)),
        ]
    )


def index_layout(tiles: int, days: int, players: int, pile_capacity: int) -> dict[str, Block]:
    """The blocks of the batched engine's indices observation, for ``tiles`` kinds of tile, racks
    of ``days``, ``players`` seats and discard piles of ``pile_capacity`` slots."""
    d = days
    return contiguous_blocks(
        [
            ("phase", 1),
            ("to_move", 1),
            ("progress", 1),
            ("rack", d),
            ("held", 1),
            ("held_hidden", 1),
            ("held_source", 1),
            ("forced_pile", 1),
            ("pile_top", PILES),
            ("pile_size", PILES),
            ("draw_size", 1),
            ("piles", PILES * pile_capacity),
            ("opponents", (players - 1) * (1 + d)),
        ]
    )
