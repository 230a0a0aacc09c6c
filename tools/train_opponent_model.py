"""Train the opponent model (``src/tendays/bots/opponent_model.json``) on self-play games.

    pip install -e ".[learn]"
    python tools/train_opponent_model.py --games 3000            # about two minutes on one core

Greedy bots play 2- to 4-player games of every edition (deal seeds from their own range, apart from
the deals on which bots are tuned and reported). At every decision, for each other player and each
tile whose copies the viewer cannot place, the view's features
(``tendays.bots.opponent_model.features``) are recorded with the truth from the full state: does
that player's hidden days hold a copy? A logistic regression (scikit-learn) is fitted on four fifths
of the games and checked on the rest against the uniform guess (every hidden day equally likely to
hold any unseen tile), by log loss and ROC AUC.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss, roc_auc_score

from tendays.bots import GreedyBot
from tendays.bots.opponent_model import FEATURES, features
from tendays.bots.reading import table_facts
from tendays.engine import Game, Options, available_editions, knowledge_of, next_decision

OUT = Path(__file__).resolve().parent.parent / "src" / "tendays" / "bots" / "opponent_model.json"
SEED_BASE = 7_000_000  # deal seeds of the training games: a range no tournament uses


def samples(game_number: int) -> tuple[list[list[float]], list[int]]:
    rng = random.Random(f"opponent-model/{game_number}")
    edition = rng.choice(available_editions())
    players = rng.choice((2, 2, 3, 4))
    game = Game(edition, Options(players=players, turn_limit=120), SEED_BASE + game_number)
    bot = GreedyBot()
    rows: list[list[float]] = []
    labels: list[int] = []
    while (decision := next_decision(game)) is not None:
        seen = decision.view
        if seen.phase.name == "DRAW" and rng.random() < 0.5:  # a sample of the decisions is plenty
            knowledge = knowledge_of(seen)
            facts = table_facts(seen)
            state = game.state
            for other in range(players):
                if other == seen.player:
                    continue
                hidden = {
                    t
                    for t, known, has in zip(
                        state.racks[other],
                        knowledge.racks[other],
                        knowledge.filled[other],
                        strict=True,
                    )
                    if has and known is None
                }
                for tile, row in features(seen.edition, knowledge, facts, other, seen.turn).items():
                    rows.append(row)
                    labels.append(int(tile in hidden))
        game.play(bot.choose(seen, decision.rng), decision.seat)
    return rows, labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--write", action="store_true", help=f"store the weights in {OUT.name}")
    args = parser.parse_args()
    started = time.perf_counter()
    split = args.games * 4 // 5
    data = [samples(g) for g in range(args.games)]
    x_train = np.array([r for rows, _ in data[:split] for r in rows])
    y_train = np.array([y for _, labels in data[:split] for y in labels])
    x_test = np.array([r for rows, _ in data[split:] for r in rows])
    y_test = np.array([y for _, labels in data[split:] for y in labels])
    print(
        f"{len(y_train):,} training rows, {len(y_test):,} held-out rows from {args.games} games "
        f"({time.perf_counter() - started:.0f} s)"
    )
    model = LogisticRegression(fit_intercept=False, C=10.0, max_iter=2000).fit(x_train, y_train)
    predicted = model.predict_proba(x_test)[:, 1]
    base = 1.0 / (1.0 + np.exp(-x_test[:, FEATURES.index("base_logit")]))
    print(
        f"held out: log loss {log_loss(y_test, predicted):.4f} (uniform guess "
        f"{log_loss(y_test, base):.4f}), ROC AUC {roc_auc_score(y_test, predicted):.3f} (uniform "
        f"guess {roc_auc_score(y_test, base):.3f})"
    )
    weights = {name: round(float(w), 5) for name, w in zip(FEATURES, model.coef_[0], strict=True)}
    print(json.dumps(weights))
    if args.write:
        OUT.write_text(
            json.dumps(
                {
                    "model": "logistic regression (scikit-learn) on "
                    "tendays.bots.opponent_model.features",
                    "trained_on": f"{args.games} self-play games of greedy bots, deal seeds from "
                    f"{SEED_BASE}",
                    "command": f"python tools/train_opponent_model.py --games {args.games} --write",
                    "held_out": {
                        "log_loss": round(float(log_loss(y_test, predicted)), 4),
                        "uniform_log_loss": round(float(log_loss(y_test, base)), 4),
                        "roc_auc": round(float(roc_auc_score(y_test, predicted)), 4),
                    },
                    "weights": weights,
                },
                indent=1,
            )
            + "\n",
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
