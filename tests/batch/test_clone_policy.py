"""The learned bot's tools: behaviour cloning of the greedy bot (``tools/clone_policy.py``: the
recorded data, and a tiny run end to end), PPO's snapshots (``tools/train_policy.py``) and screening
them (``tools/screen_policy.py``)."""

import importlib.util
import random
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

from tendays.bots import GreedyBot  # noqa: E402
from tendays.bots.learned import PolicySpec, encode, load_policy  # noqa: E402
from tendays.engine import ActionCodec, Game, load_edition, next_decision  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def _script(name: str = "clone_policy"):
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # so that worker processes find its functions under its name
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


def test_a_tiny_run_trains_writes_and_screens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clone = _script()
    out = tmp_path / "policy.npz"
    assert (
        clone.main(
            [
                "--games",
                "6",
                "--rounds",
                "2",
                "--epochs",
                "2",
                "--batch",
                "64",
                "--hidden",
                "8",
                "--workers",
                "1",
                "--screen-games",
                "2",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "held-out accuracy" in printed and "screen against greedy" in printed
    params, edition, players, days = load_policy(str(out))
    assert (edition, players, days) == ("usa", 2, 10) and params["w1"].shape[1] == 8
    rows = [line.split() for line in printed.splitlines() if line.split()[:1] in (["1"], ["2"])]
    # 2 rounds of 2 epochs
    assert [row[:2] for row in rows] == [[r, e] for r in "12" for e in "012"]
    assert all(0 <= float(row[-1].rstrip("%")) <= 100 for row in rows)


def test_ppo_keeps_a_snapshot_per_report_and_screening_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    train, screen = _script("train_policy"), _script("screen_policy")
    out, snapshots = tmp_path / "policy.npz", tmp_path / "snapshots"
    assert (
        train.main(
            [
                "--iterations",
                "2",
                "--games",
                "8",
                "--steps",
                "8",
                "--hidden",
                "8",
                "--report",
                "0",
                "--random-games",
                "4",
                "--greedy-games",
                "0",
                "--out",
                str(out),
                "--snapshots",
                str(snapshots),
            ]
        )
        == 0
    )
    kept = sorted(snapshots.iterdir())
    assert [path.name for path in kept] == ["00001.npz", "00002.npz"]
    last, _, _, _ = load_policy(str(kept[-1]))
    assert all(
        np.array_equal(last[name], value) for name, value in load_policy(str(out))[0].items()
    )
    capsys.readouterr()
    # The same wins whether the games are played in one process or split between two.
    alone = screen.screen(kept[-1], 6, 77, 1)
    assert 0 <= alone <= 6 and screen.screen(kept[-1], 6, 77, 2) == alone
    assert screen.main([str(kept[0]), str(kept[1]), "--games", "3", "--workers", "1"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 2 and all("against greedy (simulate seed 77)" in row for row in rows)
    with pytest.raises(SystemExit):
        screen.main([str(tmp_path / "missing.npz")])
    (tmp_path / "garbage.npz").write_bytes(b"not weights")
    with pytest.raises(SystemExit):
        screen.main([str(tmp_path / "garbage.npz")])
    assert "is not a file of the learned bot's weights" in capsys.readouterr().err
