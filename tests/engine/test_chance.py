"""The seeded streams keep the names every stored record and golden file was dealt with: a game's
deal, first seat and reshuffles, and a bot's dice, drawn as they always were."""

from __future__ import annotations

import random

from tendays.engine import Options, decision_rng, load_edition, new_game
from tendays.engine.chance import GameStream, Purpose, first_seat, game_stream, stream


def _same(one: random.Random, other: random.Random) -> bool:
    return [one.getrandbits(64) for _ in range(4)] == [other.getrandbits(64) for _ in range(4)]


def test_each_stream_is_seeded_by_its_name() -> None:
    assert _same(game_stream(7, GameStream.DEAL), random.Random("tendays/7/deal"))
    assert _same(game_stream(-3, GameStream.FIRST), random.Random("tendays/-3/first"))
    assert _same(game_stream(7, GameStream.RESHUFFLE, 2), random.Random("tendays/7/reshuffle/2"))
    assert _same(decision_rng(7, 1, 12), random.Random("tendays-bot/7/1/12"))
    assert _same(stream(Purpose.ANALYSIS, 7, 3), random.Random("tendays-analysis/7/3"))
    assert _same(stream(Purpose.NEXT_PUZZLE, "usa", 4), random.Random("tendays-next/usa/4"))
    assert _same(stream(Purpose.PUZZLES, "usa", 4), random.Random("tendays-puzzles/usa/4"))
    assert _same(stream(Purpose.SIMULATION, 9, 5), random.Random("tendays-sim/9/5"))
    assert _same(stream(Purpose.ENGINE_MATCH, 9, 20), random.Random("tendays-engine/9/20"))
    assert _same(stream(Purpose.CLONING, 9, 2, 30, 1), random.Random("tendays-clone/9/2/30/1"))
    assert _same(stream(Purpose.TRAINING, 9, 2), random.Random("tendays-train/9/2"))


def test_streams_of_other_names_differ() -> None:
    assert not _same(game_stream(7, GameStream.DEAL), game_stream(8, GameStream.DEAL))
    assert not _same(game_stream(7, GameStream.DEAL), game_stream(7, GameStream.FIRST))


def test_a_game_is_dealt_from_its_named_streams() -> None:
    edition = load_edition("usa")
    state = new_game(edition, Options(players=3), 41)
    tiles = edition.all_tiles()
    random.Random("tendays/41/deal").shuffle(tiles)
    assert (*state.draw_pile, state.in_hand) == tuple(tiles)
    assert first_seat(41, 3) == random.Random("tendays/41/first").randrange(3)
