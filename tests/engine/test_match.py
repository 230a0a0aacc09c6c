"""The one turn loop: seeded decisions per seat and move, people and
computer players at one table."""

from __future__ import annotations

import random

import pytest

from tendays.engine import (
    Game,
    IllegalMoveError,
    Move,
    Options,
    PlayerView,
    decision_rng,
    next_decision,
    play_bots,
)


class FirstMove:
    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        return view.legal_moves()[0]


class RandomMove:
    """Records what it was shown, to check it saw only its own seat's view."""

    def __init__(self) -> None:
        self.seen: list[int | None] = []

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        self.seen.append(view.player)
        return rng.choice(view.legal_moves())


def test_bots_play_a_game_to_the_end_from_their_own_views() -> None:
    bots = [RandomMove(), RandomMove()]
    game = Game("usa", Options(turn_limit=60), 4)
    played: list[tuple[int, Move]] = []
    play_bots(game, bots, on_move=lambda seat, move: played.append((seat, move)))
    assert game.state.is_over and next_decision(game) is None
    assert [m for _, m in played] == list(game.moves)
    assert set(bots[0].seen) == {0} and set(bots[1].seen) == {1}


def test_a_game_with_bots_is_reproducible_from_its_record() -> None:
    def play() -> Game:
        game = Game("germany", Options(players=3, turn_limit=40), 9)
        play_bots(game, [RandomMove(), RandomMove(), RandomMove()])
        return game

    assert play().moves == play().moves
    assert (
        decision_rng(9, 1, 20).random()
        == decision_rng(9, 1, 20).random()
        != decision_rng(9, 1, 21).random()
    )


def test_the_loop_stops_when_a_person_is_to_move() -> None:
    game = Game("usa", Options(), 2)
    play_bots(game, [None, FirstMove()])
    decision = next_decision(game)
    assert decision is not None and decision.seat == 0 and decision.view.player == 0
    assert game.move_count == 0  # seat 0 drafts first
    game.play(decision.view.legal_moves()[0], 0)
    play_bots(game, [None, FirstMove()])
    assert game.move_count == 2 and next_decision(game).seat == 0  # type: ignore[union-attr]


def test_an_illegal_choice_leaves_the_game_unchanged() -> None:
    class Cheater:
        def choose(self, view: PlayerView, rng: random.Random) -> Move:
            return Move.draw()  # not a move of the draft

    game = Game("usa", Options(), 2)
    with pytest.raises(IllegalMoveError):
        play_bots(game, [Cheater(), Cheater()])
    assert game.move_count == 0
