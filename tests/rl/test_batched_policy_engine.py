"""examples/batched_policy_engine.py: parameters of the network of pgx's PPO example
(examples/pgx_ppo), pickled as its ``save_model`` writes them, play whole games through the engine
protocol in ``tendays simulate``; with the ``pgx-ppo`` extra, the engine's numpy network gives the
logits of the example's own haiku network."""

from __future__ import annotations

import json
import pickle
import runpy
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tendays.bots import GreedyBot
from tendays.bots.batched_view import batched_observation
from tendays.engine import ActionCodec, Game, Options, load_edition, new_game, next_decision, view
from tendays.engine.wire import view_to_json

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine

ROOT = Path(__file__).resolve().parents[2]
PPO = ROOT / "examples" / "pgx_ppo"
ENGINE = ROOT / "examples" / "batched_policy_engine.py"
DAYS = 5


def _params(seed: int) -> dict[str, dict[str, np.ndarray]]:
    """Random parameters in the layout of ppo.py's haiku network for 5-day USA games (float32
    observations): what its ``save_model`` pickles, with arrays of numpy instead of JAX."""
    inputs = batched_observation(view(new_game(load_edition("usa"), Options(days=DAYS), 0), 0)).size
    actions = ActionCodec(DAYS).size
    rng = np.random.default_rng(seed)
    shapes = [(inputs, 64), (64, 64), (64, 64), (64, actions), (64, 64), (64, 64), (64, 1)]
    names = ["linear"] + [f"linear_{i}" for i in range(1, len(shapes))]
    return {
        f"actor_critic/{name}": {
            "w": rng.normal(0, 1 / np.sqrt(fan_in), (fan_in, fan_out)).astype(np.float32),
            "b": rng.normal(0, 0.1, fan_out).astype(np.float32),
        }
        for name, (fan_in, fan_out) in zip(names, shapes, strict=True)
    }


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    params = _params(7)
    checkpoint = tmp_path_factory.mktemp("ppo") / "tendays-seed=0.ckpt"
    checkpoint.write_bytes(pickle.dumps(params))
    return checkpoint, params


def _engine() -> dict[str, Any]:
    return runpy.run_path(str(ENGINE), run_name="batched_policy_engine")


def test_the_engine_plays_whole_games_in_simulate(trained: tuple[Path, dict[str, Any]]) -> None:
    checkpoint, _ = trained
    command = f"cmd:{shlex.quote(sys.executable)} {ENGINE} --params {shlex.quote(str(checkpoint))}"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tendays.cli.main",
            "simulate",
            "--days",
            "5",
            "--games",
            "2",
            "--player",
            command,
            "--player",
            "greedy",
            "--json",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games"] == 2, report


def test_the_engine_answers_with_the_policys_most_likely_legal_move(
    trained: tuple[Path, dict[str, Any]],
) -> None:
    engine = _engine()
    checkpoint, _ = trained
    policy = engine["load"](checkpoint)
    codec = ActionCodec(DAYS)
    game = Game(load_edition("usa"), Options(players=2, days=DAYS, turn_limit=60), 11)
    bots, decisions = [GreedyBot(), GreedyBot()], 0
    while (decision := next_decision(game)) is not None:
        seen = decision.view
        logits = policy.logits(batched_observation(seen))
        best = max(seen.legal_moves(), key=lambda move: logits[codec.encode(move)])
        assert engine["choose"](policy, view_to_json(seen), "float32") == str(best)
        game.play(bots[decision.seat].choose(seen, decision.rng), decision.seat)
        decisions += 1
    assert game.state.is_over and decisions > 10


def test_a_game_the_policy_was_not_trained_for_is_answered_with_an_error(
    trained: tuple[Path, dict[str, Any]],
) -> None:
    checkpoint, _ = trained
    lines = (
        "tendays 2\n"
        + "go "
        + json.dumps(view_to_json(view(new_game(load_edition("usa"), Options(days=10), 0), 0)))
        + "\nquit\n"
    )
    result = subprocess.run(
        [sys.executable, str(ENGINE), "--params", str(checkpoint)],
        input=lines,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.stdout.splitlines()[0] == "ready batched-policy"
    assert result.stdout.splitlines()[1].startswith("error the policy reads")


def test_the_numpy_network_is_the_ppo_examples_network(
    trained: tuple[Path, dict[str, Any]],
) -> None:
    pytest.importorskip("haiku")
    pytest.importorskip("distrax")
    pytest.importorskip("omegaconf")
    pytest.importorskip("pgx")
    import jax.numpy as jnp

    argv, path = sys.argv, sys.path[:]
    sys.argv = ["ppo.py", "env_name=tendays", f"days={DAYS}"]
    sys.path.insert(0, str(PPO))
    try:
        forward = runpy.run_path(str(PPO / "ppo.py"), run_name="pgx_ppo_example")["forward"]
    finally:
        sys.argv, sys.path[:] = argv, path
        sys.modules.pop("envs", None)
    checkpoint, params = trained
    policy = _engine()["load"](checkpoint)
    state = new_game(load_edition("usa"), Options(days=DAYS), 3)
    observation = batched_observation(view(state, 0))
    logits, _ = forward.apply(params, jnp.asarray(observation)[None])
    np.testing.assert_allclose(policy.logits(observation), np.asarray(logits)[0], atol=1e-4)
