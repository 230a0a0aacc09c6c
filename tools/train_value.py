"""Fit the learned position value (src/tendays/bots/value.py) on greedy-against-greedy games.

Plays ``--games`` two-player games of the greedy bot against itself (game seeds from ``--seed`` on,
each decision's dice from the game's seed), records every position at the start of a turn from
both players' side with who finished first, and fits a logistic regression (Newton's method with a
small ridge) on all but the last ``--held-out`` share of the games. Prints the held-out log loss
beside two simpler judges (the base rate, and the distance cells alone) and, with ``--write``,
stores the weights in src/tendays/bots/value.npz.

    python tools/train_value.py --games 4000 --seed 500000 --write

The shipped weights come from that command (game seeds 500000-503999, far from any tournament's
deals): about 30 ms of one core a game (two minutes for the 4,000) and seconds to fit.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from tendays.bots import make_bot
from tendays.bots.value import FEATURES, WEIGHTS, position_features
from tendays.engine import Options, Phase, apply, load_edition, new_game, view


def play(edition: str, days: int, seed: int) -> tuple[list[list[float]], list[float], list[int]]:
    """One greedy game: the features of every turn's start from both sides, the labels, the game."""
    state = new_game(load_edition(edition), Options(players=2, days=days), seed)
    bots = [make_bot("greedy"), make_bot("greedy")]
    rng = random.Random(seed)
    rows: list[list[float]] = []
    owners: list[int] = []
    while not state.is_over and state.turn < 300:
        if state.phase is Phase.DRAW:
            for p in (0, 1):
                rows.append(position_features(state, p))
                owners.append(p)
        p = state.current
        state = apply(state, bots[p].choose(view(state, p), rng))
    labels = [1.0 if state.winner == p else 0.0 for p in owners]
    return rows, labels, [seed] * len(rows)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Logistic regression by Newton's method; the last column of ``x`` is the bias."""
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) / len(y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x / len(y) + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30))), 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=500000, help="first game seed")
    parser.add_argument("--edition", default="usa")
    parser.add_argument("--days", type=int, default=10)
    parser.add_argument("--held-out", type=float, default=0.2, help="share of games to test on")
    parser.add_argument("--write", action="store_true", help=f"store the weights in {WEIGHTS}")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    rows: list[list[float]] = []
    labels: list[float] = []
    games: list[int] = []
    for i in range(args.games):
        game_rows, game_labels, game_seeds = play(args.edition, args.days, args.seed + i)
        rows += game_rows
        labels += game_labels
        games += game_seeds
    played = time.perf_counter() - started
    x = np.hstack([np.array(rows), np.ones((len(rows), 1))])
    y = np.array(labels)
    test = np.array(games) >= args.seed + int(args.games * (1 - args.held_out))
    w = fit(x[~test], y[~test])
    cells = 2 * 4 * 4
    cell_cols = list(range(cells)) + [x.shape[1] - 1]
    w_cells = fit(x[~test][:, cell_cols], y[~test])
    base = float(y[~test].mean())
    base_loss = -float(np.mean(y[test] * np.log(base) + (1 - y[test]) * np.log(1 - base)))
    print(f"{args.games} games, {len(y)} positions ({int(test.sum())} held out), {played:.0f} s")
    print(f"held-out log loss: base rate {base_loss:.4f}, distance cells alone ", end="")
    print(f"{log_loss(x[test][:, cell_cols], y[test], w_cells):.4f}, all features ", end="")
    print(f"{log_loss(x[test], y[test], w):.4f}")
    if args.write:
        w = fit(x, y)  # the shipped weights use every game
        np.savez(
            args.out,
            features=np.array(FEATURES),
            weights=w[:-1],
            bias=np.array(w[-1]),
            edition=np.array(args.edition),
            days=np.array(args.days),
            players=np.array(2),
            games=np.array(args.games),
            seed=np.array(args.seed),
        )
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
