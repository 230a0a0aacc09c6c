"""Observations: what one player may know, as a flat float32 vector per game.

The vector is built from the viewer's side of the table only, as ``tendays.engine.view`` and
``tendays.engine.knowledge_of`` define it: the own rack, the held tile when the viewer may see it (their own
draw, or a tile taken face up from a discard pile), the discard piles (face up, so their contents are public),
the size of the draw pile, how many tiles each rack holds, the seat to move, and the tiles the public history
places in other racks (every rack with open hands or once the game is over). The draw-pile order, other racks'
unseen days, the first seat of a game still in its draft and the PRNG key never enter it.

With ``T`` kinds of tile and ``D`` days, the blocks are, in order (every value lies in [0, 1]):

==============  ===========  ===============================================================================
block           size         meaning
==============  ===========  ===============================================================================
phase           4            one-hot: draft, draw, place, over
to_move         4            one-hot seat to move, counted from the viewer (0 = me)
progress        1            turns played / turn limit (0 without a limit)
rack            D*T          own rack, one-hot tile per day (an empty day is all zero)
rack_empty      D            1 where a day of the own rack is still empty (draft)
held            T            one-hot tile being drafted or placed, when the viewer may see it
held_hidden     1            1 when the player to move holds a tile the viewer cannot see
held_source     4            one-hot ``taken_from``: draw pile, discard pile 1, 2, 3 (all zero: none)
forced_pile     3            one-hot pile the current discard must go onto (emptied-pile rule)
pile_top        3*T          one-hot top tile of each discard pile
pile_contents   3*T          copies of each tile in each pile / copies in the box
pile_size       3            tiles in each pile / tiles in the box
draw_size       1            tiles in the draw pile / tiles in the box
unseen          T            copies of each tile whose place the viewer does not know / copies in the box
opponents       3*(2+D*T)    per other seat, in turn order after the viewer: present, tiles in rack / D,
                             then the tile known to be on each day, one-hot
==============  ===========  ===============================================================================
"""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp

from tendays.engine import MAX_PLAYERS

from .config import Config
from .state import DRAFT_PHASE, OVER_PHASE, PLACE_PHASE, BatchState

__all__ = ["Block", "layout", "observe"]

OPPONENT_SLOTS = MAX_PLAYERS - 1


@dataclass(frozen=True, slots=True)
class Block:
    """One named stretch of the observation vector."""

    name: str
    start: int
    size: int

    @property
    def stop(self) -> int:
        return self.start + self.size


def layout(config: Config) -> dict[str, Block]:
    """The blocks of the observation vector, in order."""
    t, d = config.tiles, config.days
    sizes = [("phase", 4), ("to_move", MAX_PLAYERS), ("progress", 1), ("rack", d * t), ("rack_empty", d),
             ("held", t), ("held_hidden", 1), ("held_source", 4), ("forced_pile", 3), ("pile_top", 3 * t),
             ("pile_contents", 3 * t), ("pile_size", 3), ("draw_size", 1), ("unseen", t),
             ("opponents", OPPONENT_SLOTS * (2 + d * t))]
    blocks: dict[str, Block] = {}
    start = 0
    for name, size in sizes:
        blocks[name] = Block(name, start, size)
        start += size
    return blocks


def _one_hot(tile: jax.Array, tiles: int) -> jax.Array:
    """One-hot rows of ``tile`` (any shape); -1 gives all zeros."""
    return (tile[..., None] == jnp.arange(tiles)).astype(jnp.float32)


def observe(config: Config, state: BatchState, player: jax.Array) -> jax.Array:
    """The observation of seat ``player`` in one game (no batch axis)."""
    t, d, players = config.tiles, config.days, config.players
    box = float(config.box)
    copies = jnp.asarray(config.counts, jnp.float32)
    phase, current = state.phase, state.current
    racks = state.racks.astype(jnp.int32)
    own = racks[player]

    # The held tile: its drawer sees it; a tile taken from a discard pile is seen by everyone.
    holding = (phase == PLACE_PHASE) | (phase == DRAFT_PHASE)
    visible = holding & ((player == current) | ((phase == PLACE_PHASE) & (state.taken_from > 0)))
    held = jnp.where(visible, state.in_hand, -1)
    hidden = holding & ~visible

    # Racks as the viewer knows them: the public history, everything with open hands or after the game.
    revealed = config.options.open_hands | (phase == OVER_PHASE)
    known = jnp.where(revealed, racks, state.known.astype(jnp.int32))
    known = jnp.where((jnp.arange(players) == player)[:, None], own[None, :], known)

    sizes = state.pile_size
    in_pile = jnp.arange(config.pile_capacity)[None, :] < sizes[:, None]
    pile_tiles = jnp.where(in_pile, state.piles.astype(jnp.int32), -1)
    contents = _one_hot(pile_tiles, t).sum(axis=1)  # [3, T]
    tops = jnp.take_along_axis(pile_tiles, jnp.maximum(sizes - 1, 0)[:, None], axis=1)[:, 0]
    tops = jnp.where(sizes > 0, tops, -1)
    placed = _one_hot(known, t)  # [players, D, T]
    unseen = copies - contents.sum(0) - placed.sum((0, 1)) - _one_hot(held, t)

    taken = state.pile_size[jnp.clip(state.taken_from - 1, 0, 2)] == 0
    forced = jnp.where((phase == PLACE_PHASE) & (state.taken_from > 0) & taken, state.taken_from, 0)
    limit = config.options.turn_limit
    progress = jnp.minimum(1.0, state.turn / limit) if limit is not None else jnp.float32(0.0)

    others = []
    for slot in range(1, OPPONENT_SLOTS + 1):
        seat = (player + slot) % players
        present = jnp.float32(slot < players)
        count = (racks[seat] >= 0).sum() / d
        others += [present[None], (present * count)[None], (present * placed[seat]).reshape(-1)]
    return jnp.concatenate([
        _one_hot(phase, 4),
        _one_hot((current - player) % players, MAX_PLAYERS),
        jnp.asarray(progress, jnp.float32)[None],
        _one_hot(own, t).reshape(-1),
        (own < 0).astype(jnp.float32),
        _one_hot(held, t),
        hidden.astype(jnp.float32)[None],
        _one_hot(state.taken_from, 4),
        _one_hot(forced - 1, 3),
        _one_hot(tops, t).reshape(-1),
        (contents / copies).reshape(-1),
        sizes / box,
        (state.draw_size / box)[None],
        jnp.maximum(unseen, 0.0) / copies,
        *others,
    ]).astype(jnp.float32)
