"""Helpers of the Bot API's stream tests: the app served by uvicorn on a thread of the test (the
streams are real HTTP answers that never end, which the test client cannot read), accounts and
tokens written straight into the database (no password to hash), and a reader of an ndjson stream."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import queue
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx
import uvicorn
from server_helpers import free_port, settings
from sqlalchemy import insert

from tendays.server.face.app import Limits, create_app
from tendays.server.face.routers.bot_streams import StreamEndingServer
from tendays.server.matches.text import name_key
from tendays.server.people.api_tokens import TokenScope, make_token
from tendays.server.storage.schema import AccountTable
from tendays.server.storage.store import Store

__all__ = ["BOARD", "BOT", "WRITE", "Player", "Served", "StreamReader", "new_account", "new_token", "serve"]

BOT, BOARD, WRITE = TokenScope.BOT_PLAY, TokenScope.BOARD_PLAY, TokenScope.CHALLENGE_WRITE
KEEP_ALIVE = 0.5  # seconds between the streams' empty lines in these tests


@dataclass
class Served:
    """The app, where it is served, and its database."""

    app: Any
    base: str
    url: str

    def call(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        headers.update(kwargs.pop("headers", {}))
        return httpx.request(method, f"{self.base}{path}", headers=headers, timeout=30, **kwargs)

    def stream(self, path: str, token: str) -> StreamReader:
        return StreamReader(f"{self.base}{path}", token)


@contextlib.contextmanager
def serve(url: str, **changes: Any) -> Iterator[Served]:
    """The server on ``url``'s database, listening on a free port of this machine until the end."""
    unlimited = Limits(creates_per_minute=0, joins_per_minute=0, connections_per_minute=0, connections_at_once=0)
    app = create_app(url, settings(**{"stream_keepalive": KEEP_ALIVE, **changes}), unlimited)
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = StreamEndingServer(config, app.state.open_streams)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), name="the served app", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield Served(app, f"http://127.0.0.1:{port}", url)
    finally:
        server.should_exit = True
        thread.join(60)


def new_account(url: str, name: str, bot: bool = False) -> int:
    """An active account called ``name`` (a bot account if ``bot``); its id."""
    store = Store(url)
    try:
        with store.engine.begin() as db:
            return int(
                db.execute(
                    insert(AccountTable)
                    .values(
                        name=name,
                        name_key=name_key(name),
                        password_hash="-",
                        created=time.time(),
                        bot=bot,
                    )
                    .returning(AccountTable.id)
                ).scalar_one()
            )
    finally:
        store.close()


def new_token(url: str, account_id: int, *scopes: TokenScope) -> tuple[int, str]:
    """A live token of the account with ``scopes``: (its id, the token)."""
    store = Store(url)
    try:
        with store.engine.begin() as db:
            made = make_token(db, account_id, "test", tuple(scopes), time.time())
        return made.id, made.token
    finally:
        store.close()


_END = object()


class StreamReader:
    """An open ndjson stream, read on a thread of its own: its lines as they come. :meth:`close` shuts
    the connection, as a program that goes away does."""

    def __init__(self, address: str, token: str) -> None:
        self.lines: queue.Queue[Any] = queue.Queue()
        self.keep_alives = 0
        self.status: int | None = None
        self.content_type = ""
        self.ended = threading.Event()
        self._opened = threading.Event()
        where = urlsplit(address)
        self._connection = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=30)
        self._connection.request("GET", where.path, headers={"Authorization": f"Bearer {token}"})
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        assert self._opened.wait(30), "the stream did not answer"

    def _read(self) -> None:
        try:
            answer = self._connection.getresponse()
            self.status, self.content_type = answer.status, answer.getheader("content-type", "")
            if self._connection.sock is not None:
                self._connection.sock.settimeout(None)  # a stream may be idle for long
            self._opened.set()
            if answer.status != 200:
                self.lines.put(json.loads(answer.read()))
                return
            while line := answer.readline():
                if line == b"\n":
                    self.keep_alives += 1
                else:
                    self.lines.put(json.loads(line))
        except (OSError, http.client.HTTPException, ValueError, AttributeError):  # AttributeError: closed under it
            pass  # closed by the test, or by the server
        finally:
            self._opened.set()
            self.ended.set()
            self.lines.put(_END)

    def next(self, seconds: float = 30) -> dict[str, Any]:
        """The next line; fails if the stream ends or says nothing for ``seconds``."""
        line = self.lines.get(timeout=seconds)
        assert line is not _END, "the stream ended"
        result: dict[str, Any] = line
        return result

    def until(self, kind: str, seconds: float = 30) -> dict[str, Any]:
        """The next line of type ``kind``, the lines before it passed over."""
        while True:
            line = self.next(seconds)
            if line.get("type") == kind:
                return line

    def close(self) -> None:
        sock = self._connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self._connection.close()
        self._thread.join(10)


class Player:
    """An account with a token, calling the served app."""

    def __init__(self, served: Served, name: str, *scopes: TokenScope, bot: bool = False) -> None:
        self.served, self.name, self.bot = served, name, bot
        self.id = new_account(served.url, name, bot=bot)
        self.token_id, self.token = new_token(served.url, self.id, *scopes)
        self.family = "bot" if bot else "board"

    def call(self, method: str, path: str, body: Any = None) -> Any:
        return self.served.call(method, path, self.token, json=body)

    def challenge(self, to: str, **asked: Any) -> dict[str, Any]:
        answer = self.call("POST", "/api/challenges", {"to": to, "edition": "usa", **asked})
        assert answer.status_code == 201, answer.text
        made: dict[str, Any] = answer.json()
        return made

    def accept(self, challenge_id: str) -> dict[str, Any]:
        answer = self.call("POST", f"/api/challenges/{challenge_id}/accept")
        assert answer.status_code == 200, answer.text
        taken: dict[str, Any] = answer.json()
        return taken

    def events(self) -> StreamReader:
        return self.served.stream("/api/stream/event", self.token)

    def game(self, game_id: str) -> StreamReader:
        return self.served.stream(f"/api/{self.family}/game/stream/{game_id}", self.token)

    def move(self, game_id: str, move: str, version: int | None = None) -> Any:
        body: dict[str, Any] = {"move": move} if version is None else {"move": move, "version": version}
        return self.call("POST", f"/api/{self.family}/game/{game_id}/move", body)
