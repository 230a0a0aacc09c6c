"""Train the learned bot's network (``src/tendays/bots/policy.npz``) by masked PPO on the batched
engine.

    pip install -e ".[batch]"                                  # jax, numpy, optax
    python tools/train_policy.py --minutes 50 --seed 1        # PPO from new weights
    python tools/train_policy.py --resume clone.npz --minutes 12 --lr 1e-4 --seed 2 --report 90 \
        --out ppo.npz --snapshots snapshots
        # the shipped policy's step 2, from tools/clone_policy.py's weights; then
        # tools/screen_policy.py: see docs/rl.md

The network is :mod:`tendays.bots.learned`'s (the same functions, run with ``jax.numpy``); the
trainer is :class:`tendays.training.ppo.PPO`: the learner plays 2-player, 10-day USA games against
copies of itself inside one compiled function. Every ``--report`` seconds it prints a row of the
learning curve: learner decisions so far, the self-play games finished and how many reached a
winner, and the learner's win rate, with its most likely moves, against uniformly random players
(batched, ``--random-games`` games) and against the greedy bot (the scalar engine,
``--greedy-games`` games, seats alternating). Evaluation deals are drawn from their own seed range
(``tendays-train/...``), apart from the deals the bot is measured on afterwards. The weights are
written (float16) after every report, so a stopped run keeps its last policy; with ``--snapshots
DIR`` every report's weights are kept too, to be screened (``tools/screen_policy.py``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=1")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from tendays.batch import BatchEnv  # noqa: E402
from tendays.bots import GreedyBot  # noqa: E402
from tendays.bots.learned import (
    NETWORK_ONLY,
    LearnedBot,
    PolicySpec,
    features,
    head,
    init_params,
    load_policy,
    save_policy,
)  # noqa: E402
from tendays.engine import Game, Options, load_edition, play_bots  # noqa: E402
from tendays.engine.chance import Purpose, stream  # noqa: E402
from tendays.sim.tournament import Tournament  # noqa: E402
from tendays.training.ppo import PPO, Settings  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "src" / "tendays" / "bots" / "policy.npz"
EDITION = "usa"


def options(days: int) -> Options:
    """2 players; the turn limit of ``tendays simulate``."""
    return Options(players=2, days=days, turn_limit=300)


def wins_against_greedy(
    params: dict[str, np.ndarray], days: int, games: Iterable[tuple[int, int]]
) -> int:
    """How many scalar-engine games the bot (float16 weights, as shipped) wins against the greedy
    bot, one game for each (deal seed, the bot's seat) in ``games``."""
    bot = LearnedBot(
        {k: np.asarray(v, np.float16).astype(np.float32) for k, v in params.items()},
        EDITION,
        2,
        days,
    )
    edition = load_edition(EDITION)
    wins = 0
    for deal, seat in games:
        game = Game(edition, options(days), deal)
        play_bots(game, [bot, GreedyBot()] if seat == 0 else [GreedyBot(), bot])
        wins += game.state.winner == seat
    return wins


def versus_greedy(params: dict[str, np.ndarray], days: int, games: int, seed: int) -> float:
    """The share of ``games`` games on the training curve's own deals (the stream
    ``tendays-train/SEED``, seats alternating) the bot wins against greedy."""
    deals = (
        (stream(Purpose.TRAINING, seed, index).getrandbits(32), index % 2) for index in range(games)
    )
    return wins_against_greedy(params, days, deals) / games


def wins_on_tuning_deals(
    params: dict[str, np.ndarray], days: int, games: int, seed: int, first: int = 0
) -> int:
    """Wins against greedy in games ``first`` .. ``first + games - 1`` of ``tendays simulate
    --players learned,greedy --seed SEED``: the simulator's own deals and seatings."""
    tournament = Tournament(
        EDITION, ("learned", "greedy"), seed=seed, max_turns=options(days).turn_limit, days=days
    )
    # player 0 is the learned bot
    deals = (
        (tournament.game_seed(index), tournament.seating(index).index(0))
        for index in range(first, first + games)
    )
    return wins_against_greedy(params, days, deals)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--seed", type=int, default=1, help="seeds the weights, the deals and every move"
    )
    parser.add_argument(
        "--minutes", type=float, default=50.0, help="training time (evaluations included)"
    )
    parser.add_argument(
        "--iterations", type=int, default=0, help="stop after this many PPO iterations (0: none)"
    )
    parser.add_argument("--days", type=int, default=10)
    parser.add_argument("--games", type=int, default=512, help="games played side by side")
    parser.add_argument(
        "--steps", type=int, default=64, help="learner decisions per game and iteration"
    )
    parser.add_argument(
        "--hidden", type=int, default=128, help="units of each of the two hidden layers"
    )
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument(
        "--shaping", type=float, default=0.5, help="reward per journey progress gained"
    )
    parser.add_argument(
        "--report", type=float, default=300.0, help="seconds between rows of the curve"
    )
    parser.add_argument("--random-games", type=int, default=256)
    parser.add_argument("--greedy-games", type=int, default=60)
    parser.add_argument(
        "--resume", type=Path, help="start from these weights (.npz) instead of new ones"
    )
    parser.add_argument(
        "--out", type=Path, default=OUT, help=f"where to write the weights (default {OUT})"
    )
    parser.add_argument(
        "--snapshots",
        type=Path,
        help="also keep each report's weights in this folder, as "
        "ITERATION.npz, to choose among (tools/screen_policy.py)",
    )
    args = parser.parse_args(argv)
    if args.snapshots:
        args.snapshots.mkdir(parents=True, exist_ok=True)

    env = BatchEnv(EDITION, options(args.days), auto_reset=True)
    spec = PolicySpec.of(env.edition, env.options)
    settings = Settings(
        games=args.games, steps=args.steps, learning_rate=args.lr, shaping=args.shaping
    )
    ppo = PPO(
        env,
        lambda p, prepared, mask: head(p, prepared, mask, jnp),
        settings,
        # the journey features once per decision
        prepare=lambda obs: features(spec, obs, jnp),
    )
    try:
        start = (
            load_policy(str(args.resume))[0]
            if args.resume
            else init_params(spec, args.hidden, args.seed, yardstick=NETWORK_ONLY, net_scale=1.0)
        )
    except ValueError as error:  # not weights, or weights of an earlier network
        parser.error(str(error))
    carry = ppo.start(jax.tree.map(jnp.asarray, start), jax.random.key(args.seed))
    print(
        f"training {args.days}-day {EDITION} games: {args.games} games x {args.steps} decisions "
        f"per iteration, hidden {args.hidden}, seed {args.seed}",
        flush=True,
    )
    print(
        f"{'minutes':>7} {'iter':>5} {'decisions':>10} {'games':>8} {'winner%':>7} {'entropy':>7} "
        f"{'vs random':>9} {'vs greedy':>9}",
        flush=True,
    )

    began = time.monotonic()
    decisions = games = finished = 0
    iteration, last_report = 0, -1.0
    while True:
        carry, summary = ppo.iterate(carry)
        iteration += 1
        decisions += args.games * args.steps
        games += int(summary["games"])
        finished += int(summary["finished"])
        elapsed = time.monotonic() - began
        done = elapsed >= args.minutes * 60 or (args.iterations and iteration >= args.iterations)
        if done or last_report < 0 or elapsed - last_report >= args.report:
            last_report = elapsed
            params = {name: np.asarray(value) for name, value in carry[0].items()}
            save_policy(args.out, params, EDITION, env.options)
            if args.snapshots:
                save_policy(args.snapshots / f"{iteration:05d}.npz", params, EDITION, env.options)
            random_eval = ppo.evaluate(
                carry[0], jax.random.key(10_000 + iteration), args.random_games, 1200
            )
            vs_random = int(random_eval["won"]) / args.random_games
            vs_greedy = (
                versus_greedy(params, args.days, args.greedy_games, args.seed)
                if args.greedy_games
                else 0.0
            )
            print(
                f"{elapsed / 60:7.1f} {iteration:5d} {decisions:10d} {games:8d} "
                f"{100 * finished / max(1, games):7.1f} {float(summary['entropy']):7.3f} "
                f"{100 * vs_random:8.1f}% {100 * vs_greedy:8.1f}%",
                flush=True,
            )
            games = finished = 0
        if done:
            break
    print(f"weights written to {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
