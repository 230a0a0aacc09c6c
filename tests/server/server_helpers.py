"""Helpers shared by the server tests."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about httpx versions says nothing about this code
    from fastapi.testclient import TestClient

from sqlalchemy import insert
from starlette.testclient import WebSocketTestSession

from tendays.server.matches.lobby import Lobby
from tendays.server.matches.seats import hash_token
from tendays.server.settings import MasterSettings
from tendays.server.storage.journal import Journal
from tendays.server.storage.schema import GameTable, MoveTable, SeatTable
from tendays.server.storage.store import Store

__all__ = [
    "HUMAN",
    "SEED",
    "TestClient",
    "Ticker",
    "bot",
    "close_lobby",
    "join",
    "new_game",
    "open_lobby",
    "open_table",
    "settings",
    "start_serve",
    "write_game_row",
]

SEED = 20261130


def settings(**changes: Any) -> MasterSettings:
    """Bots move at once and think on threads; every game gets the same seed."""
    values: dict[str, Any] = {
        "bot_delay": 0.0,
        "draft_delay": 0.0,
        "bot_processes": 0,
        "seed_source": lambda: SEED,
        "challenges_per_minute": 0,
    }  # tested on its own (test_bot_streams.py)
    values.update(changes)
    return MasterSettings(**values)


class Ticker:
    """A clock for the rate limiter that advances a little at every look: messages seem evenly spaced."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def open_lobby(url: str, **changes: Any) -> Lobby:
    """A lobby on the database at ``url`` with :func:`settings` (``changes`` over them), its games
    restored and its work started, as the server runs it."""
    lobby = Lobby(Journal(Store(url)), settings(**changes))
    lobby.restore()
    lobby.start()
    return lobby


async def close_lobby(lobby: Lobby) -> None:
    """Stop a lobby :func:`open_lobby` made, and its journal."""
    await lobby.close()
    await lobby.journal.close()


@contextlib.contextmanager
def open_table(client: TestClient, game_id: str, token: str | None = None) -> Iterator[WebSocketTestSession]:
    """A connection to a table that says hello with ``token`` (None: to watch), as the protocol asks."""
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        yield ws


def new_game(client: TestClient, seats: list[dict[str, Any]], name: str = "Alice", **options: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"edition": "usa", "name": name, "seats": seats, "options": options})
    assert answer.status_code == 201, answer.text
    ticket: dict[str, Any] = answer.json()
    return ticket


def join(client: TestClient, game_id: str, name: str = "Bob") -> dict[str, Any]:
    answer = client.post(f"/api/games/{game_id}/join", json={"name": name})
    assert answer.status_code == 200, answer.text
    ticket: dict[str, Any] = answer.json()
    return ticket


HUMAN = {"kind": "human"}

# A password the account rules accept (ten characters or more, not a common one).
PASSWORD = "correct horse battery"


def sign_up(client: TestClient, name: str = "Alice", password: str = PASSWORD) -> dict[str, Any]:
    """A new account signed in on ``client``, which then sends the session's CSRF header; the answer."""
    answer = client.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    client.headers["X-CSRF-Token"] = body["csrf"]
    return body


def another_browser(client: TestClient, address: str = "testclient") -> TestClient:
    """Another browser (cookies of its own, from ``address``) on ``client``'s running server. Its
    requests run on the server's own event loop, as a real server's do, so requests sent at once
    from threads (:func:`at_once`) meet in the server as they would in production."""
    other = TestClient(client.app, client=(address, 50000))
    other.portal = client.portal
    return other


def at_once(count: int, send: Callable[[int], Any]) -> list[Any]:
    """``send(0) .. send(count - 1)``, all sent together from threads of their own; their answers."""
    start = threading.Barrier(count, timeout=60)

    def one(number: int) -> Any:
        start.wait()
        return send(number)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(one, range(count)))


def bot(level: str = "normal") -> dict[str, Any]:
    return {"kind": "bot", "bot": level}


def write_game_row(
    url: str, game_id: str, options: dict[str, Any], moves: Sequence[tuple[int, str]] = (), edition: str = "usa"
) -> list[str]:
    """A game written straight into the database, with ``options`` exactly as given (for rows in older
    forms), every seat human and taken; ``moves`` are (seat, move) pairs. Returns the seat tokens."""
    tokens = [f"token-{game_id}-{seat}" for seat in range(options["players"])]
    store = Store(url)
    with store.engine.begin() as db:
        db.execute(
            insert(GameTable).values(
                id=game_id,
                edition=edition,
                options=json.dumps(options),
                seed=SEED,
                created=datetime.now(UTC),
                finished=False,
                last_move_at=time.time(),
            )
        )
        db.execute(
            insert(SeatTable),
            [
                {
                    "game_id": game_id,
                    "seat": seat,
                    "kind": "human",
                    "bot": None,
                    "name": f"Player {seat + 1}",
                    "token_hash": hash_token(token),
                }
                for seat, token in enumerate(tokens)
            ],
        )
        if moves:
            db.execute(
                insert(MoveTable),
                [
                    {"game_id": game_id, "number": number, "seat": seat, "move": move}
                    for number, (seat, move) in enumerate(moves, 1)
                ],
            )
    store.close()
    return tokens


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def post_json(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` as JSON to a running ``tendays serve`` at ``base`` and return the JSON answer."""
    request = urllib.request.Request(
        f"{base}{path}", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        result: dict[str, Any] = json.load(answer)
        return result


def start_serve(env: dict[str, str], printed: Path) -> subprocess.Popen[str]:
    """``tendays serve --log-level warning`` with ``env``, what it prints appended to the file
    ``printed``: a file, not a pipe, since a pipe nobody reads while the server runs fills with a
    long run's warnings (takeovers, kills) and then blocks the server's every write, and so its
    event loop."""
    with printed.open("a") as out:  # appending: every write lands at the end
        return subprocess.Popen(
            [sys.executable, "-m", "tendays", "serve", "--log-level", "warning"],
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )


def wait_until_serving(process: subprocess.Popen[str], base: str, seconds: float = 60.0) -> None:
    """Wait until the ``tendays serve`` ``process`` answers ``/health`` at ``base``; fail with its output if it
    exits or takes longer than ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"{base}/health", timeout=2) as answer:
                if json.load(answer)["status"] == "ok":
                    return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                output = process.stdout.read() if process.stdout else ""
                raise AssertionError(f"the server did not start: {output}") from None
            time.sleep(0.1)
