"""``tendays serve`` as it runs by default, on loopback: what reaches its log, and what it does with clients
that send huge headers, trickle them, or open too many connections, and with a weak admin token."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # starts server processes
pytest.importorskip("websockets")
from server_helpers import free_port, post_json, wait_until_serving  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

HOST = "127.0.0.1"


class Served:
    """A ``tendays serve`` process; :meth:`stop` returns everything it printed."""

    def __init__(self, db: Path, *options: str) -> None:
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "TENDAYS_DB": f"sqlite:///{db}",
            "TENDAYS_PORT": str(self.port),
            "TENDAYS_BOT_DELAY": "0",
            "TENDAYS_BOT_WORKERS": "0",
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tendays", "serve", *options],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        wait_until_serving(self.process, self.base)

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.terminate()
        output, _ = self.process.communicate(timeout=30)
        return output


@pytest.fixture
def served(tmp_path: Path) -> Iterator[list[Served]]:
    started: list[Served] = []
    yield started
    for server in started:
        with contextlib.suppress(Exception):
            server.stop()


def _raw(port: int, data: bytes, timeout: float = 10.0) -> bytes:
    """Send ``data`` on a new connection and read until the server closes it (or ``timeout`` passes)."""
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        sock.sendall(data)
        answer = b""
        with contextlib.suppress(TimeoutError, ConnectionResetError):
            while chunk := sock.recv(65536):
                answer += chunk
        return answer


def _get(base: str, path: str, headers: dict[str, str] | None = None) -> int:
    request = urllib.request.Request(f"{base}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_no_secret_reaches_the_log_at_debug(tmp_path: Path, served: list[Served]) -> None:
    server = Served(tmp_path / "t.db", "--log-level", "debug", "--trusted-proxies", HOST)
    served.append(server)
    ticket = post_json(
        server.base, "/api/games", {"edition": "usa", "name": "Alice", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    bob = post_json(server.base, f"/api/games/{ticket['id']}/join", {"name": "Bob"})
    with connect(f"ws://{HOST}:{server.port}/ws/games/{ticket['id']}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": ticket["token"]}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
    with connect(f"ws://{HOST}:{server.port}/ws/games/{ticket['id']}?tok%65n={bob['token']}") as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "malformed"  # refused: a token in the address
    assert _get(server.base, f"/health?lang=de&tok%65n={bob['token']}x") == 200
    # by value: a name escaped twice, another name, none at all, the path
    for address in (
        f"/health?t%256fken={ticket['token']}",
        f"/health?x={ticket['token']}",
        f"/health?{bob['token']}",
        f"/play/abc/{bob['token']}",
    ):
        assert _get(server.base, address) in (200, 404)
    # Behind a trusted proxy the log shows the client the limits count, not the proxy.
    assert _get(server.base, "/health", {"X-Forwarded-For": "203.0.113.77"}) == 200
    log = server.stop()
    assert "< TEXT" not in log and "> TEXT" not in log  # no WebSocket frame line
    for token in (ticket["token"], bob["token"]):
        assert token not in log
    assert "tok%65n=…" in log
    assert "203.0.113.77:" in log and '"GET /health HTTP/1.1" 200' in log


def _call(
    base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, str, dict[str, str]]:
    """(status, body, headers) of a request, whatever the status."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{base}{path}", data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status), answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return int(error.code), error.read().decode(), dict(error.headers)


def test_no_password_session_or_hash_reaches_the_log_at_debug(tmp_path: Path, served: list[Served]) -> None:
    server = Served(tmp_path / "t.db", "--log-level", "debug")
    served.append(server)
    password, new_password = "a long secret phrase", "another secret phrase"
    status, text, headers = _call(server.base, "POST", "/api/accounts", {"name": "Alice", "password": password})
    assert status == 201
    session = headers["set-cookie"].split(";")[0]
    csrf = json.loads(text)["csrf"]
    assert _call(server.base, "POST", "/api/session", {"name": "Alice", "password": "wrong " + password})[0] == 401
    assert (
        _call(server.base, "GET", f"/api/session?password={password.replace(' ', '+')}", headers={"Cookie": session})[0]
        == 200
    )
    signed = {"Cookie": session, "X-CSRF-Token": csrf}
    assert (
        _call(
            server.base, "POST", "/api/account/password", {"password": password, "new_password": new_password}, signed
        )[0]
        == 204
    )
    game = json.loads(
        _call(
            server.base,
            "POST",
            "/api/games",
            {"edition": "usa", "name": "A", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]},
            signed,
        )[1]
    )
    with connect(
        f"ws://{HOST}:{server.port}/ws/games/{game['id']}", open_timeout=10, additional_headers={"Cookie": session}
    ) as ws:
        ws.send(json.dumps({"type": "hello", "account": True}))
        assert json.loads(ws.recv(timeout=10))["game"]["you"] == 0
    log = server.stop()
    assert "/api/account/password" in log and "/api/session?password=…" in log  # logged, their secrets not
    for secret in (password, password.replace(" ", "+"), new_password, session.split("=", 1)[1], csrf, "$argon2"):
        assert secret not in log


def test_headers_too_large_are_refused_with_431(tmp_path: Path, served: list[Served]) -> None:
    server = Served(tmp_path / "t.db", "--log-level", "warning")
    served.append(server)
    answer = _raw(server.port, b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000)
    assert answer.startswith(b"HTTP/1.1 431 ") and b"at most 16384 bytes" in answer
    assert _raw(server.port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").startswith(
        b"HTTP/1.1 200"
    )


def test_headers_must_arrive_in_time(tmp_path: Path, served: list[Served]) -> None:
    server = Served(tmp_path / "t.db", "--log-level", "warning", "--header-timeout", "1s")
    served.append(server)
    # Half a request, then nothing: the server closes the connection (the read would otherwise wait 20 s).
    assert _raw(server.port, b"GET /health HTTP/1.1\r\nHost: x\r\n", timeout=20) == b""
    assert _raw(server.port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").startswith(
        b"HTTP/1.1 200"
    )


def test_connections_are_limited_per_client(tmp_path: Path, served: list[Served]) -> None:
    server = Served(tmp_path / "t.db", "--log-level", "warning", "--open-connections", "5")
    served.append(server)
    with contextlib.ExitStack() as held:
        for _ in range(5):  # connections that say nothing (yet)
            held.enter_context(socket.create_connection((HOST, server.port), timeout=10))
        # The sixth is closed unanswered.
        assert _raw(server.port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") == b""
    # Once they are closed, the client is served again; table connections come and go as often as they like.
    ticket = post_json(
        server.base, "/api/games", {"edition": "usa", "name": "Alice", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    for _ in range(8):
        with connect(f"ws://{HOST}:{server.port}/ws/games/{ticket['id']}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": ticket["token"]}))
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
    answers: list[Any] = []
    for _ in range(50):
        answers.append(_raw(server.port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        if answers[-1]:
            break
    assert answers[-1].startswith(b"HTTP/1.1 200")


def test_a_weak_admin_token_stops_the_server_with_how_to_make_one(tmp_path: Path) -> None:
    env = {**os.environ, "TENDAYS_DB": f"sqlite:///{tmp_path / 't.db'}", "TENDAYS_ADMIN_TOKEN": "a"}
    done = subprocess.run(
        [sys.executable, "-m", "tendays", "serve", "--port", str(free_port())],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "a random secret: this one holds about 0 bits, at least 100 are needed" in done.stderr
    assert 'python3 -c "import secrets; print(secrets.token_urlsafe(32))"' in done.stderr


def test_a_huge_body_of_any_method_is_refused_before_it_is_sent(tmp_path: Path, served: list[Served]) -> None:
    """An anonymous DELETE /api/account declaring 20 MB: answered 413 in words while the client has sent
    none of it, and the connection closed; a body in chunks is cut off as it comes."""
    server = Served(tmp_path / "t.db", "--log-level", "warning")
    served.append(server)
    head = b"DELETE /api/account HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    answer = _raw(server.port, head + b"Content-Length: 20000000\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 413 ") and b"the request is too large (20000000 bytes" in answer
    chunk = b"4000\r\n" + b"[" * 0x4000 + b"\r\n"
    answer = _raw(server.port, head + b"Transfer-Encoding: chunked\r\n\r\n" + chunk * 3)
    assert answer.startswith(b"HTTP/1.1 413 ") and b"more than 16384 bytes" in answer
    assert _get(server.base, "/health") == 200


def test_a_body_that_trickles_is_answered_408(tmp_path: Path, served: list[Served]) -> None:
    server = Served(tmp_path / "t.db", "--log-level", "warning", "--body-timeout", "1s")
    served.append(server)
    # Half a body, then nothing: 408 once the second has passed, and the connection closed (the read would
    # otherwise wait 20 s).
    answer = _raw(
        server.port,
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"edition": ',
        timeout=20,
    )
    assert answer.startswith(b"HTTP/1.1 408 ") and b"within 1 s" in answer
    assert b"connection: close" in answer.lower()
    assert _get(server.base, "/health") == 200
