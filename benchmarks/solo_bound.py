"""Solo turns against the clairvoyant bound: how far each bot is from the fastest possible finish.

For each deal (USA, 10 days, alone, the deals of ``tendays simulate --seed SEED``) it computes the
clairvoyant bound (:mod:`tendays.sim.solo_bound`: the fewest turns any play could take knowing the
draw order) and plays each bot alone on it. Per bot it prints the mean turns with a 95% interval,
and splits the gap to the bound into the draft and the play after it: "after the draft" is the
clairvoyant's lower bound from the bot's own drafted rack, so bot turns minus that is lost in play,
and that minus the bound is lost (or, being a relaxation, at most lost) in the draft.

    python benchmarks/solo_bound.py --deals 200                      # report deals, seed 20261130
    python benchmarks/solo_bound.py --deals 200 --bots hard,greedy --json --workers 2
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from tendays.bots import make_bot
from tendays.bots.distance import analyze
from tendays.engine import Game, Move, Options, Phase, load_edition, new_game, play_bots
from tendays.sim import Tournament
from tendays.sim.solo_bound import after_draft_bound, solo_bound

REPORT_SEED = 20261130  # the report deals: never used while tuning
MAX_TURNS = 300


@dataclass(frozen=True, slots=True)
class Played:
    """One bot alone on one deal."""

    turns: int
    finished: bool
    after_draft: int  # the clairvoyant's lower bound from the bot's drafted rack
    distance: int  # the journey distance when the draft ended


def deal_seeds(seed: int, deals: int, edition: str) -> list[int]:
    """The game seeds of ``tendays simulate --seed SEED`` alone, deal by deal."""
    tournament = Tournament(edition, ("greedy",), games=deals, seed=seed)
    return [tournament.game_seed(i) for i in range(deals)]


def play_alone(spec: str, edition: str, seed: int) -> Played:
    game = Game(edition, Options(players=1, turn_limit=MAX_TURNS), seed)
    drafted: list[int] = []

    def after_move(seat: int, move: Move) -> None:
        state = game.state
        if not drafted and state.phase is not Phase.DRAFT:
            drafted.append(after_draft_bound(state) if not state.is_over else 0)
            drafted.append(analyze(state.edition, state.racks[0]).distance)

    play_bots(game, [make_bot(spec)], after_move)
    state = game.state
    print(f"{spec} seed {seed}: {state.turn} turns", file=sys.stderr, flush=True)  # progress
    return Played(state.turn, state.winner == 0, drafted[0], drafted[1])


def bound_of(edition: str, seed: int) -> int:
    return solo_bound(new_game(load_edition(edition), Options(players=1), seed)).turns


def interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=REPORT_SEED, help="the tournament seed")
    parser.add_argument("--edition", default="usa")
    parser.add_argument("--bots", default="hard,greedy", help="comma-separated bot specs")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    args = parser.parse_args(argv)
    seeds = deal_seeds(args.seed, args.deals, args.edition)
    bots = [b for b in args.bots.split(",") if b]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        bounds = list(pool.map(bound_of, [args.edition] * len(seeds), seeds))
        played = {
            bot: list(pool.map(play_alone, [bot] * len(seeds), [args.edition] * len(seeds), seeds))
            for bot in bots
        }
    elapsed = time.perf_counter() - started
    report: dict[str, object] = {
        "edition": args.edition,
        "seed": args.seed,
        "deals": args.deals,
        "seconds": round(elapsed, 1),
        "clairvoyant": _summary([float(b) for b in bounds]),
        "bots": {},
        "per_deal": {"seed": seeds, "clairvoyant": bounds},
    }
    bot_reports: dict[str, object] = {}
    for bot, games in played.items():
        turns = [float(g.turns) for g in games]
        bot_reports[bot] = {
            "turns": _summary(turns),
            "finished": sum(g.finished for g in games),
            "after_draft": _summary([float(g.after_draft) for g in games]),
            "distance_after_draft": statistics.fmean(g.distance for g in games),
            "lost_in_play": _summary([float(g.turns - g.after_draft) for g in games]),
            "gap_to_clairvoyant": _summary(
                [float(g.turns - b) for g, b in zip(games, bounds, strict=True)]
            ),
        }
        per_deal = report["per_deal"]
        assert isinstance(per_deal, dict)
        per_deal[bot] = [g.turns for g in games]
        per_deal[f"{bot} after draft"] = [g.after_draft for g in games]
    report["bots"] = bot_reports
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.deals} deals of seed {args.seed}, {args.edition}, alone ({elapsed:.0f} s)")
    print(f"{'player':<38} {'mean turns (95% interval)':<28} median")
    _row("clairvoyant (knows the draws)", [float(b) for b in bounds])
    for bot, games in played.items():
        _row(bot, [float(g.turns) for g in games])
        _row(f"  {bot}: clairvoyant after its draft", [float(g.after_draft) for g in games])
        _row(f"  {bot}: lost in play", [float(g.turns - g.after_draft) for g in games])
    return 0


def _summary(values: list[float]) -> dict[str, float]:
    mean, low, high = interval(values)
    return {
        "mean": round(mean, 3),
        "ci95": [round(low, 3), round(high, 3)],
        "median": statistics.median(values),
        "sd": round(statistics.stdev(values), 3) if len(values) > 1 else 0.0,
    }


def _row(name: str, values: list[float]) -> None:
    mean, low, high = interval(values)
    shown = f"{mean:.2f} ({low:.2f}-{high:.2f})"
    print(f"{name:<38} {shown:<28} {statistics.median(values):g}")


if __name__ == "__main__":
    sys.exit(main())
