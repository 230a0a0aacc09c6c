"""Chance: dealing new games and reshuffling the discard piles into a new draw pile.

Each game draws its chance from its own PRNG key in the state, so a batch is reproducible from its
keys and actions. The rules never shuffle by themselves: a decision reports that a game needs a
reshuffle, and :func:`resolve` shuffles only those games, a chunk at a time, so a batch step costs
no sort for the many games that need none.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable

import jax
import jax.numpy as jnp

from .config import Config
from .state import DRAFT_PHASE, BatchState

__all__ = ["deal", "deal_pending", "new_games", "resolve", "undealt"]


def new_games(config: Config, orders: jax.Array, first: jax.Array, keys: jax.Array) -> BatchState:
    """Games at the start of the draft, from given tile orders (int[B, box], top of the draw pile
    last, as the scalar engine's ``draw_pile``: the last tile is the first one
    drafted), first seats and PRNG keys."""
    batch = orders.shape[0]
    box = config.box
    players, days = config.players, config.days
    orders = jnp.asarray(orders).astype(jnp.int8).T
    zeros = jnp.zeros(batch, jnp.int32)
    empty = jnp.full((players, days, batch), -1, jnp.int8)
    return BatchState(
        key=keys,
        phase=zeros + DRAFT_PHASE,
        current=zeros,
        first=jnp.asarray(first, jnp.int32) + zeros,
        racks=empty,
        known=empty,
        draw=orders.at[box - 1].set(-1),
        draw_size=zeros + box - 1,
        piles=jnp.full((3, config.pile_capacity, batch), -1, jnp.int8),
        pile_size=jnp.zeros((3, batch), jnp.int32),
        in_hand=orders[box - 1].astype(jnp.int32),
        taken_from=zeros,
        turn=zeros,
        winner=zeros - 1,
        reshuffles=zeros,
        ended=jnp.zeros(batch, bool),
        result=zeros - 1,
    )


def deal(config: Config, keys: jax.Array) -> BatchState:
    """New games, shuffled and with their first seat chosen from
    ``keys`` (one PRNG key per game)."""
    words, following = _draws(keys, config.box + 1)
    return _deal(config, words, following)


def _deal(config: Config, words: jax.Array, keys: jax.Array) -> BatchState:
    box = config.box
    order = jax.vmap(lambda w: _permutation(w, jnp.ones(box, bool)))(words[:, :box])
    first = _first_seat(config, words[:, box])
    return new_games(config, jnp.asarray(config.box_tiles)[order], first, keys)


def _first_seat(config: Config, word: jax.Array) -> jax.Array:
    """int32[B]: the seat that begins after the draft, from one random word per game (the top 24
    bits, scaled to the seats) unless the options fix it."""
    seat = config.options.first_seat
    if seat is not None:
        return jnp.full(word.shape, seat, jnp.int32)
    return ((word >> 8).astype(jnp.float32) * (config.players / 2**24)).astype(jnp.int32)


def undealt(config: Config, keys: jax.Array) -> BatchState:
    """The games :func:`deal` deals from ``keys``, as far as anyone can see them at the start of the
    draft: the tile being drafted and the first seat are the deal's, the rest of the draw pile is
    not laid out yet (every slot -1 while ``draw_size`` counts its tiles, which no dealt game
    shows), and ``key`` is still the deal's own. :func:`deal_pending` lays the pile out later, the
    same as :func:`deal` would have.

    The top tile is the one whose random word sorts last in :func:`_permutation`: a running
    maximum over the tiles, with the batch last, instead of a sort per game. That makes a game
    cheap to start where most starts are thrown away (pgx's ``auto_reset`` starts one for every
    game in every step and keeps those of the games that ended).
    """
    box = config.box
    words = _words_batch_last(keys, box + 1)
    shift = max(1, (box - 1).bit_length())
    ranked = [words[i] >> (shift + 1) << shift | jnp.uint32(i) for i in range(box)]
    last = ranked[0]
    for rank in ranked[1:]:
        last = jnp.maximum(last, rank)
    top = (last & ((1 << shift) - 1)).astype(jnp.int32)
    orders = jnp.full((keys.shape[0], box), -1, jnp.int32)
    orders = orders.at[:, box - 1].set(jnp.asarray(config.box_tiles)[top])
    return new_games(config, orders, _first_seat(config, words[box]), keys)


def deal_pending(config: Config, state: BatchState, chunk: int) -> BatchState:
    """The games of :func:`undealt` dealt as :func:`deal` deals them from their keys (a chunk at a
    time); every other game as it is."""
    pending = (state.draw[0] < 0) & (state.draw_size > 0)
    return _each_flagged(state, pending, chunk, ("key",), _DEALT, functools.partial(_dealt, config))


def _dealt(config: Config, games: dict[str, jax.Array]) -> dict[str, jax.Array]:
    """The fields a new deal sets, for the games of ``games["key"]``."""
    words, following = _draws(games["key"], config.box + 1)
    fresh = _deal(config, words, following)
    return {name: getattr(fresh, name) for name in _DEALT}


def _words_batch_last(keys: jax.Array, count: int) -> jax.Array:
    """uint32[count, B]: the first ``count`` words of :func:`_draws`, with the batch last."""
    data = jax.random.key_data(keys)
    flat = data.reshape(data.shape[0], -1).astype(jnp.uint32)
    counter = jnp.arange(count, dtype=jnp.uint32)[:, None]
    high, low = _threefry(flat[None, :, 0], flat[None, :, 1], jnp.zeros_like(counter), counter)
    return high ^ low


def _draws(keys: jax.Array, count: int) -> tuple[jax.Array, jax.Array]:
    """``count`` random 32-bit words per game and each game's next key.

    The words are ``jax.random.bits(key, (count,))`` of a threefry key (any other key's first two
    data words serve as a threefry key), worked out without the loop that JAX runs for every call on
    a CPU: a batch step draws for a few games only, and a loop per draw would cost more than the
    rest of the step.
    """
    data = jax.random.key_data(keys)
    shape = data.shape[1:]
    extra = math.prod(shape)
    flat = data.reshape(data.shape[0], -1).astype(jnp.uint32)
    counter = jnp.arange(count + extra, dtype=jnp.uint32)[None, :]
    high, low = _threefry(flat[:, :1], flat[:, 1:2], jnp.zeros_like(counter), counter)
    words = high ^ low
    following = jax.random.wrap_key_data(
        words[:, count:].reshape((-1, *shape)).astype(data.dtype), impl=jax.random.key_impl(keys)
    )
    return words[:, :count], following


_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))


def _threefry(
    key1: jax.Array, key2: jax.Array, x1: jax.Array, x2: jax.Array
) -> tuple[jax.Array, jax.Array]:
    """The Threefry-2x32 block function (20 rounds), as ``jax.random`` uses it, unrolled."""
    keys = (key1, key2, key1 ^ key2 ^ jnp.uint32(0x1BD11BDA))
    x1, x2 = x1 + keys[0], x2 + keys[1]
    for group in range(5):
        for rotation in _ROTATIONS[group % 2]:
            x1 = x1 + x2
            x2 = (x2 << rotation) | (x2 >> (32 - rotation))
            x2 = x1 ^ x2
        x1 = x1 + keys[(group + 1) % 3]
        x2 = x2 + keys[(group + 2) % 3] + jnp.uint32(group + 1)
    return x1, x2


def _permutation(words: jax.Array, chosen: jax.Array) -> jax.Array:
    """The positions of ``chosen`` (bool[n]) in random order, then the other positions, from random
    ``words`` (uint32[n]).

    One sort of 32-bit words: random bits above the position (a sort that carries the positions
    alongside separate keys costs many times more on a CPU). Two chosen positions draw the same
    random bits with a chance below n * n / 2**(32 - position bits); they then keep their order.
    """
    n = chosen.shape[0]
    shift = max(1, (n - 1).bit_length())
    position = jnp.arange(n, dtype=jnp.uint32)
    rank = words >> (shift + 1) << shift  # the top bit stays 0: chosen positions sort first
    keyed = jnp.where(chosen, rank, jnp.uint32(1 << 31)) | position
    return (jnp.sort(keyed) & ((1 << shift) - 1)).astype(jnp.int32)


def _reshuffled(
    config: Config, game: dict[str, jax.Array], words: jax.Array
) -> dict[str, jax.Array]:
    """One game (no batch axis): every discard-pile tile but the tops, shuffled with random
    ``words`` (uint32[3 * pile_capacity]) into the (empty) draw pile. Nothing happens when no tile
    lies below a top.
    """
    capacity = config.pile_capacity
    piles, sizes = game["piles"], game["pile_size"]
    buried = (jnp.arange(capacity)[None, :] < sizes[:, None] - 1).reshape(-1)
    count = buried.sum()
    shuffled = piles.reshape(-1)[_permutation(words, buried)]
    width = min(config.box, 3 * capacity)
    draw = jnp.full(config.box, -1, jnp.int8).at[:width].set(shuffled[:width])
    draw = jnp.where(jnp.arange(config.box) < count, draw, -1)
    tops = jnp.take_along_axis(piles, jnp.maximum(sizes - 1, 0)[:, None], axis=1)
    some = count > 0
    return {
        "draw": jnp.where(some, draw, game["draw"]),
        "draw_size": jnp.where(some, count, game["draw_size"]).astype(jnp.int32),
        "piles": jnp.where(some, piles.at[:, 0].set(tops[:, 0]), piles),
        "pile_size": jnp.where(some, jnp.minimum(sizes, 1), sizes),
        "reshuffles": game["reshuffles"] + some,
    }


def _flagged(flags: jax.Array, count: int) -> jax.Array:
    """int32[count]: the indices of the first ``count`` set flags in order, then the batch size
    (none).

    The ``count`` largest of ``batch - index`` over the flagged games (``lax.top_k``, a partial sort
    that XLA's CPU backend runs in one pass; cheaper than ``jnp.nonzero`` or a running count for
    large batches).
    """
    batch = flags.shape[0]
    if batch >= 2**24:
        raise ValueError(f"a batch holds at most {2**24 - 1:,} games, not {batch:,}")
    key = jnp.where(flags, batch - jnp.arange(batch), 0).astype(jnp.float32)  # exact below 2 ** 24
    values, index = jax.lax.top_k(key, count)
    return jnp.where(values > 0, index, batch).astype(jnp.int32)


def resolve(
    config: Config, state: BatchState, shuffle: jax.Array, redeal: jax.Array | None, chunk: int
) -> BatchState:
    """Reshuffle the games flagged in ``shuffle`` and deal new games where ``redeal`` is set
    (``None``: no game is ever dealt anew; a dealt game keeps its ``ended`` and ``result``), a chunk
    of games at a time: those games are gathered, shuffled or dealt, and put back."""
    spread = 3 * config.pile_capacity

    def one_game(game: dict[str, jax.Array], words: jax.Array) -> dict[str, jax.Array]:
        return _reshuffled(config, game, words)

    def shuffled(games: dict[str, jax.Array]) -> dict[str, jax.Array]:
        words, following = _draws(games["key"], spread)
        each = jax.vmap(one_game, in_axes=(-1, 0), out_axes=-1)
        return {**each({k: v for k, v in games.items() if k != "key"}, words), "key": following}

    state = _each_flagged(state, shuffle, chunk, _SHUFFLED, _SHUFFLED, shuffled)
    if redeal is not None:
        dealt = functools.partial(_dealt, config)
        state = _each_flagged(state, redeal, max(1, chunk // 2), ("key",), _DEALT, dealt)
    return state


# The fields a reshuffle reads or changes, and those a new deal sets (all but the
# report of the game that ended).
_SHUFFLED = ("key", "draw", "draw_size", "piles", "pile_size", "reshuffles")
_DEALT = tuple(
    field.name for field in dataclasses.fields(BatchState) if field.name not in ("ended", "result")
)


def _each_flagged(
    state: BatchState,
    flags: jax.Array,
    chunk: int,
    reads: tuple[str, ...],
    writes: tuple[str, ...],
    change: Callable[[dict[str, jax.Array]], dict[str, jax.Array]],
) -> BatchState:
    """``change`` applied to every flagged game, ``chunk`` games at a time: it gets the fields
    ``reads`` of those games and gives their fields ``writes``."""
    batch = flags.shape[0]

    def body(
        carry: tuple[dict[str, jax.Array], jax.Array],
    ) -> tuple[dict[str, jax.Array], jax.Array]:
        fields, pending = carry
        index = _flagged(pending, chunk)
        safe = jnp.minimum(index, batch - 1)
        changed = change({name: fields[name][..., safe] for name in reads})
        fields = {
            name: value.at[..., index].set(changed[name], mode="drop") if name in writes else value
            for name, value in fields.items()
        }
        return fields, pending.at[index].set(False, mode="drop")

    fields = {name: getattr(state, name) for name in dict.fromkeys(reads + writes)}
    fields = jax.lax.while_loop(lambda carry: carry[1].any(), body, (fields, flags))[0]
    return state.replace(**fields)
