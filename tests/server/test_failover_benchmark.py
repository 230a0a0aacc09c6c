"""The failover benchmark times failovers however short its games are: with kills, a game that ends is
replaced until the last kill's failover is timed (docs/server.md, benchmarks/server_load.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from postgres import binaries

pytestmark = pytest.mark.slow  # PostgreSQL and two server processes
BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "server_load.py"


def test_every_kill_finds_games_to_time_even_when_games_are_short() -> None:
    if binaries() is None:
        pytest.skip("PostgreSQL's server programs are not installed (apt-get install postgresql)")
    pytest.importorskip("psycopg")
    pytest.importorskip("httpx")
    # Games of ten turns end within a few seconds, before the kill: each is replaced by a new one.
    done = subprocess.run(
        [
            sys.executable,
            str(BENCHMARK),
            "--games",
            "4",
            "--processes",
            "2",
            "--kills",
            "1",
            "--kill-every",
            "6",
            "--lease",
            "2",
            "--turn-limit",
            "10",
            "--chat",
            "0",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["failovers_timed"] >= 1
    assert result["games_played"] > result["games"] and result["finished"] == result["games_played"]
