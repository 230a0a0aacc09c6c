"""The environments of the PPO example (``ppo.py``): pgx's own games by name, and ``"tendays"``.

pgx's PPO example trains a single agent (MinAtar's games have one player). ``"tendays"`` is
therefore the 2-player pgx env of 10 Days (``tendays.rl.make_pgx_env``) seen from one seat,
:class:`AgainstRandom`: the other seat plays uniformly random legal moves inside ``step`` until the
learner is to move again, and ``rewards`` holds the learner's reward alone (``float32[1]``, as
MinAtar's). The mean return that the example evaluates is then the learner's wins minus its losses
against a random player.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import pgx
from pgx._src.struct import dataclass

import tendays.rl

TENDAYS = "tendays"


@dataclass
class LearnerState:
    """The fields the example reads (as a ``pgx.State`` has them), the learner's seat, the game."""

    observation: Any
    rewards: Any
    terminated: Any
    truncated: Any
    legal_action_mask: Any
    current_player: Any
    _step_count: Any
    seat: Any
    game: Any


class AgainstRandom:
    """A 2-player pgx env from one seat, the other playing uniformly random legal moves.

    The learner is the seat to move when a game is dealt: seat 0, which drafts first (the draft goes
    round the table from seat 0 in tendays); which seat begins the turns after the draft is drawn by
    the deal, so the learner plays both first and second. (It could not be another seat: pgx's
    ``auto_reset`` deals the next game inside a ``lax.cond``, where the tendays env cannot step, so
    no opponent's move may come before the learner's first decision.) Like a ``pgx.Env``, ``init``
    and ``step`` act on one game and ``jax.vmap`` batches them.
    """

    def __init__(self, env: Any) -> None:
        if env.num_players != 2:
            raise ValueError(f"AgainstRandom plays 2-player games, not {env.num_players}-player")
        self.env = env
        self.num_actions = env.num_actions
        self.observation_shape = env.observation_shape
        self.num_players = 1

    def init(self, key: jax.Array) -> LearnerState:
        game = self.env.init(key)
        return self._state(game, game.current_player, game.rewards[game.current_player], 0)

    def step(self, state: LearnerState, action: jax.Array, key: jax.Array) -> LearnerState:
        own, opponent_key = jax.random.split(key)
        game = self.env.step(state.game, action, own)
        return self._learner_to_move(game, state.seat, opponent_key, state._step_count + 1)

    def _learner_to_move(
        self, game: Any, seat: jax.Array, key: jax.Array, steps: jax.Array
    ) -> LearnerState:
        """Random moves for the other seat until the learner is to move or the game is over; the
        learner's rewards of all those moves added up (a game may end on the opponent's move)."""

        def opponent_to_move(carry: tuple[Any, jax.Array, jax.Array]) -> jax.Array:
            game, _, _ = carry
            return ~(game.terminated | game.truncated) & (game.current_player != seat)

        def opponent_moves(carry: tuple[Any, jax.Array, jax.Array]) -> tuple[Any, Any, Any]:
            game, reward, key = carry
            key, pick, chance = jax.random.split(key, 3)
            mask = game.legal_action_mask.astype(jnp.float32)
            action = jax.random.categorical(pick, jnp.log(mask))
            game = self.env.step(game, action, chance)
            return game, reward + game.rewards[seat], key

        reward = game.rewards[seat]
        game, reward, _ = jax.lax.while_loop(opponent_to_move, opponent_moves, (game, reward, key))
        return self._state(game, seat, reward, steps)

    def _state(self, game: Any, seat: Any, reward: Any, steps: Any) -> LearnerState:
        return LearnerState(
            observation=game.observation,
            rewards=reward[None],
            terminated=game.terminated,
            truncated=game.truncated,
            legal_action_mask=game.legal_action_mask,
            current_player=jnp.int32(0),
            _step_count=jnp.int32(steps),
            seat=seat,
            game=game,
        )


def make_env(env_name: str, days: int = 10) -> Any:
    """pgx's game ``env_name``, or for ``"tendays"`` 2-player USA of ``days`` days against a random
    player (observations as float32 shares in [0, 1], as MinAtar's are 0 or 1)."""
    if env_name == TENDAYS:
        game = tendays.rl.make_pgx_env("usa", players=2, days=days, observation="float32")
        return AgainstRandom(game)
    return pgx.make(env_name)
