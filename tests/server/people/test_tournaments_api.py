"""Tournaments over HTTP, on SQLite and PostgreSQL: creating one (in words when it cannot be an event),
listing and reading it in the contract's shape, joining, withdrawing, pausing and chatting, with every
refusal a 404, 409, 422 or 429 in words; a burst of joins by one person makes one entry."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from people_helpers import SignedUp
from server_helpers import TestClient, at_once
from sqlalchemy import func, select, update

from tendays.server.storage.schema import RatingTable, TournamentEntrantTable, TournamentTable

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in

ARENA = {"name": "Friday arena", "kind": "arena", "edition": "usa", "minutes": 30}
SWISS = {"name": "Small Swiss", "kind": "swiss", "edition": "usa", "rounds": 3}


def created(person: SignedUp, body: dict[str, Any]) -> int:
    answer = person.call("POST", "/api/tournaments", body)
    assert answer.status_code == 201, answer.text
    assert answer.json()["url"] == f"/tournaments/{answer.json()['id']}"
    return int(answer.json()["id"])


def refused(answer: Any, status: int, words: str) -> None:
    assert answer.status_code == status, answer.text
    assert words in answer.json()["detail"], answer.json()["detail"]


def test_a_tournament_is_created_listed_and_read_in_the_contracts_shape(client: TestClient) -> None:
    ann = SignedUp(client, "Ann")
    later = time.time() + 3600
    swiss = created(
        ann,
        {
            **SWISS,
            "starts_at": later,
            "bots": ["easy"],
            "table_size": 3,
            "clock": {"kind": "live", "per_move": 60},
            "options": {"days": 5},
        },
    )
    listed = client.get("/api/tournaments?status=upcoming").json()["tournaments"]
    assert [t["id"] for t in listed] == [swiss]
    assert client.get("/api/tournaments?status=running").json() == {"tournaments": []}
    page = ann.call("GET", f"/api/tournaments/{swiss}").json()
    assert page["kind"] == "swiss" and page["status"] == "upcoming" and page["rounds"] == 3
    assert page["table_size"] == 3 and page["rated"] is True and page["bots"] == ["easy"]
    assert page["clock"] == {"kind": "live", "per_move": 60.0, "bank": 0.0}
    assert page["options"]["days"] == 5 and page["created_by"] == "Ann" and page["round"] == 0
    assert abs(page["starts_at"] - later) < 1e-3 and page["games"] == []
    assert page["me"] == {"joined": False, "paused": False, "game": None}
    # the bot entrant is in the standings from the start
    [easy] = page["standings"]
    assert easy["name"] == "Easy bot" and easy["bot"] == "easy" and easy["account"] is False
    assert {"score", "games", "rank", "tiebreaks", "fire", "withdrawn", "paused"} <= set(easy)
    assert "me" not in client.get(f"/api/tournaments/{swiss}").json()  # nobody signed in
    # an ISO time is read as UTC
    tomorrow = datetime.now(UTC).replace(microsecond=0) + timedelta(days=1)
    arena = created(ann, {**ARENA, "starts_at": tomorrow.replace(tzinfo=None).isoformat()})
    assert ann.call("GET", f"/api/tournaments/{arena}").json()["starts_at"] == tomorrow.timestamp()


def test_what_cannot_be_an_event_is_refused_in_words(client: TestClient) -> None:
    refused(client.post("/api/tournaments", json=ARENA), 401, "sign in")
    ann = SignedUp(client, "Ann")
    refused(ann.call("POST", "/api/tournaments", {**ARENA, "minutes": 5}), 422, "20 to 180 minutes")
    refused(ann.call("POST", "/api/tournaments", {**ARENA, "minutes": None, "rounds": 3}), 422, "minutes")
    refused(ann.call("POST", "/api/tournaments", {**ARENA, "table_size": 3}), 422, "two players")
    refused(ann.call("POST", "/api/tournaments", {**SWISS, "rounds": None}), 422, "1 to 20 rounds")
    refused(ann.call("POST", "/api/tournaments", {**SWISS, "rounds": 21}), 422, "20")
    refused(ann.call("POST", "/api/tournaments", {**SWISS, "bots": ["cmd:rm"]}), 422, "ladder")
    refused(ann.call("POST", "/api/tournaments", {**SWISS, "edition": "mars"}), 422, "mars")
    refused(ann.call("POST", "/api/tournaments", {**SWISS, "clock": {"kind": "live", "per_move": 1}}), 422, "live game")
    refused(ann.call("POST", "/api/tournaments", {**SWISS, "starts_at": "next friday"}), 422, "not a time")
    refused(ann.call("POST", "/api/tournaments", {**SWISS, "starts_at": 1000}), 422, "past")
    refused(
        ann.call("POST", "/api/tournaments", {**SWISS, "rating_min": 30, "rating_max": 10}), 422, "above the highest"
    )
    refused(ann.call("POST", "/api/tournaments", {**SWISS, "name": "a\u202eb"}), 422, "U+202E")
    refused(client.get("/api/tournaments/999"), 404, "no tournament 999")
    refused(ann.call("POST", "/api/tournaments/999/join"), 404, "no tournament 999")


def test_joining_withdrawing_and_pausing_follow_the_rules(client: TestClient) -> None:
    ann, ben = SignedUp(client, "Ann"), SignedUp(client, "Ben")
    arena = created(ann, {**ARENA, "starts_at": time.time() + 3600})
    swiss = created(ann, {**SWISS, "starts_at": time.time() + 3600, "rating_min": 30})
    assert ben.call("POST", f"/api/tournaments/{arena}/join").status_code == 200
    refused(ben.call("POST", f"/api/tournaments/{arena}/join"), 409, "already joined")
    assert ben.call("GET", f"/api/tournaments/{arena}").json()["me"]["joined"] is True
    assert ben.call("PUT", f"/api/tournaments/{arena}/pause").status_code == 200
    refused(ben.call("PUT", f"/api/tournaments/{arena}/pause"), 409, "paused already")
    [line] = ben.call("GET", f"/api/tournaments/{arena}").json()["standings"]
    assert line["name"] == "Ben" and line["paused"] is True and line["account"] is True
    assert ben.call("DELETE", f"/api/tournaments/{arena}/pause").status_code == 200
    refused(ben.call("DELETE", f"/api/tournaments/{arena}/pause"), 409, "not paused")
    assert ben.call("DELETE", f"/api/tournaments/{arena}/join").status_code == 200
    refused(ben.call("DELETE", f"/api/tournaments/{arena}/join"), 409, "not in this tournament")
    refused(ben.call("PUT", f"/api/tournaments/{arena}/pause"), 409, "not in this tournament")
    assert ben.call("POST", f"/api/tournaments/{arena}/join").status_code == 200  # back again
    # a new player's rating (25) is below the Swiss event's limit of 30
    refused(ben.call("POST", f"/api/tournaments/{swiss}/join"), 409, "outside this tournament's limits")
    store = client.app.state.lobby.journal.store
    with store.engine.begin() as db:
        db.execute(
            RatingTable.__table__.insert().values(
                account_id=db.scalar(select(TournamentEntrantTable.account_id)),
                edition="usa",
                mu=31.0,
                sigma=5.0,
                rating=31.0,
                games=9,
                updated=0.0,
            )
        )
    assert ben.call("POST", f"/api/tournaments/{swiss}/join").status_code == 200
    refused(ben.call("PUT", f"/api/tournaments/{swiss}/pause"), 409, "only an arena")
    with store.engine.begin() as db:  # past the start of its last round, then over
        db.execute(
            update(TournamentTable)
            .where(TournamentTable.id == swiss)
            .values(round=3, status="running", lease_owner="elsewhere")
        )
    refused(ann.call("POST", f"/api/tournaments/{swiss}/join"), 409, "last round")
    with store.engine.begin() as db:
        db.execute(update(TournamentTable).where(TournamentTable.id == swiss).values(status="finished"))
    refused(ann.call("POST", f"/api/tournaments/{swiss}/join"), 409, "over")
    refused(ben.call("DELETE", f"/api/tournaments/{swiss}/join"), 409, "over")
    with store.engine.begin() as db:  # an arena whose time is up, its last games still playing
        db.execute(
            update(TournamentTable)
            .where(TournamentTable.id == arena)
            .values(status="running", ends_at=time.time() - 1, lease_owner="elsewhere")
        )
    refused(ann.call("POST", f"/api/tournaments/{arena}/join"), 409, "time is up")


def test_a_burst_of_joins_by_one_person_makes_one_entry(client: TestClient) -> None:
    ann = SignedUp(client, "Ann")
    arena = created(ann, {**ARENA, "starts_at": time.time() + 3600})
    answers = at_once(8, lambda _n: ann.call("POST", f"/api/tournaments/{arena}/join").status_code)
    assert sorted(answers) == [200] + [409] * 7
    store = client.app.state.lobby.journal.store
    with store.engine.connect() as db:
        assert db.scalar(select(func.count()).select_from(TournamentEntrantTable)) == 1


def test_creation_is_limited_per_person_per_day(client: TestClient) -> None:
    ann = SignedUp(client, "Ann")
    answers = at_once(8, lambda _n: ann.call("POST", "/api/tournaments", {**ARENA, "starts_at": time.time() + 60}))
    assert sorted(a.status_code for a in answers) == [201] * 5 + [429] * 3
    assert all("Retry-After" in a.headers for a in answers if a.status_code == 429)
    store = client.app.state.lobby.journal.store
    with store.engine.connect() as db:
        assert db.scalar(select(func.count()).select_from(TournamentTable)) == 5


def test_the_chat_takes_plain_lines_limits_them_and_hides_the_blocked(client: TestClient) -> None:
    ann, ben = SignedUp(client, "Ann"), SignedUp(client, "Ben")
    arena = created(ann, {**ARENA, "starts_at": time.time() + 3600})
    refused(client.post(f"/api/tournaments/{arena}/chat", json={"text": "hi"}), 401, "sign in")
    assert ann.call("POST", f"/api/tournaments/{arena}/chat", {"text": "good luck  all"}).status_code == 201
    assert ben.call("POST", f"/api/tournaments/{arena}/chat", {"text": "thanks"}).status_code == 201
    refused(ann.call("POST", f"/api/tournaments/{arena}/chat", {"text": "x" * 301}), 422, "at most 300")
    refused(ann.call("POST", f"/api/tournaments/{arena}/chat", {"text": "\x1b[2J"}), 422, "control characters")
    lines = client.get(f"/api/tournaments/{arena}/chat").json()["lines"]
    assert [(line["name"], line["text"]) for line in lines] == [("Ann", "good luck all"), ("Ben", "thanks")]
    assert ann.call("PUT", "/api/blocks/Ben").status_code in (200, 204)
    assert [line["name"] for line in ann.call("GET", f"/api/tournaments/{arena}/chat").json()["lines"]] == ["Ann"]
    for _ in range(4):
        assert ben.call("POST", f"/api/tournaments/{arena}/chat", {"text": "more"}).status_code == 201
    refused(ben.call("POST", f"/api/tournaments/{arena}/chat", {"text": "one too many"}), 429, "at most 5")
    refused(ann.call("GET", "/api/tournaments/999/chat"), 404, "no tournament")
    # what the account keeps is in its data download
    assert ann.call("POST", f"/api/tournaments/{arena}/join").status_code == 200
    data = ann.call("GET", "/api/account/data").json()
    assert [(t["id"], t["name"], t["withdrawn"]) for t in data["tournaments"]] == [(arena, "Friday arena", False)]
    assert [line["text"] for line in data["tournament_chat"]] == ["good luck all"]
