"""The learned bot: legal moves from a player's view only, reproducible,
small, and named in the registry."""

import dataclasses
import random
from importlib import resources
from pathlib import Path

import pytest

pytest.importorskip("numpy")

import numpy as np  # noqa: E402

from tendays.bots import make_bot  # noqa: E402
from tendays.bots.learned import (
    POLICY_FILE,
    LearnedBot,
    PolicySpec,
    encode,
    load_policy,
    save_policy,
)  # noqa: E402
from tendays.engine import (
    Game,
    Options,
    Phase,
    knowledge_of,
    load_edition,
    next_decision,
    play_bots,
    view,
)  # noqa: E402

OPTIONS = Options(players=2, days=10, turn_limit=300)


def test_the_registry_names_it_and_the_weights_are_small() -> None:
    bot = make_bot("learned")
    assert isinstance(bot, LearnedBot) and bot.name == "learned"
    assert (bot.edition, bot.players, bot.days) == ("usa", 2, 10)
    with pytest.raises(ValueError, match="takes no budget"):
        make_bot("learned:5")
    size = resources.files("tendays.bots").joinpath(POLICY_FILE).stat().st_size  # type: ignore[attr-defined]
    assert size < 1_000_000


def test_weights_that_do_not_fit_are_refused_with_the_reason(tmp_path: Path) -> None:
    params, edition, players, days = load_policy()
    assert params["w1"].shape[0] == PolicySpec.of(load_edition(edition), OPTIONS).input_size
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a zip file")
    with pytest.raises(ValueError, match="is not a file of the learned bot's weights"):
        load_policy(str(garbage))
    with pytest.raises(ValueError, match="is not a file of the learned bot's weights"):
        load_policy(str(tmp_path / "missing.npz"))
    partial = tmp_path / "partial.npz"
    np.savez(partial, w1=params["w1"])
    with pytest.raises(ValueError, match="is not a file of the learned bot's weights"):
        load_policy(str(partial))
    earlier = tmp_path / "earlier.npz"  # a network of an earlier version, which read fewer inputs
    save_policy(earlier, {**params, "w1": params["w1"][:2174]}, edition, OPTIONS)
    with pytest.raises(ValueError, match="network for 2174 inputs .* gives it 2804 inputs"):
        load_policy(str(earlier))
    unknown = tmp_path / "unknown.npz"
    save_policy(unknown, params, "atlantis", OPTIONS)
    with pytest.raises(ValueError, match="cannot set up"):
        load_policy(str(unknown))


@pytest.mark.slow  # the learned bot: about 20 ms a move
def test_it_plays_whole_games_with_legal_moves() -> None:
    edition = load_edition("usa")
    for seed in range(2):
        game = Game(edition, OPTIONS, 100 + seed)
        players = [make_bot("learned"), make_bot("greedy")]
        play_bots(game, players if seed == 0 else players[::-1])  # an illegal move would raise
        assert game.state.is_over


@pytest.mark.slow  # the learned bot: about 20 ms a move
def test_it_plays_three_and_four_player_games_too() -> None:
    for players in (3, 4):
        game = Game(load_edition("usa"), Options(players=players, days=10, turn_limit=60), players)
        play_bots(
            game, [make_bot("learned"), make_bot("greedy"), *[make_bot("random")] * (players - 2)]
        )
        assert game.state.is_over


@pytest.mark.slow  # the learned bot: about 20 ms a move
def test_it_is_deterministic_given_its_seed() -> None:
    moves = []
    for _ in range(2):
        game = Game(load_edition("usa"), OPTIONS, 7)
        bot, played = make_bot("learned"), []
        while (decision := next_decision(game)) is not None and len(played) < 80:
            move = bot.choose(decision.view, random.Random(decision.seat * 1000 + len(played)))
            game.play(move, decision.seat)
            played.append(move)
        moves.append(played)
    assert moves[0] == moves[1]


def _hidden_elsewhere(state, player: int):  # type: ignore[no-untyped-def]
    """The state with the other player's unseen days and the draw pile dealt differently: what
    ``player`` cannot know changes, their view's public part does not."""
    other = 1 - player
    known = knowledge_of(view(state, player)).racks[other]
    rack = list(state.racks[other])
    hidden_days = [d for d, tile in enumerate(rack) if tile is not None and known[d] is None]
    pool = [rack[d] for d in hidden_days] + list(state.draw_pile)
    random.Random(len(pool)).shuffle(pool)
    for d in hidden_days:
        rack[d] = pool.pop()
    racks = tuple(tuple(rack) if seat == other else r for seat, r in enumerate(state.racks))
    return dataclasses.replace(state, racks=racks, draw_pile=tuple(pool)), hidden_days


@pytest.mark.slow  # the learned bot: about 20 ms a move
def test_it_reads_nothing_a_player_cannot_see() -> None:
    edition = load_edition("usa")
    spec = PolicySpec.of(edition, OPTIONS)
    bot = make_bot("learned")
    game = Game(edition, OPTIONS, 11)
    greedy = make_bot("greedy")
    changed = 0
    while (decision := next_decision(game)) is not None and game.state.turn < 16:
        state, seat = game.state, decision.seat
        if state.phase is not Phase.DRAFT:
            other, hidden_days = _hidden_elsewhere(state, seat)
            changed += other.racks != state.racks
            np.testing.assert_array_equal(
                encode(view(state, seat), spec), encode(view(other, seat), spec)
            )
            assert bot.choose(view(state, seat), random.Random(1)) == bot.choose(
                view(other, seat), random.Random(1)
            )
        game.play(greedy.choose(decision.view, decision.rng), seat)
    assert changed > 0


def test_other_games_get_a_clear_refusal() -> None:
    game = Game(load_edition("usa"), Options(players=2, days=6), 3)
    decision = next_decision(game)
    assert decision is not None
    with pytest.raises(ValueError, match="10 days"):
        make_bot("learned").choose(decision.view, decision.rng)


def test_front_ends_refuse_other_games_before_they_start() -> None:
    from tendays.bots import refusal
    from tendays.sim.tournament import Tournament

    assert refusal("learned", "usa", Options(players=2, days=10)) is None
    assert refusal("greedy", "germany", Options(players=2, days=6)) is None
    assert "germany edition" in (refusal("learned", "germany", Options(players=2, days=10)) or "")
    with pytest.raises(ValueError, match="games of 10 days with the usa edition"):
        Tournament(edition="usa", players=("learned", "greedy"), games=2, days=8).validate()
