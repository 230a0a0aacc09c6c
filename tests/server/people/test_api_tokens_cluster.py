"""API tokens with two ``tendays serve`` processes on one PostgreSQL database: tokens made at once
through both never pass the cap of live tokens; a token's requests sent at once to both pass
exactly its per-minute limit; a token revoked through one is refused by the other at once."""

from __future__ import annotations

import hashlib
import time

import pytest

pytest.importorskip("psycopg")
from cluster_nodes import Node  # noqa: E402
from people_helpers import node_call, node_sign_up  # noqa: E402
from server_helpers import at_once  # noqa: E402
from sqlalchemy import create_engine, func, insert, select  # noqa: E402

from tendays.server.people.api_tokens import MOST_LIVE_TOKENS  # noqa: E402
from tendays.server.storage.schema import AccountTable, ApiTokenTable  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve processes on PostgreSQL

PER_MINUTE = 9
ROOM = 5  # tokens left before the cap
BURST = 30


def test_the_cap_and_the_per_minute_limit_hold_across_two_processes(postgres_url: str, nodes: list[Node]) -> None:
    nodes += [Node(postgres_url, TOKEN_REQUESTS_PER_MINUTE=str(PER_MINUTE)) for _ in range(2)]
    signed = node_sign_up(nodes[0], "Maker")
    engine = create_engine(postgres_url)
    try:
        with engine.begin() as db:  # live tokens up to ROOM short of the cap
            me = db.scalar(select(AccountTable.id).where(AccountTable.name_key == "maker"))
            db.execute(
                insert(ApiTokenTable),
                [
                    {
                        "account_id": me,
                        "name": f"kept {n}",
                        "token_hash": hashlib.sha256(f"kept {n}".encode()).hexdigest(),
                        "scopes": "bot:play",
                        "created": time.time(),
                    }
                    for n in range(MOST_LIVE_TOKENS - ROOM)
                ],
            )
        made = at_once(
            BURST,
            lambda n: node_call(
                nodes[n % 2], "POST", "/api/tokens", {"name": f"burst {n}", "scopes": ["bot:play"]}, signed
            ),
        )
        statuses = [status for status, _body, _headers in made]
        assert statuses.count(201) == ROOM and statuses.count(409) == BURST - ROOM, statuses
        with engine.connect() as db:
            live = db.scalar(
                select(func.count())
                .select_from(ApiTokenTable)
                .where(ApiTokenTable.account_id == me, ApiTokenTable.revoked_at.is_(None))
            )
        assert live == MOST_LIVE_TOKENS
        token = next(body["token"] for status, body, _headers in made if status == 201)
        bearer = {"Authorization": f"Bearer {token}"}
        used = at_once(BURST, lambda n: node_call(nodes[n % 2], "GET", "/api/token", None, bearer))
        statuses = [status for status, _body, _headers in used]
        assert statuses.count(200) == PER_MINUTE and statuses.count(429) == BURST - PER_MINUTE, statuses
        refused = next(headers for status, _body, headers in used if status == 429)
        assert 1 <= int(refused["Retry-After"]) <= 60
        other = next(body for status, body, _headers in made if status == 201 and body["token"] != token)
        other_bearer = {"Authorization": f"Bearer {other['token']}"}
        assert node_call(nodes[1], "GET", "/api/token", None, other_bearer)[0] == 200
        assert node_call(nodes[0], "DELETE", f"/api/tokens/{other['id']}", None, signed)[0] == 200
        status, body, headers = node_call(nodes[1], "GET", "/api/token", None, other_bearer)
        assert status == 401 and headers["WWW-Authenticate"] == "Bearer", body
    finally:
        engine.dispose()
