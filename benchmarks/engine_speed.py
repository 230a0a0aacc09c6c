"""Engine speed on one core: decisions per second in random play, journey checks per second.

    python benchmarks/engine_speed.py            # a readable table
    python benchmarks/engine_speed.py --json     # {"decisions_per_s": x, "checks_per_s": y, ...}

Decisions go through the public API exactly as a simulator uses it: list the legal moves, pick
one at random, apply it; games are 2-player USA with a 300-turn limit. Journey checks use
``JourneyChecker.is_complete`` on racks met in those games (most fail at an early step) and,
separately, on complete journeys (every step checked: the slowest case), plus full verdicts in words.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from tendays.engine import Edition, Options, apply, checker_for, legal_moves, load_edition, new_game


def decisions_per_second(seconds: float, edition: Edition | None = None,
                         options: Options | None = None) -> tuple[float, int]:
    """Random legal moves through the public API for ``seconds``: (decisions per second, games played).

    By default 2-player USA games with a 300-turn limit; game ``g`` uses seed ``g`` for deal and choices.
    """
    edition = edition or load_edition("usa")
    options = options or Options(players=2, turn_limit=300)
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rng = random.Random(games)
        state = new_game(edition, options, games)
        while not state.is_over:
            state = apply(state, rng.choice(legal_moves(state)))
            decisions += 1
        games += 1
    return decisions / (time.perf_counter() - start), games


def sample_racks(count: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Racks from random games, and complete journeys found by walking the map."""
    edition = load_edition("usa")
    checker = checker_for(edition)
    rng = random.Random(1)
    seen: list[tuple[int, ...]] = []
    seed = 0
    while len(seen) < count:
        state = new_game(edition, Options(players=4, turn_limit=100), seed)
        while not state.is_over:
            state = apply(state, rng.choice(legal_moves(state)))
            if state.phase.name == "DRAW":
                seen.extend(tuple(r) for r in state.racks)  # type: ignore[misc]
        seed += 1
    complete: list[tuple[int, ...]] = []
    regions = [t.index for t in edition.tiles if t.is_region and checker.neighbors[t.index]]
    while len(complete) < 200:
        walk = [rng.choice(regions)]
        while len(walk) < 10:
            options = sorted(checker.neighbors[walk[-1]] - set(walk))
            if not options:
                break
            walk.append(rng.choice(options))
        if len(walk) == 10:
            assert checker.is_complete(walk)
            complete.append(tuple(walk))
    return seen[:count], complete


def checks_per_second(racks: list[tuple[int, ...]], full: bool = False, seconds: float = 1.0) -> float:
    checker = checker_for(load_edition("usa"))
    check = checker.check if full else checker.is_complete
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for rack in racks:
            check(rack)
        done += len(racks)
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    decisions, games = decisions_per_second(args.seconds)
    seen, complete = sample_racks(20_000)
    checks = checks_per_second(seen, seconds=args.seconds)
    complete_checks = checks_per_second(complete, seconds=args.seconds)
    verdicts = checks_per_second(seen[:2000], full=True, seconds=args.seconds)
    if args.json:
        print(json.dumps({"decisions_per_s": round(decisions), "checks_per_s": round(checks),
                          "complete_checks_per_s": round(complete_checks), "verdicts_per_s": round(verdicts)}))
        return
    print(f"{'measure':44} {'per second':>12}")
    print(f"{'decisions, random 2-player games (' + str(games) + ' games)':44} {decisions:12,.0f}")
    print(f"{'journey checks, racks from play':44} {checks:12,.0f}")
    print(f"{'journey checks, complete journeys':44} {complete_checks:12,.0f}")
    print(f"{'full verdicts in words, racks from play':44} {verdicts:12,.0f}")


if __name__ == "__main__":
    main()
