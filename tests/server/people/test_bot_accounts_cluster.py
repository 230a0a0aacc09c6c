"""Bot accounts with two ``tendays serve`` processes on one PostgreSQL database: accepts of a bot's challenges
sent at once through both processes never give the bot more games than ``--bot-games``; the others are refused
in words and their challenges stay open."""

from __future__ import annotations

import json
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("psycopg")
import psycopg  # noqa: E402
from cluster_nodes import Node, Person  # noqa: E402
from test_challenges_cluster import at_once, send  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve processes on PostgreSQL

MOST = 3


def unfinished_games(url: str, name: str) -> int:
    with psycopg.connect(url) as db:
        row = db.execute(
            "SELECT count(*) FROM seats JOIN accounts ON accounts.id = seats.account_id "
            "JOIN games ON games.id = seats.game_id "
            "WHERE accounts.name = %s AND NOT games.finished",
            (name,),
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_accepts_sent_at_once_through_two_processes_never_pass_the_bots_most_games(
    postgres_url: str, nodes: list[Node]
) -> None:
    nodes += [
        Node(postgres_url, CREATES_PER_MINUTE="0", JOINS_PER_MINUTE="0", BOT_GAMES=str(MOST), CHALLENGES_PER_MINUTE="0")
        for _ in range(2)
    ]
    with ThreadPoolExecutor(2) as pool:  # two sign-ups at a time: one address holds two places in a hash queue
        robo, ann, ben = pool.map(
            lambda i_name: Person(nodes[i_name[0] % 2], i_name[1]), enumerate(["Robo", "Ann", "Ben"])
        )
    status, token = send(nodes[0], robo, "POST", "/api/tokens", {"name": "bridge", "scopes": ["bot:play"]})
    assert status == 201, token
    upgrade = urllib.request.Request(
        f"{nodes[1].base}/api/bot/account/upgrade", method="POST", headers={"Authorization": f"Bearer {token['token']}"}
    )
    with urllib.request.urlopen(upgrade, timeout=30) as answer:
        assert json.load(answer) == {"name": "Robo", "bot": True}
    links = []
    for _ in range(8):  # open links, so that two people can take four each
        status, link = send(nodes[0], robo, "POST", "/api/challenges", {"to": None, "edition": "usa"})
        assert status == 201, link
        links.append(link["id"])
    answers = at_once(
        [
            (nodes[n % 2], (ann, ben)[n // 4], "POST", f"/api/challenges/{link}/accept", None)
            for n, link in enumerate(links)
        ]
    )
    accepted = [n for n, (status, _body) in enumerate(answers) if status == 200]
    # Never past the most. A burst may be refused a moment early: while a claimed game is being
    # made, the game and its claim both count (bot_accounts.refuse_when_busy).
    assert 1 <= len(accepted) <= MOST, answers
    assert sorted(status for status, _body in answers) == [200] * len(accepted) + [409] * (8 - len(accepted)), answers
    assert {body["detail"] for status, body in answers if status == 409} == {
        f"Robo is already playing {MOST} games, its most at once"
    }
    # Once the burst's games are made, refused accepts tried again fill the bot's games exactly.
    for n, link in enumerate(links):
        if n not in accepted and len(accepted) < MOST:
            status, body = send(nodes[n % 2], (ann, ben)[n // 4], "POST", f"/api/challenges/{link}/accept")
            assert status == 200, body
            accepted.append(n)
    assert len(accepted) == MOST
    assert unfinished_games(postgres_url, "Robo") == MOST
    status, listed = send(nodes[1], robo, "GET", "/api/challenges")
    assert status == 200
    assert sum(c["status"] == "open" for c in listed["outgoing"]) == 8 - MOST
