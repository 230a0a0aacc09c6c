"""The accounts' security: CSRF, sessions renewed at sign-in and ended on the server, sign-in limits that
answer the same for an unknown name and a wrong password, accounts that cannot reach each other's data,
the cookie's flags, and no password or hash in any answer or log line."""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import HUMAN, TestClient, Ticker, settings
from sqlalchemy import select

from tendays.server.face.app import Limits, create_app
from tendays.server.face.door.addresses import over_tls
from tendays.server.face.door.logs import RedactSecrets, redact
from tendays.server.people.limits import SignInLimits
from tendays.server.storage.schema import AccountTable, SessionTable

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in

PASSWORD = "correct horse battery"


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    """One server on SQLite (the PostgreSQL half of the account tests is test_accounts.py)."""
    unlimited = Limits(
        clock=Ticker(0.1), creates_per_minute=0, joins_per_minute=0, connections_per_minute=0, connections_at_once=0
    )
    with TestClient(create_app(f"sqlite:///{tmp_path / 'tendays.db'}", settings(), unlimited)) as client:
        yield client


def sign_up(client: TestClient, name: str = "Alice") -> str:
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def game_body(name: str = "Alice") -> dict[str, Any]:
    return {"edition": "usa", "name": name, "seats": [HUMAN, HUMAN]}


def test_a_changing_request_signed_in_by_cookie_needs_the_csrf_token(app_client: TestClient) -> None:
    csrf = sign_up(app_client)
    for method, path, body in (
        ("DELETE", "/api/session", None),
        ("POST", "/api/games", game_body()),
        ("DELETE", "/api/account/sessions", None),
        ("POST", "/api/account/password", {"password": PASSWORD, "new_password": "x" * 20}),
        ("DELETE", "/api/account", {"password": PASSWORD}),
    ):
        for headers in ({}, {"X-CSRF-Token": "forged"}, {"X-CSRF-Token": ""}):
            answer = app_client.request(method, path, json=body, headers=headers)
            assert answer.status_code == 403, (method, path, headers)
            assert "X-CSRF-Token" in answer.json()["detail"]
    assert app_client.get("/api/session").status_code == 200  # nothing happened
    assert app_client.post("/api/games", json=game_body(), headers={"X-CSRF-Token": csrf}).status_code == 201
    anonymous = TestClient(app_client.app)
    assert anonymous.post("/api/games", json=game_body("Ann")).status_code == 201  # no session: no token needed


def test_sign_in_makes_a_new_session_and_ends_the_one_the_browser_had(app_client: TestClient) -> None:
    first_csrf = sign_up(app_client)
    planted = app_client.cookies["tendays_session"]  # a session id someone else may know (fixation)
    answer = app_client.post("/api/session", json={"name": "Alice", "password": PASSWORD})
    assert answer.status_code == 200
    renewed = app_client.cookies["tendays_session"]
    assert renewed != planted and answer.json()["csrf"] != first_csrf
    other = TestClient(app_client.app, cookies={"tendays_session": planted})
    assert other.get("/api/session").status_code == 204


def test_a_session_ends_30_days_after_its_sign_in(app_client: TestClient) -> None:
    now = [1_000_000.0]
    app_client.app.state.accounts.clock = lambda: now[0]
    sign_up(app_client)
    cookie = app_client.post("/api/session", json={"name": "Alice", "password": PASSWORD}).headers["set-cookie"]
    assert f"Max-Age={30 * 24 * 3600}" in cookie
    now[0] += 30 * 24 * 3600 - 1
    assert app_client.get("/api/session").status_code == 200
    now[0] += 2
    assert app_client.get("/api/session").status_code == 204


def test_sign_out_ends_the_session_on_the_server(app_client: TestClient) -> None:
    csrf = sign_up(app_client)
    session_id = app_client.cookies["tendays_session"]
    answer = app_client.delete("/api/session", headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 204 and 'tendays_session=""' in answer.headers["set-cookie"]
    replayed = TestClient(app_client.app, cookies={"tendays_session": session_id})
    assert replayed.get("/api/session").status_code == 204
    with app_client.app.state.lobby.journal.store.engine.connect() as db:
        assert db.scalar(select(SessionTable.id_hash)) is None


def test_sign_in_is_limited_per_name_and_answers_alike_for_an_unknown_name(app_client: TestClient) -> None:
    sign_up(app_client)
    now = [1_000_000.0]
    app_client.app.state.accounts.clock = lambda: now[0]
    stranger = TestClient(app_client.app)
    answers = []
    for name in ("Alice", "Nobody"):
        for _ in range(5):
            wrong = stranger.post("/api/session", json={"name": name, "password": "wrong password"})
            answers.append((wrong.status_code, wrong.json()))
        limited = stranger.post("/api/session", json={"name": name, "password": PASSWORD})
        assert limited.status_code == 429 and int(limited.headers["Retry-After"]) == 900
        answers.append((limited.status_code, limited.json()))
    assert answers[:6] == answers[6:]  # an unknown name is answered exactly like a known one
    assert answers[0] == (401, {"detail": "wrong name or password"})
    now[0] += 901
    assert stranger.post("/api/session", json={"name": "Alice", "password": PASSWORD}).status_code == 200


def test_sign_in_is_limited_per_address(app_client: TestClient) -> None:
    app_client.app.state.accounts.clock = lambda: 1_000_000.0
    for number in range(20):
        assert app_client.post("/api/session", json={"name": f"name {number}", "password": "x"}).status_code == 401
    answer = app_client.post("/api/session", json={"name": "someone else", "password": "x"})
    assert answer.status_code == 429 and "Retry-After" in answer.headers
    answer = app_client.post("/api/session?lang=de", json={"name": "someone else", "password": "x"})
    assert "Anmeldungen" in answer.json()["detail"]


def test_accounts_made_from_one_address_are_limited(app_client: TestClient) -> None:
    app_client.app.state.accounts.limits = SignInLimits(sign_ups_per_address=2)
    app_client.app.state.accounts.clock = lambda: 1_000_000.0  # the window opens at the first sign-up
    stranger = TestClient(app_client.app)
    for name in ("Ann", "Ben"):
        assert stranger.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    answer = stranger.post("/api/accounts", json={"name": "Cy", "password": PASSWORD})
    assert answer.status_code == 429 and int(answer.headers["Retry-After"]) == 900
    assert "accounts made from your address" in answer.json()["detail"]


def test_one_account_cannot_read_or_change_another(app_client: TestClient) -> None:
    alice_csrf = sign_up(app_client, "Alice")
    game = app_client.post("/api/games", json=game_body(), headers={"X-CSRF-Token": alice_csrf}).json()["id"]
    bob = TestClient(app_client.app)
    bob_csrf = sign_up(bob, "Bob")
    # No call names another account: a name or id slipped into a body is refused, not obeyed.
    for method, path, body in (
        ("POST", "/api/account/password", {"password": PASSWORD, "new_password": "x" * 20, "name": "Alice"}),
        ("DELETE", "/api/account", {"password": PASSWORD, "account": 1}),
    ):
        assert bob.request(method, path, json=body, headers={"X-CSRF-Token": bob_csrf}).status_code == 422
    assert bob.delete("/api/session", headers={"X-CSRF-Token": alice_csrf}).status_code == 403  # not his token
    data = bob.get("/api/account/data").json()
    assert data["account"]["name"] == "Bob" and data["games"] == [] and "Alice" not in str(data)
    assert bob.get(f"/api/games/{game}/seat").status_code == 404
    with bob.websocket_connect(f"/ws/games/{game}") as ws:
        ws.send_json({"type": "hello", "account": True})
        assert ws.receive_json()["code"] == "forbidden"
    assert (
        bob.request(
            "DELETE", "/api/account", json={"password": PASSWORD}, headers={"X-CSRF-Token": bob_csrf}
        ).status_code
        == 204
    )
    assert app_client.get("/api/session").json()["name"] == "Alice"  # Alice untouched
    assert app_client.get(f"/api/games/{game}/seat").json()["seat"] == 0


def test_another_site_cannot_open_a_seat_with_the_visitors_cookie(app_client: TestClient) -> None:
    csrf = sign_up(app_client)
    game = app_client.post("/api/games", json=game_body(), headers={"X-CSRF-Token": csrf}).json()["id"]
    with app_client.websocket_connect(f"/ws/games/{game}", headers={"Origin": "https://evil.example"}) as ws:
        ws.send_json({"type": "hello", "account": True})
        assert ws.receive_json()["code"] == "forbidden"
    with app_client.websocket_connect(f"/ws/games/{game}", headers={"Origin": "http://testserver"}) as ws:
        ws.send_json({"type": "hello", "account": True})
        assert ws.receive_json()["game"]["you"] == 0


def test_the_cookie_is_secure_behind_tls_and_only_then(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", settings()), base_url="https://testserver") as tls:
        cookie = tls.post("/api/accounts", json={"name": "Alice", "password": PASSWORD}).headers["set-cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    proxy = [ipaddress.ip_network("10.0.0.0/8")]
    forwarded = {"scheme": "http", "client": ("10.0.0.2", 4000), "headers": [(b"x-forwarded-proto", b"https")]}
    assert over_tls(forwarded, proxy)
    assert not over_tls({**forwarded, "client": ("203.0.113.9", 4000)}, proxy)  # not a trusted proxy: ignored
    assert not over_tls(forwarded, [])
    assert not over_tls({**forwarded, "headers": [(b"x-forwarded-proto", b"http")]}, proxy)


def test_no_password_or_hash_leaves_the_server_or_reaches_a_log(
    app_client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    seen: list[str] = []

    def keep(answer: Any) -> Any:
        seen.append(answer.text + str(answer.headers))
        return answer

    keep(app_client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD}))
    csrf = app_client.get("/api/session").json()["csrf"]
    keep(app_client.post("/api/session", json={"name": "Alice", "password": PASSWORD}))
    keep(app_client.post("/api/session", json={"name": "Alice", "password": PASSWORD + "?"}))
    keep(app_client.post("/api/accounts", json={"name": "Bob", "password": 12345678901234}))  # not even echoed
    keep(app_client.post("/api/accounts", json={"name": "Bob", "password": "x" * 2000}))
    csrf = app_client.get("/api/session").json()["csrf"]
    keep(
        app_client.post(
            "/api/account/password",
            json={"password": PASSWORD, "new_password": "another phrase!"},
            headers={"X-CSRF-Token": csrf},
        )
    )
    keep(app_client.get("/api/account/data"))
    keep(app_client.get("/openapi.json"))
    with app_client.app.state.lobby.journal.store.engine.connect() as db:
        stored = db.scalar(select(AccountTable.password_hash))
    assert stored is not None and stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")  # at least OWASP's
    everything = "\n".join(seen) + caplog.text
    for secret in (PASSWORD, "another phrase!", "12345678901234", "x" * 2000, stored, stored.split("$")[-1], "$argon2"):
        assert secret not in everything


@pytest.mark.parametrize(
    "line",
    [
        'POST /api/session {"name": "Alice", "password": "s3cret phrase!"}',
        '{"new_password":"s3cret phrase!","password":"s3cret phrase!"}',
        "GET /api/session?password=s3cret%20phrase! HTTP/1.1",
        "Cookie: tendays_session=s3cret phrase!; lang=de",
        '{"csrf": "s3cret phrase!"}',
        "stored $argon2id$v=19$m=65536,t=3,p=4$s3cret phrase!",
    ],
)
def test_the_log_filter_hides_passwords_sessions_and_hashes(line: str) -> None:
    assert "s3cret" not in redact(line)
    record = logging.LogRecord("tendays", logging.INFO, __file__, 1, "%s", (line,), None)
    assert RedactSecrets().filter(record) and "s3cret" not in record.getMessage()
