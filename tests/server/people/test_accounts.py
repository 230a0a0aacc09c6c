"""Accounts over the REST API, on SQLite and PostgreSQL: sign up, sign in and out, a new password, the
account's seats (recorded at create and join, resumed on another device), deletion, and one's own data."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import HUMAN, PASSWORD, TestClient, bot, open_table, sign_up
from sqlalchemy import select

from tendays.engine.i18n import use_language
from tendays.server.matches.wire import seat_name
from tendays.server.people.accounts import AccountError, reset_password
from tendays.server.storage.schema import AccountTable, SeatTable

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in


def browser(client: TestClient) -> TestClient:
    """A second browser on the same running server (its lifespan is the first one's): its own cookies."""
    return TestClient(client.app)


def test_sign_up_answers_the_name_and_a_csrf_token_and_signs_in(client: TestClient) -> None:
    answer = client.post("/api/accounts", json={"name": " Alice ", "password": PASSWORD})
    assert answer.status_code == 201
    assert answer.json()["name"] == "Alice" and len(answer.json()["csrf"]) >= 32
    cookie = answer.headers["set-cookie"]
    assert "tendays_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain HTTP here: a Secure cookie would never come back
    who = client.get("/api/session")
    assert who.status_code == 200 and who.json() == answer.json()


def test_a_name_is_taken_whatever_its_letter_case(client: TestClient) -> None:
    sign_up(client, "Alice")
    answer = browser(client).post("/api/accounts", json={"name": "aLICE", "password": PASSWORD})
    assert answer.status_code == 409 and "taken" in answer.json()["detail"]


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("short1", "at least 10 characters"),
        ("password1234", "most common"),
        ("Alice Alice", "name"),
    ],
)
def test_a_weak_password_is_refused_in_words(client: TestClient, password: str, why: str) -> None:
    name = "Alice Alice" if why == "name" else "Alice"
    answer = client.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 422 and why in answer.json()["detail"]
    assert password not in answer.text


def test_names_follow_the_seat_name_rules(client: TestClient) -> None:
    for name, status in (("A\u200bb\u202e", 422), ("x" * 33, 422), ("deleted player", 422)):
        assert client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == status, name


def test_sign_in_out_and_who_is_signed_in(client: TestClient) -> None:
    sign_up(client)
    assert client.delete("/api/session").status_code == 204
    assert client.get("/api/session").status_code == 204
    answer = client.post("/api/session", json={"name": "alice", "password": PASSWORD})
    assert answer.status_code == 200 and answer.json()["name"] == "Alice"
    assert client.get("/api/session").json()["csrf"] == answer.json()["csrf"]
    wrong = browser(client).post("/api/session", json={"name": "Alice", "password": PASSWORD + "!"})
    assert wrong.status_code == 401 and wrong.json()["detail"] == "wrong name or password"
    assert "set-cookie" not in wrong.headers


def test_a_new_password_signs_in_and_ends_the_other_sessions(client: TestClient) -> None:
    sign_up(client)
    phone = browser(client)
    assert phone.post("/api/session", json={"name": "Alice", "password": PASSWORD}).status_code == 200
    refused = client.post("/api/account/password", json={"password": "not it at all", "new_password": "x" * 12})
    assert refused.status_code == 401
    changed = client.post("/api/account/password", json={"password": PASSWORD, "new_password": "a fresher phrase"})
    assert changed.status_code == 204
    assert phone.get("/api/session").status_code == 204  # ended on the server
    assert client.get("/api/session").status_code == 200  # the asker's goes on
    assert phone.post("/api/session", json={"name": "Alice", "password": PASSWORD}).status_code == 401
    assert phone.post("/api/session", json={"name": "Alice", "password": "a fresher phrase"}).status_code == 200


def test_sign_out_everywhere_ends_every_session(client: TestClient) -> None:
    sign_up(client)
    phone = browser(client)
    phone.post("/api/session", json={"name": "Alice", "password": PASSWORD})
    assert client.delete("/api/account/sessions").status_code == 204
    assert client.get("/api/session").status_code == 204 and phone.get("/api/session").status_code == 204


def seat_rows(client: TestClient, game: str) -> list[tuple[int, str | None, int | None]]:
    engine = client.app.state.lobby.journal.store.engine
    with engine.connect() as db:
        rows = db.execute(
            select(SeatTable.seat, SeatTable.name, SeatTable.account_id)
            .where(SeatTable.game_id == game)
            .order_by(SeatTable.seat)
        ).all()
    return [tuple(row) for row in rows]


def account_id(client: TestClient, name: str) -> int | None:
    engine = client.app.state.lobby.journal.store.engine
    with engine.connect() as db:
        found: int | None = db.scalar(select(AccountTable.id).where(AccountTable.name == name))
    return found


def first_table(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "state", message
    return message


def test_a_seat_taken_signed_in_belongs_to_the_account_and_resumes_on_another_device(client: TestClient) -> None:
    sign_up(client, "Alice")
    created = client.post("/api/games", json={"edition": "usa", "name": "Al", "seats": [HUMAN, HUMAN, HUMAN]})
    assert created.status_code == 201
    game, token = created.json()["id"], created.json()["token"]
    bob = browser(client)
    sign_up(bob, "Bob")
    assert bob.post(f"/api/games/{game}/join", json={"name": "B"}).status_code == 200
    carol = browser(client)
    assert carol.post(f"/api/games/{game}/join", json={"name": "Carol"}).status_code == 200  # anonymous
    assert seat_rows(client, game) == [
        (0, "Alice", account_id(client, "Alice")),
        (1, "Bob", account_id(client, "Bob")),
        (2, "Carol", None),
    ]

    phone = browser(client)
    phone.post("/api/session", json={"name": "alice", "password": PASSWORD})
    assert phone.get(f"/api/games/{game}/seat").json() == {"id": game, "seat": 0}
    with phone.websocket_connect(f"/ws/games/{game}") as ws:
        ws.send_json({"type": "hello", "account": True})
        assert first_table(ws)["game"]["you"] == 0
    with open_table(client, game, token) as ws:  # the seat link still works
        assert first_table(ws)["game"]["you"] == 0

    assert carol.get(f"/api/games/{game}/seat").status_code == 401
    with carol.websocket_connect(f"/ws/games/{game}") as ws:
        ws.send_json({"type": "hello", "account": True})
        refusal = ws.receive_json()
        assert refusal["type"] == "error" and refusal["code"] == "forbidden"


def test_a_deleted_account_leaves_its_games_to_a_deleted_player(client: TestClient) -> None:
    sign_up(client, "Alice")
    game = client.post("/api/games", json={"edition": "usa", "name": "Alice", "seats": [HUMAN, bot()]}).json()["id"]
    assert client.request("DELETE", "/api/account", json={"password": "not the password"}).status_code == 401
    assert client.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 204
    assert client.get("/api/session").status_code == 204
    assert account_id(client, "Alice") is None
    assert seat_rows(client, game)[0] == (0, "deleted player", None)
    names = [seat["name"] for seat in client.get(f"/api/games/{game}").json()["seats"]]
    assert names[0] == "deleted player"
    with use_language("de"):  # a reader sees it in their language
        assert seat_name(0, "human", names[0], None) == "gelöschter Spieler"
    assert client.post("/api/session", json={"name": "Alice", "password": PASSWORD}).status_code == 401
    client.headers.pop("X-CSRF-Token")
    assert client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD}).status_code == 201


def test_my_data_is_mine_alone_and_holds_no_secret(client: TestClient) -> None:
    sign_up(client, "Alice")
    game = client.post("/api/games", json={"edition": "usa", "name": "Alice", "seats": [HUMAN, HUMAN]}).json()["id"]
    bob = browser(client)
    sign_up(bob, "Bob")
    bob.post(f"/api/games/{game}/join", json={"name": "Bob"})
    answer = client.get("/api/account/data")
    assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
    data = answer.json()
    assert data["account"]["name"] == "Alice" and [g["id"] for g in data["games"]] == [game]
    assert data["games"][0]["seat"] == 0 and len(data["sessions"]) == 1
    assert [device.keys() for device in data["known_devices"]] == [{"created", "expires"}]
    assert client.cookies["tendays_device"] not in answer.text
    assert "Bob" not in answer.text and "argon2" not in answer.text and "hash" not in answer.text
    assert client.cookies["tendays_session"] not in answer.text and data["sessions"][0].keys() == {"created", "expires"}


def test_the_operator_resets_a_forgotten_password(client: TestClient) -> None:
    sign_up(client, "Alice")
    engine = client.app.state.lobby.journal.store.engine
    with pytest.raises(AccountError) as weak:
        reset_password(engine, "alice", "short")
    assert weak.value.status == 422
    with pytest.raises(AccountError) as unknown:
        reset_password(engine, "Zed", "a brand new phrase")
    assert unknown.value.status == 404
    reset_password(engine, "alice", "a brand new phrase")
    assert client.get("/api/session").status_code == 204  # its sessions ended
    assert client.post("/api/session", json={"name": "Alice", "password": "a brand new phrase"}).status_code == 200


def test_anonymous_play_is_as_before(client: TestClient) -> None:
    created = client.post("/api/games", json={"edition": "usa", "name": "Anna", "seats": [HUMAN, HUMAN]})
    assert created.status_code == 201 and "set-cookie" not in created.headers
    game = created.json()["id"]
    assert client.post(f"/api/games/{game}/join", json={"name": "Ben"}).status_code == 200
    assert seat_rows(client, game) == [(0, "Anna", None), (1, "Ben", None)]
