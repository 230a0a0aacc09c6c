"""The indices observation holds what the compact one holds: decoded back, value for value, in
random games (its hiding of what the viewer cannot know: tests/batch/test_batch_api.py)."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from tendays.batch import BatchEnv, indices, observe, random_actions  # noqa: E402
from tendays.engine import MAX_PLAYERS, Options  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine


def _one_hot(values: np.ndarray, width: int, none: int) -> np.ndarray:
    """[B, K * width] one-hot rows of ``values`` ([B, K]); ``none`` gives a row of zeros."""
    rows = (values[..., None] == np.arange(width)) & (values[..., None] != none)
    return rows.reshape(values.shape[0], -1).astype(np.uint8)


def _counts(tiles: np.ndarray, t: int) -> np.ndarray:
    """[B, t]: copies of each tile in each row of ``tiles`` ([B, K], ``t``: none)."""
    return (tiles[..., None] == np.arange(t)).sum(axis=1).astype(np.uint8)


def compact_of(env: BatchEnv, ids: np.ndarray) -> np.ndarray:
    """The compact observation worked out from the indices one (and the edition's tile counts)."""
    config = env.config
    t, d, players, games = config.tiles, config.days, config.players, len(ids)
    block = {name: ids[:, b.start : b.stop] for name, b in indices.layout(config).items()}
    piles = block["piles"].reshape(games, 3, config.pile_capacity)
    contents = np.stack([_counts(piles[:, p], t) for p in range(3)], axis=1)
    opponents = block["opponents"].reshape(games, players - 1, 1 + d)
    known = np.concatenate(
        [block["rack"], block["held"], opponents[:, :, 1:].reshape(games, -1)], 1
    )
    unseen = np.asarray(config.counts) - contents.sum(axis=1) - _counts(known, t)
    slots = []
    for slot in range(MAX_PLAYERS - 1):
        if slot < players - 1:
            present = np.ones((games, 1), np.uint8)
            slots += [present, opponents[:, slot, :1], _one_hot(opponents[:, slot, 1:], t, t)]
        else:
            slots.append(np.zeros((games, 2 + d * t), np.uint8))
    pieces = [
        _one_hot(block["phase"], 4, -1),
        _one_hot(block["to_move"], MAX_PLAYERS, -1),
        block["progress"],
        _one_hot(block["rack"], t, t),
        (block["rack"] == t).astype(np.uint8),
        _one_hot(block["held"], t, t),
        block["held_hidden"],
        _one_hot(block["held_source"].astype(np.int64) - 1, 4, -1),
        _one_hot(block["forced_pile"].astype(np.int64) - 1, 3, -1),
        _one_hot(block["pile_top"], t, t),
        contents.reshape(games, -1),
        block["pile_size"],
        block["draw_size"],
        unseen.astype(np.uint8),
        *slots,
    ]
    return np.concatenate(pieces, axis=1)


def _check_piles(env: BatchEnv, ids: np.ndarray) -> None:
    """Each pile holds its size in tiles, then none, and its last tile is its top."""
    t, capacity = env.config.tiles, env.config.pile_capacity
    block = {name: ids[:, b.start : b.stop] for name, b in indices.layout(env.config).items()}
    piles = block["piles"].reshape(len(ids), 3, capacity)
    filled = piles != t
    sizes = block["pile_size"].astype(np.int64)
    assert (filled == (np.arange(capacity) < sizes[..., None])).all()
    tops = np.take_along_axis(piles, np.maximum(sizes - 1, 0)[..., None], axis=2)[..., 0]
    assert (np.where(sizes > 0, tops, t) == block["pile_top"]).all()


@pytest.mark.parametrize(
    ("edition", "players", "open_hands"),
    [("usa", 2, False), ("germany", 2, True), ("usa", 4, False), ("germany", 4, False)],
)
def test_indices_decode_to_the_compact_observation(
    edition: str, players: int, open_hands: bool
) -> None:
    options = Options(players=players, days=5, open_hands=open_hands, turn_limit=60, swap=True)
    env = BatchEnv(edition, options, auto_reset=True)
    bounds = indices.index_bounds(env.config)

    @jax.jit
    def both(state, seats):  # type: ignore[no-untyped-def]
        return (
            observe.observe_batch(env.config, state, seats, compact=True),
            indices.observe_indices(env.config, state, seats),
        )

    state = env.init(jax.random.split(jax.random.key(players), 64))
    key = jax.random.key(7)
    phases = set()
    for step in range(120):
        key, choose, pick = jax.random.split(key, 3)
        if step % 6 == 0:
            seats = jax.random.randint(pick, (64,), 0, players)
            compact, ids = (np.asarray(x) for x in both(state, seats))
            assert ids.dtype == np.uint8 and ids.shape == (64, bounds.size)
            assert (ids <= bounds).all()
            np.testing.assert_array_equal(compact_of(env, ids), compact)
            _check_piles(env, ids)
            phases |= set(np.asarray(state.phase).tolist())
        state = env.step(state, random_actions(choose, env.legal_action_mask(state)))
    assert phases >= {0, 1, 2}
