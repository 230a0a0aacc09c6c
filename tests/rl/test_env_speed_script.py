"""The speed benchmark runs and reports every measure (its figures are not checked here)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "env_speed.py"


@pytest.mark.slow  # runs the environment speed script
def test_env_speed_json() -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--seconds", "0.05", "--json", "--days", "5"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    result = json.loads(out)
    for key in (
        "engine_decisions_per_s",
        "aec_steps_per_s",
        "gym_steps_per_s",
        "gym_decisions_per_s",
    ):
        assert result[key] > 0
    assert (result["edition"], result["players"], result["days"]) == ("usa", 2, 5)
