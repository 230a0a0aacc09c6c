"""Server processes on a shared PostgreSQL database for the cluster tests: :class:`Node` starts one
``tendays serve``, :class:`Player` is a person's table connection to one of them."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from server_helpers import free_port, post_json, start_serve, wait_until_serving
from websockets.sync.client import ClientConnection, connect

__all__ = ["LEASE", "Message", "Node", "Player"]

Message = dict[str, Any]
LEASE = 2.0  # seconds: a game of a dead process is taken over within about LEASE * 4 / 3


class Node:
    """One ``tendays serve`` process on the shared database."""

    def __init__(self, url: str, port: int | None = None, bot_delay: float = 0.05, **settings: str) -> None:
        """``settings``: more ``TENDAYS_...`` variables, e.g. ``CONNECTIONS_PER_MINUTE="0"``."""
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "TENDAYS_DB": url,
            "TENDAYS_PORT": str(self.port),
            "TENDAYS_LEASE": f"{LEASE}s",
            "TENDAYS_BOT_DELAY": str(bot_delay),
            "TENDAYS_BOT_WORKERS": "0",
            **{f"TENDAYS_{name}": value for name, value in settings.items()},
        }
        handle, printed = tempfile.mkstemp(prefix="tendays-serve-", suffix=".log")
        os.close(handle)
        self._printed = Path(printed)
        self.process = start_serve(env, self._printed)
        try:
            wait_until_serving(self.process, self.base)
        except AssertionError as failure:
            raise AssertionError(f"{failure}{self.output()}") from None

    def post(self, path: str, body: Message) -> Message:
        return post_json(self.base, path, body)

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        if self.alive():
            self.process.kill()
        self.process.wait(10)

    def stop(self) -> None:
        """A clean stop (SIGTERM, as systemd does): the server gives its games back."""
        if self.alive():
            self.process.terminate()
        self.process.wait(30)

    def output(self) -> str:
        """What the server has printed so far."""
        return self._printed.read_text()

    def forget(self) -> None:
        """Remove what a stopped server printed."""
        self._printed.unlink(missing_ok=True)


class Player:
    """A person's seat: a table connection to some server, reconnecting to another when it goes away."""

    def __init__(self, ticket: Message, node: Node) -> None:
        self.ticket, self.seat = ticket, ticket["seat"]
        self.latest: Message = {"version": -1}
        self.conn: ClientConnection | None = None
        self._stack = contextlib.ExitStack()
        self.connect(node)

    def connect(self, node: Node) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()
        self.node = node
        self.conn = self._stack.enter_context(
            connect(f"ws://127.0.0.1:{node.port}/ws/games/{self.ticket['id']}", open_timeout=10)
        )
        self.conn.send(json.dumps({"type": "hello", "token": self.ticket["token"]}))
        self.latest = {"version": -1}
        self.read(10)

    def read(self, timeout: float) -> None:
        """Read what has come (at least one message when ``timeout`` allows)."""
        assert self.conn is not None
        end = time.monotonic() + timeout
        while True:
            try:
                message: Message = json.loads(self.conn.recv(timeout=max(0.0, end - time.monotonic())))
            except TimeoutError:
                return
            if message.get("type") == "state" and message["version"] >= self.latest["version"]:
                self.latest = message
            if time.monotonic() >= end:
                return
            end = min(end, time.monotonic() + 0.02)  # then only what is already there

    def close(self) -> None:
        """Close the table connection (the browser tab goes away)."""
        self._stack.close()
        self.conn = None


class Person:
    """A person signed up on one of the processes; their session works on every process."""

    def __init__(self, node: Node, name: str) -> None:
        self.name = name
        answer, headers = call(node, "POST", "/api/accounts", {"name": name, "password": "a long enough secret"})
        self.csrf = answer["csrf"]
        self.cookie = headers["Set-Cookie"].split(";")[0]

    def ask(self, node: Node, method: str, path: str, body: Any = None) -> dict[str, Any]:
        return call(node, method, path, body, {"Cookie": self.cookie, "X-CSRF-Token": self.csrf})[0]


def call(
    node: Node, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[dict[str, Any], Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{node.base}{path}", data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return json.load(answer), answer.headers
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {path}: {error.code} {error.read().decode()}") from None
