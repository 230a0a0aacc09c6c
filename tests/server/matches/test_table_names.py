"""Names at one table are distinct as people read them: look-alikes, invisible characters and a
bot's name are refused in the asker's language, over the REST lobby."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_helpers import HUMAN, TestClient, join, new_game, settings

from tendays.server.face.app import Limits, create_app

UNLIMITED = {"creates_per_minute": 0, "joins_per_minute": 0, "connections_per_minute": 0, "connections_at_once": 0}


@pytest.fixture
def app_client(tmp_path: Path) -> Any:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", settings(), Limits(**UNLIMITED))) as client:
        yield client


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
