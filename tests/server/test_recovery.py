"""Crash recovery: a real ``tendays serve`` process is killed with SIGKILL mid-game and started again.

Every move the server acknowledged (by sending the new table) must be there after the restart, and
the game goes on from the same version.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")
from server_helpers import free_port, post_json, wait_until_serving  # noqa: E402
from websockets.sync.client import ClientConnection, connect  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve

Message = dict[str, Any]


class Server:
    """``tendays serve`` as a child process."""

    def __init__(self, db: Path, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.ws_base = f"ws://127.0.0.1:{port}"
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tendays",
                "serve",
                "--port",
                str(port),
                "--db",
                f"sqlite:///{db}",
                "--bot-delay",
                "0",
                "--log-level",
                "warning",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        assert self.process.stdout is not None
        self.banner = self.process.stdout.readline()
        wait_until_serving(self.process, self.base)

    def post(self, path: str, body: dict[str, Any]) -> Message:
        return post_json(self.base, path, body)

    @contextlib.contextmanager
    def table(self, ticket: Message) -> Iterator[ClientConnection]:
        """A table connection that says hello with the seat's token."""
        with connect(f"{self.ws_base}/ws/games/{ticket['id']}", open_timeout=10) as connection:
            connection.send(json.dumps({"type": "hello", "token": ticket["token"]}))
            yield connection

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        assert self.process.stdout is not None
        self.process.stdout.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.kill()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


class Seat:
    """One seat's connection and the latest table it was sent."""

    def __init__(self, server: Server, ticket: Message, stack: contextlib.ExitStack) -> None:
        self.conn = stack.enter_context(server.table(ticket))
        self.latest: Message = {"version": -1}

    def until(self, version: int) -> Message:
        while self.latest["version"] < version:
            message: Message = json.loads(self.conn.recv(timeout=10))
            assert message["type"] == "state", message
            self.latest = message
        return self.latest

    def send_move(self, version: int) -> str:
        move: str = self.until(version)["game"]["legal_moves"][-1]["text"]
        self.conn.send(json.dumps({"type": "move", "move": move, "version": version}))
        return move


def play(seats: dict[int, Seat], moves: int) -> Message:
    """Play ``moves`` moves, each seat picking its last legal move; return the last acknowledged table."""
    table = seats[0].until(0)
    for _ in range(moves):
        mover = seats[table["game"]["current"]]
        version = table["version"]
        mover.send_move(version)
        table = mover.until(version + 1)  # the acknowledgement
    return table


def test_sigkill_loses_no_acknowledged_move(tmp_path: Path, servers: list[Server]) -> None:
    db, port = tmp_path / "games.db", free_port()
    servers.append(Server(db, port))
    first = servers[0]
    assert f"http://127.0.0.1:{port}/" in first.banner  # the address to open
    alice = first.post("/api/games", {"edition": "usa", "name": "Alice", "seats": [{"kind": "human"}] * 2})
    bob = first.post(f"/api/games/{alice['id']}/join", {"name": "Bob"})
    tickets = {0: alice, 1: bob}
    first_connections, second_connections = contextlib.ExitStack(), contextlib.ExitStack()
    seats = {seat: Seat(first, ticket, first_connections) for seat, ticket in tickets.items()}
    table = play(seats, 25)  # the draft (20 moves) and a few turns
    acknowledged = table["version"]
    assert acknowledged == 25 and table["game"]["phase"] in ("draw", "place")
    # One more move is sent, and the server is killed before its answer can be awaited.
    mover = table["game"]["current"]
    before = seats[mover].until(acknowledged)["game"]
    seats[mover].send_move(acknowledged)
    first.kill()
    with contextlib.suppress(Exception):  # the connections died with the server
        first_connections.close()

    servers.append(Server(db, port))
    second = servers[1]
    seats = {seat: Seat(second, ticket, second_connections) for seat, ticket in tickets.items()}
    resumed = {seat: s.until(0) for seat, s in seats.items()}
    version = resumed[0]["version"]
    assert version in (acknowledged, acknowledged + 1)  # the in-flight move was stored or not; nothing older lost
    assert resumed[1]["version"] == version
    if version == acknowledged:
        after = resumed[mover]["game"]
        assert after["rack"] == before["rack"] and after["piles"] == before["piles"]
        assert after["in_hand"] == before["in_hand"] and after["legal_moves"] == before["legal_moves"]
    table = play(seats, 6)  # and the game goes on
    assert table["version"] == version + 6
    second_connections.close()
    summary = json.load(urllib.request.urlopen(f"{second.base}/api/games/{alice['id']}", timeout=10))
    assert summary["status"] == "playing" and [s["name"] for s in summary["seats"]] == ["Alice", "Bob"]
