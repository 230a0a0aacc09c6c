"""Routing and comparison for ``benchmarks/server_load.py --processes N``.

The shipped proxy (deploy/nginx/tendays.conf) sends every request about one game to one process, by
a consistent hash of the game's id, and says so (``X-Tendays-Route: game``), so that process takes
the game and stores, views and sends its moves. The benchmark's clients do the same without nginx:
:func:`game_home` picks a game's process by a hash of its id (any stable hash serves: what counts is
that every connection of a game goes to one process), and they send the header. ``--route spread``
puts a game's two seats on two processes and sends no header, as a proxy that spreads connections
does: then every move travels between processes.

:func:`compare_one` runs the same load on one process (on PostgreSQL) in a child run and puts its
figures beside the N-process ones.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol

__all__ = ["ROUTE_HEADERS", "compare_one", "game_home", "idle_cpu"]

# What the shipped nginx adds to a table connection (face/sockets/table.py reads it).
ROUTE_HEADERS = {"X-Tendays-Route": "game"}


def game_home(game_id: str, processes: int) -> int:
    """The process (an index) that every connection of ``game_id`` goes to."""
    return zlib.crc32(game_id.encode()) % processes


class Measured(Protocol):
    def cpu(self) -> float: ...


def idle_cpu(servers: Sequence[Measured], database: Callable[[], float], seconds: float) -> float:
    """CPU seconds a second that the ``servers`` and the ``database`` spend with no load, over
    ``seconds`` (0: not measured, 0.0). Several processes each have their own (lease renewals,
    sweeps, timers): a short run at a light load would count it as the moves' cost."""
    if seconds <= 0:
        return 0.0
    before = sum(s.cpu() for s in servers) + database()
    time.sleep(seconds)
    return (sum(s.cpu() for s in servers) + database() - before) / seconds


def _without(argv: list[str], options: set[str], with_value: set[str]) -> list[str]:
    """``argv`` less ``options`` (flags) and ``with_value`` (options with a value, either form)."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in options:
            continue
        if name in with_value:
            skip = "=" not in arg
            continue
        kept.append(arg)
    return kept


def compare_one(argv: list[str], result: dict[str, Any]) -> dict[str, Any]:
    """Run the same load on one server process on PostgreSQL (a child run of ``server_load.py``
    with ``argv`` less the process count), and return its figures (``one_process``) with the
    ratios of ``result``'s to them: CPU per move (servers and database) and p99."""
    child = _without(argv, {"--compare-one", "--json", "--postgres"}, {"--processes"})
    run = subprocess.run(
        [sys.executable, sys.argv[0], *child, "--processes", "1", "--postgres", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = run.stdout.strip().splitlines()
    if not lines:
        raise SystemExit(f"the one-process run failed: {run.stderr[-2000:]}")
    one: dict[str, Any] = json.loads(lines[-1])

    def ratio(key: str) -> float | None:
        mine, theirs = result.get(key), one.get(key)
        return round(mine / theirs, 2) if mine and theirs else None

    return {
        "one_process": one,
        "cpu_ratio_vs_one_process": ratio("cpu_ms_per_move"),
        "cpu_net_ratio_vs_one_process": ratio("cpu_ms_per_move_net"),
        "p99_ratio_vs_one_process": ratio("p99_ms"),
    }
