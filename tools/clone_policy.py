"""Train the learned bot's network by behaviour cloning: imitate the greedy bot's moves.

    pip install -e ".[batch]"                                               # jax, numpy, optax
    python tools/clone_policy.py --games 6000 --seed 1 --screen-games 400 --out clone.npz
        # the shipped policy's step 1; then tools/train_policy.py --resume: docs/rl.md

Data: 2-player, 10-day USA games of the scalar engine, the greedy bot in both seats; in every game
one seat (alternating) plays a uniformly random legal move instead of greedy's with probability
``--explore``, so the data also shows states greedy would not reach. At every decision with a
choice, of either seat, it records the network's input exactly as the learned bot sees it
(:func:`tendays.bots.learned.encode`), the legal-action mask (the engine's ``ActionCodec``) and the
moves greedy chooses there (the labels, even where a random move is played): greedy breaks ties
between equally good moves at random, so it is asked with ``--tie-samples`` random streams and every
move it gives is a right answer. Deals come from their own range (``tendays-clone/...``), apart from
the deals the bot is screened and measured on. With ``--rounds`` above 1 (DAgger), each later round
records new games in which the network trained so far plays the exploring seat, so the data also
covers the states the network itself leads to, still labelled by greedy.

Training: the network of :mod:`tendays.bots.learned` (run with ``jax.numpy``), masked cross-entropy
of the probability of greedy's moves (the sum over its ties), Adam; a tenth of the games is held
out. Each epoch prints the training loss and the held-out loss and accuracy (the share of held-out
decisions where the network's most likely move is one greedy could play). After each round the
weights are written (float16) to ``--out`` and screened against the greedy bot on the tuning deals
of ``tendays simulate --seed SCREEN_SEED`` (seats rotating). ``--resume`` starts from given weights;
``tools/train_policy.py --resume`` fine-tunes cloned weights by PPO.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=1")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402

from tendays.bots import GreedyBot  # noqa: E402
from tendays.bots.learned import (
    NETWORK_ONLY,
    LearnedBot,
    PolicySpec,
    encode,
    forward,
    init_params,
    load_policy,
    save_policy,
)  # noqa: E402
from tendays.engine import ActionCodec, Game, load_edition, next_decision  # noqa: E402
from tendays.engine.chance import Purpose, stream  # noqa: E402
from tendays.sim.stats import wilson  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the trainer beside this script
from train_policy import EDITION, OUT, options, wins_on_tuning_deals  # noqa: E402

_LEARNER: LearnedBot | None = None  # the network playing the exploring seat after the first round


def _set_learner(params: dict[str, np.ndarray] | None, days: int) -> None:
    global _LEARNER
    _LEARNER = None if params is None else LearnedBot(params, EDITION, 2, days)


def play_and_record(
    job: tuple[int, int, int, float, int],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observations (float16), legal masks and greedy's moves (bool, its ties) at every choice of
    game ``index`` of ``seed``. The exploring seat plays greedy's move, or the learner's when there
    is one (set by :func:`_set_learner`), or with probability ``explore`` a random one."""
    seed, index, days, explore, tie_samples = job
    edition, game_options = load_edition(EDITION), options(days)
    spec, codec, greedy = PolicySpec.of(edition, game_options), ActionCodec(days), GreedyBot()
    rng = stream(Purpose.CLONING, seed, index)
    game = Game(edition, game_options, rng.getrandbits(32))
    explorer = index % 2
    observations, masks, labels = [], [], []
    while (decision := next_decision(game)) is not None:
        moves = decision.view.legal_moves()
        move = greedy.choose(decision.view, decision.rng)
        if len(moves) > 1:
            observations.append(encode(decision.view, spec).astype(np.float16))
            masks.append(np.frombuffer(codec.mask(moves), np.int8).astype(bool))
            chosen = np.zeros(codec.size, bool)
            chosen[codec.encode(move)] = True
            for sample in range(1, tie_samples):
                tie_rng = stream(Purpose.CLONING, seed, index, game.move_count, sample)
                chosen[codec.encode(greedy.choose(decision.view, tie_rng))] = True
            labels.append(chosen)
            if decision.seat == explorer:
                if rng.random() < explore:
                    move = rng.choice(moves)
                elif _LEARNER is not None:
                    move = _LEARNER.choose(decision.view, decision.rng)
        game.play(move, decision.seat)
    return np.array(observations), np.array(masks), np.array(labels)


def generate(
    seed: int,
    first: int,
    games: int,
    days: int,
    explore: float,
    tie_samples: int,
    workers: int,
    learner: dict[str, np.ndarray] | None = None,
) -> list[tuple[np.ndarray, ...]]:
    """One (observations, masks, labels) triple per game, for games
    ``first`` .. ``first + games - 1``."""
    jobs = [(seed, index, days, explore, tie_samples) for index in range(first, first + games)]
    if workers <= 1:
        _set_learner(learner, days)
        try:
            return [play_and_record(job) for job in jobs]
        finally:
            _set_learner(None, days)
    with multiprocessing.get_context("spawn").Pool(workers, _set_learner, (learner, days)) as pool:
        return pool.map(play_and_record, jobs, chunksize=16)


def screen(params: dict[str, np.ndarray], days: int, games: int, seed: int) -> tuple[int, int]:
    """Wins of the bot (float16 weights, as shipped) against greedy on the deals and seatings of
    ``tendays simulate --players learned,greedy --seed SEED``: (wins, games)."""
    return wins_on_tuning_deals(params, days, games, seed), games


def fit(
    spec: PolicySpec,
    params: dict,
    train: list[np.ndarray],
    test: list[np.ndarray],
    epochs: int,
    batch: int,
    lr: float,
    rng: np.random.Generator,
    round_: int,
) -> dict:
    """``epochs`` passes of Adam (cosine-decayed from ``lr``) over
    ``train``, printing a row per epoch."""
    optimizer = optax.adam(optax.cosine_decay_schedule(lr, epochs * max(1, len(train[2]) // batch)))
    opt_state = optimizer.init(params)

    def loss_of(
        p: dict, obs: jax.Array, mask: jax.Array, label: jax.Array
    ) -> tuple[jax.Array, jax.Array]:
        logits, _ = forward(spec, p, obs.astype(jnp.float32), mask, jnp)
        log_probs = jax.nn.log_softmax(logits)
        # any of greedy's ties
        loss = -jax.nn.logsumexp(jnp.where(label, log_probs, -jnp.inf), axis=1).mean()
        return loss, jnp.take_along_axis(label, logits.argmax(axis=1)[:, None], axis=1).mean()

    @jax.jit
    def step(
        p: dict, state: optax.OptState, obs: jax.Array, mask: jax.Array, label: jax.Array
    ) -> tuple:
        (loss, _), grads = jax.value_and_grad(loss_of, has_aux=True)(p, obs, mask, label)
        updates, state = optimizer.update(grads, state, p)
        return optax.apply_updates(p, updates), state, loss

    evaluate = jax.jit(loss_of)

    def held_out(p: dict) -> tuple[float, float]:
        loss = accuracy = 0.0
        for lo in range(0, len(test[2]), 4096):
            part = [jnp.asarray(a[lo : lo + 4096]) for a in test]
            figures = evaluate(p, *part)
            loss, accuracy = (
                loss + float(figures[0]) * len(part[2]),
                accuracy + float(figures[1]) * len(part[2]),
            )
        return loss / len(test[2]), accuracy / len(test[2])

    loss, accuracy = held_out(params)
    print(f"{round_:5d} {0:5d} {'':>10} {loss:13.4f} {100 * accuracy:16.1f}%", flush=True)
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(train[2]))
        batches, total = len(order) // batch, 0.0
        for b in range(batches):
            pick = np.sort(order[b * batch : (b + 1) * batch])
            params, opt_state, batch_loss = step(
                params, opt_state, *(jnp.asarray(a[pick]) for a in train)
            )
            total += float(batch_loss)
        loss, accuracy = held_out(params)
        print(
            f"{round_:5d} {epoch:5d} {total / max(1, batches):10.4f} {loss:13.4f} "
            f"{100 * accuracy:16.1f}%",
            flush=True,
        )
    return params


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--seed", type=int, default=1, help="seeds the deals, the exploration and the weights"
    )
    parser.add_argument("--games", type=int, default=6000, help="games recorded per round")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="rounds of recording and training; from the "
        "second on, the network trained so far plays the exploring seat",
    )
    parser.add_argument(
        "--explore", type=float, default=0.1, help="random-move rate of one seat per game"
    )
    parser.add_argument(
        "--tie-samples", type=int, default=8, help="random streams greedy is asked with"
    )
    parser.add_argument("--days", type=int, default=10)
    parser.add_argument(
        "--hidden", type=int, default=128, help="units of each of the two hidden layers"
    )
    parser.add_argument(
        "--epochs", type=int, default=10, help="passes over the data recorded so far, per round"
    )
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--workers", type=int, default=2, help="processes recording games")
    parser.add_argument(
        "--screen-games", type=int, default=200, help="games against greedy per round (0: none)"
    )
    parser.add_argument(
        "--screen-seed", type=int, default=77, help="the tuning deals of the screen"
    )
    parser.add_argument(
        "--resume", type=Path, help="start from these weights (.npz) instead of new ones"
    )
    parser.add_argument(
        "--out", type=Path, default=OUT, help=f"where to write the weights (default {OUT})"
    )
    args = parser.parse_args(argv)

    began = time.monotonic()
    spec = PolicySpec.of(load_edition(EDITION), options(args.days))
    try:
        start = (
            load_policy(str(args.resume))[0]
            if args.resume
            else init_params(spec, args.hidden, args.seed, yardstick=NETWORK_ONLY, net_scale=1.0)
        )
    except ValueError as error:  # not weights, or weights of an earlier network
        parser.error(str(error))
    params = jax.tree.map(jnp.asarray, start)
    rng = np.random.default_rng(args.seed)
    train_parts: list[tuple[np.ndarray, ...]] = []
    test_parts: list[tuple[np.ndarray, ...]] = []
    for round_ in range(1, args.rounds + 1):
        learner = (
            None
            if round_ == 1
            else {k: np.asarray(v, np.float16).astype(np.float32) for k, v in params.items()}
        )
        recorded = generate(
            args.seed,
            (round_ - 1) * args.games,
            args.games,
            args.days,
            args.explore,
            args.tie_samples,
            args.workers,
            learner,
        )
        held_out = max(1, args.games // 10)
        test_parts += recorded[:held_out]
        train_parts += recorded[held_out:]
        train = [np.concatenate(parts) for parts in zip(*train_parts, strict=True)]
        test = [np.concatenate(parts) for parts in zip(*test_parts, strict=True)]
        print(
            f"round {round_}: recorded {args.games} games; {len(train[2])} training and "
            f"{len(test[2])} held-out decisions in all ({time.monotonic() - began:.0f} s)",
            flush=True,
        )
        print(
            f"{'round':>5} {'epoch':>5} {'train loss':>10} {'held-out loss':>13} "
            f"{'held-out accuracy':>17}",
            flush=True,
        )
        params = fit(spec, params, train, test, args.epochs, args.batch, args.lr, rng, round_)
        weights = {name: np.asarray(value) for name, value in params.items()}
        save_policy(args.out, weights, EDITION, options(args.days))
        print(f"weights written to {args.out} ({time.monotonic() - began:.0f} s)", flush=True)
        if args.screen_games:
            wins, games = screen(weights, args.days, args.screen_games, args.screen_seed)
            low, high = wilson(wins, games)
            print(
                f"round {round_}: screen against greedy (simulate seed {args.screen_seed}): "
                f"{wins}/{games} = {100 * wins / games:.1f}% [{100 * low:.0f}%, {100 * high:.0f}%]",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
