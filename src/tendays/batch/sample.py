"""Choosing legal actions at random, for random play, tests and benchmarks."""

from __future__ import annotations

import jax
import jax.numpy as jnp

__all__ = ["choose_actions", "random_actions"]


def random_actions(key: jax.Array, mask: jax.Array) -> jax.Array:
    """int32[B]: one legal action per row of ``mask`` (bool[B, A]), uniformly at random (0 for a row with none)."""
    return choose_actions(mask, jax.random.uniform(key, mask.shape[:1]))


def choose_actions(mask: jax.Array, uniform: jax.Array) -> jax.Array:
    """int32[B]: in each row of ``mask`` (bool[B, A]) the legal action at the fraction ``uniform`` (float[B],
    in [0, 1)) of its legal actions, in index order (0 for a row with none). Uniform numbers give uniformly
    random legal actions.

    The mask is packed into 32-bit words; the k-th legal action is found from population counts, which
    costs far less on a CPU than a cumulative sum over the actions.
    """
    batch, actions = mask.shape
    words = -(-actions // 32)
    bits = jnp.pad(mask, ((0, 0), (0, words * 32 - actions))).reshape(batch, words, 32).astype(jnp.uint32)
    packed = (bits << jnp.arange(32, dtype=jnp.uint32)).sum(-1, dtype=jnp.uint32)
    counts = jax.lax.population_count(packed).astype(jnp.int32)
    total = counts.sum(1)
    pick = jnp.minimum((uniform * total).astype(jnp.int32), total - 1)
    word = jnp.zeros(batch, jnp.uint32)
    base = start = seen = jnp.zeros(batch, jnp.int32)
    for w in range(words):
        here = (seen <= pick) & (pick < seen + counts[:, w])
        word = jnp.where(here, packed[:, w], word)
        start = jnp.where(here, seen, start)
        base = jnp.where(here, 32 * w, base)
        seen = seen + counts[:, w]
    # The pick-th set bit (from 0) of the word sits at the number of prefixes of the word that hold at most
    # pick set bits. (Written as a sum over the 32 prefixes, the compiler works it out once per game.)
    prefixes = (jnp.uint32(2) << jnp.arange(32, dtype=jnp.uint32)) - 1
    held = jax.lax.population_count(word[:, None] & prefixes).astype(jnp.int32)
    bit = (held <= (pick - start)[:, None]).sum(axis=1, dtype=jnp.int32)
    return jnp.where(total > 0, base + bit, 0)
