"""The OpenSpiel game python_tendays: OpenSpiel's random simulation test,
the kept playthroughs, chance."""

from __future__ import annotations

from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from absl import flags  # noqa: E402
from open_spiel.python.algorithms import generate_playthrough  # noqa: E402

import tendays.rl.openspiel  # noqa: E402, F401

pytestmark = pytest.mark.slow  # imports OpenSpiel and JAX

PLAYTHROUGHS = sorted((Path(__file__).parent.parent / "data" / "openspiel").glob("*.txt"))


@pytest.mark.slow
@pytest.mark.parametrize(("edition", "players"), [("usa", 2), ("germany", 3)])
def test_random_sim_test_passes(edition: str, players: int) -> None:
    game = pyspiel.load_game(
        "python_tendays", {"edition": edition, "players": players, "turns": 12}
    )
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("path", PLAYTHROUGHS, ids=lambda path: path.name)
def test_playthrough_replays(path: Path) -> None:
    """tools/openspiel_playthrough.py wrote it; the game must still
    play it the same, line for line."""
    # the replay reads an absl flag (its default) that absltest would parse
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
    original, replayed = generate_playthrough.replay(str(path))
    assert replayed == original


def test_playthroughs_are_kept() -> None:
    assert [path.name for path in PLAYTHROUGHS] == [
        "python_tendays_germany.txt",
        "python_tendays_usa.txt",
    ]


def test_chance_deals_the_box_and_hides_the_drawn_tile() -> None:
    game = pyspiel.load_game("python_tendays", {"players": 2, "days": 2})
    state = game.new_initial_state()
    assert state.is_chance_node() and [seat for seat, _ in state.chance_outcomes()] == [0, 1]
    state.apply_action(1)
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    assert len(outcomes) == len(tendays.rl.openspiel._rules("usa", 2, 2, False, 100).edition.tiles)
    tile = outcomes[-1][0]
    state.apply_action(tile)
    assert state.current_player() == 0
    name = state.action_to_string(pyspiel.PlayerId.CHANCE, tile)
    assert f"hand {name}" in state.observation_string(0)
    assert "hand -" in state.observation_string(1)
    assert name not in state.information_state_string(1)


def test_unknown_edition_and_bad_turns_are_refused() -> None:
    with pytest.raises(Exception, match="turns must be at least 1"):
        pyspiel.load_game("python_tendays", {"turns": 0})


def _dealt(game: object, tiles: dict[str, list[int]]) -> object:
    """A 2-player, 2-day game played to the first turn's end: chance deals the listed tiles
    (``draft``: the four drafted tiles in draft order; ``open``: the three pile openers;
    ``draw``: the tile the first seat draws); each seat drafts day 1 then day 2; the first seat
    draws and replaces its day 1 onto pile 1, covering pile 1's opener."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    state.apply_action(0)  # the first seat
    for tile in tiles["draft"]:
        state.apply_action(tile)
        if state.is_chance_node():  # the last draft waits for the three pile openers
            for opener in tiles["open"]:
                state.apply_action(opener)
        state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 0 and "draw" in state.action_to_string(0, 2)
    state.apply_action(2)  # draw
    state.apply_action(tiles["draw"])
    replace = next(
        a for a in state.legal_actions() if state.action_to_string(0, a) == "replace 1 1"
    )
    state.apply_action(replace)
    assert state.current_player() == 1
    return state


DEAL = {"draft": [0, 1, 2, 3], "open": [4, 5, 6], "draw": 7}


def test_the_information_state_string_names_the_tiles_the_player_saw() -> None:
    """Two games that differ only in the tile that opened pile 1 (now covered): every seat saw it
    turned up, so their information sets differ and so must the strings."""
    game = pyspiel.load_game("python_tendays", {"players": 2, "days": 2})
    one = _dealt(game, DEAL)
    other = _dealt(game, {**DEAL, "open": [8, 5, 6]})
    assert one.observation_string(1) == other.observation_string(1)  # the opener is covered
    for seat in (0, 1):
        assert one.information_state_string(seat) != other.information_state_string(seat)


def test_the_information_state_string_ignores_the_tiles_the_player_never_saw() -> None:
    """Two games that differ only in seat 1's drafted tiles and seat 0's drawn tile: each seat's
    string differs where it saw the difference and is equal where it did not."""
    game = pyspiel.load_game("python_tendays", {"players": 2, "days": 2})
    one = _dealt(game, DEAL)
    drafted = _dealt(game, {**DEAL, "draft": [0, 9, 2, 10]})  # seat 1's two tiles
    drawn = _dealt(game, {**DEAL, "draw": 11})  # seat 0 drew another tile, now on its day 1
    assert one.information_state_string(0) == drafted.information_state_string(0)
    assert one.information_state_string(1) != drafted.information_state_string(1)
    assert one.information_state_string(1) == drawn.information_state_string(1)
    assert one.information_state_string(0) != drawn.information_state_string(0)


def test_the_game_declares_no_information_state_tensor() -> None:
    """The observation vector does not recall the past, so it is not offered as one."""
    game = pyspiel.load_game("python_tendays", {"players": 2, "days": 2})
    assert not game.get_type().provides_information_state_tensor
    assert game.get_type().provides_information_state_string
