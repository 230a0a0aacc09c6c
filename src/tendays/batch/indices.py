"""The indices observation: what one player may know, as a short uint8 vector of tile ids.

It holds what the compact form of :mod:`tendays.batch.observe` holds, from the same viewer, kept as
``tendays.engine.view`` keeps it: a tile is its id (``Edition.tiles`` index) instead of a one-hot
row, a fact of a few values is one number instead of a one-hot block, the discard piles are their
tiles in order (face up: their order follows from the public history, and the view shows it), and
there are only as many opponent slots as the game has other seats. The compact form's counts follow
from it and the edition's tile counts: the copies in each pile from ``piles``, the unseen copies
from the box less the piles, the racks the viewer knows and the visible held tile. Every value is a
uint8; "none" is ``T``, the number of kinds of tile, so a tile place takes ``T + 1`` values (an
embedding of ``T + 1`` rows reads it directly). 173 bytes a game for the USA with 2 players and 10
days, against 2,725 for the compact form.

With ``T`` kinds of tile, ``D`` days and ``P`` players, the blocks are, in order
(:func:`tendays.engine.layout.index_layout`; :func:`index_bounds` gives each position's largest
value):

==============  ===========  =====================================================================
block           size         meaning
==============  ===========  =====================================================================
phase           1            0 draft, 1 draw, 2 place, 3 over
to_move         1            seat to move, counted from the viewer (0 = me)
progress        1            turns played in 255ths of the turn limit (0 without a limit)
rack            D            own rack: the tile on each day, ``T`` on an empty day
held            1            tile being drafted or placed when the viewer may see it, else ``T``
held_hidden     1            1 when the player to move holds a tile the viewer cannot see
held_source     1            ``taken_from`` + 1: 0 nothing taken, 1 the draw pile, 2 to 4 discard
                             pile 1 to 3
forced_pile     1            the pile the current discard must go onto (1 to 3; 0: any)
pile_top        3            top tile of each discard pile, ``T`` when empty
pile_size       3            tiles in each pile
draw_size       1            tiles in the draw pile
piles           3*C          each discard pile, bottom first, ``T`` past its size (``C``: the
                             pile capacity, every tile outside the racks)
opponents       (P-1)*(1+D)  per other seat, in turn order after the viewer: tiles in its rack,
                             then the tile known to be on each day (``T``: not known or empty)
==============  ===========  =====================================================================

The vector is built with the batch last (one row per position, every operation across the games),
and turned batch first once at the end.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from tendays.engine.layout import Block, index_layout

from .config import Config
from .observe import held_as_seen
from .rules import forced_pile, pile_at, seat_row
from .state import OVER_PHASE, BatchState
from .transpose import batch_first

__all__ = ["index_bounds", "layout", "observe_indices"]


def layout(config: Config) -> dict[str, Block]:
    """The blocks of the indices observation, in order."""
    return index_layout(config.tiles, config.days, config.players, config.pile_capacity)


def index_bounds(config: Config) -> np.ndarray:
    """uint8[size]: the largest value each position of the indices observation can take."""
    t, d = config.tiles, config.days
    highs = {
        "phase": [3],
        "to_move": [config.players - 1],
        "progress": [255 if config.options.turn_limit else 0],
        "rack": [t] * d,
        "held": [t],
        "held_hidden": [1],
        "held_source": [4],
        "forced_pile": [3],
        "pile_top": [t] * 3,
        "pile_size": [config.pile_capacity] * 3,
        "draw_size": [config.box],
        "piles": [t] * (3 * config.pile_capacity),
        "opponents": ([d] + [t] * d) * (config.players - 1),
    }
    return np.concatenate([np.asarray(highs[name], np.uint8) for name in layout(config)])


def observe_indices(config: Config, state: BatchState, seats: jax.Array) -> jax.Array:
    """uint8[B, size]: game ``i`` of the batch as seat ``seats[i]`` may know it, in the indices
    form (see the module's docstring).

    Every piece is built with the batch last, as the state keeps it (elementwise over the games),
    and the joined rows are turned batch first once."""
    t, players, capacity = config.tiles, config.players, config.pile_capacity
    seats = jnp.asarray(seats, jnp.int32)
    held, hidden = held_as_seen(state, seats)  # int32[B], -1: none or out of sight
    revealed = config.options.open_hands | (state.phase == OVER_PHASE)
    seen = jnp.where(revealed, state.racks, state.known)  # int8[P, D, B]
    limit = config.options.turn_limit
    progress = (
        jnp.zeros_like(state.turn)
        if limit is None
        else jnp.minimum(state.turn, limit) * 255 // limit  # a turn limit may pass 255
    )
    sizes = state.pile_size
    in_pile = jnp.arange(capacity)[None, :, None] < sizes[:, None, :]
    piles = jnp.where(in_pile, state.piles, -1)  # int8[3, C, B]
    tops = [_top(piles[p], sizes[p]) for p in range(3)]
    others = []
    for slot in range(1, players):
        seat = (seats + slot) % players
        rack = seat_row(state.racks, seat)
        filled = sum((day >= 0).astype(jnp.uint8) for day in rack)  # no reduction: see rules.py
        others += [filled[None], _tile_ids(seat_row(seen, seat), t)]
    rows = [
        state.phase[None],
        ((state.current - seats) % players)[None],
        progress[None],
        _tile_ids(seat_row(state.racks, seats), t),
        _tile_ids(held, t)[None],
        hidden[None],
        (state.taken_from + 1)[None],
        forced_pile(state)[None],
        _tile_ids(jnp.stack(tops), t),
        sizes,
        state.draw_size[None],
        _tile_ids(piles, t).reshape(3 * capacity, -1),
        *others,
    ]
    return batch_first(jnp.concatenate([row.astype(jnp.uint8) for row in rows]))


def _tile_ids(tiles: jax.Array, t: int) -> jax.Array:
    """uint8 tile ids, ``t`` for -1 (no tile)."""
    return jnp.where(tiles >= 0, tiles, t).astype(jnp.uint8)


def _top(pile: jax.Array, size: jax.Array) -> jax.Array:
    """The top tile of one discard pile in every game (pile int8[C, B], -1 past its size): one
    lookup per game in the flat pile (``rules.pile_at``), -1 when empty."""
    top = pile_at(pile, jnp.maximum(size - 1, 0))
    return jnp.where(size > 0, top, -1)
