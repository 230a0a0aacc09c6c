"""Quick pairing over HTTP (``/api/seeks``), on SQLite and PostgreSQL: two people's seeks become one rated game
within a second, each learns only their own seat; waiting can be stopped; nobody else reads a seek;
anonymous and malformed requests are refused in words."""

from __future__ import annotations

import time
from typing import Any

import pytest
from people_helpers import SignedUp
from server_helpers import TestClient

from tendays.server.storage.schema import SeatTable

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in

LIVE = {"kind": "live", "per_move": 60}


def wait_for_game(person: SignedUp, seek_id: str, seconds: float = 5.0) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        answer = person.call("GET", f"/api/seeks/{seek_id}")
        assert answer.status_code == 200, answer.text
        if answer.json()["game"] is not None:
            return dict(answer.json())
        time.sleep(0.05)
    raise AssertionError(f"seek {seek_id} was not paired in {seconds} s")


def test_two_seeks_become_one_rated_game_within_a_second(client: TestClient) -> None:
    ann, ben = SignedUp(client, "Ann"), SignedUp(client, "Ben")
    posted = ann.call("POST", "/api/seeks", {"edition": "usa", "pace": LIVE})
    assert posted.status_code == 201, posted.text
    assert posted.json()["game"] is None and posted.json()["status"] == "open"
    assert posted.json()["offer_bot_after"] > 0
    second = ben.call("POST", "/api/seeks", {"edition": "usa", "pace": LIVE, "rating_range": {"min": 0, "max": 50}})
    assert second.status_code == 201, second.text
    started = time.monotonic()
    mine, theirs = wait_for_game(ann, posted.json()["id"]), wait_for_game(ben, second.json()["id"])
    assert time.monotonic() - started < 1.0
    assert mine["game"] == theirs["game"] and mine["token"] != theirs["token"]
    assert mine["url"] == f"/play/{mine['game']}#token={mine['token']}"
    summary = client.get(f"/api/games/{mine['game']}").json()
    assert summary["rated"] is True
    assert [s["name"] for s in summary["seats"]] == ["Ann", "Ben"]
    engine = client.app.state.lobby.journal.store.engine  # type: ignore[attr-defined]
    with engine.connect() as db:
        accounts = db.execute(SeatTable.__table__.select().where(SeatTable.game_id == mine["game"])).all()
    assert sorted(row.account_id for row in accounts) == [1, 2]


def test_only_the_owner_reads_or_cancels_a_seek(client: TestClient) -> None:
    ann, ben = SignedUp(client, "Ann"), SignedUp(client, "Ben")
    seek_id = ann.call("POST", "/api/seeks", {"edition": "germany"}).json()["id"]
    for method in ("GET", "DELETE"):
        refused = ben.call(method, f"/api/seeks/{seek_id}")
        assert refused.status_code == 404 and seek_id in refused.json()["detail"]
    cancelled = ann.call("DELETE", f"/api/seeks/{seek_id}")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    ben.call("POST", "/api/seeks", {"edition": "germany"})
    time.sleep(0.3)
    assert ann.call("GET", f"/api/seeks/{seek_id}").json()["game"] is None  # cancelled: never paired


def test_anonymous_forged_and_malformed_seeks_are_refused_in_words(client: TestClient) -> None:
    client.cookies.clear()
    anonymous = client.post("/api/seeks", json={"edition": "usa"})
    assert anonymous.status_code == 401 and "sign in" in anonymous.json()["detail"]
    ann = SignedUp(client, "Ann")
    assert ann.call("POST", "/api/seeks", {"edition": "usa"}, csrf=False).status_code == 403
    for body, words in (
        ({"edition": "mars"}, "mars"),
        ({"edition": "usa", "pace": {"kind": "live", "per_move": 2}}, "live game"),
        ({"edition": "usa", "rating_range": {"min": 30, "max": 20}}, "above"),
        ({"edition": "usa", "colour": "red"}, "colour"),
    ):
        refused = ann.call("POST", "/api/seeks", body)
        assert refused.status_code == 422, body
        assert words in refused.json()["detail"]


@pytest.mark.parametrize("path", ["/api/seeks/no-such-seek", "/api/seeks/bad%20id"])
def test_an_unknown_seek_is_404_or_422_in_words(client: TestClient, path: str) -> None:
    answer = SignedUp(client, "Ann").call("GET", path)
    assert answer.status_code in (404, 422) and answer.json()["detail"]
