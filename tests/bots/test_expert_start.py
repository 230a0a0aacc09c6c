"""The move the hard bot's search starts from: the learned bot's where it plays, else greedy's."""

import random

import pytest

pytest.importorskip("numpy")

from tendays.bots import GreedyBot, make_bot  # noqa: E402
from tendays.bots.expert import ExpertBot  # noqa: E402
from tendays.bots.learned import LearnedBot  # noqa: E402
from tendays.bots.race import RaceBot
from tendays.engine import Game, Options, Phase, PlayerView, load_edition, next_decision  # noqa: E402


def _views(edition: str, seed: int, days: int = 10, limit: int = 12) -> list[PlayerView]:
    """The first ``limit`` views of a greedy game's decisions after the draft that have a choice."""
    game = Game(load_edition(edition), Options(players=2, days=days, turn_limit=300), seed)
    greedy = GreedyBot()
    views: list[PlayerView] = []
    while (decision := next_decision(game)) is not None and len(views) < limit:
        view = decision.view
        if view.phase is not Phase.DRAFT and len(view.legal_moves()) > 1:
            views.append(view)
        game.play(greedy.choose(view, decision.rng), decision.seat)
    return views


def test_without_search_it_plays_the_learned_bots_move_where_greedy_would_draw() -> None:
    start, plain, learned = ExpertBot(0, learned_start=True), ExpertBot(0), LearnedBot()
    differ = 0
    for view in _views("usa", 0, limit=3)[1:]:
        expected = learned.choose(view, random.Random(5))
        assert start.choose(view, random.Random(5)) == expected
        differ += plain.choose(view, random.Random(5)) != expected
    assert differ  # the learned bot takes a face-up tile greedy passes over


@pytest.mark.parametrize(("edition", "days"), [("germany", 10), ("usa", 8)])
def test_games_the_learned_bot_does_not_play_start_from_greedys_move(
    edition: str, days: int
) -> None:
    start, plain = ExpertBot(0, learned_start=True), ExpertBot(0)
    for view in _views(edition, 1, days):
        assert start.choose(view, random.Random(2)) == plain.choose(view, random.Random(2))


def test_the_hard_level_plays_the_race_at_a_table_and_searches_alone() -> None:
    hard = make_bot("hard")
    assert isinstance(hard, RaceBot)
    alone = hard.alone
    assert isinstance(alone, ExpertBot) and alone.learned_start and alone.read_rivals


def test_one_bot_plays_a_usa_game_then_a_german_one() -> None:
    # The server keeps one bot per name in each thinking process, whatever the edition.
    bot, plain, learned = ExpertBot(0, learned_start=True), ExpertBot(0), LearnedBot()
    usa = _views("usa", 0, limit=3)[1]
    assert bot.choose(usa, random.Random(5)) == learned.choose(usa, random.Random(5))
    for view in _views("germany", 1, limit=4):
        assert bot.choose(view, random.Random(2)) == plain.choose(view, random.Random(2))


def test_the_draft_stays_greedys() -> None:
    start, plain = ExpertBot(0, learned_start=True), ExpertBot(0)
    game = Game(load_edition("usa"), Options(players=2, turn_limit=300), 3)
    while (decision := next_decision(game)) is not None and decision.view.phase is Phase.DRAFT:
        move = plain.choose(decision.view, random.Random(4))
        assert start.choose(decision.view, random.Random(4)) == move
        game.play(move, decision.seat)
