"""Expiry and retention across restarts, the upgrade of an older database, and the operator's calls."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import HUMAN, TestClient, join, new_game, open_table, settings
from sqlalchemy import update

from tendays.engine import Game, Options
from tendays.server.face.app import create_app
from tendays.server.matches.lobby import Lobby
from tendays.server.matches.seats import hash_token
from tendays.server.storage.schema import GameTable
from tendays.server.storage.store import Store

TOKEN = "op3rator-Zq8vX2mLw4Rt7Yb1Nc6Kd9Hs0Pf5Gj3"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}


def lobby_of(client: TestClient) -> Lobby:
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    return lobby


def age(db_url: str, game_id: str, **values: Any) -> None:
    """Move a game's times into the past, as if the server had been stopped for a while."""
    store = Store(db_url)
    with store.engine.begin() as db:
        db.execute(update(GameTable).where(GameTable.id == game_id).values(**values))
    store.close()


@pytest.mark.slow  # over a second of CPU
def test_idle_games_expire_across_a_restart_and_are_not_replayed(db_url: str) -> None:
    day = 86400.0
    with TestClient(create_app(db_url, settings(idle_expiry=2 * day))) as client:
        idle = new_game(client, [HUMAN, HUMAN])
        busy = new_game(client, [HUMAN, HUMAN])
    age(db_url, idle["id"], last_move_at=time.time() - 3 * day)
    replayed: list[str] = []
    original = Lobby.rebuild

    def counting(self: Lobby, stored: Any) -> Any:
        replayed.append(stored.id)
        return original(self, stored)

    Lobby.rebuild = counting  # type: ignore[method-assign]
    try:
        with TestClient(create_app(db_url, settings(idle_expiry=2 * day))) as client:
            assert replayed == [busy["id"]]  # the idle game was closed before the restore, not replayed
            summary = client.get(f"/api/games/{idle['id']}").json()  # still readable
            assert summary["status"] == "over" and summary["ended"] == "abandoned"
            assert [g["id"] for g in client.get("/api/games").json()["games"]] == [busy["id"]]
            post = client.post(f"/api/games/{idle['id']}/join", json={"name": "Bob"})
            assert post.status_code == 409
    finally:
        Lobby.rebuild = original  # type: ignore[method-assign]


def test_a_game_idle_while_the_server_runs_is_closed_by_the_sweep(db_url: str) -> None:
    with TestClient(create_app(db_url, settings(idle_expiry=3600.0), admin_token=TOKEN)) as client:
        ticket = new_game(client, [HUMAN, HUMAN])
        join(client, ticket["id"])
        age(db_url, ticket["id"], last_move_at=time.time() - 7200)
        with open_table(client, ticket["id"], ticket["token"]) as ws:
            ws.receive_json()
            assert client.post("/api/admin/sweep", headers=ADMIN).json() == {"closed": 1, "deleted": 0}
            for _ in range(20):
                game = ws.receive_json()["game"]
                if game["status"] == "over":
                    break
            assert game["ended"] == "abandoned" and game["chat"][-1]["kind"] == "notice"
            assert "nobody moved for too long" in game["chat"][-1]["text"].lower()


@pytest.mark.slow  # over a second of CPU
def test_ended_games_are_deleted_after_the_retention_time_or_kept_forever(db_url: str) -> None:
    day = 86400.0
    with TestClient(create_app(db_url, settings())) as client:
        old = new_game(client, [HUMAN], turn_limit=1, days=2)
        recent = new_game(client, [HUMAN], turn_limit=1, days=2)
        for ticket in (old, recent):
            lobby_of(client)  # play each to its end through the socket
            with open_table(client, ticket["id"], ticket["token"]) as ws:
                table = ws.receive_json()
                while table["game"]["status"] != "over":
                    if table["game"]["legal_moves"]:
                        ws.send_json(
                            {
                                "type": "move",
                                "move": table["game"]["legal_moves"][0]["text"],
                                "version": table["version"],
                            }
                        )
                    table = ws.receive_json()
    age(db_url, old["id"], finished_at=time.time() - 40 * day)
    with TestClient(create_app(db_url, settings(retention=None))) as client:  # kept forever
        assert client.get(f"/api/games/{old['id']}").status_code == 200
    with TestClient(create_app(db_url, settings(retention=30 * day))) as client:
        assert client.get(f"/api/games/{old['id']}").status_code == 404  # deleted at start-up
        assert client.get(f"/api/games/{recent['id']}").json()["status"] == "over"


OLD_SCHEMA = """
CREATE TABLE games (id VARCHAR(32) NOT NULL PRIMARY KEY, edition VARCHAR(32) NOT NULL, options TEXT NOT NULL,
    seed BIGINT NOT NULL, created DATETIME NOT NULL, finished BOOLEAN NOT NULL);
CREATE INDEX ix_games_finished ON games (finished);
CREATE TABLE seats (game_id VARCHAR(32) NOT NULL REFERENCES games (id), seat INTEGER NOT NULL, kind VARCHAR(8) NOT NULL,
    bot VARCHAR(64), name VARCHAR(64), token_hash VARCHAR(64), PRIMARY KEY (game_id, seat));
CREATE TABLE moves (game_id VARCHAR(32) NOT NULL REFERENCES games (id), number INTEGER NOT NULL, seat INTEGER NOT NULL,
    move VARCHAR(32) NOT NULL, PRIMARY KEY (game_id, number));
"""


def test_a_database_of_the_first_schema_is_upgraded_without_losing_a_game(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
        options = '{"players": 2, "days": 10, "swap": false, "open_hands": false, "turn_limit": null, "rules": 2}'
        db.execute("INSERT INTO games VALUES ('old1', 'usa', ?, 7, '2025-01-01 10:00:00', 0)", (options,))
        db.execute(
            "INSERT INTO games VALUES ('old2', 'usa', ?, 8, '2025-01-01 10:00:00', 1)",
            (options.replace('"turn_limit": null', '"turn_limit": 1'),),
        )
        for game in ("old1", "old2"):
            db.executemany(
                "INSERT INTO seats VALUES (?, ?, 'human', NULL, ?, ?)",
                [(game, 0, "Ann", hash_token("ann")), (game, 1, "Ben", hash_token("ben"))],
            )
        db.executemany("INSERT INTO moves VALUES ('old1', ?, ?, ?)", [(1, 0, "draft 3"), (2, 1, "draft 5")])
        finished = Game("usa", Options(players=2, days=10, turn_limit=1), 8)
        while not finished.state.is_over:
            finished.play(finished.state.legal_moves()[0])
        db.executemany(
            "INSERT INTO moves VALUES ('old2', ?, ?, ?)", [(n, 0, str(m)) for n, m in enumerate(finished.moves, 1)]
        )
    url = f"sqlite:///{path}"
    with TestClient(create_app(url, settings(retention=30 * 86400.0, idle_expiry=86400.0))) as client:
        # Neither old game expires nor is deleted at the upgrade: their clocks start now.
        with open_table(client, "old1", "ann") as ws:
            game = ws.receive_json()["game"]
            assert game["status"] == "playing" and len(game["log"]) == 2 and game["clock"] is None
            assert game["chat"] == []
            ws.send_json({"type": "chat", "text": "still here"})
            # the line is stored before anyone hears it: wait until it comes back, then close
            while ws.receive_json()["type"] != "chat":
                pass
        assert client.get("/api/games/old2").json()["status"] == "over"
    with sqlite3.connect(path) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
        assert {"clock", "deadline", "last_move_at", "finished_at", "ended", "rematch"} <= columns
        assert db.execute("SELECT count(*) FROM chat").fetchone() == (1,)


def test_the_operator_lists_and_closes_games(db_url: str) -> None:
    with TestClient(create_app(db_url, settings(), admin_token=TOKEN)) as client:
        ticket = new_game(client, [HUMAN, HUMAN])
        other = new_game(client, [HUMAN, HUMAN])
        assert client.get("/api/admin/games").status_code == 401
        assert client.get("/api/admin/games", headers={"Authorization": "Bearer nope"}).status_code == 401
        listed = client.get("/api/admin/games", headers=ADMIN).json()
        assert {g["id"] for g in listed["games"]} == {ticket["id"], other["id"]} and listed["total"] == 2
        closed = client.post(f"/api/admin/games/{ticket['id']}/close", headers=ADMIN)
        assert closed.status_code == 200 and closed.json()["ended"] == "closed"
        assert client.post(f"/api/admin/games/{ticket['id']}/close", headers=ADMIN).status_code == 409
        ended = client.get("/api/admin/games?status=ended", headers=ADMIN).json()
        assert [(g["id"], g["ended"]) for g in ended["games"]] == [(ticket["id"], "closed")]
        assert client.get("/admin").status_code == 200
    with TestClient(create_app(db_url, settings())) as client:  # no admin token: the admin view is off
        answer = client.get("/api/admin/games", headers=ADMIN)
        assert answer.status_code == 404 and "TENDAYS_ADMIN_TOKEN" in answer.json()["detail"]
