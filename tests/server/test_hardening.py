"""What an outside audit of the server tried: forged forwarded addresses, admin token guesses, names that
read alike, JSON media types in odd letter cases, and deeply nested JSON."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from server_helpers import HUMAN, TestClient, join, new_game, open_table, settings

from tendays.cli.engine_cmd import serve
from tendays.cli.main import main
from tendays.cli.tui.save_file import load_save
from tendays.engine import GameRecord, RecordError
from tendays.engine.json_text import MAX_DEPTH, loads
from tendays.server.face.admin import FAILURES_PER_MINUTE
from tendays.server.face.app import Limits, create_app
from tendays.server.face.guard import ForwardedError, client_address

TOKEN = "Hq3Lx7Vw1Rz5Yb9Nc2Kd6Hs0Pf4Gj8MeTa"
UNLIMITED = {"creates_per_minute": 0, "joins_per_minute": 0, "connections_per_minute": 0, "connections_at_once": 0}


@pytest.fixture
def app_client(tmp_path: Path) -> Any:
    with TestClient(
        create_app(f"sqlite:///{tmp_path / 't.db'}", settings(), Limits(**UNLIMITED), admin_token=TOKEN)
    ) as client:
        yield client


def _scope(peer: str, *lines: str) -> dict[str, Any]:
    return {"client": (peer, 1), "headers": [(b"x-forwarded-for", line.encode()) for line in lines]}


def test_the_rightmost_untrusted_hop_of_every_forwarded_line_is_the_client() -> None:
    trusted = Limits(trusted_proxies=("127.0.0.1", "10.0.0.0/8")).networks()
    # A proxy that appends a line: the client's forged first line does not choose its address.
    assert client_address(_scope("127.0.0.1", "198.51.100.1", "203.0.113.9"), trusted) == "203.0.113.9"
    assert client_address(_scope("127.0.0.1", "198.51.100.1", "203.0.113.9, 10.2.3.4"), trusted) == "203.0.113.9"
    with pytest.raises(ForwardedError):
        client_address(_scope("127.0.0.1", "203.0.113.9", "not-an-address"), trusted)


def test_ipv6_clients_count_per_64_network() -> None:
    one = client_address(_scope("2001:db8:1:2::1"), [])
    assert one == client_address(_scope("2001:db8:1:2:ffff::9"), []) == "2001:db8:1:2::/64"
    assert client_address(_scope("2001:db8:1:3::1"), []) != one
    assert client_address(_scope("::ffff:192.0.2.1"), []) == "192.0.2.1"


def test_a_forwarded_line_that_is_no_address_is_refused(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", settings(), Limits(trusted_proxies=("127.0.0.1",)))
    with TestClient(app, client=("127.0.0.1", 5000)) as client:
        answer = client.get("/health", headers={"X-Forwarded-For": "<script>"})
        assert answer.status_code == 400 and "not an address" in answer.json()["detail"]
        assert client.get("/health", headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 200


def test_creates_are_limited_for_the_forwarded_client_not_its_forged_line(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite:///{tmp_path / 't.db'}", settings(), Limits(trusted_proxies=("127.0.0.1",), creates_per_minute=2)
    )
    body = {"edition": "usa", "name": "Alice", "seats": [HUMAN, HUMAN]}
    with TestClient(app, client=("127.0.0.1", 5000)) as client:
        codes = [
            client.post(
                "/api/games",
                json=body,
                headers=[("X-Forwarded-For", f"198.51.100.{n}"), ("X-Forwarded-For", "203.0.113.9")],
            ).status_code
            for n in range(4)
        ]
    assert codes == [201, 201, 429, 429]


def test_a_weak_admin_token_is_refused_at_start(tmp_path: Path) -> None:
    for weak in ("a", "op3rator", "a" * 40, "abababababababababababababababab"):
        with pytest.raises(ValueError, match="secrets.token_urlsafe"):
            create_app(f"sqlite:///{tmp_path / 't.db'}", admin_token=weak)


def test_wrong_admin_tokens_are_limited_and_recorded(app_client: TestClient) -> None:
    wrong = {"Authorization": "Bearer " + TOKEN[:-1]}
    codes = [app_client.get("/api/admin/games", headers=wrong).status_code for _ in range(FAILURES_PER_MINUTE + 2)]
    assert codes == [401] * FAILURES_PER_MINUTE + [429, 429]
    right = {"Authorization": "Bearer " + TOKEN}
    assert app_client.get("/api/admin/games", headers=right).status_code == 429  # this address waits a minute
    other = TestClient(app_client.app, client=("192.0.2.8", 4000))
    limits = other.get("/api/admin/limits", headers=right).json()
    assert limits["refused"]["admin"] == FAILURES_PER_MINUTE + 3
    assert {"limit": "admin", "address": "testclient"} in [
        {k: r[k] for k in ("limit", "address")} for r in limits["recent"]
    ]


def test_names_at_one_table_are_distinct_as_people_read_them(app_client: TestClient) -> None:
    ticket = new_game(app_client, [HUMAN, HUMAN, HUMAN, {"kind": "bot", "bot": "easy"}], name="Alice")
    for look_alike in ("Al\u200bice", "ALICE", "Al\u00adice\u2060", "\uff21lice", "A\u034flice\U000e0041"):
        answer = app_client.post(f"/api/games/{ticket['id']}/join", json={"name": look_alike})
        assert answer.status_code == 422, look_alike
        assert "already called Alice" in answer.json()["detail"]
    assert app_client.post(f"/api/games/{ticket['id']}/join", json={"name": "easy BOT"}).status_code == 422
    assert join(app_client, ticket["id"], "Bo\u200bb")["seat"] == 1
    seats = app_client.get(f"/api/games/{ticket['id']}").json()["seats"]
    assert seats[1]["name"] == "Bob"  # the invisible character is gone
    german = app_client.post(f"/api/games/{ticket['id']}/join?lang=de", json={"name": "bob"})
    assert german.status_code == 422 and "Bob" in german.json()["detail"]
    assert "already" not in german.json()["detail"]


@pytest.mark.parametrize("kind", ["Application/JSON", "APPLICATION/json; charset=utf-8", "application/Vnd.X+JSON"])
def test_json_media_types_are_matched_in_any_letter_case(app_client: TestClient, kind: str) -> None:
    utf16 = json.dumps({"edition": "usa", "name": "Alice", "seats": [HUMAN, HUMAN]}).encode("utf-16")
    deep = b"[" * 200 + b"]" * 200
    big = b'{"edition": "usa", "name": "Alice", "seats": [], "options": {"days": 1' + b"0" * 5000 + b"}}"
    for body in (utf16, deep, big):
        answer = app_client.post("/api/games?lang=de", content=body, headers={"Content-Type": kind})
        assert answer.status_code == 422, (kind, body[:20])
        assert "JSON" in answer.json()["detail"] and "request" not in answer.json()["detail"]  # in German


def test_deep_json_on_a_table_is_malformed_and_the_connection_stays(app_client: TestClient) -> None:
    ticket = new_game(app_client, [HUMAN, HUMAN])
    with open_table(app_client, ticket["id"], ticket["token"]) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_text("[" * 1900 + "]" * 1900)  # fits in 4 KiB
        answer = ws.receive_json()
        assert answer["type"] == "error" and answer["code"] == "malformed"
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"


def test_one_bound_on_json_nesting() -> None:
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    assert loads('["[[[[[[' + "[" * 100 + '"]') is not None  # brackets inside a string do not count
    with pytest.raises(ValueError, match="nested deeper"):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(RecordError):
        GameRecord.loads('{"moves": ' + "[" * 100_000 + "]" * 100_000 + "}")


def test_deep_json_in_a_save_or_an_engine_command_is_one_clear_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"edition": "usa", "moves": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert main(["replay", str(deep)]) == 2  # `tendays play --resume` reads saves the same way
    refusal = capsys.readouterr().err
    assert refusal.startswith("tendays replay: ") and "nested deeper than 64 levels" in refusal
    with pytest.raises(RecordError, match="nested deeper"):
        load_save(deep)
    sink = io.StringIO()
    assert serve("greedy", 0, io.StringIO("tendays 2\ngo " + "[" * 100_000 + "\nquit\n"), sink) == 0
    assert sink.getvalue().splitlines()[1].startswith("error 'go' needs the view as one JSON object")
