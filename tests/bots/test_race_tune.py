"""tools/race_tune.py: the sampled racks of the next player keep what is known of their rack, and a
variant with changed constants leaves them as they were."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from tendays.bots import GreedyBot, analyze, solo
from tendays.bots.reading import table_facts
from tendays.engine import Game, Options, knowledge_of, next_decision

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import race_tune  # noqa: E402


def test_sampled_racks_keep_the_known_days_and_their_distance() -> None:
    game = Game("usa", Options(players=2, turn_limit=300), 5)
    greedy = GreedyBot()
    for _ in range(36):  # the draft and a few turns after it
        decision = next_decision(game)
        assert decision is not None
        game.play(greedy.choose(decision.view, decision.rng), decision.seat)
    decision = next_decision(game)
    assert decision is not None
    view = decision.view
    knowledge, facts, rng = knowledge_of(view), table_facts(view), random.Random(3)
    rival = 1 - (view.player or 0)
    sampled = 0
    for distance in (1, 2, 2, 3):
        rack = race_tune._sample_rack(view.edition, knowledge, facts, rival, distance, rng)
        if rack is None:
            continue
        sampled += 1
        for day, known in enumerate(knowledge.racks[rival]):
            assert known is None or rack[day] == known
        assert analyze(view.edition, rack).distance == distance
    assert sampled
    odds = race_tune.rival_odds(view.edition, knowledge, facts, rival, rng, samples=4)
    assert all(0.0 <= f <= 1.0 for f in odds.finish + odds.closer)


def test_a_variant_with_other_constants_restores_them() -> None:
    bot = race_tune.build("race solo.T=0.5")
    before = solo.T
    game = Game("usa", Options(players=2, turn_limit=40), 6)
    decision = next_decision(game)
    assert decision is not None
    assert decision.view.legal_moves().count(bot.choose(decision.view, decision.rng)) == 1
    assert before == solo.T
