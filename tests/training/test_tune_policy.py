"""tools/tune_policy.py: a tiny search writes loadable weights with the multiples it kept, and a bad
``--try`` is refused with the reason."""

import sys
from pathlib import Path

import pytest

pytest.importorskip("jax")

import numpy as np  # noqa: E402

from tendays.bots.learned import load_policy, save_policy  # noqa: E402
from tendays.bots.policy_inputs import GREEDY_MULTIPLES, YARDSTICK  # noqa: E402
from tendays.engine import Options  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import tune_policy  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX (through the screening tool) and plays whole games


def test_a_tiny_search_keeps_greedys_multiples_or_a_better_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    network = tmp_path / "network.npz"
    save_policy(network, load_policy()[0], "usa", Options(players=2, days=10))
    out = tmp_path / "tuned.npz"
    args = ["--network", str(network), "--out", str(out), "--games", "2", "--try", "draw=1"]
    assert tune_policy.main([*args, "--candidates", str(tmp_path / "c")]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].split()[1:3] == ["greedy's", "multiples"] and "draw=1" in rows[1]
    assert sorted(p.name for p in (tmp_path / "c").iterdir()) == ["000.npz", "001.npz"]
    params = load_policy(str(out))[0]
    kept = params["yardstick"][YARDSTICK.index("draw")]
    assert np.isclose(kept, 1.0) or np.isclose(kept, GREEDY_MULTIPLES[YARDSTICK.index("draw")])
    assert params["net_scale"].tolist() == [0.0]


def test_a_bad_try_is_refused_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for bad, reason in (("speed=1", "the multiple is one of closer"), ("draw=x", "are numbers")):
        with pytest.raises(SystemExit):
            tune_policy.main(["--network", "x.npz", "--out", str(tmp_path / "o.npz"), "--try", bad])
        assert reason in capsys.readouterr().err
