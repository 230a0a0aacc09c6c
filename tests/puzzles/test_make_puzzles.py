"""tools/make_puzzles.py makes the shipped puzzles: the same games give the same puzzles, so a short
run writes the first puzzles of each kind of the shipped file, byte for byte in their JSON form."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow  # plays 64 bot games


def test_a_short_run_writes_the_start_of_the_shipped_puzzles(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "make_puzzles.py"),
            "--edition",
            "usa",
            "--count",
            "6",
            "--workers",
            "1",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert "usa: 6 puzzles (4 finish, 2 block)" in result.stderr

    def lines(path: Path) -> list[dict[str, object]]:
        with gzip.open(path, "rt", encoding="utf-8") as file:
            return [json.loads(line) for line in file]

    made = lines(tmp_path / "usa.jsonl.gz")
    shipped = {
        puzzle["id"]: puzzle
        for puzzle in lines(ROOT / "src" / "tendays" / "puzzles" / "data" / "usa.jsonl.gz")
    }
    assert [p["id"] for p in made] == [
        "usa-f0001",
        "usa-f0002",
        "usa-f0003",
        "usa-f0004",
        "usa-b0001",
        "usa-b0002",
    ]
    assert all(shipped[p["id"]] == p for p in made)  # type: ignore[index]
