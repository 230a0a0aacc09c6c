"""The state of a batch of games: a frozen pytree of arrays with the batch as the last axis.

Game ``i`` is ``state.racks[..., i]``, ``state.phase[i]`` and so on (``tendays.batch.game_of`` gives
one game as plain data). The batch is the last axis so that one operation acts on the same place of
every game at once, in contiguous memory (masks and observations, which feed networks, have the
batch first).

Tiles are tile indices (``Edition.tiles``) and -1 marks an empty place; days, piles and seats count
from 0 here (the action numbering and the scalar engine's moves count days and piles from 1). Stacks
keep their top at the end, like the scalar engine's tuples: the top of the draw pile of game ``i``
is ``draw[draw_size[i] - 1, i]`` and the top of its discard pile ``p`` is ``piles[p, pile_size[p, i]
- 1, i]``; slots past the size are unused.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import jax

__all__ = ["DRAFT_PHASE", "DRAW_PHASE", "OVER_PHASE", "PLACE_PHASE", "BatchState"]

# The phases, numbered as tendays.engine.Phase.
DRAFT_PHASE, DRAW_PHASE, PLACE_PHASE, OVER_PHASE = range(4)


@dataclass(frozen=True)
class BatchState:
    """Games played side by side; every field has the batch as its last axis. Change it with
    :meth:`replace`.

    ``known`` is what the public history reveals about each rack (``tendays.engine.knowledge_of``):
    a tile taken face up from a discard pile and put on a day stays known there, through swaps,
    until that day is replaced again. ``first`` is the seat that takes the first turn once the draft
    is over (chosen at the deal, hidden from observations). ``ended`` and ``result`` describe the
    step that produced this state: whether it ended a game, and that game's winner (-1: no winner,
    or no game ended). With automatic resets the state then already holds a new game.
    """

    key: jax.Array  # PRNG key per game: the deal and every reshuffle are drawn from it
    phase: jax.Array  # int32[B]: DRAFT_PHASE .. OVER_PHASE
    current: jax.Array  # int32[B]: the seat to move (the winner once a game is won)
    first: jax.Array  # int32[B]: the seat that begins after the draft
    racks: jax.Array  # int8[players, days, B]
    known: jax.Array  # int8[players, days, B]: publicly known tile per day, -1 unknown
    draw: jax.Array  # int8[box, B]: the draw pile, top last
    draw_size: jax.Array  # int32[B]
    piles: jax.Array  # int8[3, pile_capacity, B]: the discard piles, top last
    pile_size: jax.Array  # int32[3, B]
    in_hand: jax.Array  # int32[B]: the tile being drafted or placed, -1 none
    # int32[B]: 0 draw pile, 1..3 that discard pile, -1 nothing taken this turn
    taken_from: jax.Array
    turn: jax.Array  # int32[B]: turns completed since the first player began
    winner: jax.Array  # int32[B]: -1 until someone wins
    reshuffles: jax.Array  # int32[B]
    ended: jax.Array  # bool[B]: the step that made this state ended a game
    result: jax.Array  # int32[B]: the winner of the game that step ended, -1 none

    def replace(self, **changes: Any) -> BatchState:
        return dataclasses.replace(self, **changes)

    @property
    def batch_size(self) -> int:
        return int(self.phase.shape[0])


# Every field is an array (jax 0.4.30 needs the fields named; later versions
# read them from the dataclass).
jax.tree_util.register_dataclass(
    BatchState, data_fields=[f.name for f in dataclasses.fields(BatchState)], meta_fields=[]
)
