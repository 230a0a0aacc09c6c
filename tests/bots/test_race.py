"""The race bot: legal moves to the end of games, a completed journey first, the same move again."""

from __future__ import annotations

import random

import pytest

from tendays.bots import GreedyBot, make_bot
from tendays.bots.race import RaceBot
from tendays.engine import Game, Move, MoveKind, Options, PlayerView, checker_for, play_bots


class _Watched:
    """The race bot, checked at every decision: a legal move, the same from a fresh bot with
    other dice, and a completed journey whenever it can complete one."""

    name = "race"

    def __init__(self) -> None:
        self.bot = make_bot("race")
        self.completions = 0

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        move = self.bot.choose(view, rng)
        assert move in view.legal_moves()
        assert RaceBot().choose(view, random.Random(rng.random())) == move
        if _completes(view, move):
            self.completions += 1
        elif any(_completes(view, m) for m in view.legal_moves()):
            raise AssertionError(f"{move} passes over a move that completes the journey")
        return move


def _completes(view: PlayerView, move: Move) -> bool:
    if move.kind is not MoveKind.REPLACE or view.rack is None:
        return False
    rack = list(view.rack)
    rack[move.day - 1] = view.in_hand
    return None not in rack and checker_for(view.edition).is_complete(tuple(rack))


@pytest.mark.parametrize(
    ("edition", "players", "seed"), [("usa", 2, 11), ("usa", 2, 12), ("germany", 3, 13)]
)
def test_it_plays_legal_moves_to_the_end_and_completes_its_journey(
    edition: str, players: int, seed: int
) -> None:
    race = _Watched()
    game = Game(edition, Options(players=players, turn_limit=300), seed)
    play_bots(game, [race, *[GreedyBot() for _ in range(players - 1)]])
    assert game.state.is_over
    if game.state.winner == 0:
        assert race.completions == 1


def test_alone_it_finishes_a_journey() -> None:
    race = _Watched()
    game = Game("usa", Options(players=1, turn_limit=300), 7001)
    play_bots(game, [race])
    assert game.state.winner == 0 and race.completions == 1
