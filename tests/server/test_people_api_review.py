"""The people calls as a newcomer meets them: every profile reachable by its link whatever the name, and
pydantic's refusals of numbers, patterns and non-JSON bodies in the game's words, in English and German."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from server_helpers import PASSWORD, TestClient, Ticker, settings, sign_up

from tendays.server.face.app import Limits, create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    unlimited = Limits(
        clock=Ticker(0.1), creates_per_minute=0, joins_per_minute=0, connections_per_minute=0, connections_at_once=0
    )
    with TestClient(create_app(f"sqlite:///{tmp_path / 'tendays.db'}", settings(), unlimited)) as test_client:
        yield test_client


@pytest.mark.parametrize("name", ["a/b", "</b>", "AC/DC", "50/50 ?#"])
def test_a_name_with_a_slash_has_a_profile_and_its_page(client: TestClient, name: str) -> None:
    sign_up(client, name)
    link = quote(name, safe="")  # what the pages' encodeURIComponent makes of it
    answer = client.get(f"/api/players/{link}")
    assert answer.status_code == 200, answer.text
    assert answer.json()["name"] == name
    page = client.get(f"/players/{link}")
    assert page.status_code == 200 and "player.js" in page.text


def test_an_unknown_name_with_a_slash_is_nobody_in_words(client: TestClient) -> None:
    answer = client.get("/api/players/no%2Fbody")
    assert answer.status_code == 404
    assert answer.json()["detail"] == "there is no player called 'no/body'"


@pytest.mark.parametrize("name", [".", "..", " .. "])
def test_a_name_of_only_dots_is_refused_since_no_link_can_reach_its_profile(client: TestClient, name: str) -> None:
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 422
    assert "dots" in answer.json()["detail"]
    german = client.post("/api/accounts", json={"name": name, "password": PASSWORD}, headers={"Accept-Language": "de"})
    assert german.status_code == 422 and "Punkt" in german.json()["detail"]


@pytest.mark.parametrize("name", ["J.R.R.", "...", ".. .."])
def test_other_names_with_dots_are_fine(client: TestClient, name: str) -> None:
    sign_up(client, name)
    assert client.get(f"/api/players/{quote(name, safe='')}").json()["name"] == name


def test_players_without_a_name_leads_to_the_leaderboard(client: TestClient) -> None:
    for path in ("/players", "/players/"):
        answer = client.get(path, follow_redirects=False)
        assert answer.status_code in (302, 307) and answer.headers["location"] == "/leaderboard"


@pytest.mark.parametrize(("language", "words"), [("en", "must be a number"), ("de", "muss eine Zahl sein")])
def test_a_rating_range_that_is_no_number_is_refused_in_words(client: TestClient, language: str, words: str) -> None:
    sign_up(client, "Ann")
    answer = client.post(
        "/api/seeks", json={"edition": "usa", "rating_range": {"min": "abc"}}, headers={"Accept-Language": language}
    )
    assert answer.status_code == 422
    assert answer.json()["detail"].startswith(f"rating_range.min: {words}"), answer.text
    assert "Input should" not in answer.text


@pytest.mark.parametrize(
    ("language", "words"), [("en", "letters, digits, - and _"), ("de", "Buchstaben, Ziffern, - und _")]
)
def test_a_seek_id_with_odd_characters_is_refused_in_words(client: TestClient, language: str, words: str) -> None:
    sign_up(client, "Ann")
    answer = client.get("/api/seeks/a%20b", headers={"Accept-Language": language})
    assert answer.status_code == 422
    assert words in answer.json()["detail"] and "should match" not in answer.text
    assert "^[" not in answer.text


def test_a_form_body_is_quoted_as_sent_not_as_python_bytes(client: TestClient) -> None:
    answer = client.post(
        "/api/accounts", content=b"name=x&password=y", headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert answer.status_code == 422
    assert answer.json()["detail"] == "must be an object (not 'name=x&password=y')"


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
