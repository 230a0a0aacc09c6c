"""One person, one seat, with two ``tendays serve`` processes on one PostgreSQL database: three joins sent at
once by one account to a four-seat rated game, spread over both processes, give it one seat (five games in a
row); two strangers with look-alike names joining at once through different processes seat one of them."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("psycopg")
import psycopg  # noqa: E402
from cluster_nodes import Node, Person  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve processes on PostgreSQL

UNLIMITED = {"CREATES_PER_MINUTE": "0", "JOINS_PER_MINUTE": "0"}


def send(node: Node, path: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    """POST ``body``: the status and the answer, refusals included."""
    request = urllib.request.Request(
        f"{node.base}{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def seats(url: str, game_id: str) -> list[tuple[str | None, int | None]]:
    with psycopg.connect(url) as db:
        rows = db.execute("SELECT name, account_id FROM seats WHERE game_id = %s ORDER BY seat", (game_id,)).fetchall()
    return [(row[0], row[1]) for row in rows]


def test_joins_sent_at_once_through_two_processes_give_one_account_one_seat(
    postgres_url: str, nodes: list[Node]
) -> None:
    nodes += [Node(postgres_url, **UNLIMITED) for _ in range(2)]
    ann, xena = Person(nodes[0], "Ann"), Person(nodes[1], "Xena")
    xena_headers = {"Cookie": xena.cookie, "X-CSRF-Token": xena.csrf}
    for trial in range(5):
        game = ann.ask(
            nodes[0],
            "POST",
            "/api/games",
            {"edition": "usa", "name": "Ann", "rated": True, "seats": [{"kind": "human"}] * 4},
        )["id"]
        through = [nodes[(i + trial) % 2] for i in range(3)]
        with ThreadPoolExecutor(3) as pool:  # every join at once, through both processes
            answers = list(
                pool.map(
                    lambda node, path=f"/api/games/{game}/join": send(node, path, {"name": "Xena"}, xena_headers),
                    through,
                )
            )
        assert sorted(status for status, _body in answers) == [200, 409, 409], answers
        assert all(
            body["detail"] in ("you already have a seat at this game", "every seat of this game is taken")
            for status, body in answers
            if status == 409
        )
        assert [name for name, _account in seats(postgres_url, game)].count("Xena") == 1


def test_look_alike_names_joining_at_once_through_two_processes_seat_one(postgres_url: str, nodes: list[Node]) -> None:
    nodes += [Node(postgres_url, **UNLIMITED) for _ in range(2)]
    names = ["Bob", "B\u03bfb"]  # the second with a Greek omicron
    for trial in range(5):
        game = send(nodes[0], "/api/games", {"edition": "usa", "name": "Ann", "seats": [{"kind": "human"}] * 4})[1][
            "id"
        ]
        through = [nodes[(i + trial) % 2] for i in range(2)]
        with ThreadPoolExecutor(2) as pool:
            answers = list(
                pool.map(
                    lambda node, name, path=f"/api/games/{game}/join": send(node, path, {"name": name}), through, names
                )
            )
        assert sorted(status for status, _body in answers) in ([200, 409], [200, 422]), answers
        assert sum(name in names for name, _account in seats(postgres_url, game)) == 1
