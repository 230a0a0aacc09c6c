"""The REST lobby: editions, bots, creating and joining games, summaries, health, OpenAPI, pages."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import HUMAN, bot, join, new_game, open_table, settings, write_game_row
from sqlalchemy import Engine, event, insert
from starlette.websockets import WebSocketDisconnect

from tendays.bots import BOTS, LEVELS, make_bot
from tendays.engine import RULES_VERSION
from tendays.server.face.app import create_app, static_dir
from tendays.server.matches.seats import hash_token
from tendays.server.storage.schema import GameTable, SeatTable
from tendays.server.storage.store import Store
from tendays.web.pages import page_html


def test_health_counts_unfinished_games(client: TestClient) -> None:
    assert client.get("/health").json()["games"] == 0
    new_game(client, [HUMAN, HUMAN])
    answer = client.get("/health").json()
    assert answer["status"] == "ok" and answer["games"] == 1


def test_editions_list_and_detail(client: TestClient) -> None:
    editions = {e["id"]: e["name"] for e in client.get("/api/editions").json()}
    assert editions == {"germany": "10 Tage durch Deutschland", "usa": "10 Days in the USA"}
    usa = client.get("/api/editions/usa").json()
    assert usa["edition"] == "usa" and len(usa["regions"]) == 50
    missing = client.get("/api/editions/mars")
    assert missing.status_code == 404 and "unknown edition 'mars'" in missing.json()["detail"]


@pytest.mark.slow  # over a second of CPU
def test_bots_come_from_the_registry(client: TestClient) -> None:
    answer = client.get("/api/bots").json()
    assert answer["levels"] == [
        {"name": level.name, "bot": level.bot, "description": level.description, "rating": level.rating}
        for level in LEVELS.values()
    ]
    assert all(isinstance(level["rating"], float) for level in answer["levels"])  # the published ladder
    assert answer["bots"] == [{"name": entry.name, "description": entry.description} for entry in BOTS.values()]
    assert {"easy", "normal", "hard"} <= {level["name"] for level in answer["levels"]}
    for choice in [*answer["levels"], *answer["bots"]]:  # every one can be given to a seat
        make_bot(choice["name"])
        new_game(client, [HUMAN, bot(choice["name"])], turn_limit=1)


def test_create_gives_seat_one_a_secret_link(client: TestClient) -> None:
    ticket = new_game(client, [HUMAN, bot("easy")])
    assert ticket["seat"] == 0
    assert len(ticket["token"]) >= 32  # 192 random bits
    assert ticket["url"] == f"/play/{ticket['id']}#token={ticket['token']}"
    summary = client.get(f"/api/games/{ticket['id']}").json()
    assert summary["status"] == "playing"  # the only human seat is taken: the game deals at once
    assert summary["seats"] == [
        {
            "seat": 0,
            "kind": "human",
            "name": "Alice",
            "bot": None,
            "taken": True,
            "reserved": False,
            "left": False,
            "account": False,
            "bot_account": False,
        },
        {
            "seat": 1,
            "kind": "bot",
            "name": "Easy bot",
            "bot": "easy",
            "taken": True,
            "reserved": False,
            "left": False,
            "account": False,
            "bot_account": False,
        },
    ]
    assert summary["pace"] is None and summary["ended"] is None and summary["options"]["days"] == 10


def test_join_takes_free_human_seats_in_order_then_409(client: TestClient) -> None:
    ticket = new_game(client, [HUMAN, bot(), HUMAN, HUMAN])
    game_id = ticket["id"]
    assert client.get(f"/api/games/{game_id}").json()["status"] == "waiting"
    bob = join(client, game_id, "Bob")
    carol = join(client, game_id, "  Carol   Smith ")
    assert (bob["seat"], carol["seat"]) == (2, 3)
    assert len({ticket["token"], bob["token"], carol["token"]}) == 3
    summary = client.get(f"/api/games/{game_id}").json()
    assert summary["status"] == "playing"
    assert [s["name"] for s in summary["seats"]] == ["Alice", "Normal bot", "Bob", "Carol Smith"]
    full = client.post(f"/api/games/{game_id}/join", json={"name": "Dan"})
    assert full.status_code == 409 and "taken" in full.json()["detail"]


def test_game_list_shows_joinable_and_running_games_without_secrets(client: TestClient) -> None:
    first = new_game(client, [HUMAN, HUMAN])
    second = new_game(client, [HUMAN, bot()], name="Zoe")
    listed = client.get("/api/games").json()
    assert [g["id"] for g in listed["games"]] == [first["id"]]  # only games a newcomer can join
    assert (listed["total"], listed["page"], listed["pages"]) == (1, 1, 1)
    playing = client.get("/api/games", params={"show": "playing"}).json()
    assert [(g["id"], g["status"]) for g in playing["games"]] == [(second["id"], "playing")]
    for text in (client.get("/api/games").text, client.get("/api/games?show=playing").text):
        assert first["token"] not in text and second["token"] not in text and "seed" not in text
        assert "token" not in text


def test_unknown_game_is_404(client: TestClient) -> None:
    assert client.get("/api/games/nope").status_code == 404
    answer = client.post("/api/games/nope/join", json={"name": "Bob"})
    assert answer.status_code == 404 and "there is no game 'nope'" in answer.json()["detail"]


def bad_create(client: TestClient, **body: Any) -> tuple[int, str]:
    request = {"edition": "usa", "name": "Alice", "seats": [HUMAN, HUMAN], **body}
    answer = client.post("/api/games", json=request)
    detail = answer.json()["detail"]
    return answer.status_code, detail if isinstance(detail, str) else str(detail)


def test_create_refuses_bad_requests_with_reasons(client: TestClient) -> None:
    assert bad_create(client, edition="mars") == (422, "unknown edition 'mars'; known editions: germany, usa")
    status, detail = bad_create(client, seats=[bot(), HUMAN])
    assert status == 422 and "seat 1 is yours" in detail
    status, detail = bad_create(client, seats=[HUMAN, bot("godlike")])
    assert status == 422 and "unknown bot level 'godlike'" in detail
    status, detail = bad_create(client, seats=[HUMAN, {"kind": "bot", "bot": "cmd:rm -rf /"}])
    assert status == 422 and "unknown bot level" in detail  # external engines are the operator's choice only
    status, detail = bad_create(client, edition="germany", seats=[HUMAN, bot("learned")])
    assert status == 422 and detail.startswith("seat 2: the learned bot plays only games of 10 days with the usa")
    status, detail = bad_create(client, seats=[HUMAN] * 5)
    assert status == 422
    status, detail = bad_create(client, seats=[HUMAN] * 4, options={"days": 20})
    assert status == 422 and "4 racks of 20 days" in detail and "with 4 players a rack has at most 14 days" in detail
    status, detail = bad_create(client, edition="germany", seats=[HUMAN] * 3, options={"days": 17})
    assert (status, detail) == (
        422,
        "10 Tage durch Deutschland has 54 tiles: 3 racks of 17 days and 3 discard "
        "piles would leave 0 in the draw pile, too few for every player to draw once; "
        "with 3 players a rack has at most 16 days",
    )
    for days in (1, 21):
        status, detail = bad_create(client, options={"days": days})
        assert status == 422 and "days" in detail
    status, detail = bad_create(client, options={"first_seat": 2})
    assert (status, detail) == (422, "the first player must be one of the 2 seats, not seat 3")
    status, detail = bad_create(client, options={"first_seat": -1})
    assert status == 422 and "the first player must be one of the 2 seats" in detail
    status, detail = bad_create(client, options={"rules": 1})
    assert status == 422  # the rules version is the server's, not the request's
    status, detail = bad_create(client, options={"days": 10, "cheat": True})
    assert status == 422
    status, detail = bad_create(client, name="   ")
    assert status == 422 and "visible character" in detail
    status, detail = bad_create(client, name="a\u0000b")
    assert status == 422
    assert client.get("/api/games").json()["total"] == 0  # nothing was created


def test_the_first_seat_can_be_chosen(client: TestClient) -> None:
    ticket = new_game(client, [HUMAN, bot("easy"), bot("easy")], first_seat=2)
    with open_table(client, ticket["id"], ticket["token"]) as ws:
        game = ws.receive_json()["game"]
    assert game["options"]["first_seat"] == 2


def test_games_survive_a_restart_of_the_app(db_url: str) -> None:
    with TestClient(create_app(db_url, settings())) as first:
        ticket = new_game(first, [HUMAN, HUMAN])
    with TestClient(create_app(db_url, settings())) as second:
        summary = second.get(f"/api/games/{ticket['id']}").json()
        assert summary["status"] == "waiting" and summary["seats"][0]["name"] == "Alice"
        assert join(second, ticket["id"])["seat"] == 1


def test_a_game_under_unknown_rules_is_refused_not_served_as_another(db_url: str) -> None:
    options = {"players": 2, "days": 10, "swap": False, "open_hands": False, "turn_limit": None, "rules": 99}
    token = write_game_row(db_url, "future", options)[0]
    with TestClient(create_app(db_url, settings())) as client:
        answer = client.get("/api/games/future")
        assert answer.status_code == 409 and "rules version 99" in answer.json()["detail"]
        assert client.post("/api/games/future/join", json={"name": "Bob"}).status_code == 409
        with open_table(client, "future", token) as ws:
            refusal = ws.receive_json()
            assert refusal["code"] == "unavailable" and "rules version 99" in refusal["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4409
        new_game(client, [HUMAN, HUMAN])  # the rest of the server works
        assert client.get("/health").json()["games"] == 1


def test_openapi_describes_the_lobby(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in (
        "/health",
        "/api/editions",
        "/api/bots",
        "/api/games",
        "/api/games/{game_id}/join",
        "/api/games/{game_id}",
    ):
        assert path in paths
    assert paths["/api/games"]["post"]["summary"] == "Create a game and take seat 1"
    ticket = schema["components"]["schemas"]["SeatTicket"]["properties"]
    assert "secret" in ticket["token"]["description"]
    choices = paths["/api/bots"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert choices == {"$ref": "#/components/schemas/BotChoices"}
    assert set(schema["components"]["schemas"]["LevelInfo"]["properties"]) == {"name", "bot", "description", "rating"}
    first_seat = schema["components"]["schemas"]["OptionsRequest"]["properties"]["first_seat"]
    assert "first turn" in first_seat["description"]


def test_pages_come_from_the_client_files(client: TestClient) -> None:
    """Each page is its file with the top bar written in."""
    for route, name in (("/", "index.html"), ("/play/abc123", "play.html")):
        answer = client.get(route)
        if (static_dir() / name).is_file():
            assert answer.status_code == 200 and answer.text == page_html(static_dir() / name)
            assert answer.headers["content-type"].startswith("text/html")
        else:
            assert answer.status_code == 404 and name in answer.json()["detail"]
    geometry = client.get("/static/maps/usa.json")
    assert geometry.status_code == 200 and geometry.json()["edition"] == "usa"


@pytest.mark.slow  # over a second of CPU
def test_the_lobby_pages_thousands_of_games_quickly(db_url: str) -> None:
    count = 3000
    store = Store(db_url)
    now = time.time()
    options = json.dumps(
        {
            "players": 2,
            "days": 10,
            "swap": False,
            "open_hands": False,
            "turn_limit": None,
            "first_seat": None,
            "rules": RULES_VERSION,
        }
    )
    with store.engine.begin() as db:  # thousands of games waiting for a second player, written at once
        db.execute(
            insert(GameTable),
            [
                {
                    "id": f"g{n:05}",
                    "edition": "usa",
                    "options": options,
                    "seed": n,
                    "created": datetime.fromtimestamp(now - count + n, UTC),
                    "finished": False,
                    "last_move_at": now,
                }
                for n in range(count)
            ],
        )
        db.execute(
            insert(SeatTable),
            [
                {
                    "game_id": f"g{n:05}",
                    "seat": seat,
                    "kind": "human",
                    "bot": None,
                    "name": "Ann" if seat == 0 else None,
                    "token_hash": hash_token(f"t{n}") if seat == 0 else None,
                }
                for n in range(count)
                for seat in (0, 1)
            ],
        )
    store.close()
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(" ".join(statement.split()).upper())

    with TestClient(create_app(db_url, settings())) as client:
        client.get("/api/games")
        event.listen(Engine, "before_cursor_execute", record)
        try:
            first = client.get("/api/games").json()
            last = client.get("/api/games", params={"page": 150}).json()
            beyond = client.get("/api/games", params={"page": 151}).json()
        finally:
            event.remove(Engine, "before_cursor_execute", record)
        assert client.get("/api/games", params={"per_page": 101}).status_code == 422
    assert (first["total"], first["pages"], len(first["games"])) == (count, 150, 20)
    assert first["games"][0]["id"] == "g02999" and last["games"][-1]["id"] == "g00000"  # newest first
    assert beyond["games"] == [] and beyond["page"] == 151
    # Quick whatever the count: any list of the games' rows read meanwhile asks the database for one page of
    # them (a count, or one game by its id, reads no list), so no answer reads thousands of rows.
    lists = [
        s
        for s in statements
        if s.startswith("SELECT") and " FROM GAMES" in s and "COUNT(" not in s and "WHERE GAMES.ID = " not in s
    ]
    assert all(" LIMIT " in s for s in lists), lists
