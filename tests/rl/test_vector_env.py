"""The Gymnasium vector environment over the batched engine: spaces, masks,
seeding, autoreset (NEXT_STEP)."""

from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402

from tendays.batch import OVER_PHASE  # noqa: E402
from tendays.engine import Options  # noqa: E402
from tendays.rl.vector import TenDaysVectorEnv  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine

GAMES = 32


def _play(env: TenDaysVectorEnv, steps: int, seed: int) -> list[tuple[Any, ...]]:
    """Random legal play; every step's results, beside the engine's own
    mask, observation and phase."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    out = []
    for _ in range(steps):
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
        obs, reward, terminated, truncated, info = env.step(actions)
        assert env.state is not None
        seat = info["to_play"] if env.opponents == "self" else env.agent_seat
        out.append(
            (
                obs,
                reward,
                terminated,
                truncated,
                info,
                np.asarray(env.game.legal_action_mask(env.state)),
                np.asarray(env.game.observe(env.state, seat)),
                np.asarray(env.state.phase),
                np.asarray(env.state.current),
                np.asarray(env.state.winner),
            )
        )
    return out


@pytest.fixture(scope="module")
def agent_env() -> TenDaysVectorEnv:
    return TenDaysVectorEnv(GAMES, days=3, turn_limit=12)


@pytest.fixture(scope="module")
def self_play_env() -> TenDaysVectorEnv:
    return TenDaysVectorEnv(GAMES, players=3, days=3, turn_limit=15, opponents="self")


def test_spaces_shapes_and_dtypes(agent_env: TenDaysVectorEnv) -> None:
    env = agent_env
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=0)
    assert obs.shape == (GAMES, env.game.observation_size) and obs.dtype == np.float32
    assert obs in env.observation_space and env.observation_space.shape == obs.shape
    assert env.single_action_space.n == env.game.num_actions
    assert env.action_space.shape == (GAMES,)
    mask = info["action_mask"]
    assert (
        mask.shape == (GAMES, env.game.num_actions)
        and mask.dtype == np.bool_
        and mask.any(axis=1).all()
    )
    obs, reward, terminated, truncated, info = env.step(
        env.action_space.sample(mask=tuple(mask.astype(np.int8)))
    )
    assert obs.dtype == np.float32 and reward.dtype == np.float32 and reward.shape == (GAMES,)
    assert terminated.dtype == np.bool_ and truncated.shape == (GAMES,)


def test_masks_and_observations_are_the_engines(agent_env: TenDaysVectorEnv) -> None:
    for obs, _, _, _, info, mask, observed, phase, current, _ in _play(agent_env, 40, seed=1):
        np.testing.assert_array_equal(info["action_mask"], mask)
        np.testing.assert_array_equal(obs, observed)
        # The random opponents have moved: each game waits for the agent, or is over.
        assert ((current == agent_env.agent_seat) | (phase == OVER_PHASE)).all()


def test_seeding_reproduces_a_run(agent_env: TenDaysVectorEnv) -> None:
    first, second = _play(agent_env, 25, seed=7), _play(agent_env, 25, seed=7)
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
    other = _play(agent_env, 1, seed=8)
    assert not np.array_equal(first[0][0], other[0][0])
    obs, _ = agent_env.reset(seed=list(range(GAMES)))
    again, _ = agent_env.reset(seed=list(range(GAMES)))
    np.testing.assert_array_equal(obs, again)


def test_next_step_autoreset(agent_env: TenDaysVectorEnv) -> None:
    steps = _play(agent_env, 60, seed=3)
    draft = agent_env.game.observation_layout["phase"].start
    ended = 0
    for (_, reward, terminated, truncated, _, _, _, phase, _, winner), after in zip(
        steps, steps[1:], strict=False
    ):
        done = terminated | truncated
        # a game ends exactly in the step that reports it
        assert ((phase == OVER_PHASE) == done).all()
        assert (terminated == done & (winner >= 0)).all() and (
            truncated == done & (winner < 0)
        ).all()
        expected = np.where(winner == agent_env.agent_seat, 1.0, -1.0) * terminated
        np.testing.assert_array_equal(reward, expected.astype(np.float32))
        assert (reward[~done] == 0).all()
        # The next step deals the game anew: reward 0, not done, a draft.
        obs, next_reward, next_terminated, next_truncated = after[:4]
        assert (next_reward[done] == 0).all() and not (next_terminated | next_truncated)[done].any()
        assert (obs[done, draft] == 1.0).all()
        ended += int(done.sum())
    assert ended > GAMES  # wins and turn limits both happen in short games
    assert any(s[2].any() for s in steps) and any(s[3].any() for s in steps)


def test_self_play_rewards_every_seat(self_play_env: TenDaysVectorEnv) -> None:
    env = self_play_env
    for _, reward, terminated, truncated, info, mask, _, phase, current, winner in _play(
        env, 60, seed=4
    ):
        np.testing.assert_array_equal(info["to_play"], current)
        np.testing.assert_array_equal(info["action_mask"], mask)
        rewards = info["rewards"]
        assert rewards.shape == (GAMES, 3)
        won = terminated
        assert (rewards[won].sum(axis=1) == -1.0).all()  # one +1, two -1
        assert (rewards[truncated] == 0).all() and (rewards[~(terminated | truncated)] == 0).all()
        # A game is won on its winner's own turn: the acting seat gets the win.
        assert (reward[won] == 1.0).all() and (winner[won] >= 0).all()
        assert ((phase == OVER_PHASE) == (terminated | truncated)).all()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="opponents"):
        TenDaysVectorEnv(2, opponents="greedy")
    with pytest.raises(ValueError, match="seat"):
        TenDaysVectorEnv(2, agent_seat=2)
    with pytest.raises(RuntimeError, match="reset"):
        TenDaysVectorEnv(2).step(np.zeros(2, np.int64))


def test_a_step_needs_one_action_per_game(agent_env: TenDaysVectorEnv) -> None:
    agent_env.reset(seed=0)
    with pytest.raises(ValueError, match=f"{GAMES + 1} actions for {GAMES} games"):
        agent_env.step(np.zeros(GAMES + 1, np.int64))


def test_the_rules_come_as_options_or_as_the_rule_keywords() -> None:
    whole = TenDaysVectorEnv(2, options=Options(players=3, days=3, turn_limit=15))
    spelled = TenDaysVectorEnv(2, players=3, days=3, turn_limit=15)
    assert whole.game.config.options == spelled.game.config.options
    assert whole.game.config.options == Options(players=3, days=3, turn_limit=15)
    with pytest.raises(ValueError, match=r"rule options or the rule keywords \(days\), not both"):
        TenDaysVectorEnv(2, options=Options(players=3), days=3)
