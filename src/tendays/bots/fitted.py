"""Reading a bot's fitted weights: a small ``.npz`` file shipped beside its module."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["read_fitted"]


def read_fitted(path: Path, features: Sequence[str]) -> dict[str, Any] | None:
    """The arrays of ``path``, or ``None`` without numpy or the file. The file names the features
    its weights were fitted on; other ones than ``features`` (the module's own) are refused, since
    the weights would mean nothing."""
    try:
        import numpy as np
    except ImportError:
        return None
    if not path.exists():
        return None
    with np.load(path) as data:
        if [str(name) for name in data["features"]] != list(features):
            raise ValueError(f"{path} was fitted on other features than this module computes")
        return {name: data[name] for name in data.files}
