"""Reinforcement-learning environments for 10 Days (``pip install -e ".[rl]"`` from a clone).

Two environments over the same encoding (full page: ``docs/rl.md``):

* **PettingZoo AEC** -- ``tendays.rl.env(edition="usa", players=3)``: agents ``player_0`` ..
  ``player_{n-1}``; the agent to move is ``agent_selection`` (during a turn the same agent acts
  twice: draw, then place). Observations are ``{"observation": float32[N], "action_mask":
  int8[A]}``. The game is turn-based, so there is no parallel version (``parallel_api_test`` does
  not apply).
* **Gymnasium** -- ``gymnasium.make("tendays/TenDays-v0", edition="usa", players=2,
  opponents="random", days=10, seed=None)``: the agent in seat 0 against bots named as for
  ``tendays.bots.make_bot``; the mask is in ``info["action_mask"]`` and
  ``env.unwrapped.action_masks()``.

Actions: one ``Discrete(A)``, ``A = 4D + 7 + D(D-1)/2`` for ``D`` days (92 for 10 days): draft day d
(``d-1``), draw (``D``), take pile p (``D+p``), replace day d onto pile p (``D+4+3(d-1)+(p-1)``),
discard onto pile p (``4D+3+p``), then swap pairs (masked unless the swap variant is on). See
:class:`tendays.engine.ActionCodec` (also importable as ``tendays.rl.ActionCodec``).

Observation: a float32 vector in [-1, 1] encoded only from ``tendays.engine.view(state, player)``:
phase, seat to move, progress, own rack (one-hot per day), which days are empty and which gaps are
sound, the held tile with its source and the progress change of putting it on each day, discard-pile
tops, contents and sizes, draw-pile size, unseen tile counts, and per opponent the tiles known from
the public history. Layout: :class:`tendays.rl.ObservationEncoder` (``.blocks``); 2,745 values for
USA, 10 days. The vector and pgx envs observe in the batched engine's forms instead;
:func:`tendays.rl.batched_observation` makes that row from a scalar view (``PlayerView``), so a
policy trained on them plays through the AEC env or the engine protocol.

Rewards: +1 to the winner, -1 to the others, 0 to all if the turn limit ends the game (``Rewards``
makes them configurable); an illegal action ends the episode with -1. Episodes end at the turn limit
(default 100 turns per player) as a *truncation*. The Gymnasium env can add ``shaping`` x the change
of the rack's satisfied journey conditions.

Example::

    import gymnasium as gym
    import numpy as np
    import tendays.rl  # registers tendays/TenDays-v0

    env = gym.make("tendays/TenDays-v0", players=2, opponents="random")
    obs, info = env.reset(seed=7)
    done = False
    while not done:
        action = env.action_space.sample(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
"""

import gymnasium

from tendays.bots.batched_view import batched_observation
from tendays.engine import ActionCodec

from .aec import TenDaysAECEnv, env, raw_env
from .common import DEFAULT_TURNS_PER_PLAYER, Rewards
from .gym_env import TenDaysEnv
from .observation import Block, ObservationEncoder
from .progress import RackProgress

__all__ = [
    "DEFAULT_TURNS_PER_PLAYER",
    "GYM_ID",
    "ActionCodec",
    "Block",
    "ObservationEncoder",
    "RackProgress",
    "Rewards",
    "TenDaysAECEnv",
    "TenDaysEnv",
    "batched_observation",
    "env",
    "make_pgx_env",
    "raw_env",
]

GYM_ID = "tendays/TenDays-v0"


def make_pgx_env(edition: str = "usa", **options: object) -> object:
    """A pgx environment of 10 Days (:func:`tendays.rl.pgx_env.make_pgx_env`;
    needs the ``pgx`` extra)."""
    from .pgx_env import make_pgx_env as make

    return make(edition, **options)


if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="tendays.rl.gym_env:TenDaysEnv")
