"""pgx's PPO example (examples/pgx_ppo): ``env_name=tendays`` builds the tendays pgx env, from the
learner's seat against a random player. No training: the example's module is run up to its
``__main__`` block. Needs the ``pgx-ppo`` extra."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # imports JAX and pgx, and runs the example

pytest.importorskip("haiku")
pytest.importorskip("distrax")
pytest.importorskip("omegaconf")
pytest.importorskip("pgx")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from tendays.engine import ActionCodec  # noqa: E402
from tendays.rl import make_pgx_env  # noqa: E402
from tendays.rl.pgx_env import TenDaysPgxEnv  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "pgx_ppo"


@pytest.fixture
def example(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The example's module namespace for the given command-line options."""

    def run(*options: str) -> dict[str, Any]:
        monkeypatch.setattr(sys, "argv", ["ppo.py", *options])
        monkeypatch.syspath_prepend(str(EXAMPLE))
        monkeypatch.delitem(sys.modules, "envs", raising=False)
        return runpy.run_path(str(EXAMPLE / "ppo.py"), run_name="pgx_ppo_example")

    yield run
    sys.modules.pop("envs", None)


def test_env_name_tendays_builds_the_tendays_pgx_env(example: Any) -> None:
    namespace = example("env_name=tendays", "days=5")
    env = namespace["env"]
    assert isinstance(env.env, TenDaysPgxEnv)
    assert env.env.config.options.days == 5 and env.env.num_players == 2
    assert env.env.game.edition.id == "usa"
    assert env.num_actions == ActionCodec(5).size
    assert env.observation_shape == env.env.observation_shape
    forward = namespace["forward"]
    params = forward.init(jax.random.key(0), jnp.zeros((1, *env.observation_shape)))
    logits, value = forward.apply(params, jnp.zeros((2, *env.observation_shape)))
    assert logits.shape == (2, env.num_actions) and value.shape == (2,)


def test_the_random_player_hands_the_move_back(example: Any) -> None:
    env = example("env_name=tendays", "days=2")["env"]
    init, step = jax.jit(env.init), jax.jit(env.step)
    state = init(jax.random.key(3))
    key = jax.random.key(4)
    for _ in range(12):
        assert state.rewards.shape == (1,)
        assert int(state.game.current_player) == int(state.seat) == 0
        key, pick, chance = jax.random.split(key, 3)
        mask = state.legal_action_mask.astype(jnp.float32)
        state = step(state, jax.random.categorical(pick, jnp.log(mask)), chance)
        if bool(state.terminated):
            break


def test_only_two_player_games_are_played_against_random(example: Any) -> None:
    example("env_name=tendays", "days=2")
    against_random = sys.modules["envs"].AgainstRandom
    with pytest.raises(ValueError, match="2-player"):
        against_random(make_pgx_env("usa", players=3, days=2))
