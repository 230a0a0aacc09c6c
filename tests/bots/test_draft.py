"""The draft by sampled futures (the ``expert+draft`` bot), and the relaxed
distance it judges racks by."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tendays.bots import ExpertBot, GreedyBot, analyze, make_bot
from tendays.bots.distance import relaxed_distance
from tendays.bots.draft import draft_move, finish_draft
from tendays.bots.greedy import TileOdds
from tendays.engine import Options, Phase, apply, knowledge_of, load_edition, new_game, view


def test_relaxed_distance_matches_the_analysis_lower_bound() -> None:
    edition = load_edition("usa")
    rng = random.Random(4)
    tiles = [t.index for t in edition.tiles]
    for _ in range(60):
        rack = tuple(rng.choice(tiles) if rng.random() < 0.8 else None for _ in range(10))
        analysis = analyze(edition, rack)
        assert relaxed_distance(edition, rack) == analysis.relaxed <= analysis.distance


def test_finish_draft_fills_the_empty_days_with_the_tiles_to_come() -> None:
    edition = load_edition("usa")
    state = new_game(edition, Options(players=1), 9)
    rack = state.racks[0]
    assert all(t is None for t in rack)
    start = (state.draw_pile[0],) + rack[1:]
    to_come = state.draw_pile[1:10]
    odds = TileOdds.build(
        [t.count for t in edition.tiles],
        [0] * len(edition.tiles),
        [0] * len(edition.tiles),
        [0] * len(edition.tiles),
        50,
    )
    final = finish_draft(edition, start, to_come, odds)
    assert final[0] == start[0]
    assert None not in final
    assert Counter(final) == Counter((start[0], *to_come))


@pytest.mark.slow  # bots thinking through whole games
def test_draft_move_is_legal_deterministic_and_greedy_without_work() -> None:
    edition = load_edition("usa")
    state = new_game(edition, Options(players=2), 17)
    greedy = GreedyBot()
    for _ in range(8):
        v = view(state, state.current)
        moves = v.legal_moves()
        assert v.rack is not None and v.in_hand is not None
        knowledge = knowledge_of(v)
        odds = TileOdds.from_knowledge(knowledge, v.draw_pile_size)
        first = draft_move(
            edition, v.rack, v.in_hand, moves, knowledge, odds, random.Random(3), 200
        )
        assert first in moves
        assert first == draft_move(
            edition, v.rack, v.in_hand, moves, knowledge, odds, random.Random(3), 200
        )
        without = draft_move(
            edition, v.rack, v.in_hand, moves, knowledge, odds, random.Random(3), 0
        )
        greedy_day = greedy.choose(v, random.Random(3))
        assert (
            analyze(edition, _placed(v.rack, without.day, v.in_hand)).distance
            == analyze(edition, _placed(v.rack, greedy_day.day, v.in_hand)).distance
        )
        state = apply(state, first)


def _placed(rack: tuple[int | None, ...], day: int, tile: int) -> tuple[int | None, ...]:
    return rack[: day - 1] + (tile,) + rack[day:]


@pytest.mark.slow  # bots thinking through whole games
def test_the_drafting_expert_drafts_legally_and_reproducibly_within_any_budget() -> None:
    edition = load_edition("germany")
    state = new_game(edition, Options(players=2), 5)
    drafting = make_bot("expert+draft:16")
    assert isinstance(drafting, ExpertBot) and drafting.draft_search and drafting.iterations == 16
    for _ in range(6):
        v = view(state, state.current)
        for bot in (drafting, ExpertBot(iterations=None, think=0.05, draft_search=True)):
            move = bot.choose(v, random.Random(2))
            assert move in v.legal_moves()
            assert move == bot.choose(v, random.Random(2))
        state = apply(state, move)


def test_the_plain_expert_drafts_like_greedy() -> None:
    state = new_game(load_edition("usa"), Options(players=2), 11)
    expert, greedy = make_bot("expert+learned"), GreedyBot()
    assert isinstance(expert, ExpertBot) and not expert.draft_search
    while state.phase is Phase.DRAFT:
        v = view(state, state.current)
        move = expert.choose(v, random.Random(state.turn))
        assert move == greedy.choose(v, random.Random(state.turn))
        state = apply(state, move)
