"""The bots: make_bot, hints, the greedy and expert bots, what a player knows, views as JSON."""

from __future__ import annotations

import random
import re

import pytest

from tendays.bots import (
    Bot,
    ExpertBot,
    GreedyBot,
    RandomBot,
    analyze,
    bot_names,
    hint,
    make_bot,
)
from tendays.bots.engine_client import EngineBot
from tendays.bots.fallible import FallibleBot
from tendays.bots.race import RaceBot
from tendays.engine import (
    EventKind,
    Game,
    Move,
    MoveKind,
    Options,
    Phase,
    State,
    apply,
    knowledge_of,
    load_edition,
    new_game,
    play_bots,
    view,
)
from tendays.engine.wire import view_from_json, view_to_json


def play(
    edition_id: str, bots: list[Bot], seed: int, turn_limit: int = 300, **options: object
) -> State:
    game = Game(edition_id, Options(players=len(bots), turn_limit=turn_limit, **options), seed)
    play_bots(game, bots)
    return game.state


def after_draft(edition_id: str, players: int, seed: int) -> State:
    state = new_game(load_edition(edition_id), Options(players=players), seed)
    bot, rng = GreedyBot(), random.Random(seed)
    while state.phase is Phase.DRAFT:
        state = apply(state, bot.choose(view(state, state.current), rng))
    return state


# -- make_bot ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "kind"),
    [
        ("random", RandomBot),
        ("beginner", FallibleBot),
        ("easy", FallibleBot),
        ("greedy", GreedyBot),
        ("normal", GreedyBot),
        ("expert", ExpertBot),
        ("hard", RaceBot),
        ("race", RaceBot),
        ("Expert", ExpertBot),
    ],
)
def test_make_bot_names_and_difficulties(spec: str, kind: type) -> None:
    bot = make_bot(spec)
    assert isinstance(bot, kind)
    assert isinstance(bot, Bot)


def test_bot_names_all_make_bots() -> None:
    assert {"random", "greedy", "expert", "easy", "normal", "hard"} <= set(bot_names())
    for name in bot_names():
        make_bot(name)


def test_make_bot_budgets_and_engines() -> None:
    by_rollouts = make_bot("expert:12")
    assert (
        isinstance(by_rollouts, ExpertBot)
        and by_rollouts.iterations == 12
        and by_rollouts.think is None
    )
    by_time = make_bot("expert:0.25s")
    assert isinstance(by_time, ExpertBot) and by_time.think == 0.25
    engine = make_bot("cmd:tendays engine --bot greedy")
    assert isinstance(engine, EngineBot) and engine.argv == ["tendays", "engine", "--bot", "greedy"]


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (
            "genius",
            "choose one of: beginner, easy, normal, hard, random, greedy, fallible, fallible:MISS",
        ),
        ("", "choose one of"),
        ("greedy:3", "the greedy bot takes no budget"),
        (
            "expert:lots",
            "give rollouts per decision (expert:48) or seconds per decision (expert:0.5s)",
        ),
        ("expert:-1", "the number of rollouts must not be negative"),
        ("cmd:", "cmd: needs a command line"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        make_bot(spec)


# -- hints -------------------------------------------------------------------------------------


def test_hint_names_the_days_to_change() -> None:
    state = after_draft("usa", 2, 3)
    for player in range(2):
        h = hint(view(state, player))
        analysis = analyze(state.edition, state.racks[player])
        assert h.distance == analysis.distance == len(h.days)
        assert h.days == analysis.days_to_change
        days = (
            ", ".join(map(str, h.days[:-1])) + f" and {h.days[-1]}"
            if len(h.days) > 1
            else str(h.days[0])
        )
        noun = "1 tile" if h.distance == 1 else f"{h.distance} tiles"
        assert (
            h.message
            == f"{noun} from a complete journey: change day{'s' * (len(h.days) > 1)} {days}"
        )


def test_hint_during_the_draft_and_when_complete() -> None:
    edition = load_edition("usa")
    state = new_game(edition, Options(players=2), 1)
    h = hint(view(state, 0))
    assert h.distance == 10 and h.message.startswith(
        "10 tiles from a complete journey: fill days 1, 2"
    )
    rack = tuple(
        edition.tile(t).index for t in ["WA", "OR", "CA", "AZ", "NM", "TX", "OK", "KS", "NE", "SD"]
    )
    done = view(state, 0)
    done = type(done)(**{**{f: getattr(done, f) for f in done.__dataclass_fields__}, "rack": rack})
    assert hint(done).distance == 0 and hint(done).message == "Your journey is complete."
    with pytest.raises(ValueError):
        hint(view(state, None))


# -- greedy ------------------------------------------------------------------------------------


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(12):
        bots: list[Bot] = (
            [GreedyBot(), RandomBot()] if seed % 2 == 0 else [RandomBot(), GreedyBot()]
        )
        state = play("usa" if seed < 6 else "germany", bots, seed)
        wins += state.winner == seed % 2
    assert wins >= 11


def test_greedy_always_finishes_solo() -> None:
    for seed in range(10):
        state = play("usa" if seed % 2 else "germany", [GreedyBot()], seed, turn_limit=200)
        assert state.winner == 0, seed
    state = play("usa", [GreedyBot()], 99, turn_limit=200, days=5)
    assert state.winner == 0


def test_greedy_plays_the_swap_variant() -> None:
    state = play("usa", [GreedyBot(), GreedyBot()], 4, swap=True)
    assert state.winner is not None


def test_greedy_takes_a_face_up_tile_that_shortens_the_journey() -> None:
    state = after_draft("usa", 2, 8)
    me = state.current
    analysis = analyze(state.edition, state.racks[me])
    day, out = next((d, outs[0]) for d, outs in enumerate(analysis.outs) if outs)
    # Put a helpful tile on top of pile 2 (moving it from wherever it was keeps the tile counts).
    piles = [list(p) for p in state.piles]
    draw = list(state.draw_pile)
    racks = [list(r) for r in state.racks]
    for place in [draw, *piles, *racks[1 - me : 2 - me]]:
        if out in place:
            place[place.index(out)] = piles[1][-1]
            break
    piles[1][-1] = out
    state = State(
        state.edition,
        state.options,
        state.seed,
        state.phase,
        me,
        tuple(map(tuple, racks)),
        tuple(draw),
        tuple(map(tuple, piles)),
        None,
        -1,
        state.turn,
        None,
        0,
        state.events,
    )
    move = GreedyBot().choose(view(state, me), random.Random(0))
    assert move == Move.take(2)
    state = apply(state, move)
    place = GreedyBot().choose(view(state, me), random.Random(0))
    assert place.kind is MoveKind.REPLACE
    assert analyze(state.edition, apply(state, place).racks[me]).distance < analysis.distance


# -- expert ------------------------------------------------------------------------------------


def test_expert_is_deterministic_given_its_rng_and_plays_legal_moves() -> None:
    state = after_draft("germany", 2, 21)
    for _ in range(6):
        if state.is_over:
            break
        v = view(state, state.current)
        first = ExpertBot(iterations=8).choose(v, random.Random(5))
        again = ExpertBot(iterations=8).choose(v, random.Random(5))
        assert first == again
        assert first in v.legal_moves()
        state = apply(state, first)


def test_expert_without_budget_plays_exactly_like_greedy() -> None:
    state = new_game(load_edition("usa"), Options(players=2), 13)
    zero, greedy = ExpertBot(iterations=0), GreedyBot()
    for _ in range(40):
        if state.is_over:
            break
        v = view(state, state.current)
        move = zero.choose(v, random.Random(state.turn))
        assert move == greedy.choose(v, random.Random(state.turn))
        state = apply(state, move)


def test_expert_finishes_games() -> None:
    state = play("usa", [ExpertBot(iterations=6), GreedyBot()], 2)
    assert state.winner is not None
    state = play("germany", [ExpertBot(iterations=6)], 3, turn_limit=200)
    assert state.winner == 0


def test_expert_with_a_time_budget() -> None:
    state = after_draft("usa", 2, 5)
    v = view(state, state.current)
    assert ExpertBot(iterations=None, think=0.05).choose(v, random.Random(1)) in v.legal_moves()


# -- knowledge ---------------------------------------------------------------------------------


def test_dealt_worlds_agree_with_the_view_and_keep_every_tile() -> None:
    rng = random.Random(7)
    bots: list[Bot] = [GreedyBot(), GreedyBot(), RandomBot()]
    state = new_game(load_edition("usa"), Options(players=3), 17)
    while not state.is_over and state.turn < 12:
        p = state.current
        v = view(state, p)
        knowledge = knowledge_of(v)
        world = knowledge.deal(v, rng)
        assert world.racks[p] == state.racks[p]
        assert world.piles == state.piles
        assert len(world.draw_pile) == len(state.draw_pile)
        tiles = sorted(
            [t for r in world.racks for t in r if t is not None]
            + list(world.draw_pile)
            + [t for pile in world.piles for t in pile]
            + ([world.in_hand] if world.in_hand is not None else [])
        )
        assert sorted(tiles) == sorted(state.edition.all_tiles())
        # What the viewer learned from the public history is right.
        for other in range(3):
            for day, tile in enumerate(knowledge.racks[other]):
                if tile is not None:
                    assert state.racks[other][day] == tile
        state = apply(state, bots[p].choose(v, rng))


def test_taken_tiles_are_tracked_into_other_racks() -> None:
    state = after_draft("usa", 2, 30)
    me, other = state.current, 1 - state.current
    state = apply(state, Move.take(1))
    taken = state.in_hand
    state = apply(state, Move.replace(4, 1))
    knowledge = knowledge_of(view(state, other))
    assert knowledge.racks[me][3] == taken
    assert taken not in knowledge.unseen or state.edition.tiles[taken].count > 1


# -- views as JSON -----------------------------------------------------------------------------


def test_views_survive_json() -> None:
    rng = random.Random(2)
    state = new_game(load_edition("germany"), Options(players=3, open_hands=True), 8)
    for _ in range(90):
        for p in (0, 1, 2, None):
            v = view(state, p)
            assert view_from_json(view_to_json(v)) == v
        state = apply(state, rng.choice(state.legal_moves()))
        if state.is_over:
            break


def test_bad_view_json_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        view_from_json({"edition": "usa"})


def test_a_view_with_an_unknown_event_kind_is_refused() -> None:
    state = new_game(load_edition("usa"), Options(players=2), 3)
    state = apply(state, state.legal_moves()[0])
    data = view_to_json(view(state, 0))
    assert (
        data["events"][0]["kind"] == "draft"
        and view_from_json(data).events[0].kind is EventKind.DRAFT
    )
    data["events"][0]["kind"] = "teleport"
    with pytest.raises(ValueError, match="unknown event kind 'teleport'"):
        view_from_json(data)
