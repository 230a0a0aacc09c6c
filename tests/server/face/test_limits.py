"""The front door: per-client limits (429), body and address sizes, strict JSON and option types, names."""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_helpers import HUMAN, TestClient, join, new_game, open_table, settings
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from tendays.server.face.app import Limits, create_app
from tendays.server.face.door.addresses import client_address
from tendays.server.face.door.limits import LimitBook


def limited(db_url: str, **changes: Any) -> TestClient:
    values: dict[str, Any] = {
        "creates_per_minute": 3,
        "joins_per_minute": 2,
        "connections_per_minute": 4,
        "connections_at_once": 2,
    }
    values.update(changes)
    return TestClient(create_app(db_url, settings(), Limits(**values)))


TOKEN = "s3cret-Wq2Lx6Vz8Rt4Yb1Nc7Kd0Hs9Pf3Gj5Me"  # an admin token as strong as the server asks
CREATE = {"edition": "usa", "name": "Alice", "seats": [HUMAN, HUMAN]}


def test_creating_games_too_fast_is_answered_429(db_url: str) -> None:
    with limited(db_url) as client:
        for _ in range(3):
            assert client.post("/api/games", json=CREATE).status_code == 201
        answer = client.post("/api/games", json=CREATE)
        assert answer.status_code == 429 and int(answer.headers["retry-after"]) >= 1
        assert "too many games created from your address (at most 3 a minute)" in answer.json()["detail"]
        # Another address is not held back by the first one's games.
        other = TestClient(client.app, client=("192.0.2.7", 4000))  # the same running app, another address
        assert other.post("/api/games", json=CREATE).status_code == 201


def test_joining_too_fast_is_answered_429(db_url: str) -> None:
    with limited(db_url, creates_per_minute=0) as client:
        ids = [new_game(client, [HUMAN, HUMAN])["id"] for _ in range(3)]
        assert [client.post(f"/api/games/{i}/join", json={"name": "Bob"}).status_code for i in ids] == [200, 200, 429]


def refused_connection(client: TestClient, game_id: str) -> Any:
    with pytest.raises(WebSocketDenialResponse) as refused, open_table(client, game_id) as ws:
        ws.receive_json()
    return refused.value


def test_table_connections_are_limited_per_address(db_url: str) -> None:
    with limited(db_url) as client:
        ticket = new_game(client, [HUMAN, HUMAN])
        with open_table(client, ticket["id"]) as first, open_table(client, ticket["id"]) as second:
            first.receive_json()
            second.receive_json()
            refused = refused_connection(client, ticket["id"])  # a third at once
            assert refused.status_code == 429 and "too many table connections open" in refused.json()["detail"]
        with open_table(client, ticket["id"]) as ws:  # the fourth in the minute
            ws.receive_json()
        refused = refused_connection(client, ticket["id"])
        assert refused.status_code == 429 and "at most 4 a minute" in refused.json()["detail"]
        assert int(refused.headers["retry-after"]) >= 1
        assert client.get("/health").status_code == 200  # the server is fine


def test_the_refusals_are_counted_for_the_operator(db_url: str) -> None:
    with TestClient(create_app(db_url, settings(), Limits(creates_per_minute=1), admin_token=TOKEN)) as client:
        client.post("/api/games", json=CREATE)
        assert client.post("/api/games", json=CREATE).status_code == 429
        assert client.get("/api/admin/limits").status_code == 401
        seen = client.get("/api/admin/limits", headers={"Authorization": f"Bearer {TOKEN}"}).json()
        assert seen["refused"] == {"create": 1, "admin": 1}  # the request without the admin token counts too
        assert [(r["address"], r["limit"]) for r in seen["recent"]] == [
            ("testclient", "admin"),
            ("testclient", "create"),
        ]


def test_forwarded_addresses_count_only_from_trusted_proxies() -> None:
    def scope(peer: str, forwarded: str | None) -> dict[str, Any]:
        headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded else []
        return {"client": (peer, 1234), "headers": headers}

    trusted = Limits(trusted_proxies=("127.0.0.1", "10.0.0.0/8")).networks()
    assert client_address(scope("127.0.0.1", "203.0.113.9"), trusted) == "203.0.113.9"
    # The client may send its own X-Forwarded-For; the proxy appends the real address: the rightmost
    # address that is not a trusted proxy is the client.
    assert client_address(scope("127.0.0.1", "1.2.3.4, 203.0.113.9, 10.1.1.1"), trusted) == "203.0.113.9"
    assert client_address(scope("198.51.100.5", "203.0.113.9"), trusted) == "198.51.100.5"  # not a proxy
    assert client_address(scope("127.0.0.1", "203.0.113.9"), []) == "127.0.0.1"  # no proxy trusted
    assert client_address(scope("127.0.0.1", None), trusted) == "127.0.0.1"


def test_the_limit_book_forgets_old_requests() -> None:
    now = [0.0]
    book = LimitBook(clock=lambda: now[0])
    assert [book.allow("create", "a", 2) for _ in range(3)] == [0.0, 0.0, 60.0]
    now[0] = 61.0
    assert book.allow("create", "a", 2) == 0.0
    assert book.allow("create", "a", 0) == 0.0  # 0: no limit


def test_bodies_and_addresses_have_size_limits(client: TestClient) -> None:
    big = client.post("/api/games", content=b"{" + b" " * 20_000 + b"}", headers={"Content-Type": "application/json"})
    assert big.status_code == 413 and "the request is too large (20002 bytes; at most 16384)" in big.json()["detail"]
    name = client.post("/api/games", json={**CREATE, "name": "A" * 60_000_000})
    assert name.status_code == 413
    long = client.get("/api/games/" + "x" * 3000)
    assert long.status_code == 414 and "the address is too long" in long.json()["detail"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b'{"edition": "usa", "name": NaN, "seats": [{"kind": "human"}]}', "not valid JSON"),
        (
            b'{"edition": "usa", "name": "A", "seats": [{"kind": "human"}], "options": {"days": Infinity}}',
            "not valid JSON",
        ),
        (
            b'{"edition": "usa", "name": "A", "seats": [{"kind": "human"}], "options": {"turn_limit": 1e999}}',
            "not valid JSON",
        ),
        (b'{"edition": "usa", "name": "\\x41", "seats": [{"kind": "human"}]}', "not valid JSON"),
        (b'{"edition": "usa", "name": "\\ud800", "seats": [{"kind": "human"}]}', "not valid JSON"),
        (
            b'{"edition": "usa", "name": "A", "seats": [{"kind": "human"}], "options": {"days": "10"}}',
            "options.days: must be a whole number (not '10')",
        ),
        (
            b'{"edition": "usa", "name": "A", "seats": [{"kind": "human"}], "options": {"swap": "true"}}',
            "options.swap: must be true or false",
        ),
        (
            b'{"edition": "usa", "name": "A", "seats": [{"kind": "human"}], "options": {"days": 10.0}}',
            "options.days: must be a whole number",
        ),
        (
            b'{"edition": "usa", "name": "A", "seats": [{"kind": "human"}], '
            b'"pace": {"kind": "live", "per_move": "60"}}',
            "pace.per_move: must be a whole number",
        ),
        (
            b'{"edition": "usa", "name": "A", "seats": [{"kind": "human"}], "pace": {"kind": "live", "per_move": 3}}',
            "a live game gives each move 10 seconds to 10 minutes, not 3 seconds",
        ),
        (b"[1, 2]", "must be an object"),
    ],
)
def test_broken_json_and_loose_types_are_422_in_words(client: TestClient, body: bytes, words: str) -> None:
    answer = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert words in answer.json()["detail"], answer.json()
    assert client.get("/api/games").json()["total"] == 0  # nothing was created, nothing broke


@pytest.mark.slow  # over a second of CPU
@pytest.mark.parametrize(
    ("name", "stored"),
    [
        ("Zoe\u0301", "Zoé"),  # NFC: the combining accent joins its letter
        ("👩\u200d👩\u200d👧\u200d👦 Fam", "👩\u200d👩\u200d👧\u200d👦 Fam"),  # an emoji with joiners
        (
            "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
            "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
        ),  # a flag with tags
        ("  Ann   Lee ", "Ann Lee"),
    ],
)
def test_names_are_normalised_and_emoji_allowed(client: TestClient, name: str, stored: str) -> None:
    ticket = new_game(client, [HUMAN, HUMAN], name=name)
    assert client.get(f"/api/games/{ticket['id']}").json()["seats"][0]["name"] == stored


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("\u200b\u200d", "at least one visible character"),
        ("\u3164\u3164", "at least one visible character"),  # Hangul fillers draw nothing
        ("\u2800", "at least one visible character"),
        ("\ufe0f", "at least one visible character"),
        ("a\u202eb", "change the direction of text"),
        ("a\u0000b", "control characters"),
        ("Al\u206aice", "the character U+206A"),  # a deprecated shaping control
        ("x\ufff9y", "the character U+FFF9"),  # an interlinear annotation
        ("x" * 33, "at most 32 characters"),
        ("", "at least 1 character"),
    ],
)
def test_invisible_and_disguised_names_are_refused(client: TestClient, name: str, words: str) -> None:
    answer = client.post("/api/games", json={**CREATE, "name": name})
    assert answer.status_code == 422 and words in answer.json()["detail"], answer.json()
    ticket = new_game(client, [HUMAN, HUMAN])
    joined = client.post(f"/api/games/{ticket['id']}/join", json={"name": name})
    assert joined.status_code == 422 and words in joined.json()["detail"]


def test_a_token_in_the_address_is_refused(client: TestClient) -> None:
    ticket = new_game(client, [HUMAN])
    with client.websocket_connect(f"/ws/games/{ticket['id']}?token={ticket['token']}") as ws:
        refusal = ws.receive_json()
        assert refusal["code"] == "malformed" and "never in the address" in refusal["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400


@pytest.mark.parametrize(
    "hello", ['{"type": "move"}', "not json", '{"type": "hello", "token": 5}', '{"type": "hello", "token": NaN}']
)
def test_the_first_message_must_say_hello(client: TestClient, hello: str) -> None:
    ticket = new_game(client, [HUMAN])
    join_ticket = new_game(client, [HUMAN, HUMAN])
    assert join(client, join_ticket["id"])["seat"] == 1
    with client.websocket_connect(f"/ws/games/{ticket['id']}") as ws:
        ws.send_text(hello)
        refusal = ws.receive_json()
        assert refusal["type"] == "error" and refusal["code"] in ("malformed", "forbidden"), refusal
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    assert json.dumps(refusal).count("token") <= 2
