"""Engine speed on one core: decisions per second in random play, journey checks per second, and the
cost of one move early and late in a very long game.

    python benchmarks/engine_speed.py            # a readable table
    python benchmarks/engine_speed.py --json     # {"decisions_per_s": x, "checks_per_s": y, ...}

Decisions go through the public API exactly as a simulator uses it: list the legal moves, pick one
at random, apply it; games are 2-player USA with a 300-turn limit. Journey checks use
``JourneyChecker.is_complete`` on racks met in those games (most fail at an early step) and,
separately, on complete journeys (every step checked: the slowest case), plus full verdicts in
words. The cost of a move is timed at move 10 and at move 10,000 of one long random game without a
turn limit (the best of several runs of the next 2,000 moves): a state must not grow more expensive
to advance as its history grows.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from tendays.engine import (
    Edition,
    Move,
    Options,
    State,
    apply,
    checker_for,
    legal_moves,
    load_edition,
    new_game,
)

LATE_MOVE = 10_000


def decisions_per_second(
    seconds: float, edition: Edition | None = None, options: Options | None = None
) -> tuple[float, int]:
    """Random legal moves through the public API for ``seconds``: (decisions per second, games
    played).

    By default 2-player USA games with a 300-turn limit; game ``g`` uses seed ``g`` for deal and
    choices.
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


def long_game(length: int) -> tuple[State, list[Move]]:
    """The start and the moves of a random 2-player USA game that
    lasts at least ``length`` moves."""
    edition = load_edition("usa")
    seed = 0
    while True:
        rng = random.Random(seed)
        start = state = new_game(edition, Options(players=2), seed)
        moves: list[Move] = []
        while not state.is_over and len(moves) < length:
            move = rng.choice(legal_moves(state))
            state = apply(state, move)
            moves.append(move)
        if len(moves) == length:
            return start, moves
        seed += 1


def move_cost(
    start: State, moves: list[Move], at: int, count: int = 2000, repeats: int = 7
) -> float:
    """Microseconds per ``apply`` for moves ``at`` .. ``at + count`` of
    the game (best of ``repeats``)."""
    state = start
    for move in moves[:at]:
        state = apply(state, move)
    batch = moves[at : at + count]
    best = float("inf")
    for _ in range(repeats):
        current = state
        began = time.perf_counter()
        for move in batch:
            current = apply(current, move)
        best = min(best, time.perf_counter() - began)
    return best / len(batch) * 1e6


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


def checks_per_second(
    racks: list[tuple[int, ...]], full: bool = False, seconds: float = 1.0
) -> float:
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
    start, moves = long_game(LATE_MOVE + 2000)
    early, late = move_cost(start, moves, 10), move_cost(start, moves, LATE_MOVE)
    if args.json:
        print(
            json.dumps(
                {
                    "decisions_per_s": round(decisions),
                    "checks_per_s": round(checks),
                    "complete_checks_per_s": round(complete_checks),
                    "verdicts_per_s": round(verdicts),
                    "move_us_at_10": round(early, 2),
                    f"move_us_at_{LATE_MOVE}": round(late, 2),
                }
            )
        )
        return
    print(f"{'measure':44} {'per second':>12}")
    print(f"{'decisions, random 2-player games (' + str(games) + ' games)':44} {decisions:12,.0f}")
    print(f"{'journey checks, racks from play':44} {checks:12,.0f}")
    print(f"{'journey checks, complete journeys':44} {complete_checks:12,.0f}")
    print(f"{'full verdicts in words, racks from play':44} {verdicts:12,.0f}")
    print(
        f"{'moves applied, at move 10 of a long game':44} {1e6 / early:12,.0f}  ({early:.2f} µs "
        f"each)"
    )
    print(
        f"{'moves applied, at move ' + format(LATE_MOVE, ',') + ' of a long game':44} "
        f"{1e6 / late:12,.0f}  ({late:.2f} µs each)"
    )


if __name__ == "__main__":
    main()
