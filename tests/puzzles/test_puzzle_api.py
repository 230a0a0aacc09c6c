"""The puzzles API and page: puzzles are handed out without their solution, answers are judged (and
explained) by the engine in the sender's language, and bad requests get a reason in words."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("tendays.server.face.app", reason="the server is not available")
pytestmark = pytest.mark.slow  # the whole app, started once for the module (a few seconds)

from fastapi.testclient import TestClient  # noqa: E402

from tendays.puzzles import Answer, Kind, daily, puzzle_by_id, shipped  # noqa: E402
from tendays.server.face.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("puzzles") / "tendays.db"
    with TestClient(create_app(f"sqlite:///{database}")) as running:
        yield running


def first(kind: Kind, edition: str = "usa") -> Any:
    return next(p for p in shipped(edition) if p.kind is kind)


def test_the_page_is_served(client: TestClient) -> None:
    page = client.get("/puzzles")
    assert page.status_code == 200 and "puzzles.js" in page.text


def test_a_puzzle_comes_without_its_solution(client: TestClient) -> None:
    puzzle = first(Kind.FINISH)
    data = client.get(f"/api/puzzles/usa/{puzzle.id}").json()
    assert data["id"] == puzzle.id and data["kind"] == "finish" and len(data["rack"]) == 10
    assert "solution" not in data
    block = client.get(f"/api/puzzles/germany/{first(Kind.BLOCK, 'germany').id}").json()
    assert "solution" not in block and "opponent" in block and "held" in block


def test_a_right_and_a_wrong_answer_are_explained(client: TestClient) -> None:
    puzzle = first(Kind.FINISH)
    url = f"/api/puzzles/usa/{puzzle.id}/answer"
    right = client.post(url, json=puzzle.solution.to_json()).json()
    assert (
        right["correct"] and right["explanation"].startswith("Right:") and right["verdict"]["valid"]
    )
    wrong = Answer(puzzle.solution.pile, puzzle.solution.day % 10 + 1)
    answer = client.post(url, json=wrong.to_json(), headers={"Accept-Language": "de"}).json()
    assert not answer["correct"] and "solution" not in answer  # still to be solved
    assert answer["explanation"].startswith("Leider nicht:") and not answer["verdict"]["valid"]
    solution = client.get(f"/api/puzzles/usa/{puzzle.id}/solution").json()
    assert solution["solution"] == puzzle.solution.to_json() and solution["verdict"]["valid"]
    assert (
        f"pile {puzzle.solution.pile} belongs on day {puzzle.solution.day}"
        in solution["explanation"]
    )


def test_a_block_answer(client: TestClient) -> None:
    puzzle = first(Kind.BLOCK, "germany")
    url = f"/api/puzzles/germany/{puzzle.id}/answer"
    assert client.post(url, json={"pile": puzzle.solution.pile}).json()["correct"]
    wrong = client.post(url, json={"pile": puzzle.solution.pile % 3 + 1}).json()
    assert not wrong["correct"] and "completes the other player's journey" in wrong["explanation"]
    # the other player's journey, as the pile left open completes it
    assert wrong["verdict"]["valid"]


def test_the_daily_puzzle_is_the_same_for_everyone_on_a_date(client: TestClient) -> None:
    one = client.get("/api/puzzles/usa/daily?date=2026-12-24").json()
    assert one == client.get("/api/puzzles/usa/daily?date=2026-12-24").json()
    assert (
        one["id"] == daily("usa", __import__("datetime").date(2026, 12, 24)).id
        and one["daily"] == "2026-12-24"
    )
    assert client.get("/api/puzzles/usa/daily").status_code == 200


def test_the_daily_puzzle_without_a_date_is_the_one_of_the_shared_daily_date(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime

    from tendays.server.face.routers import puzzles

    # one home for "which day is today": the terminal's --daily asks the same function
    monkeypatch.setattr(puzzles, "daily_date", lambda: datetime.date(2027, 2, 3))
    today = client.get("/api/puzzles/germany/daily").json()
    assert today["daily"] == "2027-02-03"
    assert today["id"] == daily("germany", datetime.date(2027, 2, 3)).id


def test_next_is_near_the_rating_and_follows_the_seed(client: TestClient) -> None:
    one = client.get("/api/puzzles/usa/next?rating=1000&seed=4").json()
    assert one == client.get("/api/puzzles/usa/next?rating=1000&seed=4").json()
    assert "solution" not in one and puzzle_by_id("usa", one["id"]) is not None
    ratings = [
        client.get(f"/api/puzzles/usa/next?rating=1000&seed={s}").json()["rating"] for s in range(8)
    ]
    assert all(abs(r - 1000) <= 150 for r in ratings)


@pytest.mark.parametrize(
    ("method", "url", "body", "status", "words"),
    [
        ("get", "/api/puzzles/mars/daily", None, 404, "unknown edition"),
        ("get", "/api/puzzles/usa/usa-x9999", None, 404, "there is no puzzle"),
        ("get", "/api/puzzles/usa/daily?date=yesterday", None, 422, "is not a date"),
        (
            "post",
            "/api/puzzles/usa/{finish}/answer",
            {"pile": 4, "day": 2},
            422,
            "there is no discard pile 4",
        ),
        (
            "post",
            "/api/puzzles/usa/{finish}/answer",
            {"pile": 1, "day": 0},
            422,
            "there is no day 0",
        ),
        ("post", "/api/puzzles/usa/{finish}/answer", {"pile": "one"}, 422, "pile"),
        (
            "post",
            "/api/puzzles/germany/{block}/answer",
            {"pile": 1, "day": 3},
            422,
            "only for a pile",
        ),
    ],
)
def test_bad_requests_are_refused_in_words(
    client: TestClient, method: str, url: str, body: Any, status: int, words: str
) -> None:
    url = url.format(finish=first(Kind.FINISH).id, block=first(Kind.BLOCK, "germany").id)
    answer = client.request(method.upper(), url, json=body)
    assert answer.status_code == status, answer.text
    assert words in answer.json()["detail"]
