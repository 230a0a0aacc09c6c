"""The OpenSpiel game python_tendays: OpenSpiel's random simulation test,
the kept playthroughs, chance."""

from __future__ import annotations

from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from absl import flags  # noqa: E402
from open_spiel.python.algorithms import generate_playthrough  # noqa: E402

import tendays.rl.openspiel  # noqa: E402, F401

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
