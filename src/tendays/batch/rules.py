"""The rules on arrays: legal actions, the journey check and one decision in every game of a batch.

Every rule follows ``tendays.engine.state`` (rules version 2). Chance (the deal and the reshuffles)
lives in :mod:`tendays.batch.chance`: a decision only reports which games must reshuffle now.

The code works on whole rows of the batch (the batch is the last axis of every array): a game's day,
pile or seat is picked by comparing with each possible value in turn, never by indexing per game, so
that the CPU runs every step as wide vector operations over the games.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from .config import DISCARD, DRAFT, DRAW, REPLACE, SWAP, TAKE, Config
from .state import DRAFT_PHASE, DRAW_PHASE, OVER_PHASE, PLACE_PHASE, BatchState

__all__ = [
    "apply_actions",
    "decode",
    "forced_pile",
    "is_complete",
    "legal_facts",
    "legal_mask",
    "legal_mask_out",
    "legal_rows",
    "pile_at",
    "seat_row",
]

_I8 = jnp.int8


def is_complete(config: Config, rack: jax.Array) -> jax.Array:
    """Whether each rack (int[days, ...]: day 1 first, -1 empty) is a complete journey: day 1 is a
    region and every day is sound by ``Config.link_table`` (the pair by pair form of the scalar
    checker's walk).

    One lookup per day, each on its own: XLA's CPU backend then works out the indices as vector
    operations (a lookup over all days at once works them out element by
    element, several times slower)."""
    n = config.tiles
    table = jnp.asarray(config.link_table)
    (tile,) = settled(jnp.where(rack >= 0, rack, n).astype(jnp.int32))
    sound = _bit(config.is_region.tolist() + [False], tile[0])
    for day in range(rack.shape[0] - 1):
        after = tile[day + 2] if day + 2 < rack.shape[0] else n
        sound = sound & table[(tile[day] * (n + 1) + tile[day + 1]) * (n + 1) + after]
    return sound


def _bit(flags: list[bool], index: jax.Array) -> jax.Array:
    """flags[index] for small tables: bits of 32-bit constants picked by
    shifts (no lookup in memory)."""
    words = [
        sum(1 << b for b, flag in enumerate(flags[w : w + 32]) if flag)
        for w in range(0, len(flags), 32)
    ]
    word = jnp.full_like(index, words[0], jnp.uint32)
    for w in range(1, len(words)):
        word = jnp.where(index >= 32 * w, jnp.uint32(words[w]), word)
    return ((word >> (index % 32).astype(jnp.uint32)) & 1) == 1


def _all_rows(rows: jax.Array) -> jax.Array:
    """rows.all(axis=0) as one elementwise operation per row (a reduction
    costs more on XLA's CPU backend)."""
    out = rows[0]
    for row in rows[1:]:
        out = out & row
    return out


def decode(config: Config, action: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
    """The kind, 0-based day, second day (swaps) and 0-based pile of action indices
    (``ActionCodec``'s layout, worked out with comparisons instead of table lookups)."""
    days = config.days
    replace = action - (days + 4)
    swap = action - (4 * days + 7)
    kind = _first_of(
        [
            action < days,
            action == days,
            action < days + 4,
            action < 4 * days + 4,
            action < 4 * days + 7,
        ],
        [DRAFT, DRAW, TAKE, REPLACE, DISCARD],
        SWAP,
    )
    # Swap pairs (a, b), a < b, in order: the pairs of day a start at a * (2 * days - a - 1) / 2.
    first = sum(
        ((swap >= d * (2 * days - d - 1) // 2).astype(jnp.int32) for d in range(1, days - 1)),
        jnp.zeros_like(action),
    )
    second = swap - first * (2 * days - first - 1) // 2 + first + 1
    day = _first_of(
        [kind == DRAFT, kind == REPLACE, kind == SWAP], [action, replace // 3, first], 0
    )
    pile = _first_of(
        [kind == TAKE, kind == REPLACE, kind == DISCARD],
        [action - days - 1, replace % 3, action - 4 * days - 4],
        0,
    )
    return kind, day, jnp.where(kind == SWAP, second, 0), pile


def _first_of(conditions: list[jax.Array], values: list[Any], default: Any) -> jax.Array:
    """``jnp.select`` as a chain of ``where`` (``jnp.select`` finds the first true condition with a
    reduction, which costs more on XLA's CPU backend)."""
    out = jnp.asarray(default)
    for condition, value in zip(reversed(conditions), reversed(values), strict=True):
        out = jnp.where(condition, value, out)
    return out


def settled(*values: jax.Array) -> list[jax.Array]:
    """The values, worked out once per game.

    XLA's CPU backend fuses a cheap per-game computation into every consumer, so a value that feeds
    a larger array (every day of every rack, every slot of every pile) would be computed again for
    each of its elements. A reduction is not duplicated like that (though it may still be fused into
    a single consumer); the maximum of a value and the smallest number is the value itself.
    """
    out = []
    for value in values:
        # XLA hands narrower reductions to a library, which is slower here
        wide = value.astype(jnp.int32)
        low = jnp.full_like(wide, -(2**31))
        out.append(jnp.stack([wide, low]).max(axis=0).astype(value.dtype))
    return out


def seat_row(rows: jax.Array, seat: jax.Array) -> jax.Array:
    """rows[seat] of every game: rows is [players, ..., B], seat int[B]."""
    picked = rows[0]
    for p in range(1, rows.shape[0]):
        picked = jnp.where(seat == p, rows[p], picked)
    return picked


def _at(rows: jax.Array, index: jax.Array) -> jax.Array:
    """rows[index] of every game (rows [K, B], index int[B] in range)."""
    picked = rows[0]
    for k in range(1, rows.shape[0]):
        picked = jnp.where(index == k, rows[k], picked)
    return picked


def pile_at(rows: jax.Array, index: jax.Array) -> jax.Array:
    """rows[index] of every game, for long rows (the draw pile, the discard piles): one lookup per
    game, in the flat array (XLA's CPU backend gathers from one axis far faster than from two), at
    indices worked out beforehand as vector operations (inside the lookup they are worked out
    element by element)."""
    games = rows.shape[-1]
    barrier = jax.lax.optimization_barrier
    flat: jax.Array = barrier(index * games + jnp.arange(games))  # type: ignore[no-untyped-call]
    return rows.reshape(-1)[flat]


def _put(rows: jax.Array, row: jax.Array, write: jax.Array, value: jax.Array) -> jax.Array:
    """rows (int[..., B]) with ``value`` written in row ``row`` (counted over the leading axes
    together) of every game where ``write`` holds: one write per game, by its index in the flat
    array (XLA's CPU backend scatters into one axis far faster than into several)."""
    games = rows.shape[-1]
    index = jnp.where(write, row * games + jnp.arange(games), rows.size)  # past the end: no write
    return rows.reshape(-1).at[index].set(value, mode="drop").reshape(rows.shape)


def _after(value: jax.Array, read: jax.Array) -> jax.Array:
    """``value`` as it is, worked out only once ``read`` (int, far below 2**30) is.

    A write into an array built from the result then comes after that read of the array's old
    contents, so that XLA writes in place instead of copying the whole array first (it cannot tell
    that the test always holds).
    """
    return jnp.where(read < 2**30, value, jnp.zeros_like(value))


def forced_pile(state: BatchState) -> jax.Array:
    """int[B]: the pile (1 to 3) the current discard must go onto, 0 where any pile may take it:
    a tile taken from a pile it emptied goes back there."""
    taken = state.taken_from
    emptied = _at(state.pile_size, jnp.clip(taken - 1, 0, 2)) == 0
    return jnp.where((state.phase == PLACE_PHASE) & (taken > 0) & emptied, taken, 0)


def legal_facts(config: Config, state: BatchState) -> list[jax.Array]:
    """bool[B] per fact that can make an action legal, in the order of ``Config.action_fact``: day
    ``d`` of the drafting rack is empty, the draw pile has a tile, pile ``p`` has a tile, pile ``p``
    may take the discard, swapping is allowed now."""
    phase = state.phase
    drawing = phase == DRAW_PHASE
    drafting = phase == DRAFT_PHASE
    placing = phase == PLACE_PHASE
    forced = forced_pile(state)
    rack = seat_row(state.racks, state.current)
    return (
        [drafting & (rack[d] < 0) for d in range(config.days)]
        + [drawing & (state.draw_size > 0)]
        + [drawing & (state.pile_size[p] > 0) for p in range(3)]
        + [placing & ((forced == 0) | (forced == p + 1)) for p in range(3)]
        + [drawing & config.options.swap]
    )


def legal_mask(config: Config, state: BatchState) -> jax.Array:
    """bool[B, actions]: the legal actions of each game's player to move, numbered as
    ``ActionCodec(days)``."""
    return legal_rows(config, state).T


def legal_mask_out(config: Config, state: BatchState) -> jax.Array:
    """:func:`legal_mask` built batch first, for handing out of a compiled function: each game's
    facts are packed into the bits of one word, and each action reads its fact's bit. That is one
    elementwise operation over [B, actions], written in the order it is stored (turning the rows
    batch first costs more on XLA's CPU backend). Inside a compiled loop that feeds
    :func:`tendays.batch.choose_actions`, :func:`legal_mask` is cheaper: its transpose cancels."""
    facts = legal_facts(config, state)  # at most 20 days + 8 facts: they fit one uint32
    word = facts[0].astype(jnp.uint32)
    for bit, fact in enumerate(facts[1:], 1):
        word = word | (fact.astype(jnp.uint32) << bit)
    shifts = jnp.asarray(config.action_fact, jnp.uint32)
    return ((word[:, None] >> shifts[None, :]) & 1) == 1


def legal_rows(config: Config, state: BatchState) -> jax.Array:
    """bool[actions, B]: :func:`legal_mask` with the actions first (one row per action, as the facts
    are built; a consumer that transposes the mask back reads these
    rows with no transpose at all)."""
    facts = legal_facts(config, state)
    return jnp.stack(facts)[config.action_fact]


def apply_actions(
    config: Config, state: BatchState, action: jax.Array
) -> tuple[BatchState, jax.Array]:
    """Every game after its action (int[B]), and which games must reshuffle their draw pile now.

    An illegal action, or any action in a finished game, leaves that game as it is.
    """
    players, days, capacity = config.players, config.days, config.pile_capacity
    kind, day, day2, pile = settled(*decode(config, action))
    phase, current, held = state.phase, state.current, state.in_hand
    size, sizes = state.draw_size, state.pile_size
    rack = seat_row(state.racks, current)  # [days, B]
    known = seat_row(state.known, current)
    at_day, at_day2, known_day, known_day2, pile_size, forced = settled(
        _at(rack, day),
        _at(rack, day2),
        _at(known, day),
        _at(known, day2),
        _at(sizes, pile),
        forced_pile(state),
    )
    on_pile = jnp.arange(3)[:, None] == pile
    pile_top = pile_at(
        state.piles.reshape(3 * capacity, -1), pile * capacity + jnp.maximum(pile_size - 1, 0)
    )
    draw_top = pile_at(state.draw, jnp.maximum(size - 1, 0))
    # When the draft ends, the draw pile has lost one tile per day of every
    # rack: its top three are known.
    left = config.box - players * days
    reveal = state.draw[left - 3 : left][::-1]  # [3, B]: the top tile first

    placing = (phase == PLACE_PHASE) & ((forced == 0) | (pile == forced - 1))
    drawing = phase == DRAW_PHASE
    is_draft = (kind == DRAFT) & (phase == DRAFT_PHASE) & (at_day < 0)
    is_draw = (kind == DRAW) & drawing & (size > 0)
    is_take = (kind == TAKE) & drawing & (pile_size > 0)
    is_swap = (kind == SWAP) & drawing & config.options.swap
    is_replace = (kind == REPLACE) & placing
    is_discard = (kind == DISCARD) & placing
    pushes = is_replace | is_discard

    # The current rack: the held tile goes on a day (draft, replace), or two days trade places
    # (swap), so at most two days change: ``first`` gets ``value``, ``second`` gets ``value2`` (-1:
    # no day). A tile taken face up from a discard pile and placed is public; a drawn one is not.
    held8 = held.astype(_I8)
    public = jnp.where(state.taken_from > 0, held8, jnp.int8(-1))
    seat, first, second, value, value2, known_first, known_value, known_value2 = settled(
        current,
        jnp.where(is_draft | is_replace | is_swap, day, -1),
        jnp.where(is_swap, day2, -1),
        jnp.where(is_swap, at_day2, held8),
        at_day,
        jnp.where(is_replace | is_swap, day, -1),
        jnp.where(is_swap, known_day2, public),
        known_day,
    )
    days_axis = jnp.arange(days)[:, None]
    (new_rack,) = settled(
        jnp.where(days_axis == first, value, jnp.where(days_axis == second, value2, rack))
    )
    # One cell per game and write (an index past the rack writes nothing), rather than every day of
    # every rack. The values are read back from the new rack, so that the writes come after every
    # read of the old racks and XLA updates them in place instead of copying them first.
    racks = _put(state.racks, seat * days + first, first >= 0, _at(new_rack, first))
    racks = _put(racks, seat * days + second, second >= 0, _at(new_rack, second))
    knowns = _put(state.known, seat * days + known_first, known_first >= 0, known_value)
    knowns = _put(knowns, seat * days + second, second >= 0, known_value2)

    # The draft: the next seat drafts the next tile, or, once every rack is full, the three top
    # tiles of the draw pile become the discard piles and the first player begins.
    following = (current + 1) % players
    (all_full,) = settled(_all_rows(seat_row(racks, following) >= 0))
    # End of the own turn: a complete journey wins at once, then the turn limit ends the game.
    ends_turn = pushes | is_swap
    turn = state.turn + ends_turn
    won = ends_turn & is_complete(config, new_rack)
    limit = config.options.turn_limit
    stopped = ends_turn & ~won & (turn >= limit) if limit is not None else jnp.zeros_like(won)
    draft_more, draft_done, is_draw, is_take, ends_turn, won, over = settled(
        is_draft & ~all_full, is_draft & all_full, is_draw, is_take, ends_turn, won, won | stopped
    )
    carries_on = ends_turn & ~over

    new_size = size - draft_more - 3 * draft_done - is_draw
    new_phase = jnp.where(draft_done | carries_on, DRAW_PHASE, phase)
    new_phase = jnp.where(is_draw | is_take, PLACE_PHASE, jnp.where(over, OVER_PHASE, new_phase))
    new_current = jnp.where(
        draft_more | carries_on, following, jnp.where(draft_done, state.first, current)
    )
    new_held = jnp.where(draft_more | is_draw, draw_top, jnp.where(is_take, pile_top, held))
    new_held = jnp.where(draft_done | ends_turn, -1, new_held)
    taken_from = jnp.where(is_draw, 0, jnp.where(is_take, pile + 1, state.taken_from))
    taken_from = jnp.where(draft_done | ends_turn, -1, taken_from)
    # Rules 2: drawing the last tile reshuffles at once; a turn that ends with an empty draw pile
    # (nothing was buried when it ran out) reshuffles for the next turn if there
    # is something to shuffle now.
    reshuffle = (is_draw | carries_on) & (new_size == 0)
    new_held, slot, discarded, reshuffle = settled(
        new_held,
        jnp.where(pushes, pile_size, capacity),
        jnp.where(is_replace, at_day, held8),
        reshuffle,
    )
    # The new held tile is the last read of the old piles and draw pile: the piles are written, and
    # the draw pile reshuffled, after it.
    draft_done, slot, reshuffle = (
        _after(value, new_held) for value in (draft_done, slot, reshuffle)
    )
    # Discard piles: the end of the draft fills the bottom slot of every pile; a replaced or
    # discarded tile goes on top of the chosen pile.
    piles = state.piles.at[:, 0].set(jnp.where(draft_done, reveal, state.piles[:, 0]))
    piles = piles.at[pile, slot, jnp.arange(action.shape[0])].set(discarded, mode="drop")
    sizes = jnp.where(draft_done, 1, sizes + (pushes & on_pile) - (is_take & on_pile))

    after = state.replace(
        phase=new_phase.astype(jnp.int32),
        current=new_current.astype(jnp.int32),
        racks=racks,
        known=knowns,
        draw_size=new_size.astype(jnp.int32),
        piles=piles,
        pile_size=sizes.astype(jnp.int32),
        in_hand=new_held.astype(jnp.int32),
        taken_from=taken_from.astype(jnp.int32),
        turn=turn.astype(jnp.int32),
        winner=jnp.where(won, current, state.winner).astype(jnp.int32),
        ended=over,
        result=jnp.where(won, current, -1).astype(jnp.int32),
    )
    return after, reshuffle
