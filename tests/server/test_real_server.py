"""``tendays serve`` as an operator runs it: settings from the environment, one server per database, a
60 MB body refused before it is read, an API page that loads nothing from elsewhere, and a clock that a
kill -9 neither resets nor loses."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")
from server_helpers import free_port, post_json, wait_until_serving  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve

Message = dict[str, Any]
ADMIN = "adm1n-Tq4Lx8Vw2Rz6Yb0Nc5Kd9Hs3Pf7Gj1Me"  # as strong as the server asks


class Served:
    """``tendays serve`` configured through the environment, as under systemd."""

    def __init__(self, db: Path, port: int, *extra: str) -> None:
        self.port, self.base = port, f"http://127.0.0.1:{port}"
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "TENDAYS_DB": f"sqlite:///{db}",
            "TENDAYS_PORT": str(port),
            "TENDAYS_ADMIN_TOKEN": ADMIN,
            "TENDAYS_BOT_DELAY": "0",
            "TENDAYS_BOT_WORKERS": "0",
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tendays", "serve", "--log-level", "warning", *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        wait_until_serving(self.process, self.base)

    def get(self, path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(f"{self.base}{path}", timeout=10) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def post(self, path: str, body: Message) -> Message:
        return post_json(self.base, path, body)

    def table(self, ticket: Message) -> Message:
        with connect(f"ws://127.0.0.1:{self.port}/ws/games/{ticket['id']}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": ticket["token"]}))
            message: Message = json.loads(ws.recv(timeout=10))
            return message

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        if self.process.stdout:
            self.process.stdout.close()


@pytest.fixture
def running(tmp_path: Path) -> Iterator[list[Served]]:
    started: list[Served] = []
    yield started
    for server in started:
        server.kill()


def test_settings_from_the_environment_and_one_server_per_database(tmp_path: Path, running: list[Served]) -> None:
    db = tmp_path / "games.db"
    running.append(Served(db, free_port()))
    command_line = Path(f"/proc/{running[0].process.pid}/cmdline").read_bytes()
    assert str(db).encode() not in command_line and ADMIN.encode() not in command_line  # nothing secret in `ps`
    second = subprocess.run(
        [sys.executable, "-m", "tendays", "serve", "--port", str(free_port())],
        env={**os.environ, "TENDAYS_DB": f"sqlite:///{db}"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert second.returncode == 2
    assert second.stderr.strip() == (
        f"tendays serve: another tendays server is already using the database {db}; "
        "stop it first (two servers on one SQLite file would each accept moves the "
        "other never sees)"
    )
    status, _ = running[0].get("/api/admin/games?status=all")
    assert status == 401  # the admin token came from the environment


def test_a_60_mb_name_is_refused_before_it_is_read(tmp_path: Path, running: list[Served]) -> None:
    running.append(Served(tmp_path / "games.db", free_port()))
    with socket.create_connection(("127.0.0.1", running[0].port), timeout=10) as raw:
        raw.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 60000000\r\n\r\n" + b'{"name": "' + b"A" * 1000
        )
        answer = ""
        while "too large" not in answer:  # answered while 59.99 MB are still unsent
            chunk = raw.recv(4096).decode()
            if not chunk:
                break
            answer += chunk
    assert answer.startswith("HTTP/1.1 413"), answer
    assert "the request is too large (60000000 bytes; at most 16384)" in answer
    status, _ = running[0].get("/health")
    assert status == 200


def test_the_api_page_loads_nothing_from_other_sites(tmp_path: Path, running: list[Served]) -> None:
    running.append(Served(tmp_path / "games.db", free_port()))
    status, page = running[0].get("/docs")
    assert status == 200
    html = page.decode()
    addresses = re.findall(r"(?:src|href)=[\"']([^\"']+)", html) + re.findall(r"url: ?'([^']+)'", html)
    assert addresses and all(a.startswith("/") for a in addresses), addresses
    assert "http://" not in html and "https://" not in html
    for address in addresses:
        assert running[0].get(address)[0] == 200, address


def test_a_clock_survives_kill_9(tmp_path: Path, running: list[Served]) -> None:
    db, port = tmp_path / "games.db", free_port()
    running.append(Served(db, port, "--live-min", "1s"))
    first = running[0]
    alice = first.post(
        "/api/games",
        {"edition": "usa", "name": "Alice", "seats": [{"kind": "human"}] * 2, "pace": {"kind": "live", "per_move": 6}},
    )
    bob = first.post(f"/api/games/{alice['id']}/join", {"name": "Bob"})
    table = first.table(alice)
    deadline = table["game"]["clock"]["deadline"]
    assert table["version"] == 0 and deadline > time.time() + 4
    first.kill()  # kill -9, at once
    running.append(Served(db, port, "--live-min", "1s"))
    restarted = time.time()
    second = running[1]
    again = second.table(bob)
    if again["version"] == 0:  # the turn still runs: the same deadline, neither reset nor lost
        assert again["game"]["clock"]["deadline"] == deadline
    else:  # a crowded machine took longer than the turn to restart: it ran out while the server was down
        assert time.time() > deadline
    # the stand-in plays the turn once it ran out (its worker may still be starting on a busy machine)
    limit = max(deadline, restarted) + 15
    latest = again
    while time.time() < limit and latest["version"] == 0:
        time.sleep(0.2)
        latest = second.table(bob)
    assert latest["version"] >= 1 and time.time() < limit
    lines = [line["text"] for line in latest["game"]["chat"]]
    assert (
        "Alice ran out of time: the normal bot played the turn" in lines
        or "Bob ran out of time: the normal bot played the turn" in lines
    )


def admin(server: Served, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TENDAYS_URL": server.base, "TENDAYS_ADMIN_TOKEN": ADMIN}
    return subprocess.run(
        [sys.executable, "-m", "tendays", "admin", *args], env=env, capture_output=True, text=True, timeout=60
    )


def test_the_operators_command_lists_closes_and_backs_up(tmp_path: Path, running: list[Served]) -> None:
    db = tmp_path / "games.db"
    running.append(Served(db, free_port()))
    server = running[0]
    ticket = server.post("/api/games", {"edition": "usa", "name": "Alice", "seats": [{"kind": "human"}] * 2})
    listed = admin(server, "games")
    assert listed.returncode == 0 and "1 game," in listed.stdout and ticket["id"] in listed.stdout
    closed = admin(server, "close", ticket["id"])
    assert closed.returncode == 0 and f"game {ticket['id']} closed" in closed.stdout
    ended = json.loads(admin(server, "--json", "games", "--ended").stdout)
    assert [(g["id"], g["ended"]) for g in ended["games"]] == [(ticket["id"], "closed")]
    assert "refused since the start: none" in admin(server, "limits").stdout
    copy = tmp_path / "backup.db"
    backup = admin(server, "backup", str(copy), "--db", f"sqlite:///{db}")  # while the server runs
    assert backup.returncode == 0 and "(1 game)" in backup.stdout
    wrong = subprocess.run(
        [sys.executable, "-m", "tendays", "admin", "games"],
        capture_output=True,
        text=True,
        env={**os.environ, "TENDAYS_URL": server.base, "TENDAYS_ADMIN_TOKEN": "nope"},
        timeout=60,
    )
    assert wrong.returncode == 1 and "the server answered 401: the admin token is missing or wrong" in wrong.stderr
