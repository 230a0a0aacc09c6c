"""The forms an observation is handed out in, by name, as the environments offer them.

- ``"float32"``: the blocks of :mod:`tendays.batch.observe`, every value a share in [0, 1];
- ``"compact"``: the same blocks as uint8 whole numbers (counts instead of shares);
- ``"indices"``: :mod:`tendays.batch.indices`, the same knowledge as uint8 tile ids and counts,
  about a fifteenth of the compact form's bytes.
"""

from __future__ import annotations

from typing import Any

import jax
import numpy as np

from . import indices, observe
from .config import Config
from .state import BatchState

__all__ = ["FORMS", "bounds", "check", "dtype", "observe_as", "size"]

FORMS = ("float32", "compact", "indices")


def check(form: str) -> None:
    """Raise ``ValueError`` unless ``form`` names an observation form."""
    if form not in FORMS:
        names = ", ".join(repr(name) for name in FORMS)
        raise ValueError(f"observation must be one of {names}, not {form!r}")


def observe_as(config: Config, state: BatchState, seats: jax.Array, form: str) -> jax.Array:
    """[B, size] in ``form``: game ``i`` as seat ``seats[i]`` may know it."""
    if form == "indices":
        return indices.observe_indices(config, state, seats)
    return observe.observe_batch(config, state, seats, compact=form == "compact")


def size(config: Config, form: str) -> int:
    """The length of one game's observation in ``form``."""
    blocks = indices.layout(config) if form == "indices" else observe.layout(config)
    return max(block.stop for block in blocks.values())


def dtype(form: str) -> Any:
    """numpy's dtype of ``form``."""
    return np.float32 if form == "float32" else np.uint8


def bounds(config: Config, form: str) -> np.ndarray:
    """The largest value of each position in ``form`` (the smallest is 0 in every form)."""
    if form == "indices":
        return indices.index_bounds(config)
    return np.full(size(config, form), 1.0 if form == "float32" else 255, dtype(form))
