"""The learned position value: its weights load, and it judges positions whose outcome is plain."""

import dataclasses
import random

import pytest

pytest.importorskip("numpy")

from tendays.bots import make_bot  # noqa: E402
from tendays.bots.distance import analyze  # noqa: E402
from tendays.bots.value import FEATURES, load, position_features, value_for  # noqa: E402
from tendays.engine import Options, Phase, State, apply, load_edition, new_game, view  # noqa: E402


def _first_turn(seed: int = 3) -> State:
    """A two-player USA game just after the draft, played by greedy."""
    state = new_game(load_edition("usa"), Options(players=2), seed)
    bot, rng = make_bot("greedy"), random.Random(seed)
    while state.phase is not Phase.DRAW:
        state = apply(state, bot.choose(view(state, state.current), rng))
    return state


def _one_short(state: State) -> tuple[tuple[int | None, ...], int]:
    """A rack one tile from a complete journey, and the tile that completes it."""
    journey = analyze(state.edition, state.racks[0]).completion
    for spoiler in range(len(state.edition.tiles)):
        if spoiler in journey:
            continue
        rack = (spoiler, *journey[1:])
        analysis = analyze(state.edition, rack)
        if analysis.distance == 1 and journey[0] in analysis.outs[0]:
            return rack, journey[0]
    raise AssertionError("no spoiler found")


def test_the_weights_load_and_fit_the_features() -> None:
    model = load()
    assert model is not None
    assert len(model.weights) == len(FEATURES)
    assert (model.edition, model.days, model.players) == ("usa", 10, 2)
    state = _first_turn()
    assert value_for(state) is model
    assert len(position_features(state, 0)) == len(FEATURES)
    three = new_game(load_edition("usa"), Options(players=3), 1)
    assert value_for(three) is None


def test_one_tile_short_with_it_on_a_pile_top_is_nearly_won() -> None:
    state = _first_turn()
    rack, missing = _one_short(state)
    far = state.racks[1]
    assert analyze(state.edition, far).distance >= 3
    near = dataclasses.replace(
        state,
        racks=(rack, far),
        piles=((missing,), *state.piles[1:]),
        current=0,
    )
    model = value_for(near)
    assert model is not None
    assert model(near, 0) > 0.85
    assert model(near, 1) < 0.15
    # the same race seen with the seats swapped: far from a journey against a rival about to finish
    swapped = dataclasses.replace(near, racks=(far, rack), current=1)
    assert model(swapped, 0) < 0.15


def test_closer_is_better_and_a_finished_game_is_certain() -> None:
    state = _first_turn()
    model = value_for(state)
    assert model is not None
    rack, missing = _one_short(state)
    buried = tuple(t for t in state.draw_pile if t != missing)
    closer = dataclasses.replace(state, racks=(rack, state.racks[1]), draw_pile=buried)
    assert model(closer, 0) > model(state, 0)
    over = dataclasses.replace(state, phase=Phase.OVER, winner=1)
    assert (model(over, 0), model(over, 1)) == (0.0, 1.0)


def test_the_search_with_the_value_plays_legal_moves_and_repeats_itself() -> None:
    state = _first_turn()
    bot = make_bot("expert+value:12")
    seen = view(state, state.current)
    first = bot.choose(seen, random.Random(5))
    assert first in seen.legal_moves()
    assert make_bot("expert+value:12").choose(seen, random.Random(5)) == first
