"""python_tendays for OpenSpiel's search: resampled worlds keep the player's information state and
never depend on the hidden truth; a state follows a given deal; the yardstick benchmark plays."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import tendays.rl.openspiel  # noqa: E402, F401
from tendays.engine import MoveKind, new_game, view  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "openspiel_search.py"


def _drafted(opponent_pick: int) -> Any:
    """Three-day game at the first seat's second draft; the second seat's first tile is the
    ``opponent_pick``-th outcome (the only thing the first seat cannot see)."""
    game = pyspiel.load_game("python_tendays", {"players": 2, "days": 3})
    state = game.new_initial_state()
    state.apply_action(0)  # seat 0 drafts first
    state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.chance_outcomes()[opponent_pick][0])
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.chance_outcomes()[2][0])
    assert state.current_player() == 0
    return state


def test_a_resampled_state_keeps_the_information_state_and_hides_the_truth() -> None:
    one, other = _drafted(0), _drafted(1)
    assert one.state.racks[1] != other.state.racks[1]
    assert one.information_state_string(0) == other.information_state_string(0)
    samples = []
    for truth in (one, other):
        sample = truth.resample_from_infostate(0, np.random.RandomState(7).uniform)
        assert sample.information_state_string(0) == truth.information_state_string(0)
        assert sample.observation_tensor(0) == truth.observation_tensor(0)
        assert sample.legal_actions() == truth.legal_actions()
        samples.append(sample)
    first, second = samples
    assert first.state == second.state
    assert first.information_state_string(1) == second.information_state_string(1)
    sampler = np.random.RandomState(3).uniform
    dealt = {one.resample_from_infostate(0, sampler).state.racks[1] for _ in range(20)}
    assert len(dealt) > 1  # the unseen tile is dealt again, not copied


def test_resampling_waits_for_a_players_turn() -> None:
    state = pyspiel.load_game("python_tendays", {"players": 2, "days": 3}).new_initial_state()
    with pytest.raises(ValueError, match="at a player's turn"):
        state.resample_from_infostate(0, random.random)


def test_a_state_follows_an_engine_deal() -> None:
    game = pyspiel.load_game("python_tendays", {"players": 2, "days": 5, "turns": 60})
    truth = new_game(game.rules.edition, game.rules.options, 12345)
    state = game.new_initial_state()
    rng = random.Random(1)
    codec = game.rules.codec
    while not state.is_terminal():
        if state.is_chance_node():
            state.follow(truth)
            continue
        for seat in (0, 1):
            assert view(state.state, seat) == view(truth, seat)
        legal = view(truth, state.current_player()).legal_moves()
        # always drawing from the draw pile empties it: the reshuffle must follow the deal too
        draws = [move for move in legal if move.kind is MoveKind.DRAW]
        move = draws[0] if draws else rng.choice(legal)
        truth = truth.apply(move)
        state.apply_action(codec.encode(move))
    assert truth.is_over and view(state.state, 0) == view(truth, 0)
    assert truth.reshuffles > 0
    assert state.returns() in ([0.0, 0.0], [1.0, -1.0], [-1.0, 1.0])
    with pytest.raises(ValueError, match="chance node"):
        state.follow(truth)


def test_the_benchmark_plays_two_tiny_games(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("openspiel_search", SCRIPT)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["openspiel_search"] = bench  # its dataclasses look their module up there
    spec.loader.exec_module(bench)
    argv = ["--games", "2", "--simulations", "2", "--days", "3", "--opponent", "beginner"]
    assert bench.main([*argv, "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 2 and figures["paired"]["deals"] == 1
    assert figures["search_wins"] + figures["opponent_wins"] + figures["limit_games"] == 2
    low, high = figures["ci95"]
    assert 0 <= low <= figures["win_rate"] <= high <= 1
    assert figures["seconds_per_move"] > 0
    for bad, said in (
        (["--games", "3"], "even number"),
        (["--uct", "-1"], "must not be negative"),
        (["--opponent", "nobody"], "unknown bot"),
    ):
        with pytest.raises(SystemExit):
            bench.main(bad)
        assert said in capsys.readouterr().err
