"""A rated game with two ``tendays serve`` processes on one PostgreSQL database: two people sign up (one on
each process), create and join a rated game on the first and play it to its end there; both ratings move
exactly once (one rating history row each, one game counted, even after both processes have seen the end and
a third one started and caught up), and the profile asked of the second process shows the game with its
result, its rating change and its replay."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

pytest.importorskip("psycopg")
import psycopg  # noqa: E402
from cluster_nodes import Node, Person, Player, call  # noqa: E402

from tendays.bots.registry import make_bot  # noqa: E402
from tendays.engine.wire import view_from_json  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve processes on PostgreSQL

UNLIMITED = {"CREATES_PER_MINUTE": "0", "JOINS_PER_MINUTE": "0"}


def play_to_the_end(players: list[Player], rng: random.Random) -> dict[str, Any]:
    """Each person plays the normal bot's choice from their own table until the game is over; its last table."""
    chooser = make_bot("greedy")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for player in players:
            player.read(0.05)
        newest = max(players, key=lambda p: p.latest["version"]).latest
        if newest["game"]["status"] == "over":
            return newest["game"]
        mover = next(
            (p for p in players if p.latest["version"] == newest["version"] and p.latest["game"].get("legal_moves")),
            None,
        )
        if mover is None:
            continue  # the other table has not heard of the last move yet
        game = mover.latest["game"]
        move = str(chooser.choose(view_from_json({**game, "player": game["you"], "events": []}), rng))
        assert mover.conn is not None
        mover.conn.send(json.dumps({"type": "move", "move": move, "version": newest["version"]}))
        while mover.latest["version"] == newest["version"] and time.monotonic() < deadline:
            mover.read(0.2)
    raise AssertionError("the rated game did not end within two minutes")


def stored_ratings(url: str, game_id: str) -> tuple[int, list[tuple[str, int]]]:
    """The game's rating history rows, and each player's number of rated games, from the database."""
    with psycopg.connect(url) as db:
        rows = db.execute("SELECT count(*) FROM rating_history WHERE game_id = %s", (game_id,)).fetchone()
        games = db.execute(
            "SELECT a.name, r.games FROM ratings r JOIN accounts a ON a.id = r.account_id "
            "WHERE r.edition = 'usa' ORDER BY a.name"
        ).fetchall()
    assert rows is not None
    return int(rows[0]), [(str(name), int(count)) for name, count in games]


def profile(node: Node, name: str) -> dict[str, Any]:
    return call(node, "GET", f"/api/players/{name}")[0]


def test_a_rated_game_played_on_one_process_is_rated_once_and_shown_by_the_other(
    postgres_url: str, nodes: list[Node]
) -> None:
    nodes += [Node(postgres_url, **UNLIMITED) for _ in range(2)]
    first, second = nodes
    ada, bob = Person(first, "Ada"), Person(second, "Bob")
    seats = [{"kind": "human"}, {"kind": "human"}]
    created = ada.ask(
        first,
        "POST",
        "/api/games",
        {"edition": "usa", "name": "Ada", "seats": seats, "rated": True, "options": {"days": 5}},
    )
    joined = bob.ask(first, "POST", f"/api/games/{created['id']}/join", {"name": "Bob"})
    game_id = created["id"]
    players = [Player(created, first), Player(joined, first)]
    try:
        final = play_to_the_end(players, random.Random(3))
    finally:
        for player in players:
            player.close()
    assert final["status"] == "over"

    deadline = time.monotonic() + 20
    while True:  # the process that saw the end rates the game a moment later; asked of the other one
        shown = {name: profile(second, name) for name in ("Ada", "Bob")}
        if all(p["ratings"].get("usa", {}).get("games") == 1 for p in shown.values()):
            break
        assert time.monotonic() < deadline, shown
        time.sleep(0.1)
    results = {name: p["games"][0] for name, p in shown.items()}
    assert {g["id"] for g in results.values()} == {game_id}
    assert sorted(g["result"] for g in results.values()) == ["lost", "won"]
    winner = next(name for name, g in results.items() if g["result"] == "won")
    loser = "Bob" if winner == "Ada" else "Ada"
    assert shown[winner]["ratings"]["usa"]["rating"] > 25.0 > shown[loser]["ratings"]["usa"]["rating"]
    for name, game in results.items():
        assert game["rated"] and game["link"] == f"/replay/{game_id}"
        assert game["change"] == pytest.approx(shown[name]["ratings"]["usa"]["rating"] - 25.0, abs=0.02)
        assert [p["game"] for p in shown[name]["history"]["usa"]] == [game_id]

    for node in nodes:  # both processes stop cleanly (whatever they were still doing about the end is done)
        node.stop()
    assert stored_ratings(postgres_url, game_id) == (2, [("Ada", 1), ("Bob", 1)])
    third = Node(postgres_url, **UNLIMITED)  # a new process catches up on unrated games at its start: none
    nodes.append(third)
    assert profile(third, winner)["ratings"]["usa"] == shown[winner]["ratings"]["usa"]
    assert stored_ratings(postgres_url, game_id) == (2, [("Ada", 1), ("Bob", 1)])
