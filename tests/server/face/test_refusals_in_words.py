"""A refused request is answered in the asker's language, in the game's words rather than
pydantic's: numbers, id patterns, bodies that are not JSON, and a rating range off the scale."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import TestClient, Ticker, settings, sign_up

from tendays.server.face.app import Limits, create_app

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    unlimited = Limits(
        clock=Ticker(0.1), creates_per_minute=0, joins_per_minute=0, connections_per_minute=0, connections_at_once=0
    )
    with TestClient(create_app(f"sqlite:///{tmp_path / 'tendays.db'}", settings(), unlimited)) as test_client:
        yield test_client


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


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "a rating of -5000 is not on the scale: ratings start at 25 and almost all lie between 0 and 50"),
        (
            "de",
            "eine Wertung von -5000 liegt nicht auf der Skala: Wertungen beginnen bei 25 und liegen fast alle "
            "zwischen 0 und 50",
        ),
    ],
)
def test_a_rating_range_off_the_scale_is_refused_with_the_scale_in_words(
    client: TestClient, language: str, said: str
) -> None:
    sign_up(client, "Ann")
    asked = {"Accept-Language": language}
    answer = client.post(
        "/api/seeks", json={"edition": "usa", "rating_range": {"min": -5000, "max": None}}, headers=asked
    )
    assert answer.status_code == 422 and answer.json()["detail"] == said
    scale = client.get("/api/rating-scale", headers=asked).json()
    assert (scale["start"], scale["low"], scale["high"]) == (25, 0, 50)
    assert said.endswith(scale["said"])
