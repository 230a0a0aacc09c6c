"""RL environment speed on one core: steps per second of both APIs beside the raw engine.

    python benchmarks/env_speed.py            # a readable table
    python benchmarks/env_speed.py --json     # {"engine_decisions_per_s": x, "gym_steps_per_s": y,
                                              # ...}

All three play the same kind of game (default: 2-player USA, 10 days, the environments' default turn
limit of 100 turns per player) with uniformly random legal choices:

* engine: ``legal_moves`` / ``apply`` only, no views or observations;
* PettingZoo AEC: ``last()`` (the mover's observation and mask) then ``step`` for every decision;
* Gymnasium: ``step`` of the agent in seat 0; each step also plays the random bots' moves until the
  agent is to move again, so decisions per second (all seats) are shown too.

The random agent picks with Python's ``random`` from the mask's nonzero entries (about 1 µs), so the
figures measure the environments rather than the agent (numpy's ``Generator.choice`` alone costs
about 8 µs a call). The process is pinned to one CPU where the system allows it; the load average is
reported beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

from engine_speed import decisions_per_second  # the same measurement as the engine benchmark

from tendays.engine import EventKind, available_editions, load_edition
from tendays.rl import TenDaysEnv, env
from tendays.rl.common import env_options

_DECISIONS = {
    EventKind.DRAFT,
    EventKind.DRAW,
    EventKind.TAKE,
    EventKind.SWAP,
    EventKind.REPLACE,
    EventKind.DISCARD,
}


def engine_decisions(args: argparse.Namespace) -> tuple[float, int]:
    options = env_options(players=args.players, days=args.days)
    return decisions_per_second(args.seconds, load_edition(args.edition), options)


def aec_steps(args: argparse.Namespace) -> tuple[float, int]:
    aec = env(edition=args.edition, players=args.players, days=args.days)
    rng = random.Random(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        aec.reset(seed=games)
        for _agent in aec.agent_iter():
            obs, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            aec.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            steps += 1
        games += 1
    return steps / (time.perf_counter() - start), games


def gym_steps(args: argparse.Namespace) -> tuple[float, float, int]:
    gym_env = TenDaysEnv(
        edition=args.edition, players=args.players, days=args.days, opponents="random"
    )
    rng = random.Random(0)
    steps = decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        _, info = gym_env.reset(seed=games)
        done = False
        while not done:
            _, _, terminated, truncated, info = gym_env.step(
                rng.choice(info["action_mask"].nonzero()[0].tolist())
            )
            steps += 1
            done = terminated or truncated
        assert gym_env.state is not None
        decisions += sum(event.kind in _DECISIONS for event in gym_env.state.events)
        games += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, decisions / elapsed, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--edition", default="usa", choices=available_editions())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--days", type=int, default=10)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    engine, engine_games = engine_decisions(args)
    aec, aec_games = aec_steps(args)
    gym_rate, gym_decisions, gym_games = gym_steps(args)
    if args.json:
        print(
            json.dumps(
                {
                    "engine_decisions_per_s": round(engine),
                    "aec_steps_per_s": round(aec),
                    "gym_steps_per_s": round(gym_rate),
                    "gym_decisions_per_s": round(gym_decisions),
                    "edition": args.edition,
                    "players": args.players,
                    "days": args.days,
                    "load_average": round(os.getloadavg()[0], 2),
                }
            )
        )
        return
    print(
        f"{args.edition}, {args.players} players, {args.days} days, random legal play, one core, "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print(f"{'measure':52} {'per second':>12}")
    print(
        f"{'engine: decisions (legal_moves + apply), ' + str(engine_games) + ' games':52} "
        f"{engine:12,.0f}"
    )
    print(f"{'PettingZoo AEC: steps (last + step), ' + str(aec_games) + ' games':52} {aec:12,.0f}")
    print(f"{'Gymnasium: agent steps, ' + str(gym_games) + ' games':52} {gym_rate:12,.0f}")
    print(f"{'Gymnasium: decisions of all seats':52} {gym_decisions:12,.0f}")


if __name__ == "__main__":
    main()
