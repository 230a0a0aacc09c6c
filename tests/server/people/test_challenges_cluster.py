"""Challenges with two ``tendays serve`` processes on one PostgreSQL database: three takers of one open link
accepting at once through both processes make one game; an accept and a cancel sent at once through different
processes end with exactly one of them (a game only if the accept won); eight challenges to one person sent at
once through both processes leave three open."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("psycopg")
import psycopg  # noqa: E402
from cluster_nodes import Node, Person  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve processes on PostgreSQL

UNLIMITED = {"CREATES_PER_MINUTE": "0", "JOINS_PER_MINUTE": "0", "CHALLENGES_PER_MINUTE": "0"}


def send(node: Node, person: Person, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
    """The status and the answer, refusals included."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{node.base}{path}",
        data=data,
        method=method,
        headers={"Content-Type": "application/json", "Cookie": person.cookie, "X-CSRF-Token": person.csrf},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def at_once(calls: list[tuple[Node, Person, str, str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    start = threading.Barrier(len(calls), timeout=60)

    def one(call: tuple[Node, Person, str, str, Any]) -> tuple[int, dict[str, Any]]:
        start.wait()
        return send(*call)

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(one, calls))


def games_of(url: str, account_name: str) -> int:
    with psycopg.connect(url) as db:
        row = db.execute(
            "SELECT count(*) FROM seats JOIN accounts ON accounts.id = seats.account_id WHERE accounts.name = %s",
            (account_name,),
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_accepts_and_cancels_sent_at_once_through_two_processes_make_one_game_each(
    postgres_url: str, nodes: list[Node]
) -> None:
    nodes += [Node(postgres_url, **UNLIMITED) for _ in range(2)]
    with ThreadPoolExecutor(2) as pool:  # two sign-ups at a time: one address holds two places in a hash queue
        ann, ben, cat, dan = pool.map(
            lambda i_name: Person(nodes[i_name[0] % 2], i_name[1]), enumerate(["Ann", "Ben", "Cat", "Dan"])
        )
    games = 0
    for trial in range(3):
        status, link = send(nodes[trial % 2], ann, "POST", "/api/challenges", {"to": None, "edition": "usa"})
        assert status == 201, link
        path = f"/api/challenges/{link['id']}/accept"
        answers = at_once(
            [(nodes[(i + trial) % 2], taker, "POST", path, None) for i, taker in enumerate((ben, cat, dan))]
        )
        assert sorted(status for status, _body in answers) == [200, 409, 409], answers
        games += 1
        assert games_of(postgres_url, "Ann") == games
    for trial in range(4):
        status, challenge = send(nodes[0], ann, "POST", "/api/challenges", {"to": "Ben", "edition": "usa"})
        assert status == 201, challenge
        path = f"/api/challenges/{challenge['id']}"
        accepted, cancelled = at_once(
            [
                (nodes[trial % 2], ben, "POST", f"{path}/accept", None),
                (nodes[(trial + 1) % 2], ann, "DELETE", path, None),
            ]
        )
        assert sorted([accepted[0], cancelled[0]]) == [200, 409], (accepted, cancelled)
        games += accepted[0] == 200
        assert games_of(postgres_url, "Ann") == games
        final = send(nodes[1], ann, "GET", path)[1]
        assert final["status"] == ("accepted" if accepted[0] == 200 else "cancelled")
    made = at_once(
        [(nodes[i % 2], cat, "POST", "/api/challenges", {"to": "Dan", "edition": "germany"}) for i in range(8)]
    )
    assert sorted(status for status, _body in made) == [201] * 3 + [409] * 5, made
    assert len(send(nodes[1], dan, "GET", "/api/challenges")[1]["incoming"]) == 3
