"""Look-alike names and account seats over the REST API and the table's socket, on SQLite and PostgreSQL:
homographs of an account's name are refused at sign-up and at tables, a signed-in person's joins sent at
once give one seat, and a signed-in person's seat is marked as an account's in the table's messages, the
lobby and the replay (only that: no account id, nothing hidden)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from server_helpers import HUMAN, PASSWORD, TestClient, join, open_table, sign_up

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in


def browser(client: TestClient) -> TestClient:
    """A second browser on the same running server: its own cookies."""
    return TestClient(client.app)


def table(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "state", message
    return message["game"]


def test_homographs_of_an_account_name_are_refused_at_sign_up(client: TestClient) -> None:
    sign_up(client, "Alice")
    for alike in ("\u0410lice", "Alic\u0435", "AIice"):  # a Cyrillic A, a Cyrillic e, a capital I
        answer = browser(client).post("/api/accounts", json={"name": alike, "password": PASSWORD})
        assert answer.status_code == 409, alike
        assert answer.json()["detail"] == f"the name {alike} looks like Alice, a registered player's; choose another"
    answer = browser(client).post("/api/accounts", json={"name": "ALICE", "password": PASSWORD})
    assert answer.status_code == 409 and answer.json()["detail"] == "the name ALICE is taken; choose another"
    sign_up(browser(client), "Alina")  # a different name


def test_a_registered_name_is_refused_to_an_anonymous_person_at_a_table(client: TestClient) -> None:
    sign_up(client, "Alice")
    stranger = browser(client)
    created = stranger.post("/api/games", json={"edition": "usa", "name": "Ann", "seats": [HUMAN, HUMAN]})
    game = created.json()["id"]
    for alike in ("Alice", "\u0410lice"):
        answer = stranger.post(f"/api/games/{game}/join", json={"name": alike})
        assert answer.status_code == 422
        assert answer.json()["detail"] == (
            f"{alike} is the name of a registered player: sign in to play as {alike}, or choose another name"
        )
    assert client.post(f"/api/games/{game}/join", json={"name": "ignored"}).status_code == 200  # Alice herself


def test_joins_sent_at_once_by_one_signed_in_person_give_one_seat(client: TestClient) -> None:
    ann = browser(client)
    sign_up(ann, "Ann")
    created = ann.post("/api/games", json={"edition": "usa", "name": "Ann", "seats": [HUMAN] * 4, "rated": True})
    game = created.json()["id"]
    sign_up(client, "Xena")  # the client whose requests share the server's event loop, as a browser's would
    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(lambda _: client.post(f"/api/games/{game}/join", json={"name": "Xena"}), range(3)))
    assert sorted(a.status_code for a in answers) == [200, 409, 409]
    assert {a.json()["detail"] for a in answers if a.status_code == 409} == {"you already have a seat at this game"}
    seats = client.get(f"/api/games/{game}").json()["seats"]
    assert [s["name"] for s in seats].count("Xena") == 1


def test_a_signed_in_seat_is_marked_as_an_account_wherever_its_name_is_shown(client: TestClient) -> None:
    sign_up(client, "Alice")
    created = client.post("/api/games", json={"edition": "usa", "name": "Alice", "seats": [HUMAN, HUMAN]}).json()
    bob = join(browser(client), created["id"], "Bob")  # anonymous
    with open_table(client, created["id"]) as ws:  # watching
        seats = table(ws)["seats"]
    assert [(s["name"], s["account"]) for s in seats] == [("Alice", True), ("Bob", False)]
    assert not any("account_id" in s for s in seats)
    summary = client.get(f"/api/games/{created['id']}").json()
    assert [(s["name"], s["account"]) for s in summary["seats"]] == [("Alice", True), ("Bob", False)]
    for token in (created["token"], bob["token"]):  # both leave: the game ends, and its replay opens
        with open_table(client, created["id"], token) as ws:
            table(ws)
            ws.send_json({"type": "leave"})
            while table(ws)["seats"][0 if token == created["token"] else 1]["left"] is not True:
                pass
    replay = client.get(f"/api/games/{created['id']}/replay").json()
    assert [(s["name"], s["account"]) for s in replay["seats"]] == [("Alice", True), ("Bob", False)]
