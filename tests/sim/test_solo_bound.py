"""The clairvoyant solo bound: never slower than a bot on the same deal, and its plan is legal."""

from __future__ import annotations

import pytest

from tendays.bots import make_bot, registry
from tendays.engine import Game, Move, Options, Phase, load_edition, new_game, play_bots
from tendays.sim.solo_bound import after_draft_bound, replay, solo_bound, solo_plan

SEEDS = (7, 11, 2024)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_plan_replays_legally_and_finishes_in_the_bound(seed: int) -> None:
    state = new_game(load_edition("usa"), Options(players=1), seed)
    bound = solo_bound(state)
    end = replay(state, solo_plan(state))
    assert end.is_over and end.winner == 0
    assert end.turn == bound.turns


@pytest.mark.parametrize("seed", SEEDS)
def test_the_bound_is_no_slower_than_greedy(seed: int) -> None:
    state = new_game(load_edition("usa"), Options(players=1), seed)
    game = Game("usa", Options(players=1, turn_limit=300), seed)
    after: list[int] = []

    def on_move(seat: int, move: Move) -> None:
        if not after and game.state.phase is Phase.DRAW and game.state.turn == 0:
            after.append(after_draft_bound(game.state))

    play_bots(game, [make_bot("greedy")], on_move)
    assert game.state.winner == 0
    # the clairvoyant drafts too, so it is at least as fast as from greedy's drafted rack
    assert solo_bound(state).turns <= after[0] <= game.state.turn


def test_the_bound_is_no_player() -> None:
    names = {*registry.BOTS, *(level.name for level in registry.LEVELS.values())}
    assert not any("clairvoyant" in name or "solo_bound" in name for name in names)
    with pytest.raises(ValueError):
        make_bot("clairvoyant")


def test_only_a_solo_deal_has_a_bound() -> None:
    with pytest.raises(ValueError):
        solo_bound(new_game(load_edition("usa"), Options(players=2), 1))
