"""The Gymnasium environment passes Gymnasium's checker, is reproducible, and plays by the rules."""

import random
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tendays.bots import GreedyBot, RandomBot
from tendays.engine import EventKind, Game, Move, play_bots, view
from tendays.rl import GYM_ID, Rewards, TenDaysEnv


def _play_out(env: gym.Env, seed: int, choose=None) -> tuple[list[int], list[float], dict]:
    """Play one game; ``choose(env, info)`` picks the action (default: uniform over the mask)."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    actions, rewards = [], []
    while True:
        mask = info["action_mask"]
        action = choose(env, info) if choose else int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        actions.append(action)
        rewards.append(reward)
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            return actions, rewards, {"terminated": terminated, "truncated": truncated, **info}


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"edition": "germany", "players": 3, "opponents": ["greedy", "random"]},
        {"players": 4, "days": 5, "swap": True, "shaping": 0.5},
    ],
)
def test_check_env(kwargs: dict) -> None:
    with warnings.catch_warnings():
        # the checker warns about anything doubtful: treat that as failure
        warnings.simplefilter("error")
        # Made through the registry, so the checker also renders in every declared mode.
        check_env(gym.make(GYM_ID, **kwargs).unwrapped)


def test_registered_on_import() -> None:
    env = gym.make(GYM_ID, edition="usa", players=3, opponents="greedy", days=5, seed=3)
    assert isinstance(env.unwrapped, TenDaysEnv)
    assert env.unwrapped.opponent_specs == ("greedy", "greedy")
    assert env.action_space == gym.spaces.Discrete(37)


def test_reset_with_a_seed_replays_the_same_game() -> None:
    env = TenDaysEnv(players=3, opponents=["greedy", "random"], turn_limit=90)
    first = _play_out(env, seed=11)
    second = _play_out(env, seed=11)
    assert first[0] == second[0] and first[1] == second[1]
    assert env.state.events[-1].kind in (EventKind.WIN, EventKind.LIMIT)
    other = TenDaysEnv(players=3, opponents=["greedy", "random"], turn_limit=90)
    assert _play_out(other, seed=11)[0] == first[0]
    assert _play_out(other, seed=12)[0] != first[0]


def test_the_seed_argument_seeds_the_first_reset() -> None:
    a, b = TenDaysEnv(seed=5, opponents="greedy"), TenDaysEnv(seed=5, opponents="greedy")
    assert np.array_equal(a.reset()[0], b.reset()[0])
    assert a.state == b.state
    c = TenDaysEnv(seed=6, opponents="greedy")
    c.reset()
    assert c.state != a.state


def test_the_agent_always_has_seat_zero_to_move() -> None:
    env = TenDaysEnv(players=4, opponents="random", turn_limit=80)
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    while True:
        assert env.state.current == 0
        assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
        obs, _, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        if terminated or truncated:
            break


def test_the_bots_move_through_the_engine_turn_loop() -> None:
    env = TenDaysEnv(players=3, opponents=["greedy", "random"], turn_limit=60)
    actions, _, _ = _play_out(env, seed=4)
    # The same game played again outside the environment: the agent's moves, and the bots with the
    # engine's dice for each decision (tendays.engine.decision_rng).
    assert env.game is not None
    game = Game(env.edition, env.options, env.game.seed)
    players = [None, GreedyBot(), RandomBot()]
    play_bots(game, players)
    for action in actions:
        game.play(env.codec.decode(action), 0)
        play_bots(game, players)
    assert game.state == env.state and game.moves == env.game.moves


def test_masks_are_fresh_int8_arrays_and_numpy_actions_decode() -> None:
    env = TenDaysEnv()
    _, info = env.reset(seed=1)
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (env.codec.size,) and mask.flags.writeable
    mask[:] = 0  # the receiver's own copy: the environment's masks are unchanged
    assert env.action_masks().dtype == bool and env.action_masks().sum() == 10
    _, _, _, _, info = env.step(np.int64(np.flatnonzero(env.action_masks())[0]))
    assert info["action_mask"].sum() > 0


def _greedy(env: gym.Env, info: dict) -> int:
    game = env.unwrapped
    return game.codec.encode(GreedyBot().choose(view(game.state, 0), random.Random(0)))


def test_a_win_pays_the_win_reward() -> None:
    env = TenDaysEnv(days=5, opponents="random", rewards=Rewards(win=2.0))
    _, rewards, final = _play_out(env, seed=3, choose=_greedy)
    assert final["terminated"] and final["winner"] == 0
    assert rewards[-1] == 2.0 and set(rewards[:-1]) == {0.0}


def test_a_loss_pays_the_loss_reward() -> None:
    env = TenDaysEnv(days=5, opponents="greedy")
    for seed in range(20):
        _, rewards, final = _play_out(env, seed=seed)
        if final["terminated"]:
            assert final["winner"] == 1 and rewards[-1] == -1.0
            return
    pytest.fail("the greedy bot never beat a random agent")


def test_the_turn_limit_truncates() -> None:
    env = TenDaysEnv(turn_limit=7, rewards=Rewards(draw=0.5))
    _, rewards, final = _play_out(env, seed=4)
    assert final["truncated"] and not final["terminated"] and final["winner"] is None
    assert rewards[-1] == 0.5 and env.state.turn == 7


def test_shaping_pays_the_change_in_journey_progress() -> None:
    env = TenDaysEnv(days=5, shaping=1.0, rewards=Rewards(win=0.0, loss=0.0))
    _, rewards, final = _play_out(env, seed=3, choose=_greedy)
    assert final["winner"] == 0
    # Potential-based: the rewards add up to the progress of the finished rack
    # (6 of 6) from the empty one.
    assert sum(rewards) == pytest.approx(1.0)


def test_an_illegal_action_ends_the_episode_and_names_the_rule() -> None:
    env = TenDaysEnv()
    env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.codec.encode(Move.take(2)))
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_move"].startswith("'take 2': the racks are still being filled")
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 3, "opponents": ["random"]}, "has 2 opponents, but 1 were named"),
        ({"opponents": "grandmaster"}, "unknown bot 'grandmaster'"),
        ({"players": 5}, "1 to 4 players"),
        ({"edition": "mars"}, "unknown edition 'mars'"),
        ({"render_mode": "human"}, "render_mode must be one of"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TenDaysEnv(**kwargs)


def test_ansi_render() -> None:
    env = gym.make(GYM_ID, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "player 1's rack  1:-" in text and "discard piles" in text
