"""Routing and comparison for ``benchmarks/server_load.py --processes N``.

The shipped proxy (deploy/nginx/tendays.conf) sends every request about one game to one process, by
a consistent hash of the game's id, and says so (``X-Tendays-Route: game``), so that process takes
the game and stores, views and sends its moves. The benchmark's clients do the same without nginx:
:func:`game_home` picks a game's process by a hash of its id (any stable hash serves: what counts is
that every connection of a game goes to one process), and they send the header. ``--route spread``
puts a game's two seats on two processes and sends no header, as a proxy that spreads connections
does: then every move travels between processes.

:func:`compare_one` runs the same load on one process (on PostgreSQL) in a child run and puts its
figures beside the N-process ones. :func:`database_counts` reads what the database was asked
(transactions; with ``--pg-stats``, :func:`count_statements` loads ``pg_stat_statements`` and the
notice and fence statements are counted too), so a run can say what each move cost it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol

__all__ = [
    "ROUTE_HEADERS",
    "compare_one",
    "count_statements",
    "database_counts",
    "game_home",
    "idle_cpu",
    "per_move",
]

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


class Cluster(Protocol):
    """What is read of the benchmark's throwaway PostgreSQL cluster (tests/server/postgres.py)."""

    data: str

    def url(self, database: str) -> str: ...
    def _run(self, program: str, *args: str) -> None: ...
    def _admin(self, sql: str, database: str = "postgres") -> None: ...


def count_statements(cluster: Cluster, database: str) -> None:
    """Load ``pg_stat_statements`` into ``cluster`` (a restart) and create it in ``database``."""
    cluster._admin("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
    log = os.path.join(os.path.dirname(cluster.data), "log")  # not the caller's pipe: it stays open
    cluster._run("pg_ctl", "-D", cluster.data, "-l", log, "-w", "restart")
    cluster._admin("CREATE EXTENSION pg_stat_statements", database)


# Counted in pg_stat_statements: (name, what the statement's text holds). "rows" of a notice
# statement are the notices it sent.
_STATEMENTS = {"notify": "pg_notify(", "fence": "SET lease_epoch=games.lease_epoch"}


def database_counts(cluster: Cluster, database: str, statements: bool) -> dict[str, float]:
    """The database's committed transactions so far (every commit, and every listening session's
    wake-up at a notifying commit) and, with ``statements``, the calls and rows of the notice and
    fence statements since the last call (which resets them)."""
    import psycopg

    with psycopg.connect(cluster.url(database), autocommit=True) as db:
        counts: dict[str, float] = {}
        row = db.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
        counts["transactions"] = float(row[0]) if row else 0.0
        if statements:
            for name, holds in _STATEMENTS.items():
                calls, rows = db.execute(
                    "SELECT coalesce(sum(calls), 0), coalesce(sum(rows), 0) "
                    "FROM pg_stat_statements WHERE query LIKE %s",
                    (f"%{holds}%",),
                ).fetchone() or (0, 0)
                counts[f"{name}_statements"], counts[f"{name}_rows"] = float(calls), float(rows)
            top = db.execute(
                "SELECT calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) "
                "FROM pg_stat_statements ORDER BY calls DESC LIMIT 12"
            ).fetchall()
            for number, (calls, query) in enumerate(top):
                counts[f"top {number} {query}"] = float(calls)
            db.execute("SELECT pg_stat_statements_reset()")
        # the statistics of the transactions are sent to the collector now and then: make them so
        db.execute("SELECT pg_stat_clear_snapshot()")
    return counts


def per_move(before: dict[str, float], after: dict[str, float], moves: int) -> dict[str, Any]:
    """What the database was asked a move between two :func:`database_counts`."""
    if not moves:
        return {}
    names = {"transactions": "db_transactions_per_move"}
    names |= {f"{n}_statements": f"{n}_statements_per_move" for n in _STATEMENTS}
    names["notify_rows"] = "notices_per_move"
    asked: dict[str, Any] = {
        label: round((after[key] - (0.0 if key != "transactions" else before[key])) / moves, 3)
        for key, label in names.items()
        if key in after
    }
    # keyed "N query": two statements may open alike
    top = {k.split(" ", 1)[1]: round(v / moves, 3) for k, v in after.items() if k[:4] == "top "}
    if top:
        asked["statements_per_move"] = top  # the most called, by calls a move
    return asked
