"""Every profile is reachable by its link whatever the name: slashes and dots in
names, a name of only dots refused, and ``/players`` alone leading to the leaderboard."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from server_helpers import PASSWORD, TestClient, Ticker, settings, sign_up

from tendays.server.face.app import Limits, create_app

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in


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
