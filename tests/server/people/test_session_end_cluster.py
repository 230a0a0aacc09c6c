"""Sessions end in every server process: with two ``tendays serve`` processes on one PostgreSQL database,
a table connection held on process 2 is closed, without sending anything, when its session ends through
process 1 or through the operator's ``tendays accounts reset-password`` (a third process, with no server);
the old seat link opens nothing on either process, and signing in again opens the seat."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("psycopg")
from cluster_nodes import Node  # noqa: E402
from people_helpers import node_ask  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import ClientConnection, connect  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve processes on PostgreSQL

Message = dict[str, Any]
PASSWORD = "correct horse battery"
NEW_PASSWORD = "a fresher phrase entirely"


class Browser:
    """A browser signed in to Alice: its session cookie and CSRF token work on every process."""

    def __init__(self, node: Node, path: str = "/api/session", password: str = PASSWORD) -> None:
        answer, headers = node_ask(node, "POST", path, {"name": "Alice", "password": password})
        self.csrf: str = answer["csrf"]
        self.cookie: str = headers["Set-Cookie"].split(";")[0]

    def ask(self, node: Node, method: str, path: str, body: Any = None) -> Message:
        return node_ask(node, method, path, body, {"Cookie": self.cookie, "X-CSRF-Token": self.csrf})[0]

    def table(self, node: Node, game: str) -> contextlib.AbstractContextManager[ClientConnection]:
        """The table of Alice's seat, opened signed in (no seat link)."""
        return sit(node, game, {"account": True}, {"Cookie": self.cookie})


@contextlib.contextmanager
def sit(node: Node, game: str, hello: Message, headers: dict[str, str] | None = None) -> Iterator[ClientConnection]:
    with connect(
        f"ws://127.0.0.1:{node.port}/ws/games/{game}", open_timeout=10, additional_headers=headers or {}
    ) as conn:
        conn.send(json.dumps({"type": "hello", **hello}))
        yield conn


def first(conn: ClientConnection) -> Message:
    message: Message = json.loads(conn.recv(timeout=10))
    return message


def closed_unasked(conn: ClientConnection) -> tuple[Message, int]:
    """Read, sending nothing, until the server closes: the last refusal and the close code."""
    refusal: Message = {}
    try:
        while True:
            message = json.loads(conn.recv(timeout=10))
            if message["type"] == "error":
                refusal = message
    except ConnectionClosed as closed:
        assert closed.rcvd is not None
        return refusal, closed.rcvd.code


def sign_out_on_the_first(url: str, nodes: list[Node], alice: Browser) -> str:
    alice.ask(nodes[0], "DELETE", "/api/session")
    return PASSWORD


def operator_reset(url: str, nodes: list[Node], alice: Browser) -> str:
    """The real command, in a process of its own, while both servers run."""
    done = subprocess.run(
        [sys.executable, "-m", "tendays", "accounts", "reset-password", "Alice", "--db", url],
        input=NEW_PASSWORD + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert done.returncode == 0, done.stderr
    return NEW_PASSWORD


@pytest.mark.parametrize("end", [sign_out_on_the_first, operator_reset])
def test_a_table_on_another_process_closes_when_its_session_ends(
    postgres_url: str, nodes: list[Node], end: Any
) -> None:
    nodes += [Node(postgres_url) for _ in range(2)]
    alice = Browser(nodes[0], "/api/accounts")
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "normal"}]
    created = alice.ask(nodes[0], "POST", "/api/games", {"edition": "usa", "name": "Alice", "seats": seats})
    game, token = created["id"], created["token"]

    # signed in, and anonymous with Alice's seat link
    with alice.table(nodes[1], game) as signed_in, sit(nodes[1], game, {"token": token}) as by_link:
        assert first(signed_in)["game"]["you"] == 0 and first(by_link)["game"]["you"] == 0
        password = end(postgres_url, nodes, alice)

        refusal, code = closed_unasked(signed_in)
        assert code == 4401 and refusal["code"] == "signed_out"
        refusal, code = closed_unasked(by_link)
        assert code == 4401 and refusal["code"] == "link_revoked"
    for node in nodes:
        with sit(node, game, {"token": token}) as old_link:
            assert first(old_link)["code"] == "forbidden"

    again = Browser(nodes[0], password=password)
    with again.table(nodes[1], game) as table:
        assert first(table)["game"]["you"] == 0
        table.send(json.dumps({"type": "chat", "text": "back again"}))
        while (message := first(table))["type"] != "chat":
            assert message["type"] == "state", message
        assert [line["text"] for line in message["chat"]] == ["back again"]
