"""Duplicate tournaments: each deal once per seating, the paired result per
deal, and the command's contract."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tendays.sim import GameResult, Tournament, paired, play_game, summarize


def _result(index: int, winner: int | None, seating: tuple[int, ...]) -> GameResult:
    players = len(seating)
    return GameResult(
        index=index,
        seed=0,
        seating=seating,
        winner=winner,
        turns=20,
        hit_limit=winner is None,
        think_seconds=(0.0,) * players,
        decisions=(1,) * players,
        start_distance=(3,) * players,
    )


def test_each_deal_is_played_once_per_seating() -> None:
    tournament = Tournament("usa", ("greedy", "random"), games=4, seed=3, duplicate=True)
    assert [tournament.game_seed(i) for i in range(4)] == [tournament.game_seed(0)] * 2 + [
        tournament.game_seed(2)
    ] * 2
    assert tournament.game_seed(0) != tournament.game_seed(2)
    assert [tournament.seating(i) for i in range(4)] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    three = Tournament("usa", ("a", "b", "c"), games=6, duplicate=True)
    assert {three.game_seed(i) for i in range(3)} == {three.game_seed(0)}
    assert [three.seating(i) for i in range(3)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    # Without duplicate every game has its own deal.
    plain = Tournament("usa", ("greedy", "random"), games=4, seed=3)
    assert len({plain.game_seed(i) for i in range(4)}) == 4


def test_the_two_seatings_of_a_deal_deal_the_same_racks_to_swapped_seats() -> None:
    tournament = Tournament("usa", ("greedy", "greedy"), games=2, seed=5, duplicate=True)
    first, second = play_game(tournament, 0), play_game(tournament, 1)
    assert first.seed == second.seed and first.seating == (0, 1) and second.seating == (1, 0)
    # The same bot at the same seat with the same deal and dice plays the same game: the winner's
    # seat repeats, so the winning player changes.
    assert first.winner is not None and second.winner == 1 - first.winner


def test_games_must_be_a_multiple_of_the_players() -> None:
    with pytest.raises(ValueError, match="multiple of the number of players"):
        Tournament("usa", ("greedy", "random", "greedy"), games=4, duplicate=True).validate()
    Tournament("usa", ("greedy", "random", "greedy"), games=6, duplicate=True).validate()


def test_deals_are_counted_won_split_and_lost() -> None:
    tournament = Tournament("usa", ("a", "b"), games=8, duplicate=True)
    # Deal 0: a wins both; deal 1: split; deal 2: b wins both; deal 3: a wins
    # one, the other has no winner.
    winners = [0, 0, 0, 1, 1, 1, 0, None]
    results = [_result(i, w, tournament.seating(i)) for i, w in enumerate(winners)]
    a, b = paired(tournament, results, 0), paired(tournament, results, 1)
    assert (a.deals, a.won, a.split, a.lost) == (4, 1, 2, 1)
    assert (b.deals, b.won, b.split, b.lost) == (4, 1, 1, 2)
    # The interval is over the deals' shares (1, 0.5, 0, 0.5 for a), centred on the win rate.
    low, high = a.ci95
    assert low < 0.5 < high and (low + high) / 2 == pytest.approx(0.5)
    summary = summarize(tournament, results)
    assert summary.players[0].ci95 == a.ci95 and summary.players[0].paired == a
    data = summary.to_json()
    assert data["duplicate"] is True
    assert data["players"][1]["paired"] == {
        "deals": 4,
        "won": 1,
        "split": 1,
        "lost": 2,
        "ci95": list(b.ci95),
    }


def test_pairing_narrows_the_interval_when_the_deal_decides() -> None:
    tournament = Tournament("usa", ("a", "b"), games=200, duplicate=True)
    # Every deal is won by whoever sits first: a pure luck of the deal,
    # which duplicate play cancels.
    results = [_result(i, tournament.seating(i)[0], tournament.seating(i)) for i in range(200)]
    pairs = paired(tournament, results, 0)
    assert (pairs.won, pairs.split, pairs.lost) == (0, 100, 0)
    assert summarize(tournament, results).players[0].win_rate == 0.5
    # All deals alike: no spread to measure, so the games' own (Wilson) interval stands.
    assert pairs.ci95[0] < 0.5 < pairs.ci95[1]


def _simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tendays.cli.main", "simulate", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.slow  # whole games (subprocesses, workers, Ray)
def test_the_command_plays_duplicate_and_reports_the_deals() -> None:
    done = _simulate(
        "--players",
        "greedy,random",
        "--games",
        "4",
        "--seed",
        "2",
        "--duplicate",
        "--json",
        "--quiet",
        "--workers",
        "1",
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["duplicate"] is True and data["games"] == 4
    greedy = data["players"][0]
    assert greedy["paired"]["deals"] == 2
    assert greedy["paired"]["won"] + greedy["paired"]["split"] + greedy["paired"]["lost"] == 2
    assert greedy["ci95"] == greedy["paired"]["ci95"]
    text = _simulate(
        "--players", "greedy,random", "--games", "2", "--duplicate", "--quiet", "--workers", "1"
    )
    assert text.returncode == 0, text.stderr
    shown = " ".join(text.stdout.split())
    assert "duplicate: each of 1 deals played once per seating" in shown
    assert "greedy: of 1 deals won on every seating" in shown


@pytest.mark.slow  # whole games (subprocesses, workers, Ray)
def test_the_command_refuses_games_that_are_not_a_multiple_of_the_players() -> None:
    done = _simulate(
        "--players", "greedy,random", "--games", "5", "--duplicate", "--quiet", "--workers", "1"
    )
    assert done.returncode == 2
    assert "--games must be a multiple of the number of players (2), not 5" in done.stderr
    assert "Traceback" not in done.stderr
    plain = _simulate(
        "--players", "greedy,random", "--games", "1", "--json", "--quiet", "--workers", "1"
    )
    assert plain.returncode == 0 and json.loads(plain.stdout)["duplicate"] is False
