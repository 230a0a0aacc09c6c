"""Speed of the batched engine (tendays.batch, JAX on the CPU): decisions per second in random play
with legal-action masks, at several batch sizes, beside the scalar engine.

    python benchmarks/batch_speed.py            # a readable table
    python benchmarks/batch_speed.py --json     # {"batched_decisions_per_s": x (batch 4,096), ...}
    python benchmarks/batch_speed.py --quick    # only batch 4,096 for every measure
    python benchmarks/batch_speed.py --cpus 0   # on CPU core 0 only (steadier on a machine shared
                                                # with other work)
    python benchmarks/batch_speed.py --quick --no-pgx --no-keep-memory   # the vector env with
                                                                         # keep_memory=False

Each step of the batch builds the legal-action mask of every game (bool[B, actions], as
``BatchEnv.legal_action_mask`` gives it), picks a uniformly random legal action from each row
(``choose_actions``) and applies them all (``BatchEnv.step``); finished games are dealt anew in the
same step, so every step is one decision in each of the B games. Many steps run inside one compiled
loop, and the random numbers for a call's steps are drawn before it. Compilation is timed apart.
Besides decisions per second (wall clock), the CPU time per decision is reported: on a shared
machine it changes less with the load than the wall clock does. The scalar figure plays the same
games through ``tendays.engine`` (list the legal moves, pick one, apply it) on one core. Games are
2-player USA with 10 days and a 300-turn limit unless told otherwise. The machine's load is
reported: on a shared machine the figures fall with it.

Beside it, in the same run:

* the vector env (``tendays.rl.vector.TenDaysVectorEnv``, self-play, batch 4,096, ``keep_memory`` as
  its default unless ``--no-keep-memory``), with compact uint8 observations
  (``vector_env_steps_per_s``) and with the float32 ones (``vector_env_float32_steps_per_s``):
  ``step`` from Python with every game's observation and mask handed back as numpy arrays, actions
  drawn by a compiled random choice from the mask (measured last, since ``keep_memory`` changes how
  the process keeps memory);
* pgx's ``leduc_holdem`` and ``kuhn_poker`` and this game's pgx env (``tendays.rl.make_pgx_env``,
  ``pgx_tendays_steps_per_s``) (``pip install -e ".[pgx]"``, optional; null without it) at the same
  batch sizes, in the same kind of compiled loop (random legal actions, auto-reset, observations);
* the scalar PettingZoo AEC env on one core (``benchmarks/env_speed.py``'s measure);
* the floor under the vector env: steps per second if a step cost nothing but writing a fresh
  observation array of the same shape, uint8 and float32 (numpy, after the vector env, so under the
  same memory settings).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from engine_speed import decisions_per_second  # the same measurement as the engine benchmark

from tendays.batch import BatchEnv, BatchState, choose_actions, random_actions
from tendays.engine import Options, load_edition

BATCHES = (1, 256, 4096, 65536)
HEADLINE = 4096


def batched(env: BatchEnv, batch: int, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Decisions per second at one batch size, and the time to compile the loop."""
    steps = max(8, min(2000, 1_000_000 // batch))

    def run(state: BatchState, key: jax.Array) -> tuple[BatchState, jax.Array]:
        key, draw = jax.random.split(key)
        uniforms = jax.random.uniform(draw, (steps, batch))

        def one(i: jax.Array, state: BatchState) -> BatchState:
            return env.step(state, choose_actions(env.legal_action_mask(state), uniforms[i]))

        return jax.lax.fori_loop(0, steps, one, state), key

    state = env.init(jax.random.split(jax.random.key(seed), batch))
    key = jax.random.key(seed + 1)
    began = time.perf_counter()
    compiled = jax.jit(run).lower(state, key).compile()
    compile_s = time.perf_counter() - began
    state, key = jax.block_until_ready(compiled(state, key))  # warm up, and leave the deal behind
    calls = 0
    began, cpu = time.perf_counter(), time.process_time()
    while calls == 0 or time.perf_counter() - began < seconds:
        state, key = jax.block_until_ready(compiled(state, key))
        calls += 1
    elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
    decisions = batch * steps * calls
    return {
        "batch": batch,
        "decisions_per_s": decisions / elapsed,
        "cpu_ns_per_decision": cpu / decisions * 1e9,
        "compile_s": compile_s,
        "steps_per_call": steps,
    }


def vector_env(args: argparse.Namespace, batch: int, observation: str) -> dict[str, Any]:
    """Steps per second (one decision in each game) of the Gymnasium vector env, from Python."""
    from tendays.rl.vector import TenDaysVectorEnv

    env = TenDaysVectorEnv(
        batch,
        args.edition,
        args.players,
        args.days,
        turn_limit=args.turn_limit,
        opponents="self",
        keep_memory=args.keep_memory,
        observation=observation,
    )
    pick = jax.jit(random_actions)
    key = jax.random.key(0)
    began = time.perf_counter()
    _, info = env.reset(seed=0)
    env.step(np.asarray(pick(key, info["action_mask"])))
    compile_s = time.perf_counter() - began
    calls = 0
    began = time.perf_counter()
    while calls == 0 or time.perf_counter() - began < args.seconds:
        key, draw = jax.random.split(key)
        obs, _, _, _, info = env.step(pick(draw, info["action_mask"]))
        calls += 1
    assert obs.shape == (batch, env.game.observation_size)
    return {
        "batch": batch,
        "steps_per_s": batch * calls / (time.perf_counter() - began),
        "compile_s": compile_s,
        "observation_size": env.game.observation_size,
        "observation_bytes": int(obs.nbytes) // batch,
    }


def observation_floor(batch: int, size: int, seconds: float, dtype: Any = np.float32) -> float:
    """Steps per second if each step only wrote a fresh ``dtype[batch,
    size]`` array (the observations)."""
    calls = 0
    began = time.perf_counter()
    while calls == 0 or time.perf_counter() - began < seconds:
        observations = np.empty((batch, size), dtype)
        observations.fill(1.0)
        del observations
        calls += 1
    return batch * calls / (time.perf_counter() - began)


def pgx_game(
    name: str, batch: int, seconds: float, args: argparse.Namespace | None = None
) -> dict[str, Any] | None:
    """Steps per second of a pgx game (random legal actions, auto-reset, observations), or None
    without pgx. ``name`` "tendays" is this game's pgx env (``tendays.rl.make_pgx_env``,
    compact observations)."""
    try:
        import pgx
        from pgx.experimental import auto_reset
    except ImportError:
        return None
    if name == "tendays":
        from tendays.rl.pgx_env import make_pgx_env

        assert args is not None
        env = make_pgx_env(args.edition, args.players, days=args.days, turn_limit=args.turn_limit)
    else:
        env = pgx.make(name)
    steps = max(8, min(2000, 1_000_000 // batch))
    step = jax.vmap(auto_reset(env.step, env.init))

    def run(state: Any, key: jax.Array) -> tuple[Any, jax.Array]:
        def one(_: jax.Array, carry: tuple[Any, jax.Array]) -> tuple[Any, jax.Array]:
            state, key = carry
            key, choose, chance = jax.random.split(key, 3)
            actions = random_actions(choose, state.legal_action_mask)
            return step(state, actions, jax.random.split(chance, batch)), key

        return jax.lax.fori_loop(0, steps, one, (state, key))

    state = jax.vmap(env.init)(jax.random.split(jax.random.key(0), batch))
    key = jax.random.key(1)
    began = time.perf_counter()
    compiled = jax.jit(run).lower(state, key).compile()
    compile_s = time.perf_counter() - began
    state, key = jax.block_until_ready(compiled(state, key))
    calls = 0
    began = time.perf_counter()
    while calls == 0 or time.perf_counter() - began < seconds:
        state, key = jax.block_until_ready(compiled(state, key))
        calls += 1
    assert state.observation.shape[0] == batch
    return {
        "game": name,
        "batch": batch,
        "steps_per_s": batch * steps * calls / (time.perf_counter() - began),
        "compile_s": compile_s,
    }


def scalar_aec(args: argparse.Namespace) -> float:
    """Steps per second of the PettingZoo AEC env (benchmarks/env_speed.py's measure), this
    process's core."""
    from env_speed import aec_steps

    return aec_steps(args)[0]


def scalar(options: Options, seconds: float) -> float:
    """Decisions per second of the scalar engine in the same random games, on one core."""
    return decisions_per_second(seconds, load_edition("usa"), options)[0]


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument(
        "--batches", type=int, nargs="+", default=list(BATCHES), help="batch sizes to measure"
    )
    parser.add_argument("--edition", default="usa")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--days", type=int, default=10)
    parser.add_argument("--turn-limit", type=int, default=300)
    parser.add_argument("--quick", action="store_true", help="batch 4,096 only, for every measure")
    parser.add_argument("--no-pgx", action="store_true", help="skip the pgx games")
    parser.add_argument(
        "--cpus", type=int, nargs="+", help="run on these CPU cores only (default: any)"
    )
    parser.add_argument(
        "--no-keep-memory",
        dest="keep_memory",
        action="store_false",
        help="the vector env with keep_memory=False (the C library's own memory settings)",
    )
    return parser.parse_args()


def main(args: argparse.Namespace) -> None:
    if args.quick:
        args.batches = [HEADLINE]
    options = Options(players=args.players, days=args.days, turn_limit=args.turn_limit)
    env = BatchEnv(args.edition, options, auto_reset=True)
    rows = [batched(env, batch, args.seconds) for batch in args.batches]
    scalar_rate = scalar(options, args.seconds) if args.edition == "usa" else None
    headline = next((row for row in rows if row["batch"] == HEADLINE), rows[-1])
    pgx_rows = (
        []
        if args.no_pgx
        else [
            pgx_game(game, batch, args.seconds, args)
            for game in ("leduc_holdem", "kuhn_poker", "tendays")
            for batch in args.batches
        ]
    )
    leduc, own = (
        next(
            (
                row
                for row in pgx_rows
                if row and row["game"] == game and row["batch"] == headline["batch"]
            ),
            None,
        )
        for game in ("leduc_holdem", "tendays")
    )
    aec_rate = scalar_aec(args) if args.edition == "usa" else None
    # last: they change how this process's C library keeps memory
    wide = vector_env(args, headline["batch"], "float32")
    vector = vector_env(args, headline["batch"], "compact")
    floor = observation_floor(vector["batch"], vector["observation_size"], args.seconds, np.uint8)
    wide_floor = observation_floor(vector["batch"], vector["observation_size"], args.seconds)
    result = {
        "batched_decisions_per_s": round(headline["decisions_per_s"]),
        "batched_compile_s": round(headline["compile_s"], 2),
        "batched_cpu_ns_per_decision": round(headline["cpu_ns_per_decision"], 1),
        "batch": headline["batch"],
        "scalar_decisions_per_s": None if scalar_rate is None else round(scalar_rate),
        "vector_env_steps_per_s": round(vector["steps_per_s"]),
        "vector_env_compile_s": round(vector["compile_s"], 2),
        "vector_env_keep_memory": args.keep_memory,
        "vector_env_floor_steps_per_s": round(floor),
        "vector_env_observation_bytes": vector["observation_bytes"],
        "vector_env_float32_steps_per_s": round(wide["steps_per_s"]),
        "vector_env_float32_floor_steps_per_s": round(wide_floor),
        "vector_env_float32_observation_bytes": wide["observation_bytes"],
        "pgx_leduc_steps_per_s": None if leduc is None else round(leduc["steps_per_s"]),
        "pgx_tendays_steps_per_s": None if own is None else round(own["steps_per_s"]),
        "scalar_aec_steps_per_s": None if aec_rate is None else round(aec_rate),
        "pgx": [
            {
                **row,
                "steps_per_s": round(row["steps_per_s"]),
                "compile_s": round(row["compile_s"], 2),
            }
            for row in pgx_rows
            if row
        ],
        "table": [
            {
                **row,
                "decisions_per_s": round(row["decisions_per_s"]),
                "compile_s": round(row["compile_s"], 2),
                "cpu_ns_per_decision": round(row["cpu_ns_per_decision"], 1),
            }
            for row in rows
        ],
        "edition": args.edition,
        "players": args.players,
        "days": args.days,
        "turn_limit": args.turn_limit,
        "jax": jax.__version__,
        "cpus": os.cpu_count(),
        "cores_used": sorted(os.sched_getaffinity(0)),
        "load_average": round(os.getloadavg()[0], 2),
    }
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{args.edition}, {args.players} players, {args.days} days, turn limit {args.turn_limit}; "
        f"jax {jax.__version__}, {os.cpu_count()} CPUs, load average {result['load_average']}"
    )
    print(
        f"{'batch':>8} {'decisions/s':>14} {'CPU ns/decision':>16} {'compile s':>10} "
        f"{'steps/call':>11}"
    )
    for row in rows:
        print(
            f"{row['batch']:>8,} {row['decisions_per_s']:>14,.0f} "
            f"{row['cpu_ns_per_decision']:>16,.0f} {row['compile_s']:>10.1f} "
            f"{row['steps_per_call']:>11}"
        )
    if scalar_rate is not None:
        print(f"{'scalar':>8} {scalar_rate:>14,.0f}")
    for row, dtype, alone in ((vector, "uint8", floor), (wide, "float32", wide_floor)):
        print(
            f"vector env (self-play, {dtype} observations and masks to numpy), batch "
            f"{row['batch']:,}: {row['steps_per_s']:,.0f} steps/s (first step "
            f"{row['compile_s']:.1f} s); writing its observations alone "
            f"({row['observation_bytes']:,} bytes a game): {alone:,.0f} steps/s"
        )
    for row in pgx_rows:
        if row:
            print(
                f"pgx {row['game']:>13}, batch {row['batch']:>6,}: {row['steps_per_s']:>12,.0f} "
                f"steps/s (compile {row['compile_s']:.1f} s)"
            )
    if not args.no_pgx and not any(pgx_rows):
        print("pgx: not installed (pip install pgx)")
    if aec_rate is not None:
        print(f"scalar PettingZoo AEC env, one process: {aec_rate:,.0f} steps/s")


if __name__ == "__main__":
    options = arguments()
    if options.cpus:  # before the backend starts its threads, which then keep to these cores
        os.sched_setaffinity(0, set(options.cpus))
    jnp.zeros(())  # start the backend before any timing
    main(options)
