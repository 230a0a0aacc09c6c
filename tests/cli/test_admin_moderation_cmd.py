"""``tendays admin``'s moderation commands against a running ``tendays serve``: the reports (closed
with a note), the flagged accounts with their games, annulling and suspending an account (a second
suspension refused in the server's words), and the audit log naming the operator; what people typed
is printed without its control characters."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
from sqlalchemy import insert  # noqa: E402

from tendays.server.matches.text import name_key  # noqa: E402
from tendays.server.people.ratings import rate_game  # noqa: E402
from tendays.server.storage.schema import AccountTable, GameTable, MoveTable, ReportTable, SeatTable  # noqa: E402
from tendays.server.storage.store import Store  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve, and a tendays admin process per command

ADMIN = "cl1-m0d-Tq4Lx8Vw2Rz6Yb0Nc5Kd9Hs3Pf7Gj1Me"
FINGERPRINT = hashlib.sha256(ADMIN.encode()).hexdigest()[:12]


def seed(database: Path) -> None:
    """Cheat leaves three rated games against Bob within a few hours, before any move; Bob reports
    Cheat."""
    store = Store(f"sqlite:///{database}")
    now = time.time()
    try:
        with store.engine.begin() as db:
            cheat, bob = (
                db.execute(
                    insert(AccountTable).values(
                        name=n, name_key=name_key(n), password_hash="-", created=now
                    )
                ).inserted_primary_key[0]
                for n in ("Cheat", "Bob")
            )
        for number in range(3):
            at = now - (3 - number) * 3600
            with store.engine.begin() as db:
                db.execute(
                    insert(GameTable).values(
                        id=f"f{number}",
                        edition="usa",
                        options="{}",
                        seed=1,
                        rated=True,
                        created=datetime.fromtimestamp(at - 60, UTC),
                        finished=True,
                        finished_at=at,
                    )
                )
                db.execute(
                    insert(SeatTable),
                    [
                        {
                            "game_id": f"f{number}",
                            "seat": i,
                            "kind": "human",
                            "name": n,
                            "account_id": a,
                            "left": i == 0,
                        }
                        for i, (a, n) in enumerate(((cheat, "Cheat"), (bob, "Bob")))
                    ],
                )
                db.execute(
                    insert(MoveTable).values(game_id=f"f{number}", number=1, seat=0, move="draft 3")
                )
            assert rate_game(store.engine, f"f{number}", [2, 1], at=at)
        with store.engine.begin() as db:
            db.execute(
                insert(ReportTable).values(
                    reporter_id=bob,
                    reported_id=cheat,
                    game_id="f2",
                    reason="farming",
                    text="leaves\x1b]2;pwned\x07 at once",
                    created=now,
                    status="open",
                )
            )
    finally:
        store.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    """A ``tendays serve`` with an admin token on a seeded database: its address."""
    database = tmp_path / "tendays.db"
    seed(database)
    port = free_port()
    env = {
        **os.environ,
        "TENDAYS_DB": f"sqlite:///{database}",
        "TENDAYS_PORT": str(port),
        "TENDAYS_ADMIN_TOKEN": ADMIN,
        "TENDAYS_BOT_DELAY": "0",
        "TENDAYS_BOT_WORKERS": "0",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "tendays", "serve", "--log-level", "warning"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline, (
                    "tendays serve did not answer /health within 60 s"
                )
                time.sleep(0.1)
        yield url
    finally:
        process.kill()
        process.wait(10)


def admin(base: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "TENDAYS_URL": base,
        "TENDAYS_ADMIN_TOKEN": ADMIN,
        "TENDAYS_OPERATOR": "Olga",
    }
    return subprocess.run(
        [sys.executable, "-m", "tendays", "admin", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_operator_reads_reports_and_flags_annuls_suspends_and_reads_the_audit_log(
    base: str,
) -> None:
    reports = admin(base, "reports", "--open")
    assert reports.returncode == 0, reports.stderr
    assert "1 report (1 open), page 1 of 1" in reports.stdout
    assert "Bob reports Cheat (farming)  game f2" in reports.stdout
    assert (
        "\x1b" not in reports.stdout and "\x07" not in reports.stdout and "pwned" in reports.stdout
    )
    closed = admin(base, "report-close", "1", "--note", "annulled and suspended")
    assert closed.returncode == 0 and closed.stdout.strip() == "report 1 closed"

    flags = admin(base, "flags")
    assert "Cheat (active): 3 quick losses, 3 in one day" in flags.stdout
    assert [line.split()[0] for line in flags.stdout.splitlines() if "left, 0 moves" in line] == [
        "f2",
        "f1",
        "f0",
    ]

    annulled = admin(base, "account", "Cheat", "annul", "--note", "fed Bob")
    assert annulled.stdout.strip() == "3 games of Cheat annulled; ratings recomputed in: usa", (
        annulled.stderr
    )
    suspended = admin(base, "--operator", "Piet", "account", "cheat", "suspend")
    assert suspended.returncode == 0 and suspended.stdout.strip() == "Cheat suspended"
    again = admin(base, "account", "Cheat", "suspend")
    assert again.returncode == 1
    assert (
        again.stderr.strip() == "tendays admin: the server answered 409: Cheat is suspended already"
    )

    log = admin(base, "audit")
    assert "3 operator actions, page 1 of 1" in log.stdout
    lines = log.stdout.splitlines()[1:]
    assert f"Piet (token {FINGERPRINT}): suspend Cheat" in lines[0]
    assert f"Olga (token {FINGERPRINT}): annul Cheat  (fed Bob)" in lines[1]
    assert (
        f"Olga (token {FINGERPRINT}): close-report #1 Cheat  (annulled and suspended)" in lines[2]
    )
    entries = json.loads(admin(base, "--json", "audit").stdout)["entries"]
    assert entries[1]["outcome"] == {"games": ["f0", "f1", "f2"], "editions": ["usa"]}
