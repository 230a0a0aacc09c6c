"""Quick pairing with two ``tendays serve`` processes on one PostgreSQL database: many seeks posted to both at
once are each paired at most once, into distinct rated games that exist, whichever process is asked."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("psycopg")
from cluster_nodes import Node  # noqa: E402

PEOPLE = 16


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


def test_seeks_posted_to_two_processes_at_once_are_each_paired_once(postgres_url: str, nodes: list[Node]) -> None:
    nodes += [Node(postgres_url, CREATES_PER_MINUTE="0", JOINS_PER_MINUTE="0") for _ in range(2)]
    # two sign-ups at a time: one address may hold two places in a server's queue of password hashes
    with ThreadPoolExecutor(2) as pool:
        people = list(pool.map(lambda i: Person(nodes[i % 2], f"Player{i}"), range(PEOPLE)))
    with ThreadPoolExecutor(PEOPLE) as pool:  # every seek at once, half to each process
        seeks = list(
            pool.map(lambda i: people[i].ask(nodes[i % 2], "POST", "/api/seeks", {"edition": "usa"}), range(PEOPLE))
        )
    assert all(seek["game"] is None for seek in seeks)
    games: dict[str, list[tuple[str, str]]] = {}
    deadline = time.monotonic() + 20
    for i, seek in enumerate(seeks):
        while True:  # asked of the other process than the one that took the seek
            answer = people[i].ask(nodes[(i + 1) % 2], "GET", f"/api/seeks/{seek['id']}")
            if answer["game"] is not None:
                break
            assert time.monotonic() < deadline, f"seek {i} was not paired: {answer}"
            time.sleep(0.1)
        games.setdefault(answer["game"], []).append((people[i].name, answer["token"]))
    assert len(games) == PEOPLE // 2  # every seek in exactly one game, two to a game
    for game_id, seated in games.items():
        assert len(seated) == 2 and len({token for _name, token in seated}) == 2
        for node in nodes:
            summary = call(node, "GET", f"/api/games/{game_id}")[0]
            assert summary["rated"] is True
            assert sorted(seat["name"] for seat in summary["seats"]) == sorted(name for name, _token in seated)
