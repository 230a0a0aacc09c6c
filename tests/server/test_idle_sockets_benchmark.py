"""The load benchmark holds idle connections beside its games and gives the server's memory per
connection (docs/server.md, "Load"; benchmarks/server_load.py --idle-connections)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a server process
BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "server_load.py"


def test_idle_connections_are_held_through_the_games_and_measured() -> None:
    pytest.importorskip("httpx")
    done = subprocess.run(
        [
            sys.executable,
            str(BENCHMARK),
            "--games",
            "3",
            "--turn-limit",
            "6",
            "--idle-connections",
            "60",
            "--idle-tables",
            "3",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["finished"] == 3
    assert result["idle_connections"] == 60
    assert result["idle_held_at_end"] == 60
    assert result["idle_failed"] == 0
    assert result["idle_messages"] == 0  # the tables they watch wait: nothing is sent to them
    assert result["rss_mb"] >= result["rss_mb_before_idle"]
    assert result["rss_kb_per_connection"] is not None
