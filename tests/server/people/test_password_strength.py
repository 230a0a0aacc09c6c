"""Passwords judged by zxcvbn beside the length rule, read in Unicode's NFKC form (old hashes of the form as
typed still open, and are made again), and admin tokens that must look random."""

from __future__ import annotations

import secrets

import pytest
from server_helpers import TestClient
from sqlalchemy import select, update

from tendays.engine.i18n import use_language
from tendays.server.face.routers.admin import weak_token
from tendays.server.people.passwords import (
    HASHER,
    Verified,
    hash_password,
    needs_rehash,
    password_problem,
    verify,
)
from tendays.server.storage.schema import AccountTable

STRONG = "seven blue herons fly 42"
FULL_WIDTH = "seven blue herons fly \uff14\uff12"  # the same, its digits typed full-width


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("aaaaaaaaaa", 'this password is too easy to guess (repeats like "aaa" are easy to guess)'),
        (" " * 10, 'this password is too easy to guess (repeats like "aaa" are easy to guess)'),
        ("\0" * 10, "a password cannot hold control or invisible characters"),
        ("\u200b" * 10, "a password cannot hold control or invisible characters"),
        ("seven blue\u200b herons fly", "a password cannot hold control or invisible characters"),
        ("seven blue\u202e herons fly", "a password cannot hold control or invisible characters"),
        ("admin12345", "this password is too easy to guess (it is close to a common password)"),
        ("asdfghjkl;asdf", "this password is too easy to guess (straight rows of keys are easy to guess)"),
        ("abcdefghijklmnop", 'this password is too easy to guess (sequences like "abc" or "6543" are easy to'),
        ("Zebediah2026!", "this password is too easy to guess"),  # the account's name and a year
    ],
)
def test_weak_passwords_are_refused_with_the_reason(password: str, why: str) -> None:
    problem = password_problem(password, "Zebediah")
    assert problem is not None and problem.startswith(why), problem


def test_the_reason_is_in_the_readers_language() -> None:
    with use_language("de"):
        problem = password_problem("aaaaaaaaaa", "Zebediah")
    said = "dieses Passwort ist zu leicht zu erraten (Wiederholungen wie „aaa“ sind leicht zu erraten)"
    assert problem is not None and problem.startswith(said), problem


@pytest.mark.parametrize(
    "password",
    [
        STRONG,
        FULL_WIDTH,
        "correct horse battery",
        "walking across the map",
        "x9$Lq!7vPz",
        "Übermorgen fahren wir nach Köln",
    ],
)
def test_strong_passwords_are_accepted(password: str) -> None:
    assert password_problem(password, "Zebediah") is None


def test_length_is_counted_once_normalised() -> None:
    # nine full-width characters are nine characters, however many bytes
    assert password_problem("\uff41" * 9, "Zebediah") == "a password needs at least 10 characters"


def test_a_password_is_hashed_and_checked_in_its_normalised_form() -> None:
    stored = hash_password(FULL_WIDTH)
    assert verify(stored, STRONG) is Verified.RIGHT
    assert verify(stored, FULL_WIDTH) is Verified.RIGHT
    assert not verify(stored, "seven blue herons fly 43")
    assert not needs_rehash(stored, Verified.RIGHT)


def test_an_older_hash_of_the_password_as_typed_still_opens_and_is_made_again() -> None:
    older = HASHER.hash(FULL_WIDTH)  # made before passwords were normalised
    assert verify(older, FULL_WIDTH) is Verified.RIGHT_AS_TYPED
    assert needs_rehash(older, Verified.RIGHT_AS_TYPED)
    assert not verify(older, STRONG)  # the plain form never matched it


@pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in
def test_full_width_digits_sign_in_as_the_same_password(client: TestClient) -> None:
    assert client.post("/api/accounts", json={"name": "Zebediah", "password": FULL_WIDTH}).status_code == 201
    other = TestClient(client.app)
    assert other.post("/api/session", json={"name": "Zebediah", "password": STRONG}).status_code < 300
    assert other.post("/api/session", json={"name": "Zebediah", "password": FULL_WIDTH}).status_code < 300


@pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in
def test_an_account_with_an_older_hash_signs_in_and_gets_a_normalised_one(client: TestClient) -> None:
    assert client.post("/api/accounts", json={"name": "Zebediah", "password": STRONG}).status_code == 201
    engine = client.app.state.lobby.journal.store.engine
    with engine.begin() as db:  # as an older server kept it: the hash of the password as typed
        db.execute(
            update(AccountTable).where(AccountTable.name == "Zebediah").values(password_hash=HASHER.hash(FULL_WIDTH))
        )
    other = TestClient(client.app)
    assert other.post("/api/session", json={"name": "Zebediah", "password": FULL_WIDTH}).status_code < 300
    with engine.connect() as db:
        stored = db.scalar(select(AccountTable.password_hash).where(AccountTable.name == "Zebediah"))
    assert verify(stored, STRONG) is Verified.RIGHT  # made again, of the normalised form


@pytest.mark.parametrize("password", ["aaaaaaaaaa", "\u200b" * 10, "admin12345"])
def test_sign_up_refuses_weak_passwords_in_words(client: TestClient, password: str) -> None:
    answer = client.post("/api/accounts", json={"name": "Zebediah", "password": password})
    assert answer.status_code == 422 and "password" in answer.json()["detail"]


# -- admin tokens -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "token",
    [
        "12345678" * 4,
        "abcdefghijklmnopqrstuvwxyz0123456789",
        "a" * 64,
        "abababababababababababababababab",
        "Password1" * 4,
        "correct horse battery staple",
        "qwertyuiopasdfghjklzxcvbnm1234567890",
    ],
)
def test_admin_tokens_that_do_not_look_random_are_refused(token: str) -> None:
    reason = weak_token(token)
    assert reason is not None and "secrets.token_urlsafe(32)" in reason


# made by secrets.token_urlsafe(32) and secrets.token_hex(16)
@pytest.mark.parametrize(
    "token",
    [
        "CZcWMTpvZNok56DfgErdMkCBqhnxMWG7TFpxj1gaUsI",
        "90248171bc02ade9da01a5271249d995",
        "op3rator-Zq8vX2mLw4Rt7Yb1Nc6Kd9Hs0Pf5Gj3",
    ],
)
def test_random_admin_tokens_are_accepted(token: str) -> None:
    assert weak_token(token) is None


def test_tokens_made_as_the_server_advises_are_always_accepted() -> None:
    for _ in range(50):
        assert weak_token(secrets.token_urlsafe(32)) is None
