"""The Bot API's streams across ``tendays serve`` processes: on one PostgreSQL database, a challenge made
through one process, its cancel and the game its accept makes reach the event streams held by another, and a
move stored through one reaches the game stream held by another; and a server with streams open stops at once
when told to (SIGTERM)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from bot_stream_helpers import BOARD, BOT, WRITE, Player, Served, StreamReader, new_account
from cluster_nodes import Node
from server_helpers import at_once

pytestmark = pytest.mark.slow  # starts tendays serve processes on PostgreSQL


def test_events_and_moves_reach_the_streams_of_another_process(postgres_url: str, nodes: list[Any]) -> None:
    # no keep-alive within the test: the notices between the processes must wake the streams
    one, two = Node(postgres_url, STREAM_KEEPALIVE="300s"), Node(postgres_url, STREAM_KEEPALIVE="300s")
    nodes += [one, two]
    on_one, on_two = Served(None, one.base, postgres_url), Served(None, two.base, postgres_url)
    bot = Player(on_two, "Robo", BOT, bot=True)
    ann = Player(on_one, "Ann", WRITE, BOARD)
    events = bot.events()  # held by the second process
    theirs = ann.events()  # held by the first
    waiting = ann.challenge("Robo")  # through the first
    told = events.next()
    assert told["type"] == "challenge" and told["challenge"]["id"] == waiting["id"]
    assert ann.call("DELETE", f"/api/challenges/{waiting['id']}").status_code == 200
    assert events.next() == {"type": "challengeCanceled", "challenge": {"id": waiting["id"]}}
    made = ann.challenge("Robo")
    assert events.next()["challenge"]["id"] == made["id"]
    game_id = bot.accept(made["id"])["game"]  # through the second
    assert events.next() == {"type": "gameStart", "game": {"id": game_id, "seat": 1, "edition": "usa"}}
    assert theirs.next() == {"type": "gameStart", "game": {"id": game_id, "seat": 0, "edition": "usa"}}
    # the bot's table on the second process; Ann moves through the first
    table = bot.game(game_id)
    full = table.next()
    assert full["type"] == "gameFull" and full["game"]["you"] == 1
    mine = ann.game(game_id)
    ann_full = mine.next()["game"]
    if ann_full["current"] != 0:  # the bot is first: it moves, and Ann's stream shows her turn
        assert bot.move(game_id, full["game"]["legal_moves"][0]["text"]).status_code == 200
        ann_full = mine.until("gameState")["game"]
        while not ann_full["legal_moves"]:
            ann_full = mine.until("gameState")["game"]
    played = ann.move(game_id, ann_full["legal_moves"][0]["text"])
    assert played.status_code == 200, played.text
    version = played.json()["version"]
    state = table.until("gameState")
    while state["version"] < version:
        state = table.until("gameState")
    assert state["version"] == version and state["game"]["you"] == 1
    for stream in (events, theirs, table, mine):
        stream.close()


def test_a_server_with_open_streams_stops_at_once_when_told(tmp_path: Path, nodes: list[Any]) -> None:
    url = f"sqlite:///{tmp_path / 'tendays.db'}"
    node = Node(url)
    nodes.append(node)
    served = Served(None, node.base, url)
    bot = Player(served, "Robo", BOT, bot=True)
    ann = Player(served, "Ann", WRITE)
    game_id = bot.accept(ann.challenge("Robo")["id"])["game"]
    events: StreamReader = bot.events()
    table = bot.game(game_id)
    assert events.next()["type"] == "gameStart" and table.next()["type"] == "gameFull"
    node.stop()  # SIGTERM; fails if the server is still running 30 s later
    # uvicorn stops cleanly, then ends with the signal it was stopped by, as a program that did not catch it
    assert node.process.returncode in (0, -15), node.output()
    assert events.ended.wait(10) and table.ended.wait(10)


def test_challenges_sent_at_once_through_two_processes_keep_the_limit_per_minute(
    postgres_url: str, nodes: list[Any]
) -> None:
    one, two = Node(postgres_url, CHALLENGES_PER_MINUTE="3"), Node(postgres_url, CHALLENGES_PER_MINUTE="3")
    nodes += [one, two]
    through = [Served(None, one.base, postgres_url), Served(None, two.base, postgres_url)]
    ann = Player(through[0], "Ann", WRITE)
    names = ["Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida"]
    for name in names:
        new_account(postgres_url, name)
    made = at_once(
        8, lambda n: through[n % 2].call("POST", "/api/challenges", ann.token, json={"to": names[n], "edition": "usa"})
    )
    assert Counter(answer.status_code for answer in made) == {201: 3, 429: 5}
