"""Speed of the batched engine (tendays.batch, JAX, on the CPU unless told otherwise): decisions per
second in random play with legal-action masks, at several batch sizes, beside the scalar engine.

    python benchmarks/batch_speed.py            # a readable table
    python benchmarks/batch_speed.py --json     # {"batched_decisions_per_s": x (batch 4,096), ...}
    python benchmarks/batch_speed.py --quick    # only batch 4,096 for every measure
    python benchmarks/batch_speed.py --cpus 0   # on CPU core 0 only (steadier on a machine shared
                                                # with other work)
    python benchmarks/batch_speed.py --quick --no-pgx --no-keep-memory   # the vector env with
                                                                         # keep_memory=False
    python benchmarks/batch_speed.py --device gpu   # on JAX's GPU (exit 2 when it has none);
                                                    # auto: JAX's default device
    python benchmarks/batch_speed.py --sweep --max-batch 65536   # {"sweep": [one row of the
                                  # headline's keys per batch 1, 2, 4, ...], ...}; without
                                  # --max-batch, up to what the device's memory holds

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
  its default unless ``--no-keep-memory``) in each observation form: uint8 tile ids
  (``observation="indices"``, ``vector_env_steps_per_s``), the compact uint8 blocks
  (``vector_env_compact_steps_per_s``) and the float32 ones (``vector_env_float32_steps_per_s``):
  ``step`` from Python with every game's observation and mask handed back as numpy arrays, actions
  drawn by a compiled random choice from the mask, the agent's key split in the same call (measured
  last, since ``keep_memory`` changes how the process keeps memory). For each form also its bytes a
  game (``..._observation_bytes``), the microseconds a game that building the observation alone
  takes (``..._observation_us``, compiled, best call) and the floor: steps per second if a step cost
  nothing but writing a fresh observation array of that shape (``..._floor_steps_per_s``, numpy,
  under the same memory settings);
* pgx's ``leduc_holdem`` and ``kuhn_poker`` and this game's pgx env (``tendays.rl.make_pgx_env``)
  with indices observations (``pgx_tendays_steps_per_s``) and compact ones
  (``pgx_tendays_compact_steps_per_s``) (``pip install -e ".[pgx]"``, optional; null without it) at
  the same batch sizes, in the same kind of compiled loop (random legal actions, auto-reset,
  observations); ``vector_env_to_pgx_leduc`` and ``pgx_tendays_to_pgx_leduc`` are the ratios to
  ``pgx_leduc_steps_per_s`` in the same run;
* the scalar PettingZoo AEC env on one core (``benchmarks/env_speed.py``'s measure).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
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
# The vector env's observation forms, the headline's first, and the prefix of their keys.
KEYS = {"indices": "vector_env", "compact": "vector_env_compact", "float32": "vector_env_float32"}
HEADROOM = 8  # a sweep's batch leaves this many times a game's arrays free per game


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


@jax.jit
def agent(key: jax.Array, mask: Any) -> tuple[jax.Array, jax.Array]:
    """The vector env's random agent: the next key and a uniformly random legal action per row of
    ``mask`` (numpy, as the env hands it out), in one compiled call (a key split from Python is a
    call of its own, 0.25 ms at batch 4,096)."""
    key, draw = jax.random.split(key)
    return key, random_actions(draw, jnp.asarray(mask))


def vector_env(args: argparse.Namespace, batch: int, observation: str) -> dict[str, Any]:
    """Steps per second (one decision in each game) of the Gymnasium vector env, from Python."""
    from tendays.rl.vector import TenDaysVectorEnv

    env = TenDaysVectorEnv(
        batch,
        args.edition,
        players=args.players,
        days=args.days,
        turn_limit=args.turn_limit,
        opponents="self",
        keep_memory=args.keep_memory,
        observation=observation,
    )
    key = jax.random.key(0)
    began = time.perf_counter()
    _, info = env.reset(seed=0)
    key, actions = agent(key, info["action_mask"])  # compiles: not in the timed loop
    env.step(actions)
    compile_s = time.perf_counter() - began
    calls = 0
    began = time.perf_counter()
    while calls == 0 or time.perf_counter() - began < args.seconds:
        key, actions = agent(key, info["action_mask"])
        obs, _, _, _, info = env.step(actions)
        calls += 1
    assert obs.shape == (batch, *env.single_observation_space.shape)
    return {
        "batch": batch,
        "steps_per_s": batch * calls / (time.perf_counter() - began),
        "compile_s": compile_s,
        "observation_size": obs.shape[1],
        "observation_bytes": int(obs.nbytes) // batch,
    }


def observation_cost(args: argparse.Namespace, batch: int, form: str) -> float:
    """Microseconds per game for building the observation alone in ``form`` (compiled, best of
    several calls), in games 60 random decisions after the deal."""
    from tendays.batch import forms

    options = Options(players=args.players, days=args.days, turn_limit=args.turn_limit)
    env = BatchEnv(args.edition, options, auto_reset=True)

    def play(state: BatchState, key: jax.Array) -> BatchState:
        def one(state: BatchState, key: jax.Array) -> tuple[BatchState, None]:
            return env.step(state, random_actions(key, env.legal_action_mask(state))), None

        return jax.lax.scan(one, state, jax.random.split(key, 60))[0]

    state = jax.jit(play)(env.init(jax.random.split(jax.random.key(0), batch)), jax.random.key(1))
    view = jax.jit(lambda state: forms.observe_as(env.config, state, state.current, form))
    jax.block_until_ready(view(state))
    best = float("inf")
    ends = time.perf_counter() + args.seconds
    while best == float("inf") or time.perf_counter() < ends:
        began = time.perf_counter()
        jax.block_until_ready(view(state))
        best = min(best, time.perf_counter() - began)
    return best / batch * 1e6


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
    name: str,
    batch: int,
    seconds: float,
    args: argparse.Namespace | None = None,
    observation: str = "indices",
) -> dict[str, Any] | None:
    """Steps per second of a pgx game (random legal actions, auto-reset, observations), or None
    without pgx. ``name`` "tendays" is this game's pgx env (``tendays.rl.make_pgx_env``, with
    ``observation``)."""
    try:
        import pgx
        from pgx.experimental import auto_reset
    except ImportError:
        return None
    if name == "tendays":
        from tendays.rl.pgx_env import make_pgx_env

        assert args is not None
        env = make_pgx_env(
            args.edition,
            players=args.players,
            days=args.days,
            turn_limit=args.turn_limit,
            observation=observation,
        )
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
        "game": name if name != "tendays" else f"tendays_{observation}",
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


def vector_figures(args: argparse.Namespace, batch: int) -> dict[str, Any]:
    """The vector env in each observation form of ``args.observations`` at one batch size: steps
    per second, the floor (writing a fresh observation array alone), bytes per game and the
    observation's own cost, under each form's key prefix (``KEYS``)."""
    out: dict[str, Any] = {}
    for form in args.observations:
        row = vector_env(args, batch, form)
        dtype = np.float32 if form == "float32" else np.uint8
        key = KEYS[form]
        out[f"{key}_steps_per_s"] = round(row["steps_per_s"])
        out[f"{key}_compile_s"] = round(row["compile_s"], 2)
        out[f"{key}_observation_bytes"] = row["observation_bytes"]
        out[f"{key}_observation_us"] = round(observation_cost(args, batch, form), 3)
        floor = observation_floor(batch, row["observation_size"], args.seconds, dtype)
        out[f"{key}_floor_steps_per_s"] = round(floor)
    return out


def figures(
    args: argparse.Namespace,
    row: dict[str, Any],
    pgx_rows: list[dict[str, Any] | None],
    vectors: dict[str, Any],
    scalars: dict[str, Any],
) -> dict[str, Any]:
    """The flat figures of one batch size (the headline, or one row of a sweep)."""

    def pgx_rate(game: str) -> int | None:
        found = [r for r in pgx_rows if r and r["game"] == game and r["batch"] == row["batch"]]
        return round(found[0]["steps_per_s"]) if found else None

    leduc = pgx_rate("leduc_holdem")
    out = {
        "batch": row["batch"],
        "batched_decisions_per_s": round(row["decisions_per_s"]),
        "batched_compile_s": round(row["compile_s"], 2),
        "batched_cpu_ns_per_decision": round(row["cpu_ns_per_decision"], 1),
        **scalars,
        "vector_env_keep_memory": args.keep_memory,
        **vectors,
        "pgx_leduc_steps_per_s": leduc,
        "pgx_tendays_steps_per_s": pgx_rate("tendays_indices"),
        "pgx_tendays_compact_steps_per_s": pgx_rate("tendays_compact"),
    }
    for name in ("vector_env", "pgx_tendays"):
        rate = out.get(f"{name}_steps_per_s")
        out[f"{name}_to_pgx_leduc"] = round(rate / leduc, 3) if rate and leduc else None
    return out


def pgx_games(args: argparse.Namespace, batch: int) -> list[dict[str, Any] | None]:
    """pgx's games and this game's pgx env (indices and compact) at one batch size."""
    if args.no_pgx:
        return []
    return [
        pgx_game("leduc_holdem", batch, args.seconds),
        pgx_game("kuhn_poker", batch, args.seconds),
        pgx_game("tendays", batch, args.seconds, args, "indices"),
        pgx_game("tendays", batch, args.seconds, args, "compact"),
    ]


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
    parser.add_argument(
        "--device",
        choices=("cpu", "gpu", "auto"),
        default="cpu",
        help="the JAX device to run on (auto: JAX's default, a GPU when there is one)",
    )
    parser.add_argument(
        "--sweep",
        action="store_true",
        help="every measure at batch 1, 2, 4, ... until the device's memory or --max-batch",
    )
    parser.add_argument("--max-batch", type=int, help="the largest batch of a sweep")
    parser.add_argument(
        "--observations",
        nargs="+",
        choices=tuple(KEYS),
        default=list(KEYS),
        help="the vector env's observation forms to measure (default: all)",
    )
    return parser.parse_args()


def select_device(name: str) -> jax.Device:
    """The JAX device ``name`` asks for, made the default; exit 2 with a message when JAX has
    none."""
    if name == "auto":
        device = jax.devices()[0]
    else:
        try:
            device = jax.devices(name)[0]
        except RuntimeError:
            seen = ", ".join(sorted({d.platform for d in jax.devices()}))
            print(
                f"batch_speed.py: JAX has no {name.upper()} device here (it sees: {seen}). "
                f"Install a JAX build for it (for NVIDIA GPUs: pip install -U 'jax[cuda12]') "
                f"or run with --device cpu.",
                file=sys.stderr,
            )
            sys.exit(2)
    jax.config.update("jax_default_device", device)
    return device


def memory_bytes(device: jax.Device) -> int:
    """The memory the device may use: its allocator's limit (a GPU), or the machine's available
    memory (the CPU)."""
    stats = device.memory_stats() if device.platform != "cpu" else None
    if stats and "bytes_limit" in stats:
        return int(stats["bytes_limit"])
    with open("/proc/meminfo", encoding="ascii") as meminfo:
        for line in meminfo:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES"))


def bytes_per_game(env: BatchEnv) -> int:
    """What one game takes at most in the measures, with room to spare: its state, its float32
    observation and its mask, HEADROOM times over (the compiled loops keep several copies)."""
    state = env.init(jax.random.split(jax.random.key(0), 1))
    held = sum(leaf.nbytes for leaf in jax.tree.leaves(state) if hasattr(leaf, "nbytes"))
    return HEADROOM * (held + 4 * env.observation_size + env.num_actions)


def sweep_batches(args: argparse.Namespace, env: BatchEnv, device: jax.Device) -> list[int]:
    """1, 2, 4, ... while a batch fits the device's memory and ``--max-batch``."""
    room = memory_bytes(device) // bytes_per_game(env)
    largest = min(room, args.max_batch) if args.max_batch else room
    batches = []
    batch = 1
    while batch <= largest:
        batches.append(batch)
        batch *= 2
    return batches


def run_sweep(args: argparse.Namespace, env: BatchEnv, device: jax.Device) -> dict[str, Any]:
    """The figures of every batch of the sweep, one row each with the headline's keys."""
    options = env.options
    scalars = {
        "scalar_decisions_per_s": round(scalar(options, args.seconds))
        if args.edition == "usa"
        else None,
        "scalar_aec_steps_per_s": round(scalar_aec(args)) if args.edition == "usa" else None,
    }
    rows = []
    for batch in sweep_batches(args, env, device):
        row = batched(env, batch, args.seconds)
        rows.append(
            figures(args, row, pgx_games(args, batch), vector_figures(args, batch), scalars)
        )
    return {"sweep": rows, **setting(args, device)}


def setting(args: argparse.Namespace, device: jax.Device) -> dict[str, Any]:
    """What a run measured and where."""
    return {
        "edition": args.edition,
        "players": args.players,
        "days": args.days,
        "turn_limit": args.turn_limit,
        "device": device.platform,
        "device_kind": device.device_kind,
        "jax": jax.__version__,
        "cpus": os.cpu_count(),
        "cores_used": sorted(os.sched_getaffinity(0)),
        "load_average": round(os.getloadavg()[0], 2),
    }


def main(args: argparse.Namespace) -> None:
    device = select_device(args.device)
    if args.quick:
        args.batches = [HEADLINE]
    options = Options(players=args.players, days=args.days, turn_limit=args.turn_limit)
    env = BatchEnv(args.edition, options, auto_reset=True)
    if args.sweep:
        print(json.dumps(run_sweep(args, env, device)))
        return
    rows = [batched(env, batch, args.seconds) for batch in args.batches]
    scalar_rate = scalar(options, args.seconds) if args.edition == "usa" else None
    headline = next((row for row in rows if row["batch"] == HEADLINE), rows[-1])
    pgx_rows = [game for batch in args.batches for game in pgx_games(args, batch)]
    aec_rate = scalar_aec(args) if args.edition == "usa" else None
    scalars = {
        "scalar_decisions_per_s": None if scalar_rate is None else round(scalar_rate),
        "scalar_aec_steps_per_s": None if aec_rate is None else round(aec_rate),
    }
    # last: the vector env changes how this process's C library keeps memory
    vectors = vector_figures(args, headline["batch"])
    result = {
        **figures(args, headline, pgx_rows, vectors, scalars),
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
        **setting(args, device),
    }
    if args.json:
        print(json.dumps(result))
    else:
        show(args, result, rows, pgx_rows)


def show(
    args: argparse.Namespace,
    result: dict[str, Any],
    rows: list[dict[str, Any]],
    pgx_rows: list[dict[str, Any] | None],
) -> None:
    """The figures as a readable table."""
    print(
        f"{args.edition}, {args.players} players, {args.days} days, turn limit {args.turn_limit}; "
        f"jax {jax.__version__} on {result['device']}, {os.cpu_count()} CPUs, load average "
        f"{result['load_average']}"
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
    if result["scalar_decisions_per_s"] is not None:
        print(f"{'scalar':>8} {result['scalar_decisions_per_s']:>14,}")
    for form in args.observations:
        key = KEYS[form]
        print(
            f"vector env (self-play, {form} observations and masks to numpy), batch "
            f"{result['batch']:,}: {result[key + '_steps_per_s']:,} steps/s (first step "
            f"{result[key + '_compile_s']:.1f} s); its observation "
            f"{result[key + '_observation_bytes']:,} bytes a game, "
            f"{result[key + '_observation_us']:.3f} us a game to build; writing the "
            f"observations alone: {result[key + '_floor_steps_per_s']:,} steps/s"
        )
    for row in pgx_rows:
        if row:
            print(
                f"pgx {row['game']:>16}, batch {row['batch']:>6,}: {row['steps_per_s']:>12,.0f} "
                f"steps/s (compile {row['compile_s']:.1f} s)"
            )
    if not args.no_pgx and not any(pgx_rows):
        print("pgx: not installed (pip install pgx)")
    if result["scalar_aec_steps_per_s"] is not None:
        print(
            f"scalar PettingZoo AEC env, one process: {result['scalar_aec_steps_per_s']:,} steps/s"
        )


if __name__ == "__main__":
    options = arguments()
    if options.cpus:  # before the backend starts its threads, which then keep to these cores
        os.sched_setaffinity(0, set(options.cpus))
    jnp.zeros(())  # start the backend before any timing
    main(options)
