"""``tendays accounts reset-password``: the operator's reset of a forgotten password, read from
standard input (never the command line); the account's sessions end; an unknown name or a weak
password is refused in one line."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

pytest.importorskip("argon2")
from sqlalchemy import func, insert, select  # noqa: E402

from tendays.cli.main import main  # noqa: E402
from tendays.server.people.passwords import hash_password, verify  # noqa: E402
from tendays.server.storage.schema import AccountTable, SessionTable  # noqa: E402
from tendays.server.storage.store import Store  # noqa: E402

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in


@pytest.fixture
def database(tmp_path: Path) -> str:
    """A database with the account Alice, signed in on one device."""
    url = f"sqlite:///{tmp_path / 'tendays.db'}"
    store = Store(url)
    with store.engine.begin() as db:
        account = db.execute(
            insert(AccountTable).values(
                name="Alice",
                name_key="alice",
                created=time.time(),
                password_hash=hash_password("the old long phrase"),
            )
        ).inserted_primary_key[0]
        db.execute(
            insert(SessionTable).values(
                id_hash="0" * 64,
                account_id=account,
                csrf="c",
                created=0.0,
                expires=time.time() + 3600,
            )
        )
    store.close()
    return url


def reset(monkeypatch: pytest.MonkeyPatch, url: str, name: str, typed: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed + "\n"))
    return main(["accounts", "reset-password", name, "--db", url])


def stored(url: str) -> tuple[str, int]:
    store = Store(url)
    with store.engine.connect() as db:
        password_hash = db.scalar(select(AccountTable.password_hash))
        sessions = db.scalar(select(func.count()).select_from(SessionTable))
    store.close()
    assert password_hash is not None and sessions is not None
    return password_hash, sessions


def test_the_operator_sets_a_new_password(
    monkeypatch: pytest.MonkeyPatch, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert reset(monkeypatch, database, "ALICE", "a new long phrase") == 0
    assert "ALICE" in capsys.readouterr().out
    password_hash, sessions = stored(database)
    assert verify(password_hash, "a new long phrase") and not verify(
        password_hash, "the old long phrase"
    )
    assert sessions == 0


@pytest.mark.parametrize(
    ("name", "typed", "words"),
    [
        ("Zed", "a new long phrase", "there is no account called Zed"),
        ("Alice", "short", "a password needs at least 10 characters"),
    ],
)
def test_a_refusal_is_one_line_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
    database: str,
    capsys: pytest.CaptureFixture[str],
    name: str,
    typed: str,
    words: str,
) -> None:
    assert reset(monkeypatch, database, name, typed) == 1
    said = capsys.readouterr()
    assert said.err.strip() == words and said.out == ""
    password_hash, sessions = stored(database)
    assert verify(password_hash, "the old long phrase") and sessions == 1
