"""The mask the environments hand out (``rules.legal_mask_out``, built batch first from packed
facts) is the rules' mask, in every phase and with the most facts a game can have."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from tendays.batch import BatchEnv, random_actions, rules  # noqa: E402
from tendays.engine import Options  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine


def test_the_handed_out_mask_is_the_rules_mask() -> None:
    options = Options(players=2, days=20, swap=True, turn_limit=40)  # 28 facts: the most there are
    env = BatchEnv("usa", options, auto_reset=True)
    config = env.config
    handed_out = jax.jit(lambda state: rules.legal_mask_out(config, state))
    state = env.init(jax.random.split(jax.random.key(3), 48))
    key = jax.random.key(4)
    phases = set()
    for _ in range(60):
        mask = np.asarray(env.legal_action_mask(state))
        assert np.array_equal(np.asarray(handed_out(state)), mask)
        phases.update(np.asarray(state.phase).tolist())
        key, draw = jax.random.split(key)
        state = env.step(state, random_actions(draw, mask))
    assert phases >= {0, 1, 2}  # draft, draw and place were all checked
