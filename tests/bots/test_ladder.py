"""The difficulty ladder: the fallible bot, the levels in the registry,
and the learned opponent model."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tendays.bots import LEVELS, ExpertBot, GreedyBot, level_names, make_bot
from tendays.bots.distance import analyze
from tendays.bots.fallible import FallibleBot
from tendays.bots.opponent_model import FEATURES, OpponentModel, features
from tendays.bots.reading import table_facts
from tendays.engine import Game, MoveKind, Options, Phase, knowledge_of, next_decision


def game_after(turns: int, seed: int = 3, players: int = 2) -> Game:
    game = Game("usa", Options(players=players), seed)
    bots = [GreedyBot() for _ in range(players)]
    while game.state.phase is Phase.DRAFT or game.state.turn < turns:
        decision = next_decision(game)
        assert decision is not None
        game.play(bots[decision.seat].choose(decision.view, decision.rng), decision.seat)
    return game


def test_the_levels_run_from_beginner_to_hard_and_each_makes_a_bot() -> None:
    assert level_names() == ("beginner", "easy", "normal", "hard")
    for name, level in LEVELS.items():
        assert make_bot(name).name == make_bot(level.bot).name
    assert (
        isinstance(make_bot("beginner"), FallibleBot)
        and make_bot("beginner").miss > make_bot("easy").miss
    )
    with pytest.raises(ValueError, match="bad share of overlooked moves"):
        make_bot("fallible:often")
    with pytest.raises(ValueError, match="between 0 and 1"):
        make_bot("fallible:1.5")


def test_a_fallible_bot_that_never_misses_is_the_greedy_bot() -> None:
    game = Game("germany", Options(players=2, turn_limit=40), 5)
    fallible, greedy = FallibleBot(0.0), GreedyBot()
    compared = 0
    while (decision := next_decision(game)) is not None:
        seen = decision.view
        if len(seen.legal_moves()) > 1:
            rng_a, rng_b = random.Random(1), random.Random(1)
            rng_b.random()  # the die the fallible bot draws first
            assert fallible.choose(seen, rng_a) == greedy.choose(seen, rng_b)
            compared += 1
        game.play(greedy.choose(seen, decision.rng), decision.seat)
    assert compared > 20


def test_a_fallible_bot_never_makes_its_journey_longer() -> None:
    game = Game("usa", Options(players=2, turn_limit=60), 9)
    bot = FallibleBot(1.0)
    kinds: Counter[str] = Counter()
    while (decision := next_decision(game)) is not None:
        seen = decision.view
        move = bot.choose(seen, decision.rng)
        if seen.phase is Phase.PLACE and move.kind is MoveKind.REPLACE:
            assert seen.rack is not None and seen.in_hand is not None
            after = seen.rack[: move.day - 1] + (seen.in_hand,) + seen.rack[move.day :]
            assert (
                analyze(seen.edition, after).distance <= analyze(seen.edition, seen.rack).distance
            )
        kinds[move.kind.value] += 1
        game.play(move, decision.seat)
    assert kinds["replace"] and kinds["discard"] and kinds["draw"]


def test_the_opponent_model_reads_only_the_view() -> None:
    game = game_after(12)
    me = game.state.current
    seen = next_decision(game).view  # type: ignore[union-attr]
    knowledge = knowledge_of(seen)
    rows = features(seen.edition, knowledge, table_facts(seen), 1 - me, seen.turn)
    assert rows and all(len(row) == len(FEATURES) for row in rows.values())
    assert set(rows) == {t for t, n in enumerate(knowledge.unseen_counts) if n}
    chances = OpponentModel.shipped().chances(seen, knowledge)
    assert set(chances) == {1 - me}
    assert all(0.0 <= c <= 1.0 for c in chances[1 - me])
    assert all(chances[1 - me][t] == 0.0 for t, n in enumerate(knowledge.unseen_counts) if not n)


def test_passing_over_a_tile_makes_it_less_likely_to_be_kept() -> None:
    model = OpponentModel.shipped()
    row = [1.0] * len(FEATURES)
    passed = list(row)
    passed[FEATURES.index("passed")] = 1.0
    row[FEATURES.index("passed")] = 0.0
    score = [sum(w * x for w, x in zip(model.weights, r, strict=True)) for r in (row, passed)]
    assert score[1] < score[0]


def test_weighted_worlds_favour_heavy_tiles_and_agree_with_the_view() -> None:
    game = game_after(6)
    seen = next_decision(game).view  # type: ignore[union-attr]
    knowledge = knowledge_of(seen)
    other = 1 - seen.player  # type: ignore[operator]
    heavy = next(t for t, n in enumerate(knowledge.unseen_counts) if n)
    weights = {other: tuple(1000.0 if t == heavy else 1.0 for t in range(len(seen.edition.tiles)))}
    rng = random.Random(2)
    hits = 0
    for _ in range(50):
        world = knowledge.deal(seen, rng, weights)
        assert world.racks[seen.player] == seen.rack and world.piles == seen.piles  # type: ignore[index]
        assert len(world.draw_pile) == seen.draw_pile_size
        hits += heavy in world.racks[other]
    assert hits >= 45


def test_the_modelled_expert_plays_legal_moves() -> None:
    game = game_after(4)
    decision = next_decision(game)
    assert decision is not None
    bot = make_bot("expert+model:16")
    assert isinstance(bot, ExpertBot) and bot.opponent_model is not None
    assert bot.choose(decision.view, decision.rng) in decision.view.legal_moves()
