"""Reading the other players: the table's facts, plausible racks for them,
and the expert that uses both."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tendays.bots import ExpertBot, GreedyBot, make_bot
from tendays.bots.distance import analyze
from tendays.bots.reading import table_facts
from tendays.bots.rivals import distance_shares, plausible_days, sample_distance
from tendays.engine import (
    EventKind,
    Game,
    Options,
    Phase,
    knowledge_of,
    load_edition,
    next_decision,
    view,
)


def game_after(turns: int, seed: int, players: int = 2, edition: str = "usa") -> Game:
    game = Game(edition, Options(players=players), seed)
    bots = [GreedyBot() for _ in range(players)]
    while not game.state.is_over and (game.state.phase is Phase.DRAFT or game.state.turn < turns):
        decision = next_decision(game)
        assert decision is not None
        game.play(bots[decision.seat].choose(decision.view, decision.rng), decision.seat)
    return game


def test_the_facts_follow_each_players_replacements_and_what_they_turned_down() -> None:
    game = game_after(30, seed=4)
    seen = view(game.state, 0)
    facts = table_facts(seen)
    replaced = Counter(e.player for e in seen.events if e.kind is EventKind.REPLACE)
    assert facts.replaced == tuple(replaced[p] for p in range(2))
    taken = (
        sum(1 for e in seen.events if e.kind is EventKind.TAKE and e.player == p) for p in range(2)
    )
    assert facts.taken == tuple(taken)
    for p in range(2):
        own = [
            e
            for e in seen.events
            if e.player == p and e.kind in (EventKind.REPLACE, EventKind.DISCARD)
        ]
        last_replace = max(
            (i for i, e in enumerate(own) if e.kind is EventKind.REPLACE), default=-1
        )
        assert facts.since_change[p] == len(own) - 1 - last_replace
        # every tile thrown away since the rack last changed is one the player turned down
        assert {e.tile for e in own[last_replace + 1 :]} <= facts.passed_now[p]
    # the facts are the same from either seat: they come from the public history only
    assert table_facts(view(game.state, 1)) == facts


def test_a_tile_turned_down_never_brings_a_greedy_player_closer() -> None:
    checked = 0
    for seed in range(3):
        game = Game("usa", Options(players=2), seed)
        bot = GreedyBot()
        while (decision := next_decision(game)) is not None:
            if decision.view.phase is Phase.DRAW:
                facts = table_facts(decision.view)
                for p in range(2):
                    outs = {
                        t
                        for day in analyze(game.state.edition, game.state.racks[p]).outs
                        for t in day
                    }
                    assert not outs & facts.passed_now[p]
                    checked += len(facts.passed_now[p])
            game.play(bot.choose(decision.view, decision.rng), decision.seat)
    assert checked > 50


def test_plausible_racks_are_made_of_unseen_tiles_around_the_known_days_and_as_far_as_asked() -> (
    None
):
    edition = load_edition("usa")
    rng = random.Random(5)
    hits = trials = 0
    for seed in range(8):
        game = game_after(20, seed=seed)
        if game.state.is_over:
            continue
        seen = view(game.state, 0)
        knowledge = knowledge_of(seen)
        facts = table_facts(seen)
        for distance in (1, 2, 3):
            days = plausible_days(edition, knowledge, facts, 1, distance, rng)
            assert days is not None
            hidden = {d for d, t in enumerate(knowledge.racks[1]) if t is None}
            assert set(days) == hidden
            assert not Counter(days.values()) - Counter(knowledge.unseen)
            rack = [days.get(d, t) for d, t in enumerate(knowledge.racks[1])]
            trials += 1
            hits += analyze(edition, rack).distance == distance
            state = knowledge.deal(seen, rng, preset={1: days})
            assert all(state.racks[1][d] == t for d, t in days.items())
            assert state.racks[0] == seen.rack and len(state.draw_pile) == seen.draw_pile_size
    assert hits >= trials * 0.8


def test_no_plausible_rack_while_days_are_empty_and_a_preset_tile_must_be_unseen() -> None:
    game = Game("usa", Options(players=2), 1)
    decision = next_decision(game)
    assert decision is not None
    knowledge = knowledge_of(decision.view)
    assert (
        plausible_days(
            game.state.edition, knowledge, table_facts(decision.view), 1, 1, random.Random(1)
        )
        is None
    )
    later = game_after(12, seed=2)
    seen = view(later.state, 0)
    mine = next(t for t in seen.rack if t is not None)
    hidden = next(d for d, t in enumerate(knowledge_of(seen).racks[1]) if t is None)
    if later.state.edition.tiles[mine].count == 1:
        with pytest.raises(ValueError):
            knowledge_of(seen).deal(seen, random.Random(1), preset={1: {hidden: mine}})


def test_the_distance_table_grows_surer_with_each_replaced_tile() -> None:
    for edition in ("usa", "germany"):
        rows = distance_shares(load_edition(edition))
        means = [sum((d + 1) * share for d, share in enumerate(row)) for row in rows]
        assert all(abs(sum(row) - 1.0) < 0.01 for row in rows)
        assert means[0] > 2.5 and means[-1] < 1.5 and means[0] > means[3] > means[-1]
    rng = random.Random(3)
    draws = Counter(sample_distance(((0.25, 0.75),), 9, rng) for _ in range(2000))
    assert set(draws) == {1, 2} and 0.68 < draws[2] / 2000 < 0.82


@pytest.mark.slow  # bots thinking through whole games
@pytest.mark.parametrize("players", [2, 3])
def test_the_expert_reading_its_rivals_plays_legal_moves_reproducibly(players: int) -> None:
    bot = make_bot("expert+rivals:24")
    assert isinstance(bot, ExpertBot) and bot.read_rivals
    game = game_after(8, seed=7, players=players)
    moves = 0
    while (decision := next_decision(game)) is not None and moves < 30:
        seen = decision.view
        move = bot.choose(seen, random.Random(moves))
        assert move in seen.legal_moves()
        assert bot.choose(seen, random.Random(moves)) == move
        game.play(move, decision.seat)
        moves += 1
