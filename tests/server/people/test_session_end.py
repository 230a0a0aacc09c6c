"""Sessions end everywhere, on SQLite and PostgreSQL: after a sign-out, a sign-out everywhere, a new
password, the operator's reset or the account's deletion, a table connection that held on the
ended session (or on the account's seat link) can no longer play or chat: it is told why in words and
closed with code 4401. The old seat links open nothing; signing in again opens the seat."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from server_helpers import HUMAN, PASSWORD, TestClient, bot, open_table, sign_up
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tendays.server.matches.seats import hash_token
from tendays.server.people.accounts import reset_password
from tendays.server.storage.store import Store

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in

Message = dict[str, Any]
NEW_PASSWORD = "a fresher phrase entirely"


def browser(client: TestClient) -> TestClient:
    """A second browser on the same running server: its own cookies."""
    return TestClient(client.app)


def signed_in(client: TestClient, password: str = PASSWORD) -> TestClient:
    """Another browser signed in to Alice."""
    other = browser(client)
    answer = other.post("/api/session", json={"name": "Alice", "password": password})
    assert answer.status_code == 200, answer.text
    other.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return other


def first_table(ws: WebSocketTestSession) -> Message:
    message: Message = ws.receive_json()
    assert message["type"] == "state", message
    return message


@contextlib.contextmanager
def sit_signed_in(browser_: TestClient, game: str) -> Iterator[WebSocketTestSession]:
    with browser_.websocket_connect(f"/ws/games/{game}") as ws:
        ws.send_json({"type": "hello", "account": True})
        assert first_table(ws)["game"]["you"] == 0
        yield ws


def closed_before_chatting(ws: WebSocketTestSession, words: str) -> tuple[Message, int]:
    """Say ``words`` at the table, then read on: the refusal that came before the close and the
    close code. A line that reaches the table fails the test (the connection could still chat)."""
    ws.send_json({"type": "chat", "text": words})
    refusal: Message = {}
    while True:
        try:
            message: Message = ws.receive_json()
        except WebSocketDisconnect as closed:
            return refusal, closed.code
        assert words not in json.dumps(message), "the ended session still chats"
        if message["type"] == "error":
            refusal = message


def link_refused(client: TestClient, game: str, token: str) -> Message:
    with open_table(browser(client), game, token) as ws:
        message: Message = ws.receive_json()
    return message


@pytest.fixture
def game(client: TestClient) -> tuple[str, str]:
    """Alice, signed in on ``client``, plays a bot: (the game, Alice's seat link)."""
    sign_up(client, "Alice")
    created = client.post("/api/games", json={"edition": "usa", "name": "Alice", "seats": [HUMAN, bot()]})
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()["token"]


def sign_out(client: TestClient, phone: TestClient, db_url: str) -> None:
    assert phone.delete("/api/session").status_code == 204


def sign_out_everywhere(client: TestClient, phone: TestClient, db_url: str) -> None:
    assert client.delete("/api/account/sessions").status_code == 204


def new_password(client: TestClient, phone: TestClient, db_url: str) -> None:
    answer = client.post("/api/account/password", json={"password": PASSWORD, "new_password": NEW_PASSWORD})
    assert answer.status_code == 204


def operator_reset(client: TestClient, phone: TestClient, db_url: str) -> None:
    """``tendays accounts reset-password``'s work, on an engine of its own (no server in it)."""
    store = Store(db_url)
    try:
        reset_password(store.engine, "Alice", NEW_PASSWORD)
    finally:
        store.close()


Ending = Callable[[TestClient, TestClient, str], None]


@pytest.mark.parametrize("end", [sign_out, sign_out_everywhere, new_password, operator_reset])
def test_an_ended_session_stops_its_table_and_the_seat_links_while_signing_in_resumes(
    client: TestClient, db_url: str, game: tuple[str, str], end: Ending
) -> None:
    game_id, token = game
    phone = signed_in(client)
    # the phone signed in, and an anonymous browser with Alice's seat link
    with sit_signed_in(phone, game_id) as phone_ws, open_table(browser(client), game_id, token) as by_link:
        assert first_table(by_link)["game"]["you"] == 0
        end(client, phone, db_url)

        refusal, code = closed_before_chatting(phone_ws, "from the phone")
        assert code == 4401 and refusal["code"] == "signed_out"
        assert "sign in again" in refusal["message"]
        refusal, code = closed_before_chatting(by_link, "from the link")
        assert code == 4401 and refusal["code"] == "link_revoked"

    if end is not operator_reset:  # ended by this server: its own copy of the seat changed at once
        seat = client.app.state.lobby.matches[game_id].seats[0]
        assert seat.token_hash not in (None, hash_token(token))
    refused = link_refused(client, game_id, token)
    assert refused["type"] == "error" and refused["code"] == "forbidden"
    password = PASSWORD if end in (sign_out, sign_out_everywhere) else NEW_PASSWORD
    again = signed_in(client, password)
    assert again.get(f"/api/games/{game_id}/seat").json() == {"id": game_id, "seat": 0}
    with again.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "account": True})
        assert first_table(ws)["game"]["you"] == 0
        ws.send_json({"type": "chat", "text": "back again"})
        while (message := ws.receive_json())["type"] != "chat":
            assert message["type"] == "state", message
        assert [line["text"] for line in message["chat"]] == ["back again"]


def test_a_new_password_keeps_the_askers_own_table(client: TestClient, game: tuple[str, str]) -> None:
    game_id, _ = game
    with sit_signed_in(client, game_id) as ws:
        new_password(client, browser(client), "")
        ws.send_json({"type": "chat", "text": "still mine"})
        while (message := ws.receive_json())["type"] != "chat":
            assert message["type"] == "state", message
        assert [line["text"] for line in message["chat"]] == ["still mine"]


def test_a_deleted_account_closes_its_tables_and_links(client: TestClient, game: tuple[str, str]) -> None:
    game_id, token = game
    phone = signed_in(client)
    with sit_signed_in(phone, game_id) as phone_ws, open_table(browser(client), game_id, token) as by_link:
        assert first_table(by_link)["game"]["you"] == 0
        assert client.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 204
        refusal, code = closed_before_chatting(phone_ws, "from the phone")
        assert code == 4401 and refusal["code"] == "signed_out"
        refusal, code = closed_before_chatting(by_link, "from the link")
        assert code == 4401 and refusal["code"] == "link_revoked"
    assert link_refused(client, game_id, token)["code"] == "forbidden"


def test_a_move_after_the_session_ended_is_refused(client: TestClient, db_url: str, game: tuple[str, str]) -> None:
    game_id, _ = game
    phone = signed_in(client)
    with phone.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "account": True})
        table = first_table(ws)
        operator_reset(client, phone, db_url)
        ws.send_json({"type": "move", "move": "x", "version": table["version"]})
        refusal: Message = {}
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                message = ws.receive_json()
                assert message["type"] != "error" or message["code"] == "signed_out", message
                refusal = message if message["type"] == "error" else refusal
        assert closed.value.code == 4401 and refusal["code"] == "signed_out"


def test_the_words_of_an_ended_session_are_german_for_a_german_table(client: TestClient, game: tuple[str, str]) -> None:
    game_id, _ = game
    phone = signed_in(client)
    with phone.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "account": True, "lang": "de"})
        first_table(ws)
        assert phone.delete("/api/session").status_code == 204
        refusal, code = closed_before_chatting(ws, "hallo")
    assert code == 4401 and "Sitzung" in refusal["message"]
