"""The hard bot at a table: the diagnosis counts what it says, and the ladder plays duplicate and
gives the spread of the solo turns."""

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_diagnosis_counts_are_consistent_and_reproducible() -> None:
    bench = _load("hard_at_table")
    tallies = [
        bench.play(("normal", "normal", seed, seat))
        for seed in (bench.FIRST_SEED, bench.FIRST_SEED + 1)
        for seat in (0, 1)
    ]
    total = bench.Tally()
    for tally in tallies:
        total.add(tally)
    assert total.games == 4 and total.wins + total.other_wins <= 4
    assert (
        total.thrown > 0
        and total.thrown_taken_at_once <= total.thrown_taken_by_other <= total.thrown
    )
    assert total.left_greedy <= total.decisions and total.takes_own <= total.takes
    assert total.other_wins_with_gift <= total.other_wins
    assert total.other_take_or_draw_as_playout <= total.other_draw_decisions <= total.other_moves
    assert len(total.other_distance) > 0 and all(
        true >= 0 and guess >= 1 for true, guess in total.other_distance
    )
    assert bench.play(("normal", "normal", bench.FIRST_SEED, 1)) == tallies[1]
    alone = bench.play(("normal", "", bench.FIRST_SEED, 0))
    assert alone.games == 1 and alone.wins == 1 and len(alone.turns_to_win) == 1
    assert alone.other_moves == 0 and alone.thrown_taken_by_other == 0


def test_the_ladder_plays_bots_against_each_other_in_duplicate() -> None:
    ladder = _load("ladder")
    pairs = ladder.all_pairs(400, 200, 1000)
    assert pairs[("hard", "normal")] == 1000 and pairs[("normal", "easy")] == 400
    assert all(games % 2 == 0 for games in pairs.values())
    assert ladder.even(400) == 400 and ladder.even(91.6) == 92 and ladder.even(0.4) == 2
    tournament, _, summary, _ = ladder.play("usa", ("normal", "easy"), 4, ladder.SEEDS["tune"], 1)
    assert tournament.duplicate and ladder.command(tournament).endswith("--duplicate")
    assert summary.players[0].paired is not None and summary.players[0].paired.deals == 2


def test_the_solo_table_gives_the_spread_of_the_turns_over_finished_games() -> None:
    ladder = _load("ladder")
    _, results, _, _ = ladder.play("usa", ("normal",), 3, ladder.SEEDS["tune"], 1)
    finished = [replace(results[0], turns=10), replace(results[1], turns=14)]
    unfinished = replace(results[2], winner=None, turns=300)
    sd, low, high = ladder.turns_spread([*finished, unfinished])
    assert sd == pytest.approx(2 * 2**0.5)
    assert (low, high) == pytest.approx((12 - 1.96 * 2, 12 + 1.96 * 2))
    assert ladder.turns_spread(finished[:1]) is None
