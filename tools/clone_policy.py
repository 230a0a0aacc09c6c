"""Train the learned bot's network by behaviour cloning: imitate the greedy bot's moves.

    pip install -e ".[batch]"                                        # jax, numpy, optax
    python tools/clone_policy.py --games 3000 --epochs 12 --seed 1   # the shipped policy: see docs/rl.md

Data: 2-player, 10-day USA games of the scalar engine, the greedy bot in both seats; in every game one seat
(alternating) plays a uniformly random legal move instead of greedy's with probability ``--explore``, so
the data also shows states greedy would not reach. At every decision with a choice, of either seat, it
records the network's input exactly as the learned bot sees it (:func:`tendays.bots.learned.encode`), the
legal-action mask (the engine's ``ActionCodec``) and the move greedy chooses there (the label, even where a
random move is played). Deals come from their own range (``tendays-clone/...``), apart from the deals the
bot is screened and measured on.

Training: the network of :mod:`tendays.bots.learned` (run with ``jax.numpy``), masked cross-entropy on
greedy's choices, Adam; a tenth of the games is held out. Each epoch prints the training loss and the held-out
loss and accuracy (the share of held-out decisions where the network's most likely move is greedy's). At
the end it screens the weights against the greedy bot on the tuning deals of ``tendays simulate --seed
--screen-seed`` (seats rotating) and writes them (float16) to ``--out``. ``--resume`` starts from given
weights, e.g. to fine-tune them afterwards with ``tools/train_policy.py --resume``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=1")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402

from tendays.bots import GreedyBot  # noqa: E402
from tendays.bots.learned import LearnedBot, PolicySpec, encode, forward, init_params, load_policy, save_policy  # noqa: E402
from tendays.engine import ActionCodec, Game, Options, load_edition, next_decision, play_bots  # noqa: E402
from tendays.sim.stats import wilson  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "src" / "tendays" / "bots" / "policy.npz"
EDITION = "usa"


def options(days: int) -> Options:
    """2 players; the turn limit of ``tendays simulate``."""
    return Options(players=2, days=days, turn_limit=300)


def play_and_record(job: tuple[int, int, int, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observations (float16), legal masks and greedy's actions at every choice of game ``index`` of ``seed``."""
    seed, index, days, explore = job
    edition, game_options = load_edition(EDITION), options(days)
    spec, codec, greedy = PolicySpec.of(edition, game_options), ActionCodec(days), GreedyBot()
    rng = random.Random(f"tendays-clone/{seed}/{index}")
    game = Game(edition, game_options, rng.getrandbits(32))
    explorer = index % 2
    observations, masks, labels = [], [], []
    while (decision := next_decision(game)) is not None:
        moves = decision.view.legal_moves()
        move = greedy.choose(decision.view, decision.rng)
        if len(moves) > 1:
            observations.append(encode(decision.view, spec).astype(np.float16))
            masks.append(np.frombuffer(codec.mask(moves), np.int8).astype(bool))
            labels.append(codec.encode(move))
            if decision.seat == explorer and rng.random() < explore:
                move = rng.choice(moves)
        game.play(move, decision.seat)
    return np.array(observations), np.array(masks), np.array(labels, np.int32)


def generate(seed: int, games: int, days: int, explore: float, workers: int) -> list[tuple[np.ndarray, ...]]:
    """One (observations, masks, labels) triple per game."""
    jobs = [(seed, index, days, explore) for index in range(games)]
    if workers <= 1:
        return [play_and_record(job) for job in jobs]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        return pool.map(play_and_record, jobs, chunksize=16)


def screen(params: dict[str, np.ndarray], days: int, games: int, seed: int) -> tuple[int, int]:
    """Wins of the bot (float16 weights, as shipped) against greedy on the deals and seatings of
    ``tendays simulate --players learned,greedy --seed SEED``: (wins, games)."""
    bot = LearnedBot({k: np.asarray(v, np.float16).astype(np.float32) for k, v in params.items()},
                     EDITION, 2, days)
    edition = load_edition(EDITION)
    wins = 0
    for index in range(games):
        deal = random.Random(f"tendays-sim/{seed}/{index}").getrandbits(32)
        game = Game(edition, options(days), deal)
        seat = index % 2  # the simulator's rotation: player 0 (learned) sits in seat ``index % 2``
        play_bots(game, [bot, GreedyBot()] if seat == 0 else [GreedyBot(), bot])
        wins += game.state.winner == seat
    return wins, games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="seeds the deals, the exploration and the weights")
    parser.add_argument("--games", type=int, default=3000, help="games of greedy against greedy to record")
    parser.add_argument("--explore", type=float, default=0.1, help="random-move rate of one seat per game")
    parser.add_argument("--days", type=int, default=10)
    parser.add_argument("--hidden", type=int, default=128, help="units of each of the two hidden layers")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--workers", type=int, default=2, help="processes recording games")
    parser.add_argument("--screen-games", type=int, default=200, help="games against greedy at the end (0: none)")
    parser.add_argument("--screen-seed", type=int, default=77, help="the tuning deals of the screen")
    parser.add_argument("--resume", type=Path, help="start from these weights (.npz) instead of new ones")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write the weights (default {OUT})")
    args = parser.parse_args(argv)

    began = time.monotonic()
    recorded = generate(args.seed, args.games, args.days, args.explore, args.workers)
    held_out = max(1, args.games // 10)
    train = [np.concatenate(parts) for parts in zip(*recorded[held_out:], strict=True)]
    test = [np.concatenate(parts) for parts in zip(*recorded[:held_out], strict=True)]
    print(f"recorded {args.games} games, {len(train[2])} training and {len(test[2])} held-out decisions "
          f"in {time.monotonic() - began:.0f} s", flush=True)

    edition = load_edition(EDITION)
    spec = PolicySpec.of(edition, options(args.days))
    start = load_policy(str(args.resume))[0] if args.resume else init_params(spec, args.hidden, args.seed)
    params = jax.tree.map(jnp.asarray, start)
    steps = args.epochs * max(1, len(train[2]) // args.batch)
    optimizer = optax.adam(optax.cosine_decay_schedule(args.lr, steps))
    opt_state = optimizer.init(params)

    def loss_of(p: dict, obs: jax.Array, mask: jax.Array, label: jax.Array) -> tuple[jax.Array, jax.Array]:
        logits, _ = forward(spec, p, obs.astype(jnp.float32), mask, jnp)
        log_probs = jax.nn.log_softmax(logits)
        loss = -jnp.take_along_axis(log_probs, label[:, None], axis=1).mean()
        return loss, (logits.argmax(axis=1) == label).mean()

    @jax.jit
    def step(p: dict, state: optax.OptState, obs: jax.Array, mask: jax.Array, label: jax.Array) -> tuple:
        (loss, _), grads = jax.value_and_grad(loss_of, has_aux=True)(p, obs, mask, label)
        updates, state = optimizer.update(grads, state, p)
        return optax.apply_updates(p, updates), state, loss

    evaluate = jax.jit(loss_of)

    def held_out_figures(p: dict) -> tuple[float, float]:
        losses, hits = [], []
        for lo in range(0, len(test[2]), 4096):
            loss, accuracy = evaluate(p, *(jnp.asarray(a[lo:lo + 4096]) for a in test))
            weight = len(test[2][lo:lo + 4096])
            losses.append(float(loss) * weight)
            hits.append(float(accuracy) * weight)
        return sum(losses) / len(test[2]), sum(hits) / len(test[2])

    rng = np.random.default_rng(args.seed)
    loss, accuracy = held_out_figures(params)
    print(f"{'epoch':>5} {'train loss':>10} {'held-out loss':>13} {'held-out accuracy':>17}", flush=True)
    print(f"{0:5d} {'':>10} {loss:13.4f} {100 * accuracy:16.1f}%", flush=True)
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(train[2]))
        total = 0.0
        batches = len(order) // args.batch
        for b in range(batches):
            pick = order[b * args.batch:(b + 1) * args.batch]
            params, opt_state, batch_loss = step(params, opt_state, *(jnp.asarray(a[pick]) for a in train))
            total += float(batch_loss)
        loss, accuracy = held_out_figures(params)
        print(f"{epoch:5d} {total / max(1, batches):10.4f} {loss:13.4f} {100 * accuracy:16.1f}%", flush=True)

    weights = {name: np.asarray(value) for name, value in params.items()}
    save_policy(args.out, weights, EDITION, options(args.days))
    print(f"weights written to {args.out} ({time.monotonic() - began:.0f} s)", flush=True)
    if args.screen_games:
        wins, games = screen(weights, args.days, args.screen_games, args.screen_seed)
        low, high = wilson(wins, games)
        print(f"screen against greedy (simulate seed {args.screen_seed}): {wins}/{games} = "
              f"{100 * wins / games:.1f}% [{100 * low:.0f}%, {100 * high:.0f}%]", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
