"""The batched engine's parts: action numbering, the journey check, deals, automatic resets,
conversions, what an observation may show, and the random choice of legal actions."""

from __future__ import annotations

import random

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

from tendays.batch import (  # noqa: E402
    BatchEnv,
    BatchState,
    Config,
    choose_actions,
    from_scalar,
    game_of_scalar,
    games_of,
    indices,
)
from tendays.batch.rules import decode  # noqa: E402
from tendays.engine import Options, Phase, apply, checker_for, legal_moves, load_edition, new_game  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine

USA = load_edition("usa")
GERMANY = load_edition("germany")


@pytest.mark.parametrize("days", [2, 3, 5, 10, 17, 20])
def test_actions_decode_as_the_codec_numbers_them(days: int) -> None:
    config = Config.of(USA, Options(players=1, days=days))
    kind, day, day2, pile = map(
        np.asarray, jax.jit(lambda a: decode(config, a))(jnp.arange(config.actions))
    )
    assert (kind == config.action_kind).all() and (day == config.action_day).all()
    assert (day2 == config.action_day2).all() and (pile == config.action_pile).all()


@pytest.mark.parametrize("edition", [USA, GERMANY], ids=["usa", "germany"])
def test_journey_check_agrees_with_the_scalar_checker(edition) -> None:  # type: ignore[no-untyped-def]
    checker = checker_for(edition)
    rng = random.Random(edition.id)
    regions = [t.index for t in edition.tiles if t.is_region and checker.neighbors[t.index]]
    racks: list[list[int]] = []
    for days in (2, 3, 5, 10):
        # random walks over the map, some with a transport tile or a hole put in
        for _ in range(300):
            walk = [rng.choice(regions)]
            while len(walk) < days:
                walk.append(rng.choice(sorted(checker.neighbors[walk[-1]])))
            if rng.random() < 0.5:
                walk[rng.randrange(days)] = rng.randrange(len(edition.tiles))
            if rng.random() < 0.1:
                walk[rng.randrange(days)] = -1
            racks.append(walk)
        racks += [[rng.randrange(len(edition.tiles)) for _ in range(days)] for _ in range(300)]
    complete = 0
    for days in (2, 3, 5, 10):
        env_racks = [r for r in racks if len(r) == days]
        env = BatchEnv(edition, Options(players=1, days=days))
        got = np.asarray(env.is_complete(np.array(env_racks)))
        want = [checker.is_complete([None if t < 0 else t for t in r]) for r in env_racks]
        assert got.tolist() == want
        complete += sum(want)
    assert complete > 100


def test_deals_are_shuffled_boxes_reproducible_from_their_keys() -> None:
    options = Options(players=3, days=5)
    env = BatchEnv(GERMANY, options)
    keys = jax.random.split(jax.random.key(7), 64)
    state = env.init(keys)
    again = env.init(keys)
    box = sorted(GERMANY.all_tiles())
    orders = []
    for game in games_of(state):
        assert game["phase"] == Phase.DRAFT and game["current"] == 0 and game["turn"] == 0
        assert sorted([*game["draw_pile"], game["in_hand"]]) == box
        orders.append(game["draw_pile"])
    assert games_of(again) == games_of(state)
    assert len(set(orders)) == 64
    assert set(np.asarray(state.first).tolist()) == {0, 1, 2}
    fixed = BatchEnv(GERMANY, Options(players=3, days=5, first_seat=1)).init(keys)
    assert set(np.asarray(fixed.first).tolist()) == {1}


def test_automatic_reset_deals_a_finished_game_anew_and_reports_it() -> None:
    env = BatchEnv(USA, Options(players=1, days=2, turn_limit=4), auto_reset=True)
    state = env.init(jax.random.split(jax.random.key(3), 128))
    key = jax.random.key(4)
    results: list[int] = []
    for _ in range(40):
        key, sub = jax.random.split(key)
        mask = env.legal_action_mask(state)
        assert bool(mask.any(axis=1).all())  # a reset game can always go on
        state = env.step(state, env_random(sub, mask))
        ended = np.asarray(state.ended)
        for i in np.flatnonzero(ended):
            game = games_of(state, [int(i)])[0]
            assert game["phase"] == Phase.DRAFT and game["turn"] == 0 and game["reshuffles"] == 0
            assert all(t == -1 for rack in game["racks"] for t in rack)
            results.append(int(state.result[i]))
    assert 0 in results and -1 in results  # won journeys and games stopped by the turn limit


def env_random(key, mask):  # type: ignore[no-untyped-def]
    return choose_actions(mask, jax.random.uniform(key, mask.shape[:1]))


def test_scalar_states_convert_to_batch_games_and_back() -> None:
    options = Options(players=2, days=5, swap=True)
    rng = random.Random(5)
    states = []
    for seed in range(40):
        state = new_game(USA, options, seed)
        for _ in range(rng.randrange(0, 120)):
            if state.is_over:
                break
            state = apply(state, rng.choice(legal_moves(state)))
        states.append(state)
    env = BatchEnv(USA, options)
    batch = from_scalar(env.config, states, jax.random.split(jax.random.key(0), 40))
    assert games_of(batch) == [game_of_scalar(s) for s in states]
    assert {s.phase for s in states} >= {Phase.DRAFT, Phase.DRAW, Phase.PLACE}


def test_an_observation_hides_what_its_viewer_cannot_know() -> None:
    """Changing the draw-pile order, or trading an unseen tile of another rack with one of the draw
    pile, leaves every other seat's observation as it was, in the float32 and the indices form."""
    options = Options(players=3, days=5)
    env = BatchEnv(USA, options)
    rng = random.Random(2)
    states = []
    for seed in range(16):
        state = new_game(USA, options, seed)
        while state.phase is Phase.DRAFT or state.turn < 20:
            state = apply(state, rng.choice(legal_moves(state)))
        states.append(state)
    batch = from_scalar(env.config, states, jax.random.split(jax.random.key(0), 16))
    known = np.asarray(batch.known)
    draw = np.asarray(batch.draw).copy()
    racks = np.asarray(batch.racks).copy()
    for i, state in enumerate(states):
        size = len(state.draw_pile)
        draw[:size, i] = draw[:size, i][::-1]
        hidden = [d for d in range(5) if known[1, d, i] < 0]
        if hidden and size:
            racks[1, hidden[0], i], draw[0, i] = draw[0, i], racks[1, hidden[0], i]
    changed = batch.replace(draw=jnp.asarray(draw), racks=jnp.asarray(racks))

    def ids(state: BatchState, seat: int) -> np.ndarray:
        return np.asarray(indices.observe_indices(env.config, state, jnp.full(16, seat)))

    for seen in (lambda state, seat: np.asarray(env.observe(state, seat)), ids):
        for seat in (0, 2):
            assert np.array_equal(seen(batch, seat), seen(changed, seat))
        assert not np.array_equal(seen(batch, 1), seen(changed, 1))


def test_random_actions_are_legal_and_uniform() -> None:
    choose = jax.jit(choose_actions)
    rng = np.random.default_rng(0)
    mask = rng.random((2000, 92)) < 0.2
    mask[0] = False
    mask[1] = False
    mask[1, 91] = True
    uniform = rng.random(2000).astype(np.float32)
    uniform[2] = np.float32(1.0) - np.float32(2.0**-24)
    actions = np.asarray(choose(jnp.asarray(mask), jnp.asarray(uniform)))
    assert actions[0] == 0 and actions[1] == 91
    assert mask[np.arange(1, 2000), actions[1:]].all()
    one_row = np.zeros((60_000, 92), bool)
    one_row[:, [3, 40, 41, 90]] = True
    counts = np.bincount(
        np.asarray(choose(jnp.asarray(one_row), jnp.asarray(rng.random(60_000), jnp.float32))),
        minlength=92,
    )[[3, 40, 41, 90]]
    assert counts.sum() == 60_000 and counts.min() > 14_000
