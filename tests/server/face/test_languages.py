"""Each requester reads the server in their own language: the REST answers' refusals, and the bots' names at
the table and in the lobby (a bot seat is named by its level, not by a stored English sentence)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from server_helpers import HUMAN, SEED, TestClient, Ticker, bot, join, new_game, settings
from sqlalchemy import insert

from tendays.bots import LEVELS
from tendays.engine.i18n import use_language
from tendays.server.face.app import Limits, create_app
from tendays.server.matches.seats import hash_token
from tendays.server.matches.wire import seat_name
from tendays.server.storage.schema import GameTable, SeatTable
from tendays.server.storage.store import Store

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
ENGLISH = {"Accept-Language": "en-GB,en"}


def _app(url: str, **limits: Any) -> TestClient:
    unlimited = {
        "creates_per_minute": 0,
        "joins_per_minute": 0,
        "connections_per_minute": 0,
        "connections_at_once": 0,
        **limits,
    }
    return TestClient(create_app(url, settings(), Limits(clock=Ticker(0.1), **unlimited)))


@pytest.fixture
def lite(tmp_path: Path) -> Iterator[TestClient]:
    """The app on SQLite only: what is tested here is words, not storage."""
    with _app(f"sqlite:///{tmp_path / 'tendays.db'}") as client:
        yield client


def detail(answer: Any) -> str:
    text: str = answer.json()["detail"]
    return text


def test_refusals_come_in_the_language_the_request_asks_for(lite: TestClient) -> None:
    missing_de, missing_en = (lite.get("/api/games/nope", headers=h) for h in (GERMAN, ENGLISH))
    assert (missing_de.status_code, detail(missing_de)) == (404, "es gibt kein Spiel 'nope'")
    assert (missing_en.status_code, detail(missing_en)) == (404, "there is no game 'nope'")
    assert detail(lite.get("/api/games/nope?lang=de", headers=ENGLISH)) == "es gibt kein Spiel 'nope'"
    assert (
        detail(lite.get("/api/games/nope", headers={"Accept-Language": "fr-CH, fr;q=0.9"})) == "there is no game 'nope'"
    )  # no French catalogue: English
    assert detail(lite.get("/api/games/nope")) == "there is no game 'nope'"

    body = {"edition": "usa", "name": "Alice", "seats": [bot(), HUMAN]}
    de, en = (lite.post("/api/games", json=body, headers=h) for h in (GERMAN, ENGLISH))
    assert (de.status_code, en.status_code) == (422, 422)
    assert detail(de) == "Platz 1 ist deiner, also muss er einem Menschen gehören"
    assert detail(en) == "seat 1 is yours, so it must be a human seat"

    # Pydantic's own refusals, in the game's words, and our checks of names.
    body = {"edition": "usa", "name": "x" * 200, "seats": [{"kind": "robot"}], "options": {"days": "10"}}
    de, en = (lite.post("/api/games", json=body, headers=h) for h in (GERMAN, ENGLISH))
    assert (de.status_code, en.status_code) == (422, 422)
    assert detail(de) == (
        "name: hat höchstens 128 Zeichen (nicht 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'); "
        "seats.0.kind: muss 'human' oder 'bot' sein (nicht 'robot'); "
        "options.days: muss eine ganze Zahl sein (nicht '10')"
    )
    assert detail(en) == (
        "name: has at most 128 characters (not 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'); "
        "seats.0.kind: must be 'human' or 'bot' (not 'robot'); "
        "options.days: must be a whole number (not '10')"
    )
    blank = lite.post("/api/games", json={**body, "name": "   ", "seats": [HUMAN], "options": {}}, headers=GERMAN)
    assert detail(blank) == "name: ein Name braucht mindestens ein sichtbares Zeichen (nicht '   ')"
    clock = {"kind": "live", "per_move": 1}
    slow = lite.post(
        "/api/games", json={"edition": "usa", "name": "A", "seats": [HUMAN], "pace": clock}, headers=GERMAN
    )
    assert detail(slow) == "ein Live-Spiel gibt jedem Spielzug 10 Sekunden bis 10 Minuten, nicht 1 Sekunde"

    # A full game: 409 in each language.
    ticket = new_game(lite, [HUMAN, HUMAN])
    join(lite, ticket["id"])
    de, en = (lite.post(f"/api/games/{ticket['id']}/join", json={"name": "Eve"}, headers=h) for h in (GERMAN, ENGLISH))
    assert (de.status_code, detail(de)) == (409, "jeder Platz dieses Spiels ist besetzt")
    assert (en.status_code, detail(en)) == (409, "every seat of this game is taken")

    # The levels' descriptions, for the lobby's choice of a bot.
    levels = {level["name"]: level["description"] for level in lite.get("/api/bots", headers=GERMAN).json()["levels"]}
    assert set(levels) == set(LEVELS) and levels["hard"] != LEVELS["hard"].description


def test_the_front_door_refuses_in_the_requesters_language(tmp_path: Path) -> None:
    with _app(f"sqlite:///{tmp_path / 'tendays.db'}", creates_per_minute=1, max_body_bytes=512) as client:
        big = client.post(
            "/api/games", content=b"{" + b" " * 600 + b"}", headers={**GERMAN, "Content-Type": "application/json"}
        )
        assert (big.status_code, detail(big)) == (413, "die Anfrage ist zu groß (602 Bytes; höchstens 512)")
        broken = client.post(
            "/api/games", content=b'{"days": NaN}', headers={**ENGLISH, "Content-Type": "application/json"}
        )
        assert broken.status_code == 422 and detail(broken).startswith("the request is not valid JSON")
        new_game(client, [HUMAN])
        again = client.post("/api/games", json={"edition": "usa", "name": "A", "seats": [HUMAN]}, headers=GERMAN)
        assert again.status_code == 429 and "Retry-After" in again.headers
        assert detail(again).startswith("zu viele Spiele von deiner Adresse erstellt (höchstens 1 pro Minute)")
        address = client.get("/" + "x" * 3000, headers=GERMAN)
        assert address.status_code == 414 and detail(address).startswith("die Adresse ist zu lang")


def seat_names(table: dict[str, Any]) -> list[str | None]:
    return [seat["name"] for seat in table["game"]["seats"]]


def test_a_bot_is_named_in_each_readers_language_at_one_table(lite: TestClient) -> None:
    ticket = new_game(lite, [HUMAN, bot("easy"), bot("greedy")])
    with (
        lite.websocket_connect(f"/ws/games/{ticket['id']}") as ws_de,
        lite.websocket_connect(f"/ws/games/{ticket['id']}") as ws_en,
    ):
        ws_de.send_json({"type": "hello", "token": ticket["token"], "lang": "de"})
        ws_en.send_json({"type": "hello", "token": None, "lang": "en"})
        table_de, table_en = ws_de.receive_json(), ws_en.receive_json()
        assert seat_names(table_de) == ["Alice", "Bot (leicht)", "Bot (greedy)"]
        assert seat_names(table_en) == ["Alice", "Easy bot", "Greedy bot"]
        assert [s["bot"] for s in table_de["game"]["seats"]] == [None, "easy", "greedy"]  # the data is the same
        ws_de.send_json({"type": "language", "lang": "en"})
        assert seat_names(ws_de.receive_json()) == ["Alice", "Easy bot", "Greedy bot"]
    for headers, names in (
        (GERMAN, ["Alice", "Bot (leicht)", "Bot (greedy)"]),
        (ENGLISH, ["Alice", "Easy bot", "Greedy bot"]),
    ):
        summary = lite.get(f"/api/games/{ticket['id']}", headers=headers).json()
        assert [s["name"] for s in summary["seats"]] == names
        listed = lite.get("/api/games?show=playing", headers=headers).json()["games"]
        assert [s["name"] for s in listed[0]["seats"]] == names


@pytest.mark.slow  # over a second of CPU
def test_the_log_names_a_bot_in_the_readers_language(lite: TestClient) -> None:
    ticket = new_game(lite, [HUMAN, bot("easy")])
    with lite.websocket_connect(f"/ws/games/{ticket['id']}") as ws:
        ws.send_json({"type": "hello", "token": ticket["token"], "lang": "de"})
        log: list[dict[str, Any]] = []
        for _turn in range(60):
            table = ws.receive_json()
            if table["type"] != "state":
                continue
            log += table["game"]["log"]
            if any("Bot (leicht)" in entry["text"] for entry in log):
                break
            moves = table["game"]["legal_moves"]
            if moves and table["game"]["current"] == table["game"]["you"]:
                ws.send_json({"type": "move", "move": moves[0]["text"], "version": table["version"]})
        assert any(entry["text"].startswith("Bot (leicht) ") for entry in log), log
        assert not any("Easy bot" in entry["text"] for entry in log)


def test_games_stored_before_keep_their_bots_names(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tendays.db'}"
    with _app(url):
        pass  # the schema
    store = Store(url)
    options = {"players": 3, "days": 10}
    with store.engine.begin() as db:
        db.execute(
            insert(GameTable).values(
                id="old",
                edition="usa",
                options=json.dumps(options),
                seed=SEED,
                created=datetime.now(UTC),
                finished=False,
                last_move_at=time.time(),
            )
        )
        db.execute(
            insert(SeatTable),
            [
                {
                    "game_id": "old",
                    "seat": 0,
                    "kind": "human",
                    "bot": None,
                    "name": "Anna",
                    "token_hash": hash_token("t"),
                },
                {"game_id": "old", "seat": 1, "kind": "bot", "bot": "hard", "name": "Hard bot", "token_hash": None},
                {"game_id": "old", "seat": 2, "kind": "bot", "bot": "normal", "name": "Robbie", "token_hash": None},
            ],
        )
    store.close()
    with _app(url) as client:
        for headers, names in ((GERMAN, ["Anna", "Bot (schwer)", "Robbie"]), (ENGLISH, ["Anna", "Hard bot", "Robbie"])):
            summary = client.get("/api/games/old", headers=headers).json()
            assert [s["name"] for s in summary["seats"]] == names


def test_every_level_has_a_word_in_the_catalogues() -> None:
    with use_language("de"):
        words = {level: seat_name(1, "bot", None, level) for level in LEVELS}
        assert seat_name(2, "human", None, None) == "Spieler 3"
    assert words == {
        "beginner": "Bot (Anfänger)",
        "easy": "Bot (leicht)",
        "normal": "Bot (normal)",
        "hard": "Bot (schwer)",
    }
    assert seat_name(1, "bot", None, "easy") == "Easy bot" and seat_name(2, "human", None, None) == "Player 3"
