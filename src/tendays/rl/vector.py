"""A Gymnasium vector environment over the batched engine: ``num_envs`` games stepped at once,
compiled.

``TenDaysVectorEnv`` is a :class:`gymnasium.vector.VectorEnv` (Gymnasium 1.x) with the batched
engine's observations (:mod:`tendays.batch.observe`) and its legal-action masks in
``info["action_mask"]`` (``bool[num_envs, actions]``, numbered as ``tendays.engine.ActionCodec``).
Two ways to seat the learner:

* ``opponents="random"`` (default): the agent plays seat ``agent_seat``; every other seat plays
  uniformly random legal moves inside the same compiled step, until the agent is to move again or
  the game ends. The reward is the agent's.
* ``opponents="self"``: every seat is the agent's (self-play). Each step is one decision of the seat
  to move; the observation is that seat's view, ``info["to_play"]`` names it, the reward is that of
  the seat that just acted and ``info["rewards"]`` holds every seat's (``float32[num_envs,
  players]``).

Autoreset follows Gymnasium's default, ``AutoresetMode.NEXT_STEP``: the step that ends a game
returns its last observation with ``terminated`` (a win) or ``truncated`` (the turn limit); the next
step ignores that game's action, deals it anew from its own PRNG key and returns the new game's
first observation with reward 0. An illegal action (legal actions are ``info["action_mask"]``) ends
its game, as in the PettingZoo and Gymnasium envs: ``terminated``, reward ``illegal`` (-1) to the
seat that played it and 0 to the others, ``info["illegal"]`` True, and the next step deals it anew.
Actions outside the action space (999, -1, floats) are refused with ``ValueError`` before any game
moves. Needs the ``batch`` and ``rl`` extras.
"""

from __future__ import annotations

from typing import Any, Unpack

import gymnasium
import jax
import jax.numpy as jnp
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from tendays.batch import OVER_PHASE, BatchEnv, BatchState, chance, choose_actions, forms, rules
from tendays.batch.memory import keep_freed_memory
from tendays.engine import Edition, Options

from .common import RuleSettings, checked_actions, env_options

__all__ = ["TenDaysVectorEnv"]


class TenDaysVectorEnv(gymnasium.vector.VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of 10 Days for one learner, stepped together by compiled JAX functions.

    ``rewards`` is ``(win, loss, draw)``; ``illegal`` the reward of an illegal action.
    The rules are ``options`` (an :class:`~tendays.engine.Options`) or the rule keywords
    ``players``, ``days``, ``swap``, ``open_hands`` and ``turn_limit``, not both; a turn limit of
    None means 100 turns per player, as in the scalar environments.
    ``keep_memory`` has the C library keep freed memory for the next step's observations
    (:func:`tendays.batch.memory.keep_freed_memory`, process-wide; about twice the
    steps per second at batch 4,096). ``observation="compact"`` gives the observations as uint8
    whole numbers, the same blocks (:mod:`tendays.batch.observe`): a quarter of the bytes of the
    default float32 shares; ``observation="indices"`` the same knowledge as uint8 tile ids
    (:mod:`tendays.batch.indices`), about a fifteenth of the compact bytes and the fastest step.
    ``env.game`` is the underlying :class:`BatchEnv` (the pgx-style functional interface) and
    ``env.state`` the current :class:`BatchState`; ``step`` reuses its memory for the next state, so
    read a state before the following step (or copy it: ``jax.tree.map(jnp.copy, env.state)``).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        edition: Edition | str = "usa",
        *,
        options: Options | None = None,
        opponents: str = "random",
        agent_seat: int = 0,
        rewards: tuple[float, float, float] = (1.0, -1.0, 0.0),
        keep_memory: bool = True,
        observation: str = "float32",
        illegal: float = -1.0,
        **settings: Unpack[RuleSettings],
    ) -> None:
        rule_options = env_options(options, **settings)
        players = rule_options.players
        forms.check(observation)
        if opponents not in ("random", "self"):
            raise ValueError(f"opponents must be 'random' or 'self', not {opponents!r}")
        if not 0 <= agent_seat < players:
            raise ValueError(f"there is no seat {agent_seat} in a game of {players} players")
        self.game = BatchEnv(edition, rule_options)
        self.num_envs = num_envs
        self.opponents = opponents
        self.agent_seat = agent_seat
        self.rewards = rewards
        self.illegal = illegal
        self.observation = observation
        config = self.game.config
        self.single_observation_space = spaces.Box(
            0, forms.bounds(config, observation), dtype=forms.dtype(observation)
        )
        self.single_action_space = spaces.Discrete(self.game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.state: BatchState | None = None
        self._key: jax.Array | None = None
        self._mask: jax.Array | None = None  # the legal actions the last observation showed
        self._all = np.ones(num_envs, bool)
        # Plain functions, not bound methods: jit dispatches a bound method on its slow path, about
        # 1.4 ms more per call here (half the step at batch 4,096).
        self._reset = jax.jit(lambda keys, key: self._reset_games(keys, key))
        # The old state and key are donated: XLA writes the new state into their memory instead
        # of copying the racks, piles and draw pile first (an earlier ``env.state`` is then gone).
        self._step = jax.jit(
            lambda state, actions, key, mask: self._step_games(state, actions, key, mask),
            donate_argnums=(0, 2),
        )
        # each step hands back fresh observation arrays: reuse their memory (batch/memory.py)
        if keep_memory:
            keep_freed_memory()

    # -- the Gymnasium API
    # ---------------------------------------------------------------------------------

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal ``num_envs`` new games. An int seed makes the whole run reproducible (the deals,
        every later deal and the random opponents); a list gives each game its own seed."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        if isinstance(seed, int):
            base = jax.random.key(seed)
            keys = jax.random.split(jax.random.fold_in(base, 0), self.num_envs)
        else:
            if len(seed) != self.num_envs:
                raise ValueError(f"{len(seed)} seeds for {self.num_envs} games")
            base = jax.random.key(seed[0])
            keys = jnp.stack([jax.random.key(s) for s in seed])
        self.state, self._key, obs, mask, extra = self._reset(keys, jax.random.fold_in(base, 1))
        self._mask = mask
        return np.asarray(obs), self._info(mask, extra)

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if self.state is None or self._key is None or self._mask is None:
            raise RuntimeError("call reset() before step()")
        if isinstance(actions, jax.Array):  # a JAX array stays where it is, checked there
            self._check_on_device(actions)
        else:
            actions = np.asarray(actions)
            checked_actions(actions, self.game.num_actions)
        if actions.size != self.num_envs:
            raise ValueError(f"{actions.size} actions for {self.num_envs} games")
        self.state, self._key, obs, mask, reward, terminated, truncated, extra = self._step(
            self.state, actions, self._key, self._mask
        )
        self._mask = mask
        return (
            np.asarray(obs),
            np.asarray(reward),
            np.asarray(terminated),
            np.asarray(truncated),
            self._info(mask, extra),
        )

    def _check_on_device(self, actions: jax.Array) -> None:
        """:func:`checked_actions` for a JAX array: its dtype here, its range by one reduction
        where it lies (a flag comes back, not the actions)."""
        if actions.dtype == jnp.bool_ or not jnp.issubdtype(actions.dtype, jnp.integer):
            checked_actions(np.zeros(0, actions.dtype), self.game.num_actions)
        if bool(((actions < 0) | (actions >= self.game.num_actions)).any()):
            checked_actions(np.asarray(actions), self.game.num_actions)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in memory."""

    def _info(self, mask: jax.Array, extra: dict[str, jax.Array]) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": np.asarray(mask), "_action_mask": self._all}
        for name, value in extra.items():
            info[name], info["_" + name] = np.asarray(value), self._all
        return info

    # -- the compiled parts
    # ----------------------------------------------------------------------------------

    def _reset_games(self, keys: jax.Array, key: jax.Array) -> tuple[Any, ...]:
        state = self.game._init(keys)
        state, key = self._advance(state, key)
        return state, key, *self._observe(state)

    def _step_games(
        self, state: BatchState, actions: jax.Array, key: jax.Array, mask: jax.Array
    ) -> tuple[Any, ...]:
        config = self.game.config
        # cast and shaped here, in the compiled step, not by separate calls from Python
        actions = jnp.asarray(actions).astype(jnp.int32).reshape(self.num_envs)
        was_over = state.phase == OVER_PHASE
        actor = state.current
        illegal = ~was_over & ~jnp.take_along_axis(mask, actions[:, None], axis=1)[:, 0]
        after, shuffle = rules.apply_actions(config, state, actions)  # a finished game ignores it
        # an illegal action (which left its game as it was) ends that game, without a winner
        after = after.replace(phase=jnp.where(illegal, OVER_PHASE, after.phase))
        # NEXT_STEP autoreset: the games that ended in the previous step are dealt anew now, in the
        # same pass of chance as this step's reshuffles (a second pass carried the whole state
        # through two more loops: half the compiled step at batch 4,096).
        chunk = max(1, min(self.num_envs, 8 + self.num_envs // 64))
        after = chance.resolve(config, after, shuffle, was_over, chunk)
        after, key = self._advance(after, key)
        ended = (after.phase == OVER_PHASE) & ~was_over
        win, loss, draw = self.rewards
        seats = jnp.arange(config.players)[None, :]
        winner = after.winner[:, None]
        per_seat = jnp.where(winner < 0, draw, jnp.where(winner == seats, win, loss))
        per_seat = jnp.where(ended[:, None], per_seat, 0.0)
        offender = jnp.where(seats == actor[:, None], self.illegal, 0.0)
        per_seat = jnp.where(illegal[:, None], offender, per_seat).astype(jnp.float32)
        seat = actor if self.opponents == "self" else jnp.full_like(actor, self.agent_seat)
        reward = jnp.take_along_axis(per_seat, seat[:, None], axis=1)[:, 0]
        terminated = ended & ((after.winner >= 0) | illegal)
        truncated = ended & (after.winner < 0) & ~illegal
        obs, mask, extra = self._observe(after)
        extra = {**extra, "illegal": illegal}
        if self.opponents == "self":
            extra = {**extra, "rewards": per_seat}
        return after, key, obs, mask, reward, terminated, truncated, extra

    def _advance(self, state: BatchState, key: jax.Array) -> tuple[BatchState, jax.Array]:
        """Random legal moves for the other seats until each game waits for the agent or is over."""
        if self.opponents == "self":
            return state, key

        def waiting(state: BatchState) -> jax.Array:
            return (state.phase != OVER_PHASE) & (state.current != self.agent_seat)

        def move(carry: tuple[BatchState, jax.Array]) -> tuple[BatchState, jax.Array]:
            state, key = carry
            key, draw = jax.random.split(key)
            actions = choose_actions(
                self.game._legal_action_mask(state), jax.random.uniform(draw, state.phase.shape)
            )
            moved = self.game._step(state, actions)
            chosen = waiting(state)
            state = jax.tree.map(lambda new, old: jnp.where(chosen, new, old), moved, state)
            return state, key

        return jax.lax.while_loop(lambda carry: waiting(carry[0]).any(), move, (state, key))

    def _observe(self, state: BatchState) -> tuple[jax.Array, jax.Array, dict[str, jax.Array]]:
        seats = (
            state.current
            if self.opponents == "self"
            else jnp.full_like(state.current, self.agent_seat)
        )
        obs = forms.observe_as(self.game.config, state, seats, self.observation)
        extra = {"to_play": state.current} if self.opponents == "self" else {}
        mask = rules.legal_mask_out(self.game.config, state)  # batch first, no transpose
        return obs, mask, extra
