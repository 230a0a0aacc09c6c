"""Lockout without denial: strangers who guess an account's password from many addresses use up the
name's sign-in limit, but the owner still signs in from a browser the account signed in on before (its
device cookie); a device that guesses wrong is locked alone; the hashing queue answers a flood 429 at
once, untried."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any

import pytest
from server_helpers import PASSWORD, TestClient, another_browser, at_once, settings
from sqlalchemy import select

import tendays.server.people.accounts as accounts_module
from tendays.server.face.app import create_app
from tendays.server.people.hashing import HashingQueue
from tendays.server.people.limits import address_key, name_key_of
from tendays.server.storage.schema import AttemptCountTable, KnownDeviceTable

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in

WRONG = "not the password at all"
DEVICE = "tendays_device"


def sign_in(browser: TestClient, name: str = "Alice", password: str = PASSWORD) -> Any:
    return browser.post("/api/session", json={"name": name, "password": password})


def locked_out_by_strangers(client: TestClient) -> None:
    """Five strangers at five addresses each guess once, writing the name as they like."""
    for number, name in enumerate(("Alice", "ALICE", "  alice  ", "alice", "aLiCe ")):
        stranger = another_browser(client, f"198.51.100.{number + 1}")
        assert sign_in(stranger, name, WRONG).status_code == 401
    # the name is used up, whoever asks next and however it is written
    for name in ("Alice", "ALICE", " alice"):
        assert sign_in(another_browser(client, "203.0.113.50"), name).status_code == 429


def test_strangers_cannot_lock_the_owner_out_of_a_known_device(client: TestClient) -> None:
    owner = another_browser(client, "192.0.2.10")
    assert owner.post("/api/accounts", json={"name": "Alice", "password": PASSWORD}).status_code == 201
    assert owner.cookies.get(DEVICE)  # the sign-up made this browser a known device
    laptop = another_browser(client, "192.0.2.11")  # another browser the owner signed in on
    assert sign_in(laptop).status_code == 200
    locked_out_by_strangers(client)
    # the owner's known devices sign in all the same, written any way, from any address
    assert sign_in(owner, "ALICE").status_code == 200
    assert sign_in(laptop, " alice ").status_code == 200
    assert owner.get("/api/session").json()["name"] == "Alice"
    # a new browser of the owner is a stranger, and waits like one
    assert sign_in(another_browser(client, "192.0.2.10")).status_code == 429


def test_strangers_cannot_stop_the_owner_changing_the_password(client: TestClient) -> None:
    owner = another_browser(client, "192.0.2.10")
    made = owner.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    locked_out_by_strangers(client)
    changed = owner.post(
        "/api/account/password",
        json={"password": PASSWORD, "new_password": "a fresher phrase"},
        headers={"X-CSRF-Token": made.json()["csrf"]},
    )
    assert changed.status_code == 204  # the current password is counted per account, not per name


def test_a_known_device_that_guesses_is_locked_alone(client: TestClient) -> None:
    owner = another_browser(client)
    assert owner.post("/api/accounts", json={"name": "Alice", "password": PASSWORD}).status_code == 201
    phone = another_browser(client, "192.0.2.20")
    assert sign_in(phone).status_code == 200
    assert [sign_in(phone, password=WRONG).status_code for _ in range(6)] == [401] * 5 + [429]
    refused = sign_in(phone)  # the right password too: this device waits 15 minutes
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 800
    assert sign_in(owner).status_code == 200  # the owner's other device is not locked
    stranger = another_browser(client, "203.0.113.7")
    assert sign_in(stranger).status_code == 200  # nor the name: the phone's guesses were its own


def test_a_device_cookie_counts_only_for_its_own_account(client: TestClient) -> None:
    alice = another_browser(client)
    assert alice.post("/api/accounts", json={"name": "Alice", "password": PASSWORD}).status_code == 201
    mallory = another_browser(client, "203.0.113.9")
    assert mallory.post("/api/accounts", json={"name": "Mallory", "password": PASSWORD}).status_code == 201
    # Mallory's own device cookie makes her no known device of Alice's: her guesses use up the name
    assert [sign_in(mallory, "Alice", WRONG).status_code for _ in range(6)] == [401] * 5 + [429]
    assert sign_in(mallory).status_code == 429
    forged = another_browser(client, "203.0.113.10")
    forged.cookies.set(DEVICE, "made-up-secret", path="/api/session")
    assert sign_in(forged).status_code == 429
    assert sign_in(alice).status_code == 200


def test_the_device_cookie_is_kept_as_a_hash_renewed_at_each_sign_in_and_outlives_sign_out(client: TestClient) -> None:
    owner = another_browser(client)
    answer = owner.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    first = owner.cookies[DEVICE]
    engine = client.app.state.lobby.journal.store.engine
    with engine.connect() as db:
        assert list(db.scalars(select(KnownDeviceTable.id_hash))) == [hashlib.sha256(first.encode()).hexdigest()]
    csrf = answer.json()["csrf"]
    assert owner.delete("/api/session", headers={"X-CSRF-Token": csrf}).status_code == 204
    assert owner.cookies[DEVICE] == first  # signing out keeps the device known
    assert sign_in(owner).status_code == 200
    second = owner.cookies[DEVICE]
    assert second != first
    with engine.connect() as db:  # the old cookie no longer counts for anything
        assert list(db.scalars(select(KnownDeviceTable.id_hash))) == [hashlib.sha256(second.encode()).hexdigest()]


@pytest.mark.parametrize("base_url", ["http://testserver", "https://testserver"])
def test_the_device_cookie_has_the_session_cookies_flags(tmp_path: Path, base_url: str) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", settings()), base_url=base_url) as other:
        answer = other.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
        cookie = next(line for line in answer.headers.get_list("set-cookie") if line.startswith(DEVICE))
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/api/session" in cookie
    assert ("Secure" in cookie) == base_url.startswith("https")
    assert f"Max-Age={365 * 24 * 3600}" in cookie


def test_a_flood_fills_the_hashing_queue_and_the_excess_is_answered_429_at_once_untried(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = another_browser(client, "192.0.2.10")
    assert owner.post("/api/accounts", json={"name": "Alice", "password": PASSWORD}).status_code == 201
    client.app.state.accounts.hashing = HashingQueue(workers=1, places=2, per_asker=1)
    gate, real = threading.Event(), accounts_module.verify

    def held(password_hash: str, password: str) -> Any:  # a hash that runs until the test opens the gate
        gate.wait(60)
        return real(password_hash, password)

    monkeypatch.setattr(accounts_module, "verify", held)
    strangers = [another_browser(client, f"198.51.100.{n}") for n in range(10)]
    answers: list[Any] = []

    def flood(n: int) -> None:
        answers.append(sign_in(strangers[n], f"Guess {n}", WRONG))  # ten names: none limited yet

    flooding = threading.Thread(target=at_once, args=(10, flood))
    flooding.start()
    # the eight strangers that found no place are answered while the two in the queue still wait
    for _ in range(6000):
        if len(answers) >= 8:
            break
        gate.wait(0.01)
    busy = list(answers)
    gate.set()
    flooding.join(60)
    assert len(busy) == 8 and all(a.status_code == 429 for a in busy)
    assert [(a.json()["detail"], a.headers["Retry-After"]) for a in busy] == [
        ("the server is busy checking passwords; try again in a moment", "1")
    ] * 8
    assert sorted(a.status_code for a in answers) == [401, 401] + [429] * 8
    # the busy ones were not counted: only the two tried count against their names and addresses
    with client.app.state.lobby.journal.store.engine.connect() as db:
        hits = {key: n for key, n in db.execute(select(AttemptCountTable.key, AttemptCountTable.hits))}
    assert sum(hits.get(name_key_of(f"guess {n}"), 0) for n in range(10)) == 2
    assert sum(hits.get(address_key(f"198.51.100.{n}"), 0) for n in range(10)) == 2
