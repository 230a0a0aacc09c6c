"""The one encoder from a scalar view to the batched observation gives exactly the batched
engine's rows, in every form, on seeded positions of both editions (drafts, turns, endings; open
hands, swaps, 2 to 4 players)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("jax")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from tendays.batch import Config, forms, from_scalar  # noqa: E402
from tendays.bots import GreedyBot, RandomBot  # noqa: E402
from tendays.bots.batched_view import FORMS, batched_observation  # noqa: E402
from tendays.engine import Game, Options, Phase, load_edition, next_decision, view  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine

CASES = [
    ("usa", Options(players=2, days=10, turn_limit=300)),
    ("germany", Options(players=2, days=10, turn_limit=60)),
    ("usa", Options(players=3, days=6, swap=True)),
    ("germany", Options(players=4, days=5, open_hands=True, turn_limit=80)),
]


def _states(edition_id: str, options: Options, games: int, seed: int) -> list:
    """States along seeded games of random and greedy players, about a third of the decisions
    and every ending."""
    edition = load_edition(edition_id)
    rng = random.Random(seed)
    states = []
    for index in range(games):
        game = Game(edition, options, rng.getrandbits(32))
        bots = [
            GreedyBot() if (seat + index) % 2 else RandomBot() for seat in range(options.players)
        ]
        while (decision := next_decision(game)) is not None:
            if rng.random() < 0.3:
                states.append(game.state)
            game.play(bots[decision.seat].choose(decision.view, decision.rng), decision.seat)
        states.append(game.state)
    return states


@pytest.mark.parametrize(("edition_id", "options"), CASES, ids=lambda c: str(c))
def test_the_view_encoder_equals_the_batched_observation(edition_id: str, options: Options) -> None:
    states = _states(edition_id, options, games=4, seed=len(edition_id) * 7 + options.players)
    assert {s.phase for s in states} >= {Phase.DRAFT, Phase.PLACE, Phase.OVER}
    config = Config.of(edition_id, options)
    batch = from_scalar(config, states, jax.random.split(jax.random.key(0), len(states)))
    for seat in range(options.players):
        seats = jnp.full(len(states), seat, jnp.int32)
        for form in FORMS:
            batched = np.asarray(forms.observe_as(config, batch, seats, form))
            for i, state in enumerate(states):
                row = batched_observation(view(state, seat), form)
                assert row.dtype == batched.dtype, form
                if not np.array_equal(row, batched[i]):
                    wrong = np.flatnonzero(row != batched[i])
                    pytest.fail(f"{form}, state {i}, seat {seat}: positions {wrong[:8]} differ")


def test_a_spectator_view_and_an_unknown_form_are_refused() -> None:
    edition = load_edition("usa")
    state = Game(edition, Options(players=2), 1).state
    with pytest.raises(ValueError, match="player's view"):
        batched_observation(view(state, None))
    with pytest.raises(ValueError, match="form must be one of"):
        batched_observation(view(state, 0), "bytes")
