"""The inbox across server processes: with two ``tendays serve`` processes on one PostgreSQL database, a
notification written on process 1 (a correspondence game started there: "your move") reaches the page
socket (``/ws/me``) that its account holds on process 2, and marking it read on process 1 updates the count
there; signing out on process 1 closes that socket with 4401."""

from __future__ import annotations

import contextlib
import json
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


class Browser:
    """A new account signed in on a process: its cookie and CSRF token work on every process."""

    def __init__(self, node: Node, name: str) -> None:
        answer, headers = node_ask(node, "POST", "/api/accounts", {"name": name, "password": PASSWORD})
        self.csrf: str = answer["csrf"]
        self.cookie: str = headers["Set-Cookie"].split(";")[0]

    def ask(self, node: Node, method: str, path: str, body: Any = None) -> Message:
        return node_ask(node, method, path, body, {"Cookie": self.cookie, "X-CSRF-Token": self.csrf})[0]

    @contextlib.contextmanager
    def page(self, node: Node) -> Iterator[ClientConnection]:
        """The live socket of a page of the site, open on ``node``."""
        with connect(
            f"ws://127.0.0.1:{node.port}/ws/me", open_timeout=10, additional_headers={"Cookie": self.cookie}
        ) as conn:
            yield conn


def heard(conn: ClientConnection) -> Message:
    message: Message = json.loads(conn.recv(timeout=20))
    return message


def test_a_notification_written_on_one_process_reaches_a_page_on_another(postgres_url: str, nodes: list[Node]) -> None:
    nodes += [Node(postgres_url) for _ in range(2)]
    bob = Browser(nodes[0], "Bob")
    alice = Browser(nodes[0], "Alice")
    created = bob.ask(
        nodes[0],
        "POST",
        "/api/games",
        {
            "edition": "usa",
            "name": "Bob",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "pace": {"kind": "correspondence", "per_move": 86400},
        },
    )
    game = created["id"]
    with bob.page(nodes[1]) as page:
        assert heard(page) == {"type": "hello", "unread": 0}
        alice.ask(nodes[0], "POST", f"/api/games/{game}/join", {"name": "Alice"})  # the game starts
        told = heard(page)
        assert told["type"] == "notification" and told["kind"] == "your_move", told
        assert told["data"] == {"game": game, "seat": 0, "opponents": ["Alice"], "url": f"/play/{game}"}
        assert heard(page) == {"type": "unread", "unread": 1}

        assert bob.ask(nodes[0], "POST", "/api/notifications/read", {}) == {"marked": 1, "unread": 0}
        assert heard(page) == {"type": "unread", "unread": 0}

        bob.ask(nodes[0], "DELETE", "/api/session")
        refusal = heard(page)
        assert refusal["type"] == "error" and refusal["code"] == "signed_out"
        with pytest.raises(ConnectionClosed) as closed:
            heard(page)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    assert [g["game"] for g in alice.ask(nodes[1], "GET", "/api/games/your-move")["games"]] == []
