"""The guided game over HTTP: steps as the table's game plus the lesson's
words, moves judged by the server."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from tendays.learn import Tutor, load_lesson  # noqa: E402
from tendays.server.face.door.guard import RequestLanguage  # noqa: E402
from tendays.server.face.routers.learn import learn_router  # noqa: E402


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.include_router(learn_router())
    app.add_middleware(RequestLanguage)
    return TestClient(app)


def step(client: TestClient, edition: str, number: int, lang: str = "en") -> dict[str, Any]:
    response = client.get(f"/api/learn/{edition}/steps/{number}", headers={"Accept-Language": lang})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_the_lessons_are_listed(client: TestClient) -> None:
    lessons = client.get("/api/learn").json()["lessons"]
    assert {lesson["edition"] for lesson in lessons} == {"usa", "germany"}
    assert all(lesson["steps"] == Tutor(load_lesson(lesson["edition"])).total for lesson in lessons)


@pytest.mark.slow
def test_a_whole_guided_game_by_posting_the_moves_the_lesson_points_at(client: TestClient) -> None:
    tutor = Tutor(load_lesson("usa"))
    data = step(client, "usa", 0)
    while not data["done"]:
        game = data["game"]
        assert game["you"] == 0 and game["status"] == "playing" and game["racks"] is None
        # the page never sees the lesson's moves, only the pointer and the words
        assert "expected" not in data
        assert data["instruction"] and data["pointer"]["area"] in ("rack", "draw", "pile")
        legal = [m["text"] for m in game["legal_moves"]]
        for wrong in [m for m in legal if m != str(tutor.step(data["number"]).expected)][:2]:
            refused = client.post(
                f"/api/learn/usa/steps/{data['number']}", json={"move": wrong}
            ).json()
            assert (
                refused["ok"] is False and "Try this: " + data["instruction"] in refused["message"]
            )
        answer = client.post(
            f"/api/learn/usa/steps/{data['number']}",
            json={"move": str(tutor.step(data["number"]).expected)},
        ).json()
        assert answer["ok"] is True
        assert answer["step"]["number"] == data["number"] + 1
        data = answer["step"]
    assert data["game"]["winner"] == 0 and data["game"]["status"] == "over"
    assert data["number"] == tutor.total


def test_the_lesson_speaks_the_readers_language(client: TestClient) -> None:
    german = step(client, "germany", 0, "de-DE,de;q=0.9")
    assert german["lessons"][0].startswith("Willkommen")
    assert german["game"]["seats"][1]["name"] == "Bot 2"


def test_bad_requests_are_refused_in_words(client: TestClient) -> None:
    assert client.get("/api/learn/atlantis/steps/0").status_code == 404
    assert "no guided game" in client.get("/api/learn/atlantis/steps/0").json()["detail"]
    total = Tutor(load_lesson("usa")).total
    missing = client.get(f"/api/learn/usa/steps/{total + 1}")
    assert missing.status_code == 404 and "steps 0 to" in missing.json()["detail"]
    garbled = client.post("/api/learn/usa/steps/0", json={"move": "fly to the moon"})
    assert garbled.status_code == 422 and "fly" in garbled.json()["detail"]
    assert client.post("/api/learn/usa/steps/0", json={"move": 3}).status_code == 422
    over = client.post(f"/api/learn/usa/steps/{total}", json={"move": "draw"}).json()
    assert over["ok"] is False and "over" in over["message"]
