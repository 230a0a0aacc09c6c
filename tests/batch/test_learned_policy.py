"""The learned bot's numpy side against the batched engine: the same observation, the same features,
the same network; and the PPO trainer on a tiny configuration."""

import random

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from tendays.batch import BatchEnv, Config, from_scalar  # noqa: E402
from tendays.bots import GreedyBot, RandomBot  # noqa: E402
from tendays.bots.distance import analyze, relaxed_distance  # noqa: E402
from tendays.bots.learned import (
    PolicySpec,
    encode,
    features,
    forward,
    head,
    init_params,
    journey_distances,
)  # noqa: E402
from tendays.engine import Game, Options, Phase, load_edition, next_decision, view  # noqa: E402
from tendays.training.ppo import PPO, Settings, journey_progress  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine

CASES = [
    ("usa", Options(players=2, days=10, turn_limit=300)),
    ("usa", Options(players=3, days=6, swap=True)),
    ("germany", Options(players=4, days=5, open_hands=True, turn_limit=80)),
]


def _states(edition_id: str, options: Options, games: int, seed: int) -> list:
    """States along games of random and greedy players (the draft, the
    turns, the end), every few moves."""
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


@pytest.mark.parametrize(("edition_id", "options"), CASES)
def test_numpy_observation_equals_the_batched_one(edition_id: str, options: Options) -> None:
    states = _states(edition_id, options, games=4, seed=len(edition_id) + options.players)
    env = BatchEnv(edition_id, options)
    spec = PolicySpec.of(env.edition, options)
    assert spec.observation_size == env.observation_size
    assert spec.blocks == {name: (b.start, b.stop) for name, b in env.observation_layout.items()}
    batch = from_scalar(env.config, states, jax.random.split(jax.random.key(0), len(states)))
    assert any(s.phase is Phase.DRAFT for s in states) and any(
        s.phase is Phase.OVER for s in states
    )
    for seat in range(options.players):
        batched = np.asarray(env.observe(batch, seat))
        for i, state in enumerate(states):
            np.testing.assert_allclose(
                encode(view(state, seat), spec),
                batched[i],
                rtol=1e-6,
                atol=1e-7,
                err_msg=f"state {i}",
            )  # XLA may divide by multiplying


def test_link_table_and_progress_are_the_engines() -> None:
    options = Options(players=2, days=10)
    config = Config.of("usa", options)
    spec = PolicySpec.of(config.edition, options)
    np.testing.assert_array_equal(spec.link, config.link_table)
    states = _states("usa", options, games=3, seed=5)
    # [days, N]
    racks = np.array([[-1 if t is None else t for t in s.racks[0]] for s in states], np.int32).T
    progress = np.asarray(journey_progress(config, jnp.asarray(racks)))
    complete = np.asarray(BatchEnv("usa", options).is_complete(racks.T))
    np.testing.assert_array_equal(progress == 1.0, complete)
    assert complete.any() and not complete.all()


def test_features_and_network_agree_in_numpy_and_jax() -> None:
    options = Options(players=2, days=10, turn_limit=300)
    env = BatchEnv("usa", options)
    spec = PolicySpec.of(env.edition, options)
    states = _states("usa", options, games=3, seed=9)
    batch = from_scalar(env.config, states, jax.random.split(jax.random.key(0), len(states)))
    obs = np.asarray(env.observe(batch, batch.current))
    mask = np.asarray(env.legal_action_mask(batch))
    inputs, gains, closer = features(spec, obs, np)
    inputs_j, gains_j, closer_j = features(spec, jnp.asarray(obs), jnp)
    np.testing.assert_allclose(inputs, np.asarray(inputs_j), atol=1e-6)
    np.testing.assert_allclose(gains, np.asarray(gains_j), atol=1e-6)
    np.testing.assert_array_equal(closer, np.asarray(closer_j))
    assert inputs.shape == (len(states), spec.input_size) and np.abs(gains).max() > 0
    assert closer.max() == 1 and set(np.unique(closer)) <= {-1, 0, 1}
    params = init_params(spec, 16, seed=3)
    logits, values = forward(spec, params, obs, mask, np)
    logits_j, values_j = forward(
        spec, jax.tree.map(jnp.asarray, params), jnp.asarray(obs), jnp.asarray(mask), jnp
    )
    np.testing.assert_allclose(logits, np.asarray(logits_j), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(values, np.asarray(values_j), rtol=1e-4, atol=1e-4)


def test_a_held_tiles_gain_is_the_change_of_journey_progress() -> None:
    """Brute force: put the held tile on each day and count the journey's conditions again."""
    options = Options(players=2, days=10, turn_limit=300)
    env = BatchEnv("usa", options)
    config, spec = env.config, PolicySpec.of(env.edition, options)
    states = [s for s in _states("usa", options, games=3, seed=2) if s.phase is Phase.PLACE][:20]
    batch = from_scalar(config, states, jax.random.split(jax.random.key(0), len(states)))
    obs = np.asarray(env.observe(batch, batch.current))
    inputs, _, _ = features(spec, obs, np)
    start = len(spec.keep) + spec.days * spec.tiles
    held_gain = inputs[:, start : start + spec.days] * 2
    for i, state in enumerate(states):
        rack = np.array([-1 if t is None else t for t in state.racks[state.current]], np.int32)
        racks = np.repeat(rack[:, None], spec.days + 1, axis=1)
        racks[np.arange(spec.days), np.arange(spec.days)] = state.in_hand
        progress = np.asarray(journey_progress(config, jnp.asarray(racks))) * spec.days
        np.testing.assert_allclose(held_gain[i], progress[:-1] - progress[-1], atol=1e-5)


def _racks(edition_id: str, days: int, count: int, seed: int) -> list[list[int | None]]:
    """Random racks (some days empty) and near-complete ones: a shortest completion with one or two
    days changed or emptied."""
    edition = load_edition(edition_id)
    rng = random.Random(seed)
    tiles = edition.tables.n
    racks: list[list[int | None]] = []
    for index in range(count):
        rack: list[int | None] = [
            rng.randrange(tiles) if rng.random() < 0.8 else None for _ in range(days)
        ]
        if index % 2:
            rack = list(analyze(edition, rack).completion)
            for day in rng.sample(range(days), rng.choice((1, 2))):
                rack[day] = rng.choice([None, rng.randrange(tiles)])
        racks.append(rack)
    return racks


@pytest.mark.parametrize(("edition_id", "days"), [("usa", 10), ("germany", 10), ("germany", 5)])
def test_journey_distances_are_the_relaxed_distances_of_the_greedy_bots_analysis(
    edition_id: str, days: int
) -> None:
    """The dynamic programme against ``tendays.bots.distance`` (which ignores tile counts the same
    way), for the rack itself and for every tile put on every day of some racks."""
    edition = load_edition(edition_id)
    spec = PolicySpec.of(edition, Options(players=2, days=days))
    racks = _racks(edition_id, days, 40, seed=days)
    rows = np.array([[spec.tiles if tile is None else tile for tile in rack] for rack in racks])
    distance, with_tile = journey_distances(spec, rows, np)
    assert list(distance) == [relaxed_distance(edition, rack) for rack in racks]
    assert min(distance) <= 1 < max(distance)
    rng = random.Random(days)
    for index in range(0, len(racks), 5):
        for day in range(days):
            for tile in rng.sample(range(spec.tiles), 12):
                changed = list(racks[index])
                changed[day] = tile
                assert with_tile[index, day, tile] == relaxed_distance(edition, changed), (
                    racks[index],
                    day,
                    tile,
                )
    distance_j, with_tile_j = journey_distances(spec, jnp.asarray(rows), jnp)
    np.testing.assert_array_equal(distance, np.asarray(distance_j))
    np.testing.assert_array_equal(with_tile, np.asarray(with_tile_j))


def test_the_trainer_runs_a_tiny_configuration() -> None:
    options = Options(players=2, days=4, turn_limit=40)
    env = BatchEnv("usa", options, auto_reset=True)
    spec = PolicySpec.of(env.edition, options)
    ppo = PPO(
        env,
        lambda p, prepared, m: head(p, prepared, m, jnp),
        Settings(games=8, steps=8, minibatches=2, epochs=1),
        prepare=lambda obs: features(spec, obs, jnp),
    )
    params = jax.tree.map(jnp.asarray, init_params(spec, 8, seed=0))
    carry = ppo.start(params, jax.random.key(0))
    carry, summary = ppo.iterate(carry)
    carry, summary = ppo.iterate(carry)
    assert np.isfinite(float(summary["policy_loss"])) and np.isfinite(float(summary["value_loss"]))
    changed = [
        not np.allclose(np.asarray(carry[0][k]), params[k])
        for k in ("w1", "wp", "gain_scale", "distance_scale")
    ]
    assert all(changed)
    result = ppo.evaluate(carry[0], jax.random.key(1), 8, 200)
    assert 0 <= int(result["won"]) + int(result["lost"]) <= 8
