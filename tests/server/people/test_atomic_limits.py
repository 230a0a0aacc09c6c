"""Limits that a burst cannot walk through: every attempt is counted and judged in one statement in the
database before its work is done, on SQLite and PostgreSQL, in one server process and in two.

80 sign-ins for one name sent at once try at most 5 passwords (the limit), 40 sign-ups sent at once from
one address make at most 20 accounts, and games created and joined at once stay within their limits. The
hashing queue is opened wide in the one-process tests, so that the count, not the queue, is what stops
the burst; the two-process test keeps the servers' own queues and retries whatever they answer busy, as
a client that follows Retry-After does.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from server_helpers import HUMAN, PASSWORD, TestClient, another_browser, at_once, new_game, settings
from sqlalchemy import func, select

import tendays.server.people.accounts as accounts_module
from tendays.server.face.app import Limits, create_app
from tendays.server.people.hashing import HashingQueue
from tendays.server.storage.schema import AccountTable

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in

WRONG = "not the password at all"


def counted_verifications(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every Argon2 verification the accounts make from now on, counted."""
    made = [0]
    real = accounts_module.verify
    lock = threading.Lock()

    def counting(password_hash: str, password: str) -> Any:
        with lock:
            made[0] += 1
        return real(password_hash, password)

    monkeypatch.setattr(accounts_module, "verify", counting)
    return made


def wide_open_hashing(client: TestClient) -> None:
    client.app.state.accounts.hashing = HashingQueue(workers=2, places=200, per_asker=200)


def test_80_sign_ins_for_one_name_at_once_try_at_most_5_passwords(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD}).status_code == 201
    wide_open_hashing(client)
    tried = counted_verifications(monkeypatch)
    strangers = [another_browser(client) for _ in range(80)]  # browsers the account does not know
    answers = at_once(80, lambda n: strangers[n].post("/api/session", json={"name": "Alice", "password": WRONG}))
    statuses = Counter(answer.status_code for answer in answers)
    assert tried[0] == 5 and statuses == {401: 5, 429: 75}
    assert all(
        "too many failed sign-ins" in a.json()["detail"] and int(a.headers["Retry-After"]) > 800
        for a in answers
        if a.status_code == 429
    )
    # the right password now waits too: the name has used up its tries
    assert strangers[0].post("/api/session", json={"name": "Alice", "password": PASSWORD}).status_code == 429
    assert tried[0] == 5


def test_40_sign_ups_at_once_from_one_address_make_at_most_20_accounts(client: TestClient) -> None:
    wide_open_hashing(client)
    browsers = [another_browser(client) for _ in range(40)]
    answers = at_once(
        40, lambda n: browsers[n].post("/api/accounts", json={"name": f"Newcomer {n}", "password": PASSWORD})
    )
    assert Counter(answer.status_code for answer in answers) == {201: 20, 429: 20}
    with client.app.state.lobby.journal.store.engine.connect() as db:
        assert db.scalar(select(func.count()).select_from(AccountTable)) == 20


def test_games_created_and_joined_at_once_stay_within_their_limits(db_url: str) -> None:
    with TestClient(
        create_app(db_url, settings(), Limits(creates_per_minute=3, joins_per_minute=2, connections_per_minute=0))
    ) as client:
        body = {"edition": "usa", "name": "Alice", "seats": [HUMAN, HUMAN]}
        created = at_once(20, lambda _: client.post("/api/games", json=body).status_code)
        assert Counter(created) == {201: 3, 429: 17}
        other = another_browser(client, "192.0.2.7")  # another address: its own count
        games = [new_game(other, [HUMAN] * 4)["id"] for _ in range(3)]  # room for every join allowed
        joined = at_once(
            12, lambda n: client.post(f"/api/games/{games[n % 3]}/join", json={"name": f"Bob {n}"}).status_code
        )
        assert Counter(joined) == {200: 2, 429: 10}
