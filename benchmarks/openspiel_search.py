"""OpenSpiel's own search against the ladder: an outside yardstick for our bots.

OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, the Python
port that accepts a Python game) plays ``python_tendays`` (:mod:`tendays.rl.openspiel`) against one
of our bots in two-player USA games. Each simulation starts from a world sampled from the search's
information state (``resample_from_infostate``: the tiles it has not seen dealt again at random).
OpenSpiel's C++ ``ISMCTSBot`` cannot take a Python game: its trampoline offers no resampling.

The leaf evaluator (``--evaluator``):

- ``race`` (the default): a leaf is worth the player's journey progress
  (:class:`tendays.rl.progress.RackProgress`, satisfied conditions out of days + 1) less the
  opponents' average, in the sampled world; a finished game, its returns;
- ``progress``: the player's own progress alone;
- ``rollout``: OpenSpiel's ``RandomRolloutEvaluator``. Random play almost never completes a
  journey before the turn limit, so its rollouts nearly all return 0 and the search has little to
  go on (kept to show it).

Games are duplicate: each deal is played twice with the seats swapped, on the ladder's report
deals (tournament seed 20261130, never used for tuning; ``--deals tune`` for the tuning deals).
Our bots choose from their view of the true deal (:func:`tendays.engine.view`) with the
simulator's dice (:func:`tendays.engine.decision_rng`); the OpenSpiel state follows the same deal
(:meth:`tendays.rl.openspiel.TenDaysState.follow`) and the search sees only its information state.

Usage::

    nice -n 5 python benchmarks/openspiel_search.py --opponent easy --games 100 --simulations 50
    python benchmarks/openspiel_search.py --games 2 --simulations 2 --json

Prints the search's win rate with a 95% Wilson interval over the games, the paired result over the
deals (won on both seatings, split, won on none; the interval over deals as ``tendays simulate
--duplicate`` gives it), seconds per search move and the load average. Needs the ``openspiel`` and
``rl`` extras.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from tendays.bots import LEVELS, make_bot, refusal
from tendays.engine import decision_rng, load_edition, new_game, view
from tendays.rl.openspiel import TenDaysGame, TenDaysState
from tendays.rl.progress import RackProgress
from tendays.sim import GameResult, Tournament
from tendays.sim.stats import wilson
from tendays.sim.tournament import paired

SEEDS = {"tune": 1000, "report": 20261130}  # the ladder's deals (benchmarks/ladder.py)
MAX_TURNS = 300  # the ladder's turn limit (both players together)
SEARCH = "ismcts"
# OpenSpiel's usual 2 explores too much for leaf values a few hundredths apart: with race leaves,
# 0.3 and 0.1 won 2 of 10 tuning games against the beginner, 2 and 0.5 none
UCT_C = 0.3


class ProgressEvaluator(mcts.Evaluator):  # type: ignore[misc]  # open_spiel has no types
    """Values a leaf by journey progress in its (sampled) world: each player's own, or (``race``)
    less the opponents' average; priors are uniform."""

    def __init__(self, game: TenDaysGame, race: bool) -> None:
        self._progress = RackProgress(game.rules.edition)
        self._conditions = game.rules.options.days + 1
        self._race = race

    def evaluate(self, state: TenDaysState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        scores = np.array([self._progress.score(rack) for rack in state.state.racks], float)
        if self._race:
            scores -= (scores.sum() - scores) / (len(scores) - 1)
        return scores / self._conditions

    def prior(self, state: TenDaysState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


@dataclass(frozen=True, slots=True)
class Played:
    """One game: its result as the simulator records it, and the search's thinking."""

    result: GameResult
    search_seconds: float
    search_moves: int


def search_bot(
    game: TenDaysGame, simulations: int, evaluator: str, seed: int, uct_c: float = UCT_C
) -> ismcts.ISMCTSBot:
    """OpenSpiel's IS-MCTS, ``simulations`` per move, its worlds and dice drawn from ``seed``."""
    random_state = np.random.RandomState(seed)
    leaf = (
        mcts.RandomRolloutEvaluator(1, random_state)
        if evaluator == "rollout"
        else ProgressEvaluator(game, race=evaluator == "race")
    )
    bot = ismcts.ISMCTSBot(
        game,
        leaf,
        uct_c,
        simulations,
        random_state=random_state,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    bot.set_resampler(
        lambda state, player: state.resample_from_infostate(player, random_state.uniform)
    )
    return bot


def play(
    tournament: Tournament, index: int, simulations: int, evaluator: str, uct_c: float = UCT_C
) -> Played:
    """Game ``index`` of the duplicate ``tournament`` (player 0 the search, player 1 our bot)."""
    game = pyspiel.load_game(
        "python_tendays",
        {
            "players": 2,
            "turns": MAX_TURNS // 2,
            "edition": tournament.edition,
            "days": tournament.days,
        },
    )
    codec = game.rules.codec
    seed = tournament.game_seed(index)
    seating = tournament.seating(index)
    search = search_bot(game, simulations, evaluator, seed, uct_c)
    opponent = make_bot(tournament.players[1])
    truth = new_game(game.rules.edition, game.rules.options, seed)
    state = game.new_initial_state()
    think = [0.0, 0.0]
    decisions = [0, 0]
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.follow(truth)
            continue
        seat = state.current_player()
        player = seating[seat]
        started = time.perf_counter()
        if player == 0:
            move = codec.decode(search.step(state))
        else:
            move = opponent.choose(view(truth, seat), decision_rng(seed, seat, moves))
        think[player] += time.perf_counter() - started
        decisions[player] += 1
        truth = truth.apply(move)
        state.apply_action(codec.encode(move))
        moves += 1
        if state.state.racks != truth.racks:
            raise RuntimeError(f"game {index}: the OpenSpiel state left the deal at move {moves}")
    winner = None if truth.winner is None else seating[truth.winner]
    result = GameResult(
        index=index,
        seed=seed,
        seating=seating,
        winner=winner,
        turns=truth.turn,
        hit_limit=truth.winner is None,
        think_seconds=(think[0], think[1]),
        decisions=(decisions[0], decisions[1]),
        start_distance=(-1, -1),
    )
    return Played(result, think[0], decisions[0])


def report(tournament: Tournament, games: Sequence[Played], simulations: int) -> dict[str, Any]:
    """The figures: win rate and interval over games, the paired result, seconds per move."""
    results = [g.result for g in games]
    wins = sum(r.winner == 0 for r in results)
    moves = sum(g.search_moves for g in games)
    seconds = sum(g.search_seconds for g in games)
    pairs = paired(tournament, results, 0)
    opponent_seconds = sum(r.think_seconds[1] for r in results)
    opponent_moves = sum(r.decisions[1] for r in results)
    return {
        "search": f"{SEARCH} ({simulations} simulations)",
        "opponent": tournament.players[1],
        "games": len(results),
        "search_wins": wins,
        "opponent_wins": sum(r.winner == 1 for r in results),
        "limit_games": sum(r.hit_limit for r in results),
        "win_rate": wins / len(results),
        "ci95": list(wilson(wins, len(results))),
        "paired": pairs.to_json(),
        "seconds_per_move": seconds / moves if moves else None,
        "opponent_ms_per_move": 1000 * opponent_seconds / max(1, opponent_moves),
        "load_average": os.getloadavg()[0],
        "seed": tournament.seed,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games (even: two per deal)")
    parser.add_argument("--simulations", type=int, default=50, help="simulations per move")
    parser.add_argument("--opponent", default="easy", help=f"one of {', '.join(LEVELS)}, greedy")
    parser.add_argument("--days", type=int, default=10, help="days per journey (10)")
    parser.add_argument("--evaluator", choices=("race", "progress", "rollout"), default="race")
    parser.add_argument("--uct", type=float, default=UCT_C, help="UCT exploration constant")
    parser.add_argument("--deals", choices=tuple(SEEDS), default="report")
    parser.add_argument("--seed", type=int, help="tournament seed (overrides --deals)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number of at least 2, not {args.games}")
    if args.simulations < 1:
        parser.error(f"--simulations must be at least 1, not {args.simulations}")
    if args.uct < 0:
        parser.error(f"--uct must not be negative, not {args.uct:g}")
    if args.opponent.startswith("cmd:"):
        parser.error("the opponent is one of our bots; external engines play in tendays simulate")
    try:
        make_bot(args.opponent)
    except ValueError as error:
        parser.error(str(error))
    seed = SEEDS[args.deals] if args.seed is None else args.seed
    tournament = Tournament(
        "usa", (SEARCH, args.opponent), args.games, seed, MAX_TURNS, args.days, duplicate=True
    )
    try:
        tournament.options().validate(load_edition("usa"))
    except ValueError as error:
        parser.error(str(error))
    reason = refusal(args.opponent, "usa", tournament.options())
    if reason is not None:
        parser.error(reason)
    games = [
        play(tournament, i, args.simulations, args.evaluator, args.uct) for i in range(args.games)
    ]
    figures = report(tournament, games, args.simulations)
    figures["evaluator"] = args.evaluator
    figures["uct_c"] = args.uct
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    low, high = figures["ci95"]
    pair = figures["paired"]
    print(
        f"{figures['search']}, {args.evaluator} leaves, UCT {args.uct:g}, against {args.opponent}: "
        f"{figures['search_wins']}/{figures['games']} won = {figures['win_rate']:.1%} "
        f"[{low:.1%}, {high:.1%}] ({figures['opponent_wins']} lost, "
        f"{figures['limit_games']} to the turn limit)"
    )
    print(
        f"paired over {pair['deals']} deals: won on both seatings {pair['won']}, split "
        f"{pair['split']}, won on none {pair['lost']}; interval over deals "
        f"[{pair['ci95'][0]:.1%}, {pair['ci95'][1]:.1%}]"
    )
    print(
        f"search {figures['seconds_per_move']:.3f} s per move, {args.opponent} "
        f"{figures['opponent_ms_per_move']:.1f} ms per move; load average "
        f"{figures['load_average']:.2f}; deals seed {seed}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
