"""The 500-player arena benchmark (benchmarks/arena_pairing.py) runs on the director's real steps
and reports every figure; a small arena here (its figures are not checked, only that they exist
and that every player was paired)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs the arena benchmark in a process of its own

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "arena_pairing.py"


def test_the_arena_benchmark_reports_its_figures() -> None:
    command = [
        sys.executable,
        str(SCRIPT),
        "--players",
        "8",
        "--minutes",
        "20",
        "--game-seconds",
        "300",
        "600",
        "--tick",
        "30",
        "--json",
    ]
    figures = json.loads(subprocess.run(command, capture_output=True, text=True, check=True, timeout=300).stdout)
    assert figures["players"] == 8 and figures["games_finished"] > 0
    assert figures["pairing_latency_s_at_start"]["count"] == 8  # everyone paired at the start
    for name in ("pairing_latency_s", "pair_arena_cpu_ms", "standings_cpu_ms_per_step", "director_step_cpu_ms"):
        assert {"p50", "p95", "p99"} <= set(figures[name]), name
    assert figures["standings_cpu_ms_per_finished_game"] > 0
