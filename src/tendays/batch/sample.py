"""Choosing legal actions at random, for random play, tests and benchmarks."""

from __future__ import annotations

import jax
import jax.numpy as jnp

__all__ = ["choose_actions", "random_actions"]


def random_actions(key: jax.Array, mask: jax.Array) -> jax.Array:
    """int32[B]: one legal action per row of ``mask`` (bool[B, A]), uniformly at
    random (0 for a row with none)."""
    return choose_actions(mask, jax.random.uniform(key, mask.shape[:1]))


def choose_actions(mask: jax.Array, uniform: jax.Array) -> jax.Array:
    """int32[B]: in each row of ``mask`` (bool[B, A]) the legal action at the fraction ``uniform``
    (float[B], in [0, 1)) of its legal actions, in index order (0 for a row with none). Uniform
    numbers give uniformly random legal actions.

    The mask is packed into bytes, eight actions to a byte, and the k-th legal action is found from
    population counts, which costs far less on a CPU than a cumulative sum over the actions. The
    work runs on the transposed mask (actions first) in the narrowest integers that hold the counts,
    so that every operation is elementwise over the games and the CPU runs it as wide vector
    operations; a mask built actions first inside the same compiled function (``rules.legal_rows``)
    is never transposed.
    """
    batch, actions = mask.shape
    count_type = jnp.int8 if actions < 2**7 else jnp.int16 if actions < 2**15 else jnp.int32
    rows = mask.T.astype(jnp.uint8)  # [A, B]
    packed = []
    for start in range(0, actions, 8):
        byte = rows[start]
        for bit in range(1, min(8, actions - start)):
            byte = byte | (rows[start + bit] << bit)
        packed.append(byte)
    # Packed apart from the search below (which works on wider numbers), so that the packing runs on
    # bytes, 32 games to a vector operation.
    packed = list(jax.lax.optimization_barrier(jnp.stack(packed)))  # type: ignore[no-untyped-call]
    counts = [jax.lax.population_count(byte).astype(count_type) for byte in packed]
    total = sum(counts[1:], counts[0])
    pick = jnp.minimum((uniform * total.astype(jnp.float32)).astype(count_type), total - 1)

    # The byte that holds the pick-th legal action (from 0), and the legal actions before that byte.
    zero = jnp.zeros(batch, count_type)
    byte, base, before, seen = packed[0], zero, zero, counts[0]
    for k in range(1, len(packed)):
        later = pick >= seen
        byte = jnp.where(later, packed[k], byte)
        base = jnp.where(later, jnp.asarray(8 * k, count_type), base)
        before = jnp.where(later, seen, before)
        seen = seen + counts[k]
    # The rank-th set bit of the byte, by halving: skip the low half when it
    # holds at most rank set bits.
    rank = pick - before
    for width in (4, 2, 1):
        low = jax.lax.population_count(byte & jnp.uint8((1 << width) - 1)).astype(count_type)
        skip = rank >= low
        byte = jnp.where(skip, byte >> width, byte)
        rank = jnp.where(skip, rank - low, rank)
        base = jnp.where(skip, base + width, base)
    return jnp.where(total > 0, base.astype(jnp.int32), 0)
