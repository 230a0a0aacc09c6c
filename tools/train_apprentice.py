"""Fit the apprentice (src/tendays/bots/apprentice.py) by expert iteration.

Round 0 imitates the race bot: ``--race-games`` two-player games of the race bot against itself
(game seeds from ``--seed`` on) record, at every decision with a choice, the features of every
legal move and the move the race bot chose; a softmax over the legal moves, linear per phase, is
fitted by cross-entropy (Newton's method with a small ridge). Each further round (``--rounds``)
plays ``--expert-games`` games of the current apprentice against the race bot (game seeds after the
race games'), lets the expert's search (plausible rival racks, the race bot's move to beat, the
current apprentice playing every rollout, ``--rollouts`` a decision) choose the move in
``--expert-decisions`` of the apprentice's positions after the draft, spread over those games, and
refits on the search's choices (weighted ``--expert-weight``) beside the race bot's. Prints each
fit's agreement with the moves of the held-out last ``--held-out`` share of each set's games;
``--write`` stores the last fit in src/tendays/bots/apprentice.npz. ``--minutes`` stops a round's
search at that budget (the choices made by then are kept).

    python tools/train_apprentice.py --race-games 200 --rounds 1 --expert-games 40 \\
        --expert-decisions 300 --rollouts 32 --seed 600000 --minutes 15 --write

The shipped weights come from that command (game seeds 600000-600239, far from any tournament's
deals): about 5 minutes of one core in all, 26 minutes wall-clock on a shared two-core machine at
load averages of 10 to 19, where the 15-minute budget stopped the search after 298 of its 300
positions (on an idle machine it reaches all 300, and the weights differ a little).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tendays.bots.apprentice import (
    FEATURES,
    PHASES,
    WEIGHTS,
    Apprentice,
    ApprenticeBot,
    Seat,
    move_features,
)
from tendays.bots.base import Bot
from tendays.bots.expert import ExpertBot
from tendays.bots.race import RaceBot
from tendays.engine import Move, Options, Phase, PlayerView, apply, load_edition, new_game, view


@dataclass
class Decisions:
    """For each phase: feature rows, the decision each belongs to, whether it was chosen."""

    rows: list[list[list[float]]] = field(default_factory=lambda: [[], [], []])
    group: list[list[int]] = field(default_factory=lambda: [[], [], []])
    chosen: list[list[float]] = field(default_factory=lambda: [[], [], []])
    game: list[list[int]] = field(default_factory=lambda: [[], [], []])
    count: int = 0

    def add(self, seat: Seat, moves: list[Move], move: Move, game: int) -> None:
        k = PHASES.index(seat.phase)
        for row, m in zip(move_features(seat, moves), moves, strict=True):
            self.rows[k].append(row)
            self.group[k].append(self.count)
            self.chosen[k].append(1.0 if m == move else 0.0)
            self.game[k].append(game)
        self.count += 1


def play(
    edition: str, days: int, seed: int, bots: list[Bot], record: set[int], out: Decisions
) -> list[PlayerView]:
    """One game; records the decisions of the seats in ``record`` with more than one legal move,
    and returns their views after the draft."""
    state = new_game(load_edition(edition), Options(players=2, days=days), seed)
    rng = random.Random(seed)
    views = []
    while not state.is_over and state.turn < 300:
        p = state.current
        v = view(state, p)
        move = bots[p].choose(v, rng)
        moves = list(v.legal_moves())
        if p in record and len(moves) > 1:
            out.add(Seat.of_view(v), moves, move, seed)
            if v.phase is not Phase.DRAFT:
                views.append(v)
        state = apply(state, move)
    return views


Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _arrays(sets: list[tuple[Decisions, float]], k: int, part: str, held_out: float) -> Arrays:
    """Phase ``k``'s rows of every set: ``part`` is "train" (all but the last ``held_out`` share
    of each set's games), "test" (that share) or "all"."""
    xs, gs, ys, ws = [], [], [], []
    offset = 0
    for data, weight in sets:
        seeds = np.array(data.game[k], dtype=np.int64)
        mask = np.ones(len(seeds), dtype=bool)
        if part != "all" and len(seeds):
            games = np.unique(seeds)
            cut = games[min(len(games) - 1, int(len(games) * (1 - held_out)))]
            mask = seeds < cut if part == "train" else seeds >= cut
        if mask.any():
            xs.append(np.array(data.rows[k])[mask])
            gs.append(np.array(data.group[k])[mask] + offset)
            ys.append(np.array(data.chosen[k])[mask])
            ws.append(np.full(int(mask.sum()), weight))
        offset += data.count
    if not xs:
        return np.zeros((0, len(FEATURES))), np.zeros(0, int), np.zeros(0), np.zeros(0)
    x, g, y, w = (np.concatenate(a) for a in (xs, gs, ys, ws))
    _, g = np.unique(g, return_inverse=True)
    return x, g, y, w


def fit(
    x: np.ndarray, g: np.ndarray, y: np.ndarray, wt: np.ndarray, ridge: float = 1e-2
) -> np.ndarray:
    """Softmax cross-entropy over each decision's rows (decision weights ``wt``, per row, equal
    within a decision) with a ridge, by Newton's method halving any step that does not help."""
    groups = int(g.max()) + 1
    dw = np.zeros(groups)
    dw[g] = wt
    total = dw.sum()

    def probabilities(w: np.ndarray) -> tuple[np.ndarray, float]:
        z = x @ w
        zmax = np.full(groups, -np.inf)
        np.maximum.at(zmax, g, z)
        e = np.exp(z - zmax[g])
        s = np.zeros(groups)
        np.add.at(s, g, e)
        p = e / s[g]
        chosen = np.zeros(groups)
        np.add.at(chosen, g, y * np.log(np.maximum(p, 1e-300)))
        loss = -float((chosen * dw).sum()) / total + 0.5 * ridge * float(w @ w)
        return p, loss

    w = np.zeros(x.shape[1])
    p, loss = probabilities(w)
    for _ in range(50):
        grad = x.T @ ((p - y) * dw[g]) / total + ridge * w
        m = np.zeros((groups, x.shape[1]))
        np.add.at(m, g, x * p[:, None])
        hess = (x * (p * dw[g])[:, None]).T @ x - (m * dw[:, None]).T @ m
        hess = hess / total + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        for _ in range(30):
            p_new, loss_new = probabilities(w - step)
            if loss_new <= loss + 1e-12:
                break
            step = step / 2
        w, p, done = w - step, p_new, loss - loss_new < 1e-9
        loss = loss_new
        if done:
            break
    return w


def agreement(data: Arrays, w: np.ndarray) -> float:
    """The share of decisions whose highest logit is the chosen move."""
    x, g, y, _ = data
    z = x @ w
    groups = int(g.max()) + 1
    zmax = np.full(groups, -np.inf)
    np.maximum.at(zmax, g, z)
    hit = np.zeros(groups)
    np.maximum.at(hit, g, ((z >= zmax[g] - 1e-9) & (y > 0)).astype(float))
    return float(hit.mean())


def fit_all(sets: list[tuple[Decisions, float]], held_out: float, label: str) -> np.ndarray:
    """Fit each phase on the training part, print the held-out agreement (all sets, then each),
    and return the weights fitted on every game."""
    weights = np.zeros((len(PHASES), len(FEATURES)))
    for k, phase in enumerate(PHASES):
        train = _arrays(sets, k, "train", held_out)
        if not len(train[0]):
            continue
        w = fit(*train)
        scores = [f"{agreement(_arrays(sets, k, 'test', held_out), w):.3f}"]
        for data, _ in sets:  # each set's own held-out agreement
            own = _arrays([(data, 1.0)], k, "test", held_out)
            scores.append(f"{agreement(own, w):.3f}" if len(own[0]) else "-")
        print(f"  {label} {phase.name.lower()}: held-out agreement {' / '.join(scores)}")
        weights[k] = fit(*_arrays(sets, k, "all", held_out))  # shipped: every game
    return weights


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--race-games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=1, help="rounds of imitating the search")
    parser.add_argument("--expert-games", type=int, default=40, help="apprentice games a round")
    parser.add_argument("--expert-decisions", type=int, default=400, help="searched a round")
    parser.add_argument("--rollouts", type=int, default=64)
    parser.add_argument("--expert-weight", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=600000, help="first game seed")
    parser.add_argument("--edition", default="usa")
    parser.add_argument("--days", type=int, default=10)
    parser.add_argument("--held-out", type=float, default=0.2)
    parser.add_argument("--minutes", type=float, default=30.0, help="budget of any round's play")
    parser.add_argument("--write", action="store_true", help=f"store the weights in {WEIGHTS}")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args(argv)

    def playing(
        games: int, first: int, make: Callable[[int], list[Bot]], seat: Callable[[int], set[int]]
    ) -> tuple[Decisions, list[tuple[int, PlayerView]]]:
        out = Decisions()
        views: list[tuple[int, PlayerView]] = []
        for i in range(games):
            views += [
                (first + i, v)
                for v in play(args.edition, args.days, first + i, make(i), seat(i), out)
            ]
        return out, views

    started = time.perf_counter()
    race, _ = playing(
        args.race_games, args.seed, lambda i: [RaceBot(), RaceBot()], lambda i: {0, 1}
    )
    print(
        f"race: {race.count} decisions of {args.race_games} games, "
        f"{time.perf_counter() - started:.0f} s"
    )
    weights = fit_all([(race, 1.0)], args.held_out, "round 0")
    sets = [(race, 1.0)]
    first = args.seed + args.race_games
    for r in range(1, args.rounds + 1):
        policy = Apprentice(args.edition, args.days, 2, tuple(tuple(w) for w in weights))
        learner = ApprenticeBot(policy)
        # positions the apprentice itself reaches against the race bot (seat 0, then 1)
        started = time.perf_counter()

        def seats(i: int, a: Bot = learner) -> list[Bot]:
            return [a, RaceBot()] if i % 2 == 0 else [RaceBot(), a]

        _, views = playing(args.expert_games, first, seats, lambda i: {i % 2})
        first += args.expert_games
        step = max(1, len(views) // max(1, args.expert_decisions))
        chosen = views[::step][: args.expert_decisions]
        search = ExpertBot(
            iterations=args.rollouts,
            read_rivals=True,
            learned_start=True,
            start=RaceBot(),
            playout=policy.state_move,
        )
        expert = Decisions()
        left = differ = 0
        for i, (seed, v) in enumerate(chosen):
            if time.perf_counter() - started > 60 * args.minutes:
                left = len(chosen) - i
                break
            move = search.choose(v, random.Random(seed * 1000 + i))
            differ += move != RaceBot().choose(v, random.Random(0))
            expert.add(Seat.of_view(v), list(v.legal_moves()), move, seed)
        print(
            f"round {r}: the search chose {expert.count} moves in "
            f"{time.perf_counter() - started:.0f} s, {differ} unlike the race bot's"
            + (f" ({left} left: budget)" if left else "")
        )
        sets.append((expert, args.expert_weight))
        weights = fit_all(sets, args.held_out, f"round {r}")
    if args.write:
        np.savez(
            args.out,
            features=np.array(FEATURES),
            weights=weights,
            edition=np.array(args.edition),
            days=np.array(args.days),
            players=np.array(2),
            seed=np.array(args.seed),
            race_games=np.array(args.race_games),
            rounds=np.array(args.rounds),
        )
        print(f"wrote {args.out}")
    print("weights (rows: " + ", ".join(p.name.lower() for p in PHASES) + "):")
    for name, column in zip(FEATURES, weights.T, strict=True):
        print(f"  {name:15s} " + " ".join(f"{c:8.3f}" for c in column))
    return 0


if __name__ == "__main__":
    sys.exit(main())
