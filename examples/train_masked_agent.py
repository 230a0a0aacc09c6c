"""Train a small action-masked PPO agent on 10 Days, then measure it against the random and greedy
bots.

Needs the ``train`` extra (CPU torch and sb3-contrib)::

    pip install -e ".[rl,train]"                          # from a clone (tendays is not on PyPI)
    python examples/train_masked_agent.py                 # 2 players, USA, 5 days: under 10
                                                          # minutes, one core
    python examples/train_masked_agent.py --days 10 --timesteps 2000000
        # the full game: 250,000 are far too few

The agent sits in seat 0 of ``tendays/TenDays-v0`` against the random bot. Besides the +1/-1/0
result it gets a shaped reward: ``--shaping`` times the change of its rack's satisfied journey
conditions (as a fraction), which tells it early on which placements bring a journey closer.
Evaluation plays ``--eval-games`` new games (seeds apart from training) against each opponent with
the greedy (most likely) masked action, and prints win/draw/loss rates with 95% Wilson intervals,
beside a random agent in the same seat as the baseline.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import tendays.rl  # noqa: F401  (registers tendays/TenDays-v0)
from tendays.engine import available_editions
from tendays.sim.stats import wilson

EVAL_SEED_OFFSET = 1_000_000  # evaluation games use seeds no training game used


def make_env(args: argparse.Namespace, opponent: str, shaping: float) -> gym.Env[Any, Any]:
    return gym.make(
        "tendays/TenDays-v0",
        edition=args.edition,
        players=args.players,
        opponents=opponent,
        days=args.days,
        shaping=shaping,
    )


Policy = Callable[[np.ndarray, np.ndarray, np.random.Generator], int]


def evaluate(args: argparse.Namespace, opponent: str, policy: Policy) -> dict[str, Any]:
    """Play ``args.eval_games`` games as seat 0 and count wins, draws (turn limit) and losses."""
    env = make_env(args, opponent, shaping=0.0)
    rng = np.random.default_rng(args.seed)
    wins = draws = losses = turns = 0
    for game in range(args.eval_games):
        obs, info = env.reset(seed=EVAL_SEED_OFFSET + args.seed * 10_000 + game)
        reward, done = 0.0, False
        while not done:
            obs, step_reward, terminated, truncated, info = env.step(
                policy(obs, info["action_mask"], rng)
            )
            reward, done = float(step_reward), terminated or truncated
        turns += env.unwrapped.state.turn  # type: ignore[attr-defined]
        if reward > 0:
            wins += 1
        elif reward < 0:
            losses += 1
        else:
            draws += 1
    env.close()
    n = args.eval_games
    return {
        "opponent": opponent,
        "games": n,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / n,
        "win_ci": wilson(wins, n),
        "loss_rate": losses / n,
        "loss_ci": wilson(losses, n),
        "mean_turns": turns / n,
    }


def report(label: str, result: dict[str, Any]) -> None:
    low, high = result["win_ci"]
    loss_low, loss_high = result["loss_ci"]
    print(
        f"  {label:<14} vs {result['opponent']:<7} wins {result['win_rate']:6.1%} [{low:.1%}, "
        f"{high:.1%}]  losses {result['loss_rate']:6.1%} [{loss_low:.1%}, {loss_high:.1%}]  draws "
        f"{result['draws']:4d}  ({result['games']} games, {result['mean_turns']:.0f} turns on "
        f"average)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--edition", default="usa", choices=available_editions())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--days", type=int, default=5)
    parser.add_argument(
        "--timesteps", type=int, default=250_000, help="agent decisions to train on"
    )
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--shaping", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--save", help="write the trained model to this .zip file")
    args = parser.parse_args()

    torch.set_num_threads(1)  # one core: the environment, not the small network, is the bottleneck
    vec_env = DummyVecEnv(
        [lambda: make_env(args, "random", args.shaping) for _ in range(args.envs)]
    )
    vec_env.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        vec_env,
        n_steps=256,
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.99,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    print(
        f"training MaskablePPO on {args.edition}, {args.players} players, {args.days} days, "
        f"against random, {args.timesteps} steps, shaping {args.shaping}"
    )
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    train_seconds = time.perf_counter() - start
    print(f"trained in {train_seconds / 60:.1f} min ({args.timesteps / train_seconds:.0f} steps/s)")
    if args.save:
        model.save(args.save)

    def agent(obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    def random_agent(obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    start = time.perf_counter()
    print(
        f"evaluation, {args.eval_games} games each (seat 0; win = completes the journey first; "
        f"draw = turn limit):"
    )
    for opponent in ("random", "greedy"):
        report("trained agent", evaluate(args, opponent, agent))
        report("random agent", evaluate(args, opponent, random_agent))
    print(f"evaluated in {(time.perf_counter() - start) / 60:.1f} min")


if __name__ == "__main__":
    main()
