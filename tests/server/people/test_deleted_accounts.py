"""A deleted account, named in the reader's language in every list, at the table
and on its opponents' profiles, and an account deleted while its rated game is played."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rated_helpers import play_past_the_draft
from server_helpers import HUMAN, PASSWORD, TestClient, Ticker, bot, settings, sign_up

from tendays.server.face.app import Limits, create_app

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    unlimited = Limits(
        clock=Ticker(0.1), creates_per_minute=0, joins_per_minute=0, connections_per_minute=0, connections_at_once=0
    )
    with TestClient(create_app(f"sqlite:///{tmp_path / 'tendays.db'}", settings(), unlimited)) as test_client:
        yield test_client


def create(client: TestClient, name: str, seats: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"edition": "usa", "name": name, "seats": seats, **more})
    assert answer.status_code == 201, answer.text
    ticket: dict[str, Any] = answer.json()
    return ticket


def delete_account(client: TestClient) -> None:
    assert client.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 204


def first_seat_name(listed: dict[str, Any], game_id: str) -> str:
    game = next(g for g in listed["games"] if g["id"] == game_id)
    name: str = game["seats"][0]["name"]
    return name


@pytest.mark.parametrize(("language", "said"), [("en", "deleted player"), ("de", "gelöschter Spieler")])
def test_a_deleted_account_is_said_in_the_readers_language_in_the_lobby_and_at_the_table(
    client: TestClient, language: str, said: str
) -> None:
    waiting, playing = TestClient(client.app), TestClient(client.app)
    sign_up(waiting, "Erna")
    open_game = create(waiting, "Erna", [HUMAN, HUMAN])
    sign_up(playing, "Fritz")
    running = create(playing, "Fritz", [HUMAN, bot()])
    delete_account(waiting)
    delete_account(playing)
    asked = {"Accept-Language": language}
    joinable = client.get("/api/games?show=joinable", headers=asked).json()
    assert first_seat_name(joinable, open_game["id"]) == said
    being_played = client.get("/api/games?show=playing", headers=asked).json()
    assert first_seat_name(being_played, running["id"]) == said
    assert client.get(f"/api/games/{running['id']}", headers=asked).json()["seats"][0]["name"] == said
    with client.websocket_connect(f"/ws/games/{running['id']}") as ws:
        ws.send_json({"type": "hello", "token": None, "lang": language})
        table = ws.receive_json()
        assert table["type"] == "state", table
        assert table["game"]["seats"][0]["name"] == said


@pytest.mark.parametrize("moved", [True, False])
def test_deleting_an_account_during_its_rated_game_leaves_it_and_the_other_wins(
    client: TestClient, moved: bool
) -> None:
    sign_up(client, "Erna")
    game = create(client, "Erna", [HUMAN, HUMAN], rated=True)
    fritz = TestClient(client.app)
    sign_up(fritz, "Fritz")
    assert fritz.post(f"/api/games/{game['id']}/join", json={"name": "Fritz"}).status_code == 200
    assert client.get(f"/api/games/{game['id']}").json()["status"] == "playing"
    if moved:  # both drafted and made a move of their own: from here on, leaving loses
        client.portal.call(play_past_the_draft, client.app.state.lobby.matches[game["id"]])
    delete_account(fritz)
    summary = client.get(f"/api/games/{game['id']}").json()
    assert (summary["status"], summary["ended"]) == ("over", "forfeit")
    assert (summary["winner"], summary["places"]) == (0, [1, 2])  # Erna, left alone, won it
    assert summary["seats"][1]["name"] == "deleted player" and summary["seats"][1]["left"]
    rated = client.get("/api/players/Erna").json()  # the game was rated before the account went
    if not moved:  # the abort rule: before every first move after the draft, nobody wins and no rating moves
        assert rated["ratings"] == {} and rated["games"][0]["result"] == "aborted"
        return
    assert rated["ratings"]["usa"]["games"] == 1 and rated["ratings"]["usa"]["rating"] > 25
    assert (rated["games"][0]["result"], rated["games"][0]["others"][0]["place"]) == ("won", 2)


def test_a_deleted_opponent_on_a_profile_is_said_in_the_readers_language(client: TestClient) -> None:
    sign_up(client, "Erna")
    game = client.post(
        "/api/games",
        json={"edition": "usa", "name": "Erna", "rated": True, "seats": [{"kind": "human"}, {"kind": "human"}]},
    ).json()
    other = TestClient(client.app)
    sign_up(other, "Fritz")
    assert other.post(f"/api/games/{game['id']}/join", json={"name": "Fritz"}).status_code == 200
    assert other.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 204
    for language, said in (("en", "deleted player"), ("de", "gelöschter Spieler")):
        profile = client.get("/api/players/Erna", headers={"Accept-Language": language}).json()
        # deleted during the rated game: it left it, and lost (second)
        gone = {"name": said, "bot": None, "place": 2, "bot_account": False, "profile": None}
        assert profile["games"][0]["others"] == [gone]
