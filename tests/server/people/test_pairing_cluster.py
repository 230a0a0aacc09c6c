"""Quick pairing with two ``tendays serve`` processes on one PostgreSQL database: many seeks posted to both at
once are each paired at most once, into distinct rated games that exist, whichever process is asked."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("psycopg")
from cluster_nodes import Node, Person, call  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve processes on PostgreSQL

PEOPLE = 16


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
