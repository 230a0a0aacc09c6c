"""Tournaments: statistics, seat rotation, solo games, the simulate command, and identical results
on every backend."""

from __future__ import annotations

import importlib.util
import json
from dataclasses import replace

import pytest

from tendays.cli.main import main
from tendays.cli.simulate_cmd import split_players
from tendays.sim import Tournament, play_game, rate_games, run_local, run_ray, summarize, wilson


def _without_timing(results: list) -> list:
    return [replace(r, think_seconds=()) for r in results]


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (240, 400, 0.5512, 0.6468),
    ],
)
def test_wilson_interval(wins: int, games: int, low: float, high: float) -> None:
    lo, hi = wilson(wins, games)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_ratings_favour_the_winner_and_ties_stay_even() -> None:
    ratings = rate_games(2, [[1, 2]] * 5)
    assert ratings[0].mu > 25 > ratings[1].mu
    even = rate_games(2, [[1, 1]] * 3)
    assert even[0].mu == pytest.approx(even[1].mu)


def test_seats_rotate_and_games_are_reproducible() -> None:
    tournament = Tournament("usa", ("greedy", "random"), games=4, seed=9)
    assert [tournament.seating(i) for i in range(4)] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert Tournament("usa", ("a", "b", "c"), games=3).seating(1) == (1, 2, 0)
    first = play_game(tournament, 1)
    assert _without_timing([first]) == _without_timing([play_game(tournament, 1)])
    assert first.seating == (1, 0)
    assert first.winner == 0  # greedy, sitting in seat 1, beats random


@pytest.mark.slow  # whole games (subprocesses, workers, Ray)
def test_workers_do_not_change_the_results() -> None:
    tournament = Tournament(
        "germany", ("greedy", "random", "greedy"), games=6, seed=4, max_turns=60
    )
    alone = run_local(tournament, workers=1)
    shared = run_local(tournament, workers=2)
    assert _without_timing(alone) == _without_timing(shared)
    assert [r.index for r in shared] == list(range(6))


@pytest.mark.slow  # whole games (subprocesses, workers, Ray)
@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="Ray is not installed (the 'distributed' extra)"
)
def test_ray_gives_the_same_results_as_local() -> None:
    tournament = Tournament("usa", ("greedy", "random"), games=4, seed=6)
    assert _without_timing(run_ray(tournament)) == _without_timing(run_local(tournament))


def test_turn_limit_ends_games_without_a_winner() -> None:
    tournament = Tournament("usa", ("random", "random"), games=2, seed=1, max_turns=5)
    summary = summarize(tournament, run_local(tournament))
    assert summary.draws == 2 and all(p.limit_games == 2 and p.wins == 0 for p in summary.players)
    assert summary.mean_turns == 5


def test_solo_reports_turns_to_finish_and_the_lower_bound() -> None:
    tournament = Tournament("usa", ("greedy",), games=4, seed=2)
    summary = summarize(tournament, run_local(tournament))
    (player,) = summary.players
    assert player.wins == 4
    assert player.mean_start_distance is not None
    assert (
        player.mean_turns_to_win is not None
        and player.mean_turns_to_win >= player.mean_start_distance
    )


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "simulate",
            "--edition",
            "germany",
            "--players",
            "greedy,random",
            "--games",
            "4",
            "--seed",
            "3",
            "--workers",
            "1",
            "--json",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    assert data["games"] == 4 and data["draws"] == 0
    assert [p["name"] for p in data["players"]] == ["greedy", "random"]
    greedy = data["players"][0]
    assert {
        "wins",
        "win_rate",
        "ci95",
        "mean_think_ms",
        "mean_turns_to_win",
        "median_turns_to_win",
        "limit_games",
        "rating",
    } <= set(greedy)
    assert greedy["wins"] == 4 and greedy["win_rate"] == 1.0 and len(greedy["ci95"]) == 2
    assert isinstance(data["mean_turns"], float)


def test_simulate_table_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["simulate", "--players", "greedy", "--games", "2", "--workers", "1", "--quiet"]) == 0
    )
    out = capsys.readouterr().out
    assert "lower bound" in out and "greedy" in out
    assert main(["simulate", "--players", "greedy,genius", "--games", "2"]) == 2
    assert "unknown bot 'genius'" in capsys.readouterr().err
    assert (
        main(["simulate", "--players", "greedy,greedy,greedy,greedy,greedy", "--games", "2"]) == 2
    )
    assert "1 to 4 players" in capsys.readouterr().err
    assert main(["simulate", "--games", "2"]) == 2


def test_player_lists_keep_commas_inside_engine_command_lines() -> None:
    assert split_players("expert,greedy") == ["expert", "greedy"]
    assert split_players("cmd:my-engine --mode a,b,greedy") == [
        "cmd:my-engine --mode a,b",
        "greedy",
    ]
    assert split_players("cmd:x,cmd:y, hard") == ["cmd:x", "cmd:y", "hard"]


def test_duplicate_players_get_numbered_names() -> None:
    assert Tournament("usa", ("greedy", "greedy", "random")).names() == [
        "greedy #1",
        "greedy #2",
        "random",
    ]
