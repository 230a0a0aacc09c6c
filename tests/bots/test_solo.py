"""The solo race's judge: one-day changes priced exactly, and a solo game played to its end."""

from __future__ import annotations

import random

import pytest

from tendays.bots.solo import SoftRack, solo_move
from tendays.engine import Game, Move, Options, load_edition, play_bots
from tendays.engine.view import PlayerView


def _rack_and_costs(seed: int) -> tuple[list[int | None], list[float]]:
    rng = random.Random(seed)
    edition = load_edition("usa")
    tiles = edition.all_tiles()
    rng.shuffle(tiles)
    costs = [rng.choice((1.0, 1.3, 1.8, 2.0, 3.5, 99.0)) for _ in edition.tiles]
    return list(tiles[:10]), costs


@pytest.mark.parametrize("seed", range(4))
def test_a_one_day_change_is_priced_as_the_changed_rack(seed: int) -> None:
    edition = load_edition("usa")
    rack, costs = _rack_and_costs(seed)
    soft = SoftRack(edition, rack, costs)
    rng = random.Random(seed)
    for _ in range(6):
        day, tile = rng.randrange(10), rng.randrange(len(edition.tiles))
        changed = list(rack)
        changed[day] = tile
        assert soft.with_tile(day, tile) == pytest.approx(
            SoftRack(edition, changed, costs).distance, abs=1e-9
        )


def test_a_complete_journey_is_softer_than_a_spoilt_one() -> None:
    edition = load_edition("usa")
    journey = [
        edition.tile(t).index for t in ("WA", "OR", "CA", "NV", "UT", "CO", "NE", "IA", "MO", "KY")
    ]
    costs = [1.5] * len(edition.tiles)
    spoilt = list(journey)
    spoilt[4] = edition.tile("FL").index
    assert SoftRack(edition, journey, costs).distance < SoftRack(edition, spoilt, costs).distance


class _Solo:
    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        move = solo_move(view, view.legal_moves())
        assert move in view.legal_moves()
        return move


def test_solo_play_finishes_a_journey() -> None:
    game = Game("usa", Options(players=1, turn_limit=300), 7000)
    play_bots(game, [_Solo()])
    assert game.state.winner == 0


def test_hard_alone_starts_from_the_solo_race() -> None:
    from tendays.bots import make_bot

    game = Game("usa", Options(players=1, turn_limit=3), 7001)
    hard_moves: list[object] = []
    play_bots(game, [make_bot("expert+learned:0")], lambda seat, move: hard_moves.append(move))
    solo = Game("usa", Options(players=1, turn_limit=3), 7001)
    solo_moves: list[object] = []
    play_bots(solo, [_Solo()], lambda seat, move: solo_moves.append(move))
    assert hard_moves == solo_moves
