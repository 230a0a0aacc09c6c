"""The notices of a person's games, on SQLite and PostgreSQL: in a correspondence game between two
signed-in people, the one whose turn begins is told "your move" (live, on an open page) and sees the game
in the lobby's list, the one whose turn ended finds their own notice read; a live game tells nobody; when
the game ends each person is told once, with their place."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import HUMAN, TestClient, another_browser, sign_up
from starlette.testclient import WebSocketTestSession
from test_notifications import hello, inbox

from tendays.server.people.ratings import rate_game

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in

Message = dict[str, Any]
CORRESPONDENCE = {"kind": "correspondence", "per_move": 86400}


def table_state(ws: WebSocketTestSession) -> Message:
    while True:
        message: Message = ws.receive_json()
        if message["type"] == "state":
            return message


def your_move(client: TestClient) -> list[Message]:
    answer = client.get("/api/games/your-move")
    assert answer.status_code == 200, answer.text
    games: list[Message] = answer.json()["games"]
    return games


def written(client: TestClient) -> None:
    """Wait until the notices of the turns and ends so far are written."""
    client.portal.call(client.app.state.lobby.results_written)


def new_game(client: TestClient, pace: Message | None) -> str:
    created = client.post(
        "/api/games",
        json={
            "edition": "usa",
            "name": "Alice",
            "seats": [HUMAN, HUMAN],
            "options": {"turn_limit": 1, "days": 2},
            "pace": pace,
        },
    )
    assert created.status_code == 201, created.text
    game: str = created.json()["id"]
    return game


def test_your_move_follows_the_turn_of_a_correspondence_game(client: TestClient) -> None:
    sign_up(client, "Alice")
    bob = another_browser(client)
    sign_up(bob, "Bob")
    game = new_game(client, CORRESPONDENCE)
    assert your_move(client) == []  # a game waiting for players waits for nobody's move
    with bob.websocket_connect("/ws/me") as bob_page:
        assert hello(bob_page) == 0
        assert bob.post(f"/api/games/{game}/join", json={"name": "Bob"}).status_code == 200
        written(client)
        # the game began: seat 0 (Alice) plays first
        started = inbox(client)["notifications"]
        assert [(n["kind"], n["data"]["game"], n["data"]["opponents"]) for n in started] == [
            ("your_move", game, ["Bob"])
        ]
        assert [(g["game"], g["seat"], g["url"]) for g in your_move(client)] == [(game, 0, f"/play/{game}")]
        assert your_move(bob) == []
        with client.websocket_connect(f"/ws/games/{game}") as table:
            table.send_json({"type": "hello", "account": True})
            state = table_state(table)
            while state["game"]["status"] != "over" and not state["game"]["legal_moves"]:
                state = table_state(table)
            # Alice drafts until the turn passes to Bob
            while state["game"]["legal_moves"]:
                table.send_json(
                    {"type": "move", "move": state["game"]["legal_moves"][0]["text"], "version": state["version"]}
                )
                state = table_state(table)
        written(client)
        assert [n["data"]["game"] for n in inbox(bob)["notifications"]] == [game]
        told: Message = bob_page.receive_json()
        assert told["type"] == "notification" and told["kind"] == "your_move", told
        assert told["data"] == {"game": game, "seat": 1, "opponents": ["Alice"], "url": f"/play/{game}"}
        assert bob_page.receive_json() == {"type": "unread", "unread": 1}
    assert [g["game"] for g in your_move(bob)] == [game] and your_move(client) == []
    assert inbox(client)["unread"] == 0  # Alice's turn ended: her notice is read


def test_a_live_game_tells_nobody_whose_move_it_is(client: TestClient) -> None:
    sign_up(client, "Alice")
    bob = another_browser(client)
    sign_up(bob, "Bob")
    game = new_game(client, {"kind": "live", "per_move": 60})
    assert bob.post(f"/api/games/{game}/join", json={"name": "Bob"}).status_code == 200
    written(client)
    assert inbox(client)["notifications"] == [] and your_move(client) == []


def test_each_person_is_told_once_that_a_game_ended_with_their_place(client: TestClient) -> None:
    sign_up(client, "Alice")
    bob = another_browser(client)
    sign_up(bob, "Bob")
    game = new_game(client, None)
    assert bob.post(f"/api/games/{game}/join", json={"name": "Bob"}).status_code == 200
    engine = client.app.state.lobby.journal.store.engine
    assert rate_game(engine, game, [2, 1])
    assert not rate_game(engine, game, [2, 1])  # the places were written: nobody is told twice
    for person, place, opponent in ((client, 2, "Bob"), (bob, 1, "Alice")):
        shown = inbox(person)["notifications"]
        assert [(n["kind"], n["data"]["place"], n["data"]["opponents"]) for n in shown] == [
            ("game_ended", place, [opponent])
        ]
