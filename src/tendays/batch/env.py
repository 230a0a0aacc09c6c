"""The batched game: pure, compiled functions over a :class:`BatchState` of many games at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

from tendays.engine import Edition, Options

from . import chance, observe, rules
from .config import Config
from .state import BatchState

__all__ = ["BatchEnv", "chance_chunk"]


def chance_chunk(batch: int) -> int:
    """How many games of a batch of ``batch`` the chance step shuffles or deals at a time."""
    # Games that need chance in one step: a few in a thousand in random play (more in the step where
    # games dealt together reach the turn limit together); chance.resolve
    # takes further chunks when needed.
    return max(1, min(batch, 8 + batch // 256))


class BatchEnv:
    """One edition and one set of options, played by many games side by side (pgx style).

    ``init``, ``step``, ``legal_action_mask``, ``observe`` and ``is_complete`` are pure,
    jit-compiled functions of arrays (they can be used inside other compiled functions)::

        env = BatchEnv("usa", Options(players=2))
        state = env.init(jax.random.split(jax.random.key(0), 4096))
        mask = env.legal_action_mask(state)      # bool[B, env.num_actions]
        state = env.step(state, actions)        # actions: int[B], numbered as ActionCodec(days)
        obs = env.observe(state, state.current)  # float32[B, env.observation_size]

    State arrays hold the batch on their last axis (``state.racks[..., i]`` is game ``i``); masks
    and observations hold it first.

    With ``auto_reset`` a game that ends is dealt anew (from its own key) in the same step;
    ``state.ended`` and ``state.result`` tell that it ended and who won. Without it a finished game
    stays as it ended, and any action leaves it so; so does an illegal action in a running game.
    """

    def __init__(
        self, edition: Edition | str, options: Options, *, auto_reset: bool = False
    ) -> None:
        self.config = Config.of(edition, options)
        self.auto_reset = auto_reset
        self.num_actions = self.config.actions
        self.observation_layout = observe.layout(self.config)
        self.observation_size = max(block.stop for block in self.observation_layout.values())
        self.init: Callable[[jax.Array], BatchState] = jax.jit(self._init)
        self.step: Callable[[BatchState, jax.Array], BatchState] = jax.jit(self._step)
        self.legal_action_mask: Callable[[BatchState], jax.Array] = jax.jit(self._legal_action_mask)
        self.observe: Callable[[BatchState, Any], jax.Array] = jax.jit(self._observe)
        self.is_complete: Callable[[jax.Array], jax.Array] = jax.jit(self._is_complete)

    @property
    def edition(self) -> Edition:
        return self.config.edition

    @property
    def options(self) -> Options:
        return self.config.options

    def _init(self, keys: jax.Array) -> BatchState:
        """New games at the start of the draft, one per PRNG key (``jax.random.split(key, B)``)."""
        return chance.deal(self.config, keys)

    def _step(self, state: BatchState, actions: jax.Array) -> BatchState:
        """Every game after its action (int[B])."""
        after, shuffle = rules.apply_actions(self.config, state, jnp.asarray(actions, jnp.int32))
        redeal = after.ended if self.auto_reset else None
        return chance.resolve(
            self.config, after, shuffle, redeal, chance_chunk(after.phase.shape[0])
        )

    def _legal_action_mask(self, state: BatchState) -> jax.Array:
        """bool[B, num_actions]: the legal actions of each game's player
        to move (all False once over)."""
        return rules.legal_mask(self.config, state)

    def _observe(self, state: BatchState, player: Any) -> jax.Array:
        """float32[B, observation_size]: each game as seat ``player`` (an
        int, or int[B]) may know it."""
        seats = jnp.broadcast_to(jnp.asarray(player, jnp.int32), state.phase.shape)
        return observe.observe_batch(self.config, state, seats)

    def _is_complete(self, racks: jax.Array) -> jax.Array:
        """bool[...]: whether each rack (int[..., days], -1 empty) is a complete journey."""
        return rules.is_complete(self.config, jnp.moveaxis(jnp.asarray(racks), -1, 0))
