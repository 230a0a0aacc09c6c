"""The pgx environment: pgx's own conformance harness for both editions,
the compact observation and the indices one."""

from __future__ import annotations

import typing

import pytest

pgx = pytest.importorskip("pgx")
jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402
from pgx._src import api_test  # noqa: E402

from tendays.batch import indices, observe  # noqa: E402
from tendays.engine import Options  # noqa: E402
from tendays.rl import make_pgx_env  # noqa: E402
from tendays.rl.pgx_env import ENV_ID  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine


def _act_randomly(rng: jax.Array, mask: jax.Array) -> jax.Array:
    return jax.random.categorical(rng, jnp.log(mask.astype(jnp.float32)), axis=-1)


@pytest.fixture
def harness(monkeypatch: pytest.MonkeyPatch) -> typing.Any:
    """pgx's api_test, able to run an environment from outside pgx under current JAX: its id check
    knows only pgx's own games, and its random player samples along axis 1 of a single game's mask
    (which JAX now refuses for pgx's own tic_tac_toe too)."""
    monkeypatch.setattr(
        api_test, "EnvId", typing.Literal[typing.get_args(api_test.EnvId) + (ENV_ID,)]
    )
    monkeypatch.setattr(api_test, "act_randomly", jax.jit(_act_randomly))
    return api_test.api_test


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["usa", "germany"])
def test_pgx_api_test_passes(harness: typing.Any, edition: str) -> None:
    env = make_pgx_env(edition, players=2, turn_limit=24)
    assert isinstance(env, pgx.Env)
    harness(env, num=1)


@pytest.mark.slow
def test_pgx_env_is_vmapped_and_compact() -> None:
    env = make_pgx_env("usa", players=3, turn_limit=12)
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    state = init(jax.random.split(jax.random.key(1), 8))
    assert state.observation.dtype == jnp.uint8 and state.observation.shape == (
        8,
        *env.observation_shape,
    )
    assert state.legal_action_mask.shape == (8, env.num_actions)
    key = jax.random.key(2)
    for _ in range(80):
        key, pick, chance = jax.random.split(key, 3)
        action = _act_randomly(pick, state.legal_action_mask)
        state = step(state, action, jax.random.split(chance, 8))
    assert bool(state.terminated.all())  # the turn limit ends every game
    # vmap calls the batched rules whole; one game alone goes through them as a
    # batch of one: the same game.
    fresh = init(jax.random.split(jax.random.key(3), 8))
    actions = _act_randomly(jax.random.key(4), fresh.legal_action_mask)
    keys = jax.random.split(jax.random.key(5), 8)
    together = step(fresh, actions, keys)
    one = jax.jit(env.step)
    for game in (0, 5):
        alone = one(
            jax.tree_util.tree_map(lambda x, i=game: x[i], fresh), actions[game], keys[game]
        )
        for name in ("observation", "legal_action_mask", "current_player", "rewards"):
            assert (getattr(alone, name) == getattr(together, name)[game]).all(), name
    # Same blocks as the float32 observation: each float is its compact
    # count over the block's whole.
    wide = make_pgx_env("usa", players=3, turn_limit=12, observation="float32")
    floats = jax.vmap(wide.observe)(state)
    blocks = observe.layout(env.config)
    for name in ("phase", "rack", "rack_empty", "held", "pile_top"):
        block = blocks[name]
        assert (
            floats[:, block.start : block.stop] == state.observation[:, block.start : block.stop]
        ).all()
    sizes = blocks["pile_size"]
    assert jnp.allclose(
        floats[:, sizes.start : sizes.stop] * env.config.box,
        state.observation[:, sizes.start : sizes.stop],
    )


def test_pgx_env_refuses_an_unknown_observation() -> None:
    with pytest.raises(ValueError, match="observation must be one of"):
        make_pgx_env("usa", observation="float64")


@pytest.mark.slow
def test_pgx_auto_reset_deals_a_new_game() -> None:
    """pgx's auto_reset calls init inside a cond that vmap batches: the env must run there too."""
    from pgx.experimental import auto_reset

    env = make_pgx_env("usa", players=2, days=3, turn_limit=2)
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(6), 4))
    key = jax.random.key(7)
    ended = jnp.zeros(4, bool)
    for _ in range(12):  # a 3-day draft and 2 turns: every game ends, and is dealt anew
        key, pick, chance = jax.random.split(key, 3)
        state = step(
            state, _act_randomly(pick, state.legal_action_mask), jax.random.split(chance, 4)
        )
        ended |= state.terminated
    assert bool(ended.all()) and int(state._step_count.max()) < 12


@pytest.mark.slow
def test_pgx_env_with_indices_observations() -> None:
    """The indices form, in play beside the compact form on the same games: its own shape and
    bounds, and the own rack's tile ids where the compact form has one-hot rows."""
    small = make_pgx_env("usa", players=2, days=4, turn_limit=12, observation="indices")
    wide = make_pgx_env("usa", players=2, days=4, turn_limit=12)
    bounds = indices.index_bounds(small.config)
    assert small.observation_shape == bounds.shape
    rack, one_hot = indices.layout(small.config)["rack"], observe.layout(wide.config)["rack"]
    tiles = small.config.tiles
    runs = []
    for env in (small, wide):
        init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
        state, key, seen = init(jax.random.split(jax.random.key(1), 8)), jax.random.key(2), []
        for _ in range(20):
            seen.append(state.observation)
            key, pick, chance = jax.random.split(key, 3)
            action = _act_randomly(pick, state.legal_action_mask)
            state = step(state, action, jax.random.split(chance, 8))
        runs.append(seen)
    for ids, compact in zip(*runs, strict=True):
        assert ids.dtype == jnp.uint8 and ids.shape == (8, *bounds.shape)
        assert (ids <= bounds).all()
        rows = compact[:, one_hot.start : one_hot.stop].reshape(8, 4, tiles)
        expected = jnp.where(rows.any(axis=2), rows.argmax(axis=2), tiles)
        assert (ids[:, rack.start : rack.stop] == expected).all()


def test_the_rules_come_as_options_or_as_the_rule_keywords() -> None:
    whole = make_pgx_env("usa", options=Options(players=3, days=4))
    spelled = make_pgx_env("usa", players=3, days=4)
    # no turn limit given: 100 turns per player, as the scalar environments
    expected = Options(players=3, days=4, turn_limit=300)
    assert whole.config.options == spelled.config.options == expected
    with pytest.raises(ValueError, match=r"rule options or the rule keywords \(players\)"):
        make_pgx_env("usa", options=Options(players=3), players=3)
