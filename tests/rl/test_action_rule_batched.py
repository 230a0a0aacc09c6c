"""The action rule (tests/rl/test_action_rule.py) in the batched APIs: the vector env refuses
actions outside the space and ends a game on an illegal one; the pgx env refuses what it can see
and counts a traced action outside the space as illegal."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("gymnasium")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from tendays.rl.vector import TenDaysVectorEnv  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine

RANGE = "action space 0-36"  # 5 days


def _first_legal(mask: np.ndarray) -> np.ndarray:
    return np.array([np.flatnonzero(row)[0] if row.any() else 0 for row in mask])


def test_the_vector_env_refuses_actions_outside_the_space() -> None:
    env = TenDaysVectorEnv(3, players=2, days=5)
    _, info = env.reset(seed=3)
    before = np.asarray(env.state.racks).copy()
    outside = [[999, 0, 0], [0, -1, 0], np.array([0.0, 1.5, 0.0]), np.array([True, False, True])]
    for actions in outside:
        with pytest.raises(ValueError, match=RANGE):
            env.step(actions)
        with pytest.raises(ValueError, match=RANGE):
            env.step(jnp.asarray(actions))
    np.testing.assert_array_equal(np.asarray(env.state.racks), before)
    env.step(_first_legal(info["action_mask"]))  # still steps


@pytest.mark.parametrize("opponents", ["random", "self"])
def test_the_vector_env_ends_a_game_on_an_illegal_action(opponents: str) -> None:
    env = TenDaysVectorEnv(3, players=2, days=5, opponents=opponents)
    _, info = env.reset(seed=3)
    actions = _first_legal(info["action_mask"])
    actions[1] = np.flatnonzero(~info["action_mask"][1])[0]
    _, reward, terminated, truncated, info = env.step(actions)
    np.testing.assert_array_equal(reward, [0.0, -1.0, 0.0])
    np.testing.assert_array_equal(terminated, [False, True, False])
    assert not truncated.any()
    np.testing.assert_array_equal(info["illegal"], [False, True, False])
    if opponents == "self":
        assert info["rewards"][1].tolist() in ([-1.0, 0.0], [0.0, -1.0])
    _, reward, terminated, _, info = env.step(_first_legal(info["action_mask"]))
    assert not info["illegal"].any() and not terminated.any()  # dealt anew
    assert int(np.asarray(env.state.phase)[1]) == 0  # the draft of a new game


def test_the_pgx_env_refuses_what_it_sees_and_counts_a_traced_outsider_as_illegal() -> None:
    pytest.importorskip("pgx")
    import tendays.rl

    env = tendays.rl.make_pgx_env("usa", players=2, days=5)
    state = env.init(jax.random.key(0))
    for action in (999, -1, 2.5, jnp.float32(1.0), True):
        with pytest.raises(ValueError, match=RANGE):
            env.step(state, action)
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    states = init(jax.random.split(jax.random.key(1), 3))
    legal = int(np.flatnonzero(np.asarray(states.legal_action_mask[2]))[0])
    after = step(states, jnp.array([999, -1, legal]))
    np.testing.assert_array_equal(np.asarray(after.terminated), [True, True, False])
    np.testing.assert_array_equal(np.asarray(after.rewards[:2]), [[-1.0, 1.0], [-1.0, 1.0]])
    for field in ("racks", "phase", "in_hand"):  # the games themselves did not move
        np.testing.assert_array_equal(
            np.asarray(getattr(after._game, field))[:2],
            np.asarray(getattr(states._game, field))[:2],
        )
