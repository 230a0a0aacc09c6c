"""Following with two ``tendays serve`` processes on one PostgreSQL database: a burst of one person's
follows sent to both at once never passes the cap, and the rest are refused in words."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("psycopg")
from cluster_nodes import Node  # noqa: E402
from people_helpers import node_call, node_sign_up  # noqa: E402
from sqlalchemy import create_engine, func, insert, select  # noqa: E402

from tendays.server.people.follows import FOLLOWING_CAP  # noqa: E402
from tendays.server.storage.schema import AccountTable, FollowTable  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve processes on PostgreSQL

BURST = 30
ROOM = 7  # follows left before the cap
ROUNDS = 5


def test_a_burst_of_follows_to_two_processes_never_passes_the_cap(postgres_url: str, nodes: list[Node]) -> None:
    nodes += [Node(postgres_url) for _ in range(2)]
    signed = node_sign_up(nodes[0], "Follower")
    engine = create_engine(postgres_url)
    try:
        now = time.time()
        with engine.begin() as db:  # the players, and the list filled up to ROOM short of the cap
            me = db.scalar(select(AccountTable.id).where(AccountTable.name_key == "follower"))
            ids = (
                db.execute(
                    insert(AccountTable).returning(AccountTable.id),
                    [
                        {"name": f"Player{i}", "name_key": f"player{i}", "password_hash": "x", "created": now}
                        for i in range(FOLLOWING_CAP - ROOM + BURST)
                    ],
                )
                .scalars()
                .all()
            )
            db.execute(
                insert(FollowTable),
                [{"follower_id": me, "followed_id": followed, "created": now} for followed in ids[BURST:]],
            )
            db.execute(
                insert(AccountTable),
                [  # followed by nobody yet, for the rounds at the edge below
                    {"name": f"Fresh{i}", "name_key": f"fresh{i}", "password_hash": "x", "created": now}
                    for i in range(ROUNDS * 10)
                ],
            )
        with ThreadPoolExecutor(BURST) as pool:  # every follow at once, half to each process
            answers = list(
                pool.map(
                    lambda i: node_call(nodes[i % 2], "PUT", f"/api/following/Player{i}", None, signed), range(BURST)
                )
            )
        statuses = [status for status, _body, _headers in answers]
        assert statuses.count(200) == ROOM and statuses.count(409) == BURST - ROOM, statuses
        for status, body, _headers in answers:
            if status == 409:
                assert f"you follow {FOLLOWING_CAP} players already, the most one may" in body["detail"]
        with engine.connect() as db:
            assert (
                db.scalar(select(func.count()).select_from(FollowTable).where(FollowTable.follower_id == me))
                == FOLLOWING_CAP
            )
        status, listed, _headers = node_call(nodes[1], "GET", "/api/following", None, signed)
        assert status == 200 and len(listed["following"]) == FOLLOWING_CAP
        for round_ in range(ROUNDS):  # again at the edge: one unfollowed, then one place for ten at once
            gone = listed["following"][round_]["name"]
            assert node_call(nodes[0], "DELETE", f"/api/following/{gone}", None, signed)[0] == 200
            with ThreadPoolExecutor(10) as pool:
                answers = list(
                    pool.map(
                        lambda i: node_call(nodes[i % 2], "PUT", f"/api/following/Fresh{i}", None, signed),
                        range(round_ * 10, round_ * 10 + 10),
                    )
                )
            assert [status for status, _body, _headers in answers].count(200) == 1, answers
        with engine.connect() as db:
            assert (
                db.scalar(select(func.count()).select_from(FollowTable).where(FollowTable.follower_id == me))
                == FOLLOWING_CAP
            )
    finally:
        engine.dispose()
