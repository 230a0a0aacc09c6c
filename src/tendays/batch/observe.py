"""Observations: what one player may know, as a flat float32 vector per game.

The vector is built from the viewer's side of the table only, as ``tendays.engine.view`` and
``tendays.engine.knowledge_of`` define it: the own rack, the held tile when the viewer may see it
(their own draw, or a tile taken face up from a discard pile), the discard piles (face up, so their
contents are public), the size of the draw pile, how many tiles each rack holds, the seat to move,
and the tiles the public history places in other racks (every rack with open hands or once the game
is over). The draw-pile order, other racks' unseen days, the first seat of a game still in its draft
and the PRNG key never enter it.

The compact form (``observe_batch(..., compact=True)``; the pgx env's default) has the same blocks
as uint8 whole numbers: one-hot blocks hold 0 or 1, and each share in the table below holds its
count instead (pile contents and unseen tiles in copies, pile and draw sizes in tiles, opponents'
rack sizes in days), except ``progress``, which holds 255ths of the turn limit. One byte per value
instead of four, and no division.

With ``T`` kinds of tile and ``D`` days, the blocks are, in order (every float32 value lies in
[0, 1]):

==============  ===========  =====================================================================
block           size         meaning
==============  ===========  =====================================================================
phase           4            one-hot: draft, draw, place, over
to_move         4            one-hot seat to move, counted from the viewer (0 = me)
progress        1            turns played / turn limit (0 without a limit)
rack            D*T          own rack, one-hot tile per day (an empty day is all zero)
rack_empty      D            1 where a day of the own rack is still empty (draft)
held            T            one-hot tile being drafted or placed, when the viewer may see it
held_hidden     1            1 when the player to move holds a tile the viewer cannot see
held_source     4            one-hot ``taken_from``: draw pile, discard pile 1, 2, 3 (all zero:
                             none)
forced_pile     3            one-hot pile the current discard must go onto (emptied-pile rule)
pile_top        3*T          one-hot top tile of each discard pile
pile_contents   3*T          copies of each tile in each pile / copies in the box
pile_size       3            tiles in each pile / tiles in the box
draw_size       1            tiles in the draw pile / tiles in the box
unseen          T            copies of each tile whose place the viewer does not know / copies in
                             the box
opponents       3*(2+D*T)    per other seat, in turn order after the viewer: present, tiles in
                             rack / D, then the tile known to be on each day, one-hot
==============  ===========  =====================================================================
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from tendays.engine import MAX_PLAYERS
from tendays.engine.layout import OPPONENT_SLOTS, Block, array_layout

from .config import Config
from .state import DRAFT_PHASE, OVER_PHASE, PLACE_PHASE, BatchState

__all__ = ["Block", "held_as_seen", "layout", "observe_batch"]


def layout(config: Config) -> dict[str, Block]:
    """The blocks of the observation vector, in order
    (:func:`tendays.engine.layout.array_layout`)."""
    return array_layout(config.tiles, config.days)


def _one_hot(tile: jax.Array, tiles: int) -> jax.Array:
    """One-hot rows of ``tile`` (any shape), bool; -1 gives all zeros."""
    return tile[..., None] == jnp.arange(tiles)


def observe_batch(
    config: Config, state: BatchState, seats: jax.Array, compact: bool = False
) -> jax.Array:
    """float32[B, observation size]: game ``i`` of the batch as seat ``seats[i]`` may know it; with
    ``compact``, uint8[B, observation size] of the same blocks as whole numbers (see the module's
    docstring).

    The tile counts (pile contents, unseen tiles) are one scatter-add over the whole batch; the rest
    is built game by game. Counting with one-hot arrays instead (a [3, capacity, T] one-hot per game
    for the piles) costs most of the time on XLA's CPU backend.
    """
    t = config.tiles
    batch = state.phase.shape[0]
    held, _ = held_as_seen(state, seats)
    known = _known_racks(config, state, seats)  # int8[players, days, B]

    # Row 3 of a game's counts: its known rack tiles and the visible held tile;
    # rows 0..2: its discard piles.
    base = jnp.arange(batch) * (4 * t)
    nowhere = batch * 4 * t  # dropped
    in_pile = jnp.arange(config.pile_capacity)[None, :, None] < state.pile_size[:, None, :]
    pile_index = base + jnp.arange(3)[:, None, None] * t + state.piles.astype(jnp.int32)
    seen_index = base + 3 * t + known.astype(jnp.int32)
    index = jnp.concatenate(
        [
            jnp.where(in_pile, pile_index, nowhere).reshape(-1),
            jnp.where(known >= 0, seen_index, nowhere).reshape(-1),
            jnp.where(held >= 0, base + 3 * t + held, nowhere),
        ]
    )
    counts = jnp.zeros(nowhere, jnp.float32).at[index].add(1.0, mode="drop").reshape(batch, 4, t)
    contents = counts[:, :3]
    copies = jnp.asarray(config.counts, jnp.float32)
    unseen = copies - contents.sum(axis=1) - counts[:, 3]

    def one_game(
        game: BatchState,
        player: jax.Array,
        known: jax.Array,
        contents: jax.Array,
        unseen: jax.Array,
    ) -> list[jax.Array]:
        return _observe_game(config, game, player, known, contents, unseen, compact)

    pieces = jax.vmap(one_game, in_axes=(-1, 0, -1, 0, 0))(state, seats, known, contents, unseen)
    # Each piece is written into its columns of the result in place. (Joined with one concatenate,
    # XLA's CPU backend picks the source of every element of the [B, size] result
    # in turn: five times slower.)
    dtype = jnp.uint8 if compact else jnp.float32
    out = jnp.zeros((batch, sum(piece.shape[1] for piece in pieces)), dtype)
    start = 0
    for piece in pieces:
        out = jax.lax.dynamic_update_slice(out, piece.astype(dtype), (0, start))
        start += piece.shape[1]
    return out


def held_as_seen(state: BatchState, player: jax.Array) -> tuple[jax.Array, jax.Array]:
    """The held tile as ``player`` sees it (-1: none or unseen), and whether a tile is held out of
    sight. The drawer sees their tile; a tile taken from a discard pile is seen by everyone."""
    phase = state.phase
    holding = (phase == PLACE_PHASE) | (phase == DRAFT_PHASE)
    visible = holding & (
        (player == state.current) | ((phase == PLACE_PHASE) & (state.taken_from > 0))
    )
    return jnp.where(visible, state.in_hand, -1), holding & ~visible


def _known_racks(config: Config, state: BatchState, seats: jax.Array) -> jax.Array:
    """int8[players, days, B]: racks as each game's viewer knows them: the public history, their own
    rack, and every rack with open hands or after the game."""
    revealed = config.options.open_hands | (state.phase == OVER_PHASE)
    known = jnp.where(revealed, state.racks, state.known)
    own = jnp.arange(config.players)[:, None, None] == seats
    return jnp.where(own, state.racks, known)


def _scaled(count: jax.Array, whole: jax.Array | float, compact: bool) -> jax.Array:
    """A count as it is kept: the count itself (compact), else its share of ``whole`` in float32."""
    return count.astype(jnp.uint8) if compact else count.astype(jnp.float32) / whole


def _observe_game(
    config: Config,
    state: BatchState,
    player: jax.Array,
    known: jax.Array,
    contents: jax.Array,
    unseen: jax.Array,
    compact: bool,
) -> list[jax.Array]:
    """One game's observation (no batch axis) in its pieces, given the viewer's
    known racks and the tile counts."""
    t, d, players = config.tiles, config.days, config.players
    box = float(config.box)
    copies = jnp.asarray(config.counts, jnp.float32)
    phase, current = state.phase, state.current
    racks = state.racks.astype(jnp.int32)
    own = racks[player]
    held, hidden = held_as_seen(state, player)

    sizes = state.pile_size
    tops = jnp.take_along_axis(
        state.piles.astype(jnp.int32), jnp.maximum(sizes - 1, 0)[:, None], axis=1
    )[:, 0]
    tops = jnp.where(sizes > 0, tops, -1)
    placed = _one_hot(known.astype(jnp.int32), t)  # [players, D, T]

    taken = state.pile_size[jnp.clip(state.taken_from - 1, 0, 2)] == 0
    forced = jnp.where((phase == PLACE_PHASE) & (state.taken_from > 0) & taken, state.taken_from, 0)
    limit = config.options.turn_limit
    if limit is None:
        progress = jnp.zeros((), jnp.uint8 if compact else jnp.float32)
    elif compact:  # in 255ths: a turn limit may pass 255
        progress = (jnp.minimum(state.turn, limit) * 255 // limit).astype(jnp.uint8)
    else:
        progress = jnp.minimum(1.0, state.turn / limit).astype(jnp.float32)

    others = []
    for slot in range(1, OPPONENT_SLOTS + 1):
        seat = (player + slot) % players
        present = jnp.int32(slot < players)
        count = (racks[seat] >= 0).sum()
        others += [
            present[None],
            _scaled(present * count, d, compact)[None],
            (present * placed[seat]).reshape(-1),
        ]
    return [
        _one_hot(phase, 4),
        _one_hot((current - player) % players, MAX_PLAYERS),
        progress[None],
        _one_hot(own, t).reshape(-1),
        (own < 0),
        _one_hot(held, t),
        hidden[None],
        _one_hot(state.taken_from, 4),
        _one_hot(forced - 1, 3),
        _one_hot(tops, t).reshape(-1),
        _scaled(contents, copies, compact).reshape(-1),
        _scaled(sizes, box, compact),
        _scaled(state.draw_size, box, compact)[None],
        _scaled(jnp.maximum(unseen, 0.0), copies, compact),
        *others,
    ]
