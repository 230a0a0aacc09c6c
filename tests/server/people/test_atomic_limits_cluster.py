"""Limits across two server processes on one PostgreSQL database: bursts sent to both at once make no
more attempts than one limit allows, because every process counts in the same row with one statement.

The servers keep their own hashing queues; a request they answer "busy" (429, Retry-After: 1, the
attempt not counted) is sent again after the second it asks for, as a client that follows Retry-After
does, until the server answers for good. So every request is judged by the limits in the end, and the
test counts how many the limits let through.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

pytestmark = pytest.mark.slow  # starts server processes
httpx = pytest.importorskip("httpx")
pytest.importorskip("psycopg")
from cluster_nodes import Node  # noqa: E402
from server_helpers import HUMAN, PASSWORD  # noqa: E402

WRONG = "not the password at all"


def settled(node: Node, path: str, body: dict[str, object]) -> httpx.Response:
    """``body`` posted to ``node`` by a new browser, again while the server is busy hashing."""
    with httpx.Client(base_url=node.base, timeout=60) as browser:
        for _ in range(120):
            answer = browser.post(path, json=body)
            if answer.status_code != 429 or "busy" not in answer.json()["detail"]:
                return answer
            time.sleep(float(answer.headers["Retry-After"]))  # as the server asks
    raise AssertionError(f"{path} stayed busy for two minutes")


def burst(nodes: list[Node], count: int, path: str, body_of: object) -> list[httpx.Response]:
    """``count`` requests sent at once, alternately to each node; their final answers."""
    start = threading.Barrier(count, timeout=60)

    def one(number: int) -> httpx.Response:
        start.wait()
        return settled(nodes[number % len(nodes)], path, body_of(number))  # type: ignore[operator]

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(one, range(count)))


def statuses(answers: list[httpx.Response]) -> Counter[int]:
    return Counter(answer.status_code for answer in answers)


def test_bursts_on_two_processes_pass_no_limit(postgres_url: str, nodes: list[Node]) -> None:
    nodes.extend([Node(postgres_url, CREATES_PER_MINUTE="5", CONNECTIONS_PER_MINUTE="0") for _ in range(2)])
    # 40 sign-ups from one address (127.0.0.1), 20 to each process: 20 accounts in all
    made = burst(nodes, 40, "/api/accounts", lambda n: {"name": f"Newcomer {n}", "password": PASSWORD})
    assert statuses(made) == {201: 20, 429: 20}
    name = next(answer.json()["name"] for answer in made if answer.status_code == 201)
    # 80 wrong passwords for one of them, 40 to each process: 5 tried (401), the rest refused untried
    tried = burst(nodes, 80, "/api/session", lambda _: {"name": name, "password": WRONG})
    assert statuses(tried) == {401: 5, 429: 75}
    assert settled(nodes[1], "/api/session", {"name": name, "password": PASSWORD}).status_code == 429
    # 20 games created at once, 10 to each process: 5 made (the limit a minute per address)
    game = {"edition": "usa", "name": "Alice", "seats": [HUMAN, HUMAN]}
    assert statuses(burst(nodes, 20, "/api/games", lambda _: game)) == {201: 5, 429: 15}
