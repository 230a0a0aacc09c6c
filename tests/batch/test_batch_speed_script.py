"""The batched-engine benchmark runs and reports its figures (their size is not checked here)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "batch_speed.py"


@pytest.mark.parametrize("keep_memory", [True, False])
def test_batch_speed_json(keep_memory: bool) -> None:
    flags = [] if keep_memory else ["--no-keep-memory"]
    out = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--seconds",
            "0.05",
            "--json",
            "--batches",
            "16",
            "--days",
            "5",
            "--no-pgx",
            *flags,
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    result = json.loads(out)
    assert (
        result["vector_env_keep_memory"] is keep_memory
        and result["vector_env_floor_steps_per_s"] > 0
    )
    assert result["batched_decisions_per_s"] > 0 and result["scalar_decisions_per_s"] > 0
    assert result["batch"] == 16 and [row["batch"] for row in result["table"]] == [16]
    assert result["table"][0]["compile_s"] > 0
    assert result["vector_env_steps_per_s"] > 0 and result["scalar_aec_steps_per_s"] > 0
    assert "pgx_leduc_steps_per_s" in result  # null without pgx
    assert result["pgx_tendays_steps_per_s"] is None
    assert result["vector_env_float32_steps_per_s"] > 0
    assert (
        result["vector_env_float32_observation_bytes"] == 4 * result["vector_env_observation_bytes"]
    )
