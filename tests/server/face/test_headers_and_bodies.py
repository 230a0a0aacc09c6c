"""Pages and bodies: security headers on every answer, every method's body bounded and timed, records
opened from files limited per client, secrets kept out of the log by their value, and a deleted
account's name gone from every cached answer."""

from __future__ import annotations

import asyncio
import base64
import logging
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import HUMAN, PASSWORD, TestClient, bot, new_game, open_table, settings, sign_up

from tendays.server.face.app import Limits, create_app, static_dir
from tendays.server.face.door.guard import RequestGuard
from tendays.server.face.door.headers import PAGE_POLICY
from tendays.server.face.door.limits import LimitBook
from tendays.server.face.door.logs import RedactSecrets, looks_random, redact
from tendays.web.pages import page_html

PAGES = [
    "/",
    "/play/abc123",
    "/account",
    "/admin",
    "/learn",
    "/players",
    "/players/Alice",
    "/leaderboard",
    "/puzzles",
    "/replay",
    "/replay/abc123",
    "/challenge/abc123",
]
RECORD = {"format": "tendays-record/1", "edition": "usa", "options": {"players": 2}, "seed": 7, "moves": []}


@pytest.fixture
def lite(tmp_path: Path) -> Iterator[TestClient]:
    """The app on SQLite: headers and bodies do not depend on the database."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'tendays.db'}", settings())) as client:
        yield client


def assert_secured(headers: Any) -> None:
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self';" in policy and "unsafe-inline" not in policy
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert "camera=()" in headers["permissions-policy"]


@pytest.mark.parametrize(
    "path",
    [
        *PAGES,
        "/api/games",
        "/health",
        "/openapi.json",
        "/static/js/pages/lobby.js",
        "/static/css/tendays.css",
        "/static/i18n/de.json",
        "/api/games/nosuch",
        "/static/nosuch.js",
        "/nosuch",
    ],
)
def test_every_answer_carries_the_security_headers(lite: TestClient, path: str) -> None:
    answer = lite.get(path)
    assert answer.status_code in (200, 404), answer.text
    assert_secured(answer.headers)


def test_refusals_carry_the_security_headers_too(lite: TestClient) -> None:
    refusals = [
        lite.post("/api/games", content=b"{NaN}", headers={"Content-Type": "application/json"}),  # 422 (guard)
        lite.post("/api/games", json={"edition": 5}),  # 422 (validation)
        lite.post("/api/games", content=b"x" * 20_000),  # 413
        lite.get("/health?" + "x" * 3000),  # 414
        lite.get("/api/admin/games"),  # 404: no admin token
    ]
    assert [answer.status_code for answer in refusals] == [422, 422, 413, 414, 404]
    for answer in refusals:
        assert_secured(answer.headers)


def test_the_api_page_keeps_the_script_policy_and_holds_no_inline_script(lite: TestClient) -> None:
    answer = lite.get("/docs")
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", answer.text, re.S)
    assert scripts and all('src="' in attributes and not body.strip() for attributes, body in scripts)
    start = lite.get("/docs/assets/start.js")
    assert start.status_code == 200 and "SwaggerUIBundle" in start.text
    assert start.headers["content-type"].startswith("text/javascript")


@pytest.mark.parametrize("page", sorted(path.name for path in static_dir().glob("*.html")))
def test_no_page_holds_what_the_policy_would_block(page: str) -> None:
    """Inline scripts, inline styles and event handler attributes: the policy allows none of them.

    The page is read as the server sends it, with its shared parts written in."""
    text = page_html(static_dir() / page)
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", text) == []
    assert re.findall(r"<style\b|\sstyle=|\son[a-z]+=|javascript:", text, re.I) == []
    assert PAGE_POLICY.count("'self'") >= 5  # nothing from other sites either


def test_the_policy_is_sent_once_and_frames_are_refused_by_both_headers(lite: TestClient) -> None:
    answer = lite.get("/play/abc123")
    assert answer.headers.get_list("content-security-policy") == [PAGE_POLICY]
    assert answer.headers.get_list("x-frame-options") == ["DENY"]


# -- bodies ---------------------------------------------------------------------------------------------


def test_a_huge_delete_body_is_refused_before_it_is_read(lite: TestClient) -> None:
    """An anonymous DELETE /api/account with 20 MB: 413 in words, as declared; the server answers on."""
    answer = lite.request(
        "DELETE", "/api/account", content=b"x" * 20_000_000, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 413, answer.text
    assert answer.json()["detail"] == "the request is too large (20000000 bytes; at most 16384)"
    assert answer.headers["connection"] == "close"
    assert lite.get("/health").status_code == 200


@pytest.mark.parametrize("method", ["DELETE", "GET", "OPTIONS"])
def test_every_methods_body_is_bounded_and_strict(lite: TestClient, method: str) -> None:
    chunks = iter([b"[" * 9000, b"1" * 9000])  # no declared length: cut off as it comes
    assert lite.request(method, "/api/account", content=chunks).status_code == 413
    answer = lite.request(
        method, "/api/account", content=b'{"password": NaN}', headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 422 and "not valid JSON" in answer.json()["detail"]


class Trickle:
    """A client that sends part of a body and then nothing, as ASGI messages."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.app_called = False
        self.never = asyncio.Event()
        self.first = True

    async def receive(self) -> dict[str, Any]:
        if self.first:
            self.first = False
            return {"type": "http.request", "body": b'{"pass', "more_body": True}
        await self.never.wait()  # the rest never comes
        return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    async def app(self, scope: Any, receive: Any, send: Any) -> None:
        self.app_called = True


@pytest.mark.parametrize("method", ["POST", "DELETE"])
def test_a_body_that_trickles_is_answered_408_and_the_connection_closed(method: str) -> None:
    trickle = Trickle()
    guard = RequestGuard(trickle.app, Limits(body_seconds=0.05), LimitBook())
    scope = {
        "type": "http",
        "method": method,
        "path": "/api/account",
        "query_string": b"",
        "headers": [(b"content-length", b"100"), (b"content-type", b"application/json")],
        "client": ("192.0.2.1", 4000),
    }
    asyncio.run(guard(scope, trickle.receive, trickle.send))
    start, body = trickle.sent
    assert start["status"] == 408 and (b"connection", b"close") in start["headers"]
    assert b"the request's body came too slowly (it must arrive within 0.05 s)" in body["body"]
    assert not trickle.app_called


# -- records opened from files ----------------------------------------------------------------------------


def test_records_opened_from_files_are_limited_per_client(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", settings(), Limits(replays_per_minute=2))
    with TestClient(app) as client:
        codes = [client.post("/api/replays", json=RECORD).status_code for _ in range(3)]
        assert codes == [200, 200, 429]
        refused = client.post("/api/replays", json=RECORD)
        assert "too many records opened from your address (at most 2 a minute)" in refused.json()["detail"]
        assert int(refused.headers["retry-after"]) > 0
        other = TestClient(app, client=("192.0.2.9", 4000))
        assert other.post("/api/replays", json=RECORD).status_code == 200  # another client is not held up
        assert other.get("/api/games").status_code == 200  # nor is anything else


def test_records_sent_at_once_by_one_client_are_replayed_one_at_a_time(tmp_path: Path) -> None:
    """Strangers send everything at once: 12 records at the same moment from one address, a limit of 4 a
    minute: at most 4 replayed, whatever the order they arrive in."""
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", settings(), Limits(replays_per_minute=4))
    with TestClient(app) as client:
        codes: list[int] = []
        ready = threading.Barrier(12)

        def send() -> None:
            ready.wait()
            codes.append(client.post("/api/replays", json=RECORD).status_code)

        threads = [threading.Thread(target=send) for _ in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert 1 <= codes.count(200) <= 4 and codes.count(200) + codes.count(429) == 12


class Held:
    """An app that holds every request until it is let go."""

    def __init__(self) -> None:
        self.entered = asyncio.Event()
        self.go = asyncio.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.entered.set()
        await self.go.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})


def test_a_second_record_waits_for_the_first_from_the_same_client() -> None:
    async def run() -> list[int]:
        held = Held()
        guard = RequestGuard(held, Limits(), LimitBook())

        async def post(address: str) -> int:
            sent: list[dict[str, Any]] = []

            async def receive() -> dict[str, Any]:
                return {"type": "http.request", "body": b"{}", "more_body": False}

            async def send(message: dict[str, Any]) -> None:
                sent.append(message)

            scope = {
                "type": "http",
                "method": "POST",
                "path": "/api/replays",
                "query_string": b"",
                "headers": [(b"content-length", b"2")],
                "client": (address, 4000),
            }
            await guard(scope, receive, send)
            return int(sent[0]["status"])

        first = asyncio.create_task(post("192.0.2.1"))
        await held.entered.wait()
        second = await post("192.0.2.1")  # the same client while its first is replayed
        held.go.set()
        other = await post("192.0.2.2")
        return [await first, second, other, await post("192.0.2.1")]

    assert asyncio.run(run()) == [200, 429, 200, 200]


# -- secrets in the log, by value -------------------------------------------------------------------------

# made as the server makes them: secrets.token_urlsafe(24) and (32)
SEAT = "wmoC-QimQWl_VQ5s9ogHRzik6BH77hWR"
SESSION = "mpJFBdCVh-E3NuPGUTGvxO9Zlp93pyLfz3M2bw7ezLA"


@pytest.mark.parametrize(
    "line",
    [
        f"GET /ws/games/abc?t%256fken={SEAT} HTTP/1.1",  # the name escaped twice
        f"GET /health?x={SEAT}&lang=de HTTP/1.1",  # any name
        f"GET /health?%78={SESSION.replace('-', '%2D')} HTTP/1.1",  # its value escaped
        f"GET /health?{SESSION} HTTP/1.1",  # no name at all
        f"GET /play/abc/{SEAT} HTTP/1.1",  # in the path
        f'a hello {{"seat_link": "{SEAT}"}}',  # JSON under another name
        f"the client said {SESSION} in words",
    ],
)
def test_secrets_are_redacted_by_their_value_under_any_name(line: str) -> None:
    secret = SEAT if SEAT in line or SEAT.replace("-", "%2D") in line else SESSION
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, "%s", (line,), None)
    assert RedactSecrets().filter(record)
    said = record.getMessage()
    assert secret not in said and secret.replace("-", "%2D") not in said and "…" in said


def test_a_known_secret_is_redacted_wherever_it_stands() -> None:
    admin = "correct-horse-battery-staple-admin"  # not random-looking: found because it is known
    assert not looks_random(admin)
    assert admin not in redact(f"GET /api/admin/games?q={admin}", known=[admin])
    assert admin not in redact(f"Authorization: Bearer {admin}", known=[admin])


@pytest.mark.parametrize(
    "line",
    [
        'GET /api/games/abc12345/join HTTP/1.1" 200',
        "GET /static/js/shared/account_session.js HTTP/1.1",
        "GET /docs/assets/swagger-ui-bundle.js HTTP/1.1",
        "GET /api/seeks/Ab3dEf6hIj9kLm0n HTTP/1.1",  # a seek's id (16 characters) is no secret
        "restored 3 unfinished game(s) from the database",
        "websocket_http_response_start failed: RequestValidationError",
    ],
)
def test_what_is_no_secret_stays_readable(line: str) -> None:
    assert redact(line) == line


def test_seat_tokens_and_session_ids_look_random() -> None:
    """Made as the server makes them (secrets.token_urlsafe), from a seeded source so the test is the same
    every time."""
    source = random.Random(34)
    for size in (24, 32):
        for _ in range(5000):
            token = base64.urlsafe_b64encode(source.randbytes(size)).rstrip(b"=").decode()
            assert looks_random(token), token


# -- a deleted account's name ---------------------------------------------------------------------------


@pytest.mark.slow  # a game played out and a password hashed (Argon2id)
def test_a_deleted_accounts_name_leaves_the_cached_replay(client: TestClient) -> None:
    sign_up(client, "Zebediah")
    ticket = new_game(client, [HUMAN, bot("easy")], name="Zebediah", days=5, turn_limit=4)
    with open_table(client, ticket["id"], ticket["token"]) as ws:
        table = ws.receive_json()
        while table.get("type") != "state" or table["game"]["status"] != "over":
            if table.get("type") == "state" and table["game"]["legal_moves"]:
                ws.send_json(
                    {"type": "move", "move": table["game"]["legal_moves"][0]["text"], "version": table["version"]}
                )
            table = ws.receive_json()
    for language in ("en", "de"):  # cached per language
        replay = client.get(f"/api/games/{ticket['id']}/replay", headers={"Accept-Language": language})
        assert replay.status_code == 200 and "Zebediah" in replay.text
    assert client.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 204
    for language, said in (("en", "deleted player"), ("de", "gelöschter Spieler")):
        replay = client.get(f"/api/games/{ticket['id']}/replay", headers={"Accept-Language": language})
        assert replay.status_code == 200
        assert "Zebediah" not in replay.text and replay.json()["seats"][0]["name"] == said
