"""The vector env's compact observation: uint8 counts of the same blocks as the float32 shares; and
its indices observation, in its space and in agreement with the compact one."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("gymnasium")

from tendays.batch import indices  # noqa: E402
from tendays.rl.vector import TenDaysVectorEnv  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine

GAMES = 16


def _shares(env: TenDaysVectorEnv, compact: np.ndarray) -> np.ndarray:
    """The float32 observation worked out from the compact one, block by block."""
    config, blocks = env.game.config, env.game.observation_layout
    out = compact.astype(np.float32)
    copies = np.asarray(config.counts, np.float32)
    for name in ("pile_contents", "unseen"):
        block = blocks[name]
        width = block.stop - block.start
        out[:, block.start : block.stop] /= np.tile(copies, width // copies.size)
    for name in ("pile_size", "draw_size"):
        out[:, blocks[name].start : blocks[name].stop] /= config.box
    progress = blocks["progress"].start
    out[:, progress] = np.minimum(1.0, out[:, progress] / 255.0)
    start = blocks["opponents"].start
    for _slot in range(3):  # present, tiles in rack / days, then the known tiles
        out[:, start + 1] /= config.days
        start += 2 + config.days * config.tiles
    return out


@pytest.mark.slow
def test_compact_observation_matches_the_float32_one() -> None:
    wide = TenDaysVectorEnv(GAMES, days=3, turn_limit=255)
    small = TenDaysVectorEnv(GAMES, days=3, turn_limit=255, observation="compact")
    assert small.single_observation_space.dtype == np.uint8
    floats, info = wide.reset(seed=5)
    counts, _ = small.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(30):
        assert counts.dtype == np.uint8
        # progress is kept in 255ths; with a limit of 255 turns they are whole
        # turns, so the two agree exactly
        assert np.allclose(_shares(small, counts), floats, atol=1e-6)
        mask = info["action_mask"]
        # 0: ended
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
        floats, *_, info = wide.step(actions)
        counts, *_ = small.step(actions)


def test_an_unknown_observation_is_refused() -> None:
    with pytest.raises(ValueError, match="observation must be"):
        TenDaysVectorEnv(2, observation="float16")


def _rack_ids(env: TenDaysVectorEnv, compact: np.ndarray) -> np.ndarray:
    """The own rack's tile ids (tiles for an empty day) read from the compact one-hot rows."""
    t, d = env.game.config.tiles, env.game.config.days
    block = env.game.observation_layout["rack"]
    rows = compact[:, block.start : block.stop].reshape(len(compact), d, t)
    return np.where(rows.any(axis=2), rows.argmax(axis=2), t)


@pytest.mark.slow
def test_indices_observation_is_in_its_space_and_agrees_with_the_compact_one() -> None:
    ids_env = TenDaysVectorEnv(GAMES, days=3, turn_limit=40, observation="indices")
    small = TenDaysVectorEnv(GAMES, days=3, turn_limit=40, observation="compact")
    config = ids_env.game.config
    blocks = indices.layout(config)
    assert ids_env.single_observation_space.shape == (max(b.stop for b in blocks.values()),)
    ids, info = ids_env.reset(seed=5)
    counts, _ = small.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(30):
        assert ids.dtype == np.uint8 and ids in ids_env.observation_space
        rack = blocks["rack"]
        assert (ids[:, rack.start : rack.stop] == _rack_ids(small, counts)).all()
        draw = blocks["draw_size"].start
        assert (ids[:, draw] == counts[:, small.game.observation_layout["draw_size"].start]).all()
        mask = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
        ids, *_, info = ids_env.step(actions)
        counts, *_ = small.step(actions)
