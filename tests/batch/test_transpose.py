"""Byte arrays turned batch first four bytes at a time equal a plain transpose."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from tendays.batch.transpose import batch_first  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine


@pytest.mark.parametrize("rows", [1, 4, 7, 173])
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.bool_])
def test_batch_first_is_the_transpose(rows: int, dtype: type) -> None:
    for games in (12, 1):  # one game alone is a reshape
        values = np.random.default_rng(rows).integers(-128, 128, (rows, games)).astype(dtype)
        out = np.asarray(jax.jit(batch_first)(values))
        assert out.dtype == values.dtype and np.array_equal(out, values.T)
