"""Reports with two ``tendays serve`` processes on one PostgreSQL database: a burst of one person's reports
sent to both at once writes at most the day's limit, and the rest are refused in words."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("psycopg")
from cluster_nodes import Node  # noqa: E402
from people_helpers import node_call, node_sign_up  # noqa: E402
from sqlalchemy import create_engine, func, insert, select  # noqa: E402

from tendays.server.people.reports import REPORTS_PER_DAY  # noqa: E402
from tendays.server.storage.schema import AccountTable, ReportTable  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve processes on PostgreSQL

BURST = 30


def test_a_burst_of_reports_to_two_processes_writes_at_most_the_days_limit(
    postgres_url: str, nodes: list[Node]
) -> None:
    nodes += [Node(postgres_url) for _ in range(2)]
    signed = node_sign_up(nodes[0], "Reporter")
    engine = create_engine(postgres_url)
    try:
        with engine.begin() as db:  # the players reported (no password to hash)
            for i in range(BURST):
                db.execute(
                    insert(AccountTable).values(
                        name=f"Player{i}", name_key=f"player{i}", password_hash="x", created=time.time()
                    )
                )
        with ThreadPoolExecutor(BURST) as pool:  # every report at once, half to each process
            answers = list(
                pool.map(
                    lambda i: node_call(
                        nodes[i % 2], "POST", "/api/reports", {"player": f"Player{i}", "reason": "abuse"}, signed
                    ),
                    range(BURST),
                )
            )
        statuses = [status for status, _body, _headers in answers]
        assert statuses.count(201) == REPORTS_PER_DAY and statuses.count(429) == BURST - REPORTS_PER_DAY
        for status, body, answer_headers in answers:
            if status == 429:
                assert f"at most {REPORTS_PER_DAY} reports a day" in body["detail"]
                assert int(answer_headers["Retry-After"]) > 0
        with engine.connect() as db:
            assert db.scalar(select(func.count()).select_from(ReportTable)) == REPORTS_PER_DAY
    finally:
        engine.dispose()
