"""What a signed-in table connection pays, per message, to check that its session still lives.

    python benchmarks/session_check.py              # 10,000 sessions, 2,000 checks, SQLite
    python benchmarks/session_check.py --postgres   # the same on a throwaway PostgreSQL
    python benchmarks/session_check.py --json       # one JSON object

Seeds a fresh database (the migrations make it, as ``tendays serve`` does) with ``--sessions``
sessions of one account, then runs ``--checks`` checks, one after the other, of a table connection
held on one of them, exactly as the server does before it acts on a message
(:meth:`tendays.server.people.session_ends.SessionEnds.check`: one primary-key read of the sessions
table on a reader thread), and the same for a connection at an account's seat opened with its seat
link (one primary-key read of the seat row). Reports p50 and p99 in microseconds, from asking to
having the answer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import insert

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import percentile, postgres_cluster  # noqa: E402

from tendays.server.matches.lobby import Lobby  # noqa: E402
from tendays.server.matches.seats import hash_token  # noqa: E402
from tendays.server.people.session_ends import HeldTable, SessionEnds  # noqa: E402
from tendays.server.settings import MasterSettings  # noqa: E402
from tendays.server.storage.journal import Journal  # noqa: E402
from tendays.server.storage.schema import (  # noqa: E402
    AccountTable,
    GameTable,
    SeatTable,
    SessionTable,
)
from tendays.server.storage.store import Store  # noqa: E402


def seed(store: Store, sessions: int) -> tuple[str, str]:
    """One account with ``sessions`` sessions and a seat in one game: (a session hash, the seat's
    token hash)."""
    now = time.time()
    with store.engine.begin() as db:
        account = db.execute(
            insert(AccountTable).values(
                name="Alice", name_key="alice", password_hash="-", created=now
            )
        ).inserted_primary_key[0]  # type: ignore[index]
        rows = [
            {
                "id_hash": f"{i:064x}",
                "account_id": account,
                "csrf": "c",
                "created": now,
                "expires": now + 3600,
            }
            for i in range(sessions)
        ]
        db.execute(insert(SessionTable), rows)
        db.execute(
            insert(GameTable).values(
                id="g",
                edition="usa",
                options="{}",
                seed=1,
                created=datetime.now(UTC),
                finished=False,
                last_move_at=now,
            )
        )
        token_hash = hash_token("the seat link")
        db.execute(
            insert(SeatTable).values(
                game_id="g",
                seat=0,
                kind="human",
                name="Alice",
                token_hash=token_hash,
                account_id=account,
            )
        )
    return f"{sessions // 2:064x}", token_hash


async def measure(url: str, sessions: int, checks: int) -> dict[str, Any]:
    store = Store(url)
    session, token_hash = seed(store, sessions)
    lobby = Lobby(Journal(store), MasterSettings(bot_processes=0))
    ends = SessionEnds(lobby, time.time)

    async def closed(_: Any) -> None:
        raise AssertionError("the table was closed")

    found: dict[str, Any] = {"sessions": sessions, "checks": checks}
    for kind, table in (
        ("session", HeldTable("g", 0, closed, session_hash=session, session_account=1)),
        ("seat_link", HeldTable("g", 0, closed, link_account=1, token_hash=token_hash)),
    ):
        took = []
        for _ in range(checks):
            start = time.perf_counter()
            assert await ends.check(table) is None
            took.append((time.perf_counter() - start) * 1e6)
        found[kind] = {"p50_us": round(percentile(took, 50)), "p99_us": round(percentile(took, 99))}
    await lobby.journal.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--checks", type=int, default=2_000)
    parser.add_argument(
        "--postgres", action="store_true", help="a throwaway PostgreSQL, not SQLite"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cluster = postgres_cluster() if args.postgres else None
        try:
            url = cluster.database() if cluster else f"sqlite:///{Path(folder) / 'tendays.db'}"
            found = asyncio.run(measure(url, args.sessions, args.checks))
        finally:
            if cluster:
                cluster.stop()
    found["database"] = "postgresql" if args.postgres else "sqlite"
    if args.json:
        print(json.dumps(found))
        return
    print(f"{found['database']}: {args.sessions} sessions, {args.checks} checks of each kind")
    for kind in ("session", "seat_link"):
        print(f"  {kind:10} p50 {found[kind]['p50_us']} µs, p99 {found[kind]['p99_us']} µs")


if __name__ == "__main__":
    main()
