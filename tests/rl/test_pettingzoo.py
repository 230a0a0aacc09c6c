"""The PettingZoo AEC environment passes PettingZoo's own test suites and plays by the rules."""

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.conversions import aec_to_parallel

from tendays.bots import GreedyBot
from tendays.engine import Move, view
from tendays.rl import Rewards, TenDaysAECEnv, env, raw_env


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo warns about every Dict observation space, the standard form for action masks.
    warnings.filterwarnings("ignore", message=".*should be gymnasium.spaces.box.*")
    warnings.filterwarnings("ignore", message="Observation is not a NumPy array")


@pytest.mark.parametrize(
    ("edition", "players", "swap"), [("usa", 2, False), ("usa", 3, True), ("germany", 4, False)]
)
def test_api_test(edition: str, players: int, swap: bool) -> None:
    api_test(env(edition=edition, players=players, swap=swap, turn_limit=60), num_cycles=400)


def test_seed_test() -> None:
    seed_test(lambda: env(players=3, turn_limit=100), num_cycles=300)


def test_parallel_api_does_not_apply() -> None:
    # Agents do not act in a fixed cycle (the mover acts twice a turn), so the
    # parallel wrapper refuses it.
    aec = env(players=2)
    assert aec.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError):
        aec_to_parallel(aec)


def test_the_same_agent_draws_then_places() -> None:
    aec = env(players=2)
    aec.reset(seed=1)
    for _ in range(20):  # the draft, round-robin
        obs, *_ = aec.last()
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
    mover = aec.agent_selection
    codec = aec.unwrapped.codec
    aec.step(codec.encode(Move.draw()))
    assert aec.agent_selection == mover
    obs, *_ = aec.last()
    assert obs["action_mask"][codec.encode(Move.discard(1))] == 1
    aec.step(codec.encode(Move.discard(1)))
    assert aec.agent_selection != mover


def test_only_the_mover_has_legal_actions() -> None:
    aec = env(players=3)
    aec.reset(seed=2)
    for agent in aec.agents:
        mask = aec.observe(agent)["action_mask"]
        assert mask.any() == (agent == aec.agent_selection)


def test_turn_limit_truncates_with_the_draw_reward() -> None:
    aec = env(players=2, turn_limit=6, rewards=Rewards(draw=-0.25))
    aec.reset(seed=3)
    rng = np.random.default_rng(0)
    for _agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == -0.25
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert aec.agents == []
    assert aec.unwrapped.state.turn == 6


def test_the_winner_gets_plus_one_and_the_others_minus_one() -> None:
    aec = env(edition="usa", players=3, days=5)
    aec.reset(seed=4)
    game: TenDaysAECEnv = aec.unwrapped
    bot, rng = GreedyBot(), random.Random(4)
    finals = {}
    for agent in aec.agent_iter():
        _, reward, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            finals[agent] = (reward, terminated)
            aec.step(None)
            continue
        seat = int(agent.split("_")[1])
        aec.step(game.codec.encode(bot.choose(view(game.state, seat), rng)))
    winner = game.state.winner
    assert winner is not None
    assert finals == {f"player_{s}": (1.0 if s == winner else -1.0, True) for s in range(3)}


def test_an_illegal_action_ends_the_game_and_names_the_rule() -> None:
    aec = env(players=2)
    aec.reset(seed=5)
    mover = aec.agent_selection
    # the draft is on: drawing is not a draft move
    aec.step(aec.unwrapped.codec.encode(Move.draw()))
    _, reward, terminated, _, info = aec.last()
    assert terminated and reward == -1.0
    assert "racks are still being filled" in info["illegal_move"]
    assert aec.agent_selection == mover


def test_none_is_only_for_finished_agents() -> None:
    aec = raw_env()
    aec.reset(seed=6)
    with pytest.raises(ValueError, match="None is only for agents whose game has ended"):
        aec.step(None)


def test_ansi_render_shows_the_movers_view() -> None:
    aec = env(players=2, render_mode="ansi")
    aec.reset(seed=7)
    text = aec.render()
    assert text.startswith("10 Days in the USA, turn 0, draft")
    assert "player 1's rack" in text and "held tile" in text
    with pytest.raises(ValueError, match="render_mode must be one of"):
        raw_env(render_mode="human")
