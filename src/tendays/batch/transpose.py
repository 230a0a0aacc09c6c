"""Turning byte arrays from batch last (as the batched rules keep them) to batch first (as networks,
pgx and Gymnasium want them), four bytes at a time.

XLA's CPU backend transposes element by element with scattered writes; a byte array pays that per
byte. Here each game's four neighbouring bytes are joined into one uint32 first (a cheap reordering
inside groups of four rows), the uint32 array is transposed, and the result is read back as bytes:
a quarter of the elements to move: 2.3 ms against 14 ms for a plain transpose of a uint8
[176, 4,096] array on a busy 2-core CPU.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

__all__ = ["batch_first"]


def batch_first(rows: jax.Array) -> jax.Array:
    """[B, R] of a one-byte array [R, B] (uint8, int8 or bool): ``rows.T``."""
    size, games = rows.shape
    kind = rows.dtype
    if kind.itemsize != 1:
        return rows.T
    if games == 1:
        # Nothing moves: a reshape. (A game alone, as pgx's functions of one game call the batched
        # ones under vmap: the four-byte route would copy every row three times per game.)
        return rows.reshape(1, size)
    rows = rows.astype(jnp.uint8) if kind == jnp.bool_ else rows
    pad = -size % 4
    if pad:
        rows = jnp.concatenate([rows, jnp.zeros((pad, games), rows.dtype)])
    barrier = jax.lax.optimization_barrier  # keeps each stage a plain copy of its own
    # [R / 4, B, 4], then [R / 4, B] words
    grouped = barrier(rows.reshape(-1, 4, games).transpose(0, 2, 1))  # type: ignore[no-untyped-call]
    words = barrier(jax.lax.bitcast_convert_type(grouped, jnp.uint32))  # type: ignore[no-untyped-call]
    out = jax.lax.bitcast_convert_type(words.T, rows.dtype).reshape(games, size + pad)[:, :size]
    return out != 0 if kind == jnp.bool_ else out
