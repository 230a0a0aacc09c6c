"""The puzzle rating of the browser (web/static/js/puzzles/rating.js), run in Node: it moves up for
a solved puzzle and down for a missed one, by more for a surprise, and is
remembered in the storage it is given."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

RATING = (
    Path(__file__).resolve().parents[2]
    / "src"
    / "tendays"
    / "web"
    / "static"
    / "js"
    / "puzzles"
    / "rating.js"
)

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")

STORAGE = """
class Storage { constructor() { this.items = new Map(); } getItem(k) { return this.items.has(k) ?
  this.items.get(k) : null; } setItem(k, v) { this.items.set(k, String(v)); } }
"""


def run(script: str) -> Any:
    code = f'import * as rating from "{RATING.as_uri()}";\n{STORAGE}\n{script}'
    result = subprocess.run(
        ["node", "--input-type=module", "-e", code], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_rating_moves_with_each_answer() -> None:
    moves = run(
        "console.log(JSON.stringify([rating.rate(1200, 1200, true), rating.rate(1200, 1200, "
        "false), rating.rate(1200, 1600, true), rating.rate(1200, 800, true), rating.rate(1200, "
        "800, false)]))"
    )
    assert moves[0] == 1216 and moves[1] == 1184  # an even match: half the step either way
    # solving a hard puzzle gains more than solving an easy one
    assert moves[2] > moves[0] > moves[3]
    assert moves[4] < moves[1]  # missing an easy one costs more


def test_the_rating_is_remembered_in_storage() -> None:
    records = run(
        "const s = new Storage(); const first = rating.remembered(s); rating.record(1200, true, "
        "s); const after = rating.record(1300, false, s); s.setItem('tendays.puzzle_rating', "
        "'{broken');console.log(JSON.stringify([first, after, rating.remembered(s)]))"
    )
    assert records[0] == {"rating": 1200, "solved": 0, "failed": 0}
    assert records[1]["solved"] == 1 and records[1]["failed"] == 1 and records[1]["rating"] != 1200
    assert records[2] == {"rating": 1200, "solved": 0, "failed": 0}  # not ours: start afresh
