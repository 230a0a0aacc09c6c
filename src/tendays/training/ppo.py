"""Masked PPO on the batched engine, compiled whole: rollouts, advantages and updates in one jitted
function.

The learner plays one seat of every game (half the games seat 0, half seat 1 and so on, so it learns
every seat) against copies of itself: the other seats move by the same network, sampled, inside the
same compiled step, until the learner is to move again. So each rollout step is one decision of the
learner, and the trajectories are ordinary single-agent ones (rewards: win, loss, no winner at the
turn limit; plus, while the game runs, ``shaping`` times the change of the learner's journey
progress, the share of the journey's conditions its rack meets, which tells it early which
placements help).

The network is not fixed here: :class:`PPO` takes ``apply(params, inputs, mask) -> (logits,
values)`` over the batched observations (or what ``prepare(obs)`` makes of them: the rollout keeps
that, so inputs that do not depend on the parameters are worked out once per decision, not again in
every epoch) and masks, and any pytree of parameters. ``evaluate`` plays the policy's most likely
moves against uniformly random opponents. Needs the ``batch`` extra and optax.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import optax

from tendays.batch import OVER_PHASE, BatchEnv, BatchState, Config, random_actions
from tendays.bots.policy_inputs import journey_conditions

__all__ = ["PPO", "Settings", "journey_progress"]

Apply = Callable[[Any, Any, jax.Array], tuple[jax.Array, jax.Array]]
Prepare = Callable[[jax.Array], Any]


def _unchanged(obs: jax.Array) -> jax.Array:
    return obs


@dataclass(frozen=True)
class Settings:
    """The PPO hyperparameters (per iteration: ``games`` x ``steps`` learner decisions)."""

    games: int = 512
    steps: int = 64
    epochs: int = 3
    minibatches: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.997
    gae_lambda: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    max_grad_norm: float = 0.5
    shaping: float = 0.5


def journey_progress(config: Config, rack: jax.Array) -> jax.Array:
    """The share of a journey's conditions each rack (``int[days, B]``, -1 empty) meets, as the
    learned bot counts them (:func:`tendays.bots.policy_inputs.journey_conditions`); 1.0 exactly for
    a complete journey."""
    n = config.tiles
    tile = jnp.where(rack >= 0, rack, n).astype(jnp.int32).T
    region = jnp.asarray([*config.is_region.tolist(), False])
    share: jax.Array = journey_conditions(config.link_table, region, tile, jnp) / config.days
    return share


class PPO:
    """Trains ``apply``'s parameters on ``env`` (a :class:`BatchEnv` with ``auto_reset=True``)."""

    def __init__(
        self, env: BatchEnv, apply: Apply, settings: Settings, prepare: Prepare = _unchanged
    ) -> None:
        if not env.auto_reset:
            raise ValueError("PPO needs a BatchEnv with auto_reset=True")
        self.env, self.apply, self.settings, self.prepare = env, apply, settings, prepare
        self.optimizer = optax.chain(
            optax.clip_by_global_norm(settings.max_grad_norm),
            optax.adam(settings.learning_rate, eps=1e-5),
        )
        self.seats = jnp.arange(settings.games, dtype=jnp.int32) % env.config.players
        self.iterate = jax.jit(self._iterate)
        self.evaluate = jax.jit(self._evaluate, static_argnums=(2, 3))

    def start(self, params: Any, key: jax.Array) -> tuple[Any, ...]:
        """The training carry: parameters, optimizer state, games, PRNG key."""
        deal, key = jax.random.split(key)
        state = self.env.init(jax.random.split(deal, self.settings.games))
        state, key, _, _ = self._others(params, state, key)
        return params, self.optimizer.init(params), state, key

    # -- playing
    # ----------------------------------------------------------------------------------------------

    def _sample(
        self, params: Any, state: BatchState, seats: jax.Array, key: jax.Array
    ) -> tuple[jax.Array, ...]:
        obs = self.prepare(self.env._observe(state, seats))
        mask = self.env._legal_action_mask(state)
        logits, value = self.apply(params, obs, mask)
        action = jax.random.categorical(key, logits)
        logp = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], axis=1)[:, 0]
        return obs, mask, action, logp, value

    def _others(self, params: Any, state: BatchState, key: jax.Array) -> tuple[Any, ...]:
        """The other seats move (sampled from ``params``) until the learner is to move in every
        game; returns the games, the key, whether a game ended meanwhile and its winner."""
        seats = self.seats

        def waiting(carry: tuple[Any, ...]) -> jax.Array:
            return jnp.any(carry[0].current != seats)

        def move(carry: tuple[Any, ...]) -> tuple[Any, ...]:
            state, key, ended, result = carry
            key, draw = jax.random.split(key)
            chosen = state.current != seats
            _, _, action, _, _ = self._sample(params, state, state.current, draw)
            moved = self.env._step(state, action)
            state = jax.tree.map(lambda new, old: jnp.where(chosen, new, old), moved, state)
            done = chosen & moved.ended
            return state, key, ended | done, jnp.where(done, moved.result, result)

        ended = jnp.zeros(seats.shape, bool)
        return jax.lax.while_loop(
            waiting, move, (state, key, ended, jnp.full(seats.shape, -1, jnp.int32))
        )

    def _rollout(self, params: Any, state: BatchState, key: jax.Array) -> tuple[Any, ...]:
        config, seats, shaping = self.env.config, self.seats, self.settings.shaping

        def own_progress(state: BatchState) -> jax.Array:
            rack = jnp.take_along_axis(state.racks, seats[None, None, :].astype(jnp.int32), axis=0)[
                0
            ]
            return journey_progress(config, rack)

        def one(carry: tuple[Any, ...], _: None) -> tuple[tuple[Any, ...], dict[str, jax.Array]]:
            state, key = carry
            key, draw = jax.random.split(key)
            before = own_progress(state)
            obs, mask, action, logp, value = self._sample(params, state, seats, draw)
            state = self.env._step(state, action)
            gained = jnp.where(state.ended, 0.0, own_progress(state) - before)
            ended, result = state.ended, state.result
            state, key, ended_later, result_later = self._others(params, state, key)
            done = ended | ended_later
            winner = jnp.where(ended, result, result_later)
            outcome = jnp.where(winner == seats, 1.0, jnp.where(winner >= 0, -1.0, 0.0))
            reward = jnp.where(done, outcome, 0.0) + shaping * gained
            step = {
                "obs": obs,
                "mask": mask,
                "action": action,
                "logp": logp,
                "value": value,
                "reward": reward,
                "done": done,
                "won": done & (winner == seats),
                "finished": done & (winner >= 0),
            }
            return (state, key), step

        (state, key), batch = jax.lax.scan(one, (state, key), None, self.settings.steps)
        _, last_value = self.apply(
            params,
            self.prepare(self.env._observe(state, seats)),
            self.env._legal_action_mask(state),
        )
        return state, key, batch, last_value

    # -- learning
    # ---------------------------------------------------------------------------------------------

    def _advantages(
        self, batch: dict[str, jax.Array], last_value: jax.Array
    ) -> tuple[jax.Array, jax.Array]:
        gamma, lam = self.settings.gamma, self.settings.gae_lambda

        def back(
            carry: tuple[jax.Array, jax.Array], step: tuple[jax.Array, ...]
        ) -> tuple[Any, jax.Array]:
            advantage, next_value = carry
            reward, done, value = step
            keep = 1.0 - done.astype(jnp.float32)
            delta = reward + gamma * next_value * keep - value
            advantage = delta + gamma * lam * keep * advantage
            return (advantage, value), advantage

        init = (jnp.zeros_like(last_value), last_value)
        _, advantages = jax.lax.scan(
            back, init, (batch["reward"], batch["done"], batch["value"]), reverse=True
        )
        return advantages, advantages + batch["value"]

    def _loss(
        self, params: Any, mb: dict[str, jax.Array]
    ) -> tuple[jax.Array, dict[str, jax.Array]]:
        s = self.settings
        logits, value = self.apply(params, mb["obs"], mb["mask"])
        logp_all = jax.nn.log_softmax(logits)
        logp = jnp.take_along_axis(logp_all, mb["action"][:, None], axis=1)[:, 0]
        ratio = jnp.exp(logp - mb["logp"])
        adv = (mb["advantage"] - mb["advantage"].mean()) / (mb["advantage"].std() + 1e-8)
        policy = -jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - s.clip, 1 + s.clip) * adv).mean()
        value_loss = 0.5 * ((value - mb["target"]) ** 2).mean()
        entropy = -jnp.where(mb["mask"], jnp.exp(logp_all) * logp_all, 0.0).sum(axis=1).mean()
        total = policy + s.value_coef * value_loss - s.entropy * entropy
        return total, {"policy_loss": policy, "value_loss": value_loss, "entropy": entropy}

    def _iterate(self, carry: tuple[Any, ...]) -> tuple[tuple[Any, ...], dict[str, jax.Array]]:
        """One rollout of ``games`` x ``steps`` decisions and its updates;
        returns the new carry and figures."""
        params, opt_state, state, key = carry
        s = self.settings
        state, key, batch, last_value = self._rollout(params, state, key)
        advantages, targets = self._advantages(batch, last_value)
        size = s.games * s.steps
        flat = {
            name: jax.tree.map(lambda leaf: leaf.reshape(size, *leaf.shape[2:]), batch[name])
            for name in ("obs", "mask", "action", "logp")
        }
        flat["advantage"], flat["target"] = advantages.reshape(size), targets.reshape(size)

        def epoch(
            carry: tuple[Any, ...], key: jax.Array
        ) -> tuple[tuple[Any, ...], dict[str, jax.Array]]:
            order = jax.random.permutation(key, size).reshape(s.minibatches, -1)

            def update(
                carry: tuple[Any, ...], rows: jax.Array
            ) -> tuple[tuple[Any, ...], dict[str, jax.Array]]:
                params, opt_state = carry
                mb = jax.tree.map(lambda leaf: leaf[rows], flat)
                grads, figures = jax.grad(self._loss, has_aux=True)(params, mb)
                updates, opt_state = self.optimizer.update(grads, opt_state, params)
                return (optax.apply_updates(params, updates), opt_state), figures

            return jax.lax.scan(update, carry, order)

        key, shuffle = jax.random.split(key)
        (params, opt_state), figures = jax.lax.scan(
            epoch, (params, opt_state), jax.random.split(shuffle, s.epochs)
        )
        games = batch["done"].sum()
        summary = {name: value.mean() for name, value in figures.items()}
        summary.update(
            games=games,
            won=batch["won"].sum(),
            finished=batch["finished"].sum(),
            reward=batch["reward"].sum() / s.games,
        )
        return (params, opt_state, state, key), summary

    def _evaluate(
        self, params: Any, key: jax.Array, games: int, max_decisions: int
    ) -> dict[str, jax.Array]:
        """``games`` new games (the learner's seat alternating), the learner playing its most likely
        move, the others uniformly random legal moves; wins and turns of the learner's games."""
        env = BatchEnv(self.env.edition, self.env.options)
        seats = jnp.arange(games, dtype=jnp.int32) % self.env.config.players
        deal, key = jax.random.split(key)
        state = env._init(jax.random.split(deal, games))

        def running(carry: tuple[Any, ...]) -> jax.Array:
            return jnp.logical_and(jnp.any(carry[0].phase != OVER_PHASE), carry[2] < max_decisions)

        def move(carry: tuple[Any, ...]) -> tuple[Any, ...]:
            state, key, count = carry
            key, draw = jax.random.split(key)
            mask = env._legal_action_mask(state)
            logits, _ = self.apply(params, self.prepare(env._observe(state, state.current)), mask)
            greedy = logits.argmax(axis=1)
            action = jnp.where(state.current == seats, greedy, random_actions(draw, mask))
            return env._step(state, action), key, count + 1

        state, _, _ = jax.lax.while_loop(running, move, (state, key, jnp.int32(0)))
        return {
            "won": (state.winner == seats).sum(),
            "lost": ((state.winner >= 0) & (state.winner != seats)).sum(),
            "turns": state.turn.mean(),
        }
