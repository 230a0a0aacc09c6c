"""Seeded random games of the batched engine whose observations pin down ``BatchEnv.observe``
exactly.

Policies are trained on this observation, so its layout and values may not change: the digest of
every observation below was recorded once (``observe_digests.json``) and must stay the same.

    python tests/batch/observe_cases.py     # print the digests of the current code
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import jax
import numpy as np

from tendays.batch import BatchEnv, BatchState, random_actions
from tendays.engine import Options

DIGESTS = Path(__file__).with_name("observe_digests.json")

CASES: dict[str, tuple[str, Options]] = {
    "usa-2p-10d": ("usa", Options(players=2, days=10, turn_limit=40)),
    "germany-3p-5d-swap": ("germany", Options(players=3, days=5, swap=True, turn_limit=30)),
    "usa-4p-3d-open": ("usa", Options(players=4, days=3, open_hands=True, turn_limit=20)),
    "germany-1p-10d": ("germany", Options(players=1, days=10, turn_limit=25)),
}
GAMES, STEPS, EVERY = 48, 90, 6


def observed_states(name: str) -> Iterator[tuple[BatchEnv, BatchState]]:
    """The env of case ``name`` and its states every ``EVERY`` steps of seeded random play
    (auto-reset on)."""
    edition, options = CASES[name]
    env = BatchEnv(edition, options, auto_reset=True)
    state = env.init(jax.random.split(jax.random.key(len(name)), GAMES))
    key = jax.random.key(7)
    for step in range(STEPS):
        if step % EVERY == 0:
            yield env, state
        key, draw = jax.random.split(key)
        state = env.step(state, random_actions(draw, env.legal_action_mask(state)))


def observations(env: BatchEnv, state: BatchState) -> Iterator[np.ndarray]:
    """The observation of every seat, and of the seat to move, in ``state``."""
    for seat in range(env.options.players):
        yield np.asarray(env.observe(state, seat))
    yield np.asarray(env.observe(state, state.current))


def digest(name: str) -> str:
    """sha256 of every observation of case ``name``, in order."""
    hasher = hashlib.sha256()
    for env, state in observed_states(name):
        for obs in observations(env, state):
            assert obs.dtype == np.float32
            hasher.update(obs.tobytes())
    return hasher.hexdigest()


if __name__ == "__main__":
    print(json.dumps({name: digest(name) for name in CASES}, indent=1))
