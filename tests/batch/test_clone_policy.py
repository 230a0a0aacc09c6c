"""Behaviour cloning of the greedy bot (``tools/clone_policy.py``): the recorded data, and a tiny run end to end."""

import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

from tendays.bots import GreedyBot  # noqa: E402
from tendays.bots.learned import PolicySpec, encode, load_policy  # noqa: E402
from tendays.engine import ActionCodec, Game, load_edition, next_decision  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "clone_policy.py"


def _script():
    spec = importlib.util.spec_from_file_location("clone_policy", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_record_is_what_the_bot_sees_and_what_greedy_plays() -> None:
    clone = _script()
    observations, masks, labels = clone.play_and_record((3, 0, 10, 0.0, 4))
    assert len(observations) == len(masks) == len(labels) > 20
    assert not (labels & ~masks).any() and labels.any(axis=1).all()  # greedy's moves, all legal
    assert (labels.sum(axis=1) > 1).any()  # greedy's ties are found
    assert (masks.sum(axis=1) > 1).all()  # only decisions with a choice
    # Without exploration the game is greedy against greedy: replay it and compare each decision.
    edition = load_edition("usa")
    options = clone.options(10)
    spec, codec = PolicySpec.of(edition, options), ActionCodec(10)
    game = Game(edition, options, random.Random("tendays-clone/3/0").getrandbits(32))
    index = 0
    while (decision := next_decision(game)) is not None:
        move = GreedyBot().choose(decision.view, decision.rng)
        if len(decision.view.legal_moves()) > 1:
            np.testing.assert_allclose(observations[index], encode(decision.view, spec), atol=1e-3)
            assert labels[index, codec.encode(move)]
            index += 1
        game.play(move, decision.seat)
    assert index == len(labels)


def test_a_tiny_run_trains_writes_and_screens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clone = _script()
    out = tmp_path / "policy.npz"
    assert clone.main(["--games", "6", "--rounds", "2", "--epochs", "2", "--batch", "64", "--hidden", "8",
                       "--workers", "1", "--screen-games", "2", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "held-out accuracy" in printed and "screen against greedy" in printed
    params, edition, players, days = load_policy(str(out))
    assert (edition, players, days) == ("usa", 2, 10) and params["w1"].shape[1] == 8
    rows = [line.split() for line in printed.splitlines() if line.split()[:1] in (["1"], ["2"])]
    assert [row[:2] for row in rows] == [[r, e] for r in "12" for e in "012"]  # 2 rounds of 2 epochs
    assert all(0 <= float(row[-1].rstrip("%")) <= 100 for row in rows)
