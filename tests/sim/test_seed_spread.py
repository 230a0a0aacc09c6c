"""benchmarks/seed_spread.py: each seed's row is exactly what ``tendays simulate --seed S`` gives,
and the pooled figure and its interval are summed over every deal of every seed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tendays.sim import Tournament, run_local, summarize

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "seed_spread.py"


@pytest.fixture(scope="module")
def seed_spread() -> ModuleType:
    spec = importlib.util.spec_from_file_location("seed_spread", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["seed_spread"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("text", "seeds"),
    [("7", [7]), ("5,7,20-22", [5, 7, 20, 21, 22]), ("3-3", [3])],
)
def test_seeds_are_read_from_lists_and_ranges(
    seed_spread: ModuleType, text: str, seeds: list[int]
) -> None:
    assert seed_spread.parse_seeds(text) == seeds


@pytest.mark.parametrize(
    ("text", "reason"),
    [("9-3", "backwards"), ("1,2,1", "twice"), ("x", "not a seed"), ("", "not a seed")],
)
def test_bad_seeds_are_refused_with_the_reason(
    seed_spread: ModuleType, text: str, reason: str
) -> None:
    with pytest.raises(ValueError, match=reason):
        seed_spread.parse_seeds(text)


def test_each_row_is_simulates_result_and_the_pool_sums_the_deals(
    seed_spread: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["seed_spread.py", "--players", "greedy,easy", "--seeds", "41-42", "--games", "4"]
    monkeypatch.setattr(
        sys, "argv", [*argv, "--days", "5", "--duplicate", "--workers", "1", "--json"]
    )
    seed_spread.main()
    report = json.loads(capsys.readouterr().out)
    wins = []
    for row, seed in zip(report["per_seed"], [41, 42], strict=True):
        tournament = Tournament("usa", ("greedy", "easy"), 4, seed, days=5, duplicate=True)
        first = summarize(tournament, run_local(tournament)).players[0]
        assert first.paired is not None
        assert (row["seed"], row["wins"], row["deals"]) == (seed, first.wins, 2)
        assert (row["deals_won"], row["deals_lost"]) == (first.paired.won, first.paired.lost)
        wins.append(first.wins)
    pooled = report["pooled"]
    assert (pooled["games"], pooled["wins"]) == (8, sum(wins))
    low, high = pooled["ci95"]
    assert low <= pooled["win_rate"] <= high
    assert pooled["seed_min"] == min(w / 4 for w in wins)
    assert pooled["seed_max"] == max(w / 4 for w in wins)


def test_a_tournament_that_cannot_be_played_is_refused_before_any_game(
    seed_spread: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["seed_spread.py", "--players", "greedy,easy", "--seeds", "1", "--games", "3"]
    monkeypatch.setattr(sys, "argv", [*argv, "--duplicate"])
    with pytest.raises(SystemExit):
        seed_spread.main()
    assert "multiple of the number of players" in capsys.readouterr().err
