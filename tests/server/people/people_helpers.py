"""The people the people tests sign up, made one way each.

- :func:`person`: an account with a live session written straight into the database (no password
  to hash, so a fast test may make many); it acts through any test client (:meth:`Person.call`),
  and :func:`new_table` seats such people at a new game.
- :class:`SignedUp`: an account signed up over HTTP, its password hashed as in life (slow:
  Argon2id), in a browser of its own on the test client's running server.
- :func:`node_call`, :func:`node_ask` and :func:`node_sign_up`: requests to ``tendays serve``
  processes, and a sign-up there.
"""

from __future__ import annotations

import json
import secrets
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from server_helpers import HUMAN, PASSWORD, TestClient, another_browser
from sqlalchemy import insert, select
from sqlalchemy.engine import Engine

from tendays.server.matches.text import name_key
from tendays.server.people.accounts import Account, session_hash
from tendays.server.people.api_tokens import TokenScope
from tendays.server.storage.schema import AccountTable, SessionTable

__all__ = [
    "Person",
    "SignedUp",
    "engine_of",
    "new_table",
    "node_ask",
    "node_call",
    "node_sign_up",
    "person",
]

EVERY_SCOPE = tuple(scope.value for scope in TokenScope)


def engine_of(client: TestClient) -> Engine:
    """The database engine of the app that ``client`` runs."""
    engine: Engine = client.app.state.lobby.journal.store.engine
    return engine


@dataclass(frozen=True)
class Person:
    """An account with a live session (made in the database: no password to hash)."""

    id: int
    name: str
    session: str
    csrf: str

    @property
    def account(self) -> Account:
        return Account(self.id, self.name)

    def headers(self, csrf: bool = True) -> dict[str, str]:
        """The session's cookie, and its CSRF header unless ``csrf`` is false."""
        cookie = {"Cookie": f"tendays_session={self.session}"}
        return {**cookie, "X-CSRF-Token": self.csrf} if csrf else cookie

    def call(
        self,
        client: TestClient,
        method: str,
        path: str,
        body: Any = None,
        csrf: bool = True,
    ) -> Any:
        """``method path`` with ``body`` as JSON, sent by this person through ``client``."""
        client.cookies.clear()
        return client.request(method, path, json=body, headers=self.headers(csrf))

    def token(self, client: TestClient, *scopes: str, name: str = "my bot") -> str:
        """A new API token of the person's, with ``scopes`` (every scope if none)."""
        body = {"name": name, "scopes": list(scopes or EVERY_SCOPE)}
        made = self.call(client, "POST", "/api/tokens", body)
        assert made.status_code == 201, made.text
        token: str = made.json()["token"]
        return token


def person(engine: Engine, name: str) -> Person:
    """A new account named ``name`` with a session of an hour, written in ``engine``'s database."""
    now = time.time()
    session, csrf = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    with engine.begin() as db:
        account_id = db.execute(
            insert(AccountTable)
            .values(name=name, name_key=name_key(name), password_hash="x", created=now)
            .returning(AccountTable.id)
        ).scalar_one()
        db.execute(
            insert(SessionTable).values(
                id_hash=session_hash(session),
                account_id=account_id,
                csrf=csrf,
                created=now,
                expires=now + 3600,
            )
        )
    return Person(int(account_id), name, session, csrf)


def new_table(client: TestClient, host: Person, *guests: Person, seats: int = 2) -> str:
    """A game of ``seats`` human seats, the host's, the guests joined (signed in: their seats are
    their accounts'); its id."""
    body = {"edition": "usa", "name": "x", "seats": [HUMAN] * seats}
    created = host.call(client, "POST", "/api/games", body)
    assert created.status_code == 201, created.text
    game_id: str = created.json()["id"]
    for guest in guests:
        joined = guest.call(client, "POST", f"/api/games/{game_id}/join", {"name": "x"})
        assert joined.status_code == 200, joined.text
    return game_id


class SignedUp:
    """A person signed up over HTTP, in a browser of their own (its cookies the session's) on the
    test client's server."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.browser = another_browser(client)
        answer = self.browser.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        self.csrf: str = answer.json()["csrf"]
        with engine_of(client).connect() as db:
            found = db.scalar(select(AccountTable.id).where(AccountTable.name == name))
        assert found is not None
        self.name, self.id = name, found

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        csrf: bool = True,
        **headers: str,
    ) -> Any:
        """``method path`` with ``body`` as JSON from the browser, with the session's CSRF header
        unless ``csrf`` is false, and any other ``headers``."""
        if csrf:
            headers = {"X-CSRF-Token": self.csrf, **headers}
        return self.browser.request(method, path, json=body, headers=headers)

    def token(self, *scopes: str) -> str:
        """A new API token of the person's, with ``scopes``."""
        made = self.call("POST", "/api/tokens", {"name": "my program", "scopes": list(scopes)})
        assert made.status_code == 201, made.text
        return str(made.json()["token"])

    def challenge(self, to: str | None, **asked: Any) -> Any:
        """A challenge to ``to`` (an open one if None) in the USA edition; the answer."""
        return self.call("POST", "/api/challenges", {"to": to, "edition": "usa", **asked})


def node_call(
    node: Any, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, Any, Any]:
    """``method path`` with ``body`` as JSON on a ``tendays serve`` process (a cluster_nodes.Node):
    the status, the answer's JSON ({} if it is empty) and its headers."""
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json", **(headers or {})}
    request = urllib.request.Request(f"{node.base}{path}", data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, _json(answer.read()), answer.headers
    except urllib.error.HTTPError as error:
        return error.code, _json(error.read()), error.headers


def _json(text: bytes) -> Any:
    """The JSON of an answer's body: {} if it is empty, the text itself if it is not JSON."""
    try:
        return json.loads(text) if text else {}
    except ValueError:
        return text.decode(errors="replace")


def node_ask(
    node: Any, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[Any, Any]:
    """:func:`node_call` for a request that must pass: the answer's JSON and its headers."""
    status, answer, answer_headers = node_call(node, method, path, body, headers)
    assert status < 400, f"{method} {path}: {status} {answer}"
    return answer, answer_headers


def node_sign_up(node: Any, name: str, password: str = PASSWORD) -> dict[str, str]:
    """A new account signed up on a process: the headers that act as it on every process."""
    body = {"name": name, "password": password}
    status, session, headers = node_call(node, "POST", "/api/accounts", body)
    assert status == 201, session
    return {"Cookie": headers["Set-Cookie"].split(";")[0], "X-CSRF-Token": session["csrf"]}
