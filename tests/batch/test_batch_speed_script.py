"""The batched-engine benchmark runs and reports its figures (their size is not checked here),
sweeps batch sizes, and refuses a device JAX does not have."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine

pytest.importorskip("jax")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "batch_speed.py"


def benchmark_json(*flags: str) -> dict[str, Any]:
    """The benchmark's JSON for short 5-day games without pgx, with ``flags`` added."""
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--days", "5", "--no-pgx", *flags],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    result: dict[str, Any] = json.loads(out)
    return result


@pytest.mark.parametrize("keep_memory", [True, False])
def test_batch_speed_json(keep_memory: bool) -> None:
    flags = [] if keep_memory else ["--no-keep-memory"]
    result = benchmark_json("--seconds", "0.05", "--json", "--batches", "16", *flags)
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
    assert (
        result["vector_env_float32_steps_per_s"] > 0
        and result["vector_env_compact_steps_per_s"] > 0
    )
    compact = result["vector_env_compact_observation_bytes"]
    assert result["vector_env_float32_observation_bytes"] == 4 * compact
    assert 0 < result["vector_env_observation_bytes"] < compact  # the indices form
    for key in ("vector_env", "vector_env_compact", "vector_env_float32"):
        assert result[f"{key}_observation_us"] > 0 and result[f"{key}_floor_steps_per_s"] > 0
    assert result["device"] == "cpu" and result["vector_env_to_pgx_leduc"] is None


def test_batch_speed_sweep_gives_one_row_per_batch() -> None:
    result = benchmark_json(
        "--seconds", "0.02", "--sweep", "--max-batch", "2", "--observations", "indices"
    )
    assert [row["batch"] for row in result["sweep"]] == [1, 2]
    keys = set(result["sweep"][0])
    assert all(set(row) == keys for row in result["sweep"])
    assert {"batched_decisions_per_s", "vector_env_steps_per_s", "pgx_leduc_steps_per_s"} <= keys
    assert all(row["vector_env_steps_per_s"] > 0 for row in result["sweep"])


def test_batch_speed_refuses_a_missing_device() -> None:
    import jax

    if any(device.platform == "gpu" for device in jax.devices()):
        pytest.skip("this machine has a GPU")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--device", "gpu", "--quick", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert "JAX has no GPU device here" in done.stderr and "--device cpu" in done.stderr
