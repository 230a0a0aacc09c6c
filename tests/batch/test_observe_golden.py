"""``BatchEnv.observe`` gives exactly the observations recorded before it was made faster (policies
are trained on it), in seeded random games of both editions with one to four
players, swaps and open hands."""

import json

import pytest

jax = pytest.importorskip("jax")

from observe_cases import CASES, DIGESTS, digest  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine


@pytest.mark.skipif(
    jax.default_backend() != "cpu", reason="the digests were recorded with XLA's CPU backend"
)
@pytest.mark.parametrize("name", list(CASES))
def test_observations_match_the_recorded_digest(name: str) -> None:
    assert digest(name) == json.loads(DIGESTS.read_text())[name]
