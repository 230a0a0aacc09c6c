"""`tendays simulate`: a table that fits 80 columns, wins by forfeit apart, an engine that never
answered named."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tendays.bots import engine_client
from tendays.cli.main import main

BROKEN = Path(__file__).parents[2] / "sim" / "engines" / "broken_engine.py"


def broken(mode: str) -> str:
    return f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(BROKEN))} {mode}"


@pytest.mark.slow  # whole games in subprocesses
def test_the_table_fits_80_columns() -> None:
    for players in ("greedy,random", "greedy", f"greedy,{broken('crash')},random"):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "tendays",
                "simulate",
                "--players",
                players,
                "--games",
                "3",
                "--workers",
                "1",
                "--quiet",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert lines and all(len(line) <= 80 for line in lines), "\n".join(lines)


def test_wins_by_forfeit_are_not_counted_as_turns_to_win(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [
        "simulate",
        "--players",
        f"greedy,{broken('crash')}",
        "--games",
        "2",
        "--workers",
        "1",
        "--quiet",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    greedy = next(line for line in out.splitlines() if line.startswith("greedy "))
    # 2 wins, but no turns to win: both by forfeit
    assert greedy.split()[1:5] == ["2", "100.0", "34-100", "-"]
    assert "greedy won 2 games by another player's forfeit" in out
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (
        data["players"][0]["mean_turns_to_win"] is None
        and data["players"][0]["wins_by_forfeit"] == 2
    )


@pytest.mark.slow  # waits on a silent engine's timeout
def test_an_engine_that_never_answered_is_reported_as_such(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(engine_client, "START_TIMEOUT", 0.5)
    argv = [
        "simulate",
        "--players",
        f"greedy,{broken('mute')}",
        "--games",
        "2",
        "--workers",
        "1",
        "--quiet",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    mute = next(line for line in out.splitlines() if line.startswith("cmd:"))
    assert mute.split()[-2] == "-"  # no thinking time: it never made a decision that counted
    assert "never played a move: it forfeited all 2 games at its first decision" in " ".join(
        out.split()
    )
    assert "500" not in mute
    assert main([*argv, "--json"]) == 0
    player = json.loads(capsys.readouterr().out)["players"][1]
    assert player["mean_think_ms"] is None and player["never_played"] is True
