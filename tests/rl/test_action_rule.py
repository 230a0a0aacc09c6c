"""One rule for actions in every API: an action outside the action space (999, -1, a float, a
string, a bool) is refused with a ValueError naming the range, before anything moves; an illegal
action inside it ends the game with a penalty for the seat that played it (docs/rl.md, "Every API at
a glance")."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import tendays.rl  # noqa: E402

OUTSIDE = [999, -1, 92, 2.5, "3", True, np.float64(1.0)]
RANGE = "action space 0-91"


@pytest.mark.parametrize("action", OUTSIDE, ids=repr)
def test_the_aec_env_refuses_an_action_outside_the_space(action: Any) -> None:
    env = tendays.rl.env(players=2)
    env.reset(seed=1)
    agent = env.agent_selection
    with pytest.raises(ValueError, match=RANGE):
        env.step(action)
    assert env.agent_selection == agent and not any(env.terminations.values())


@pytest.mark.parametrize("action", OUTSIDE, ids=repr)
def test_the_gym_env_refuses_an_action_outside_the_space(action: Any) -> None:
    env = tendays.rl.TenDaysEnv(players=2)
    env.reset(seed=1)
    with pytest.raises(ValueError, match=RANGE):
        env.step(action)
    legal = int(np.flatnonzero(env.action_masks())[0])
    env.step(legal)  # the episode goes on


def test_the_scalar_envs_end_the_game_on_an_illegal_action() -> None:
    gym_env = tendays.rl.TenDaysEnv(players=2)
    _, info = gym_env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = gym_env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False) and "illegal_move" in info
    aec = tendays.rl.env(players=2)
    aec.reset(seed=1)
    agent = aec.agent_selection
    aec.step(int(np.flatnonzero(aec.observe(agent)["action_mask"] == 0)[0]))
    assert aec.rewards[agent] == -1.0 and all(aec.terminations.values())
