"""A move's notice goes only to the processes that hold its game, and none is missed by one that starts
following mid-game.

Alice plays a bot on the first process, which drives the game; nobody else holds it, so its moves send no
notice (a listener on the game's channel, which is no server process, hears none). Spectators then open the
game on the second process again and again while moves are being stored: each registers as a follower as
it reads the game, and must see every move that follows; closed, the second process forgets the game and
lets go of it, and opens it again later. A table that stops short of Alice's is a missed notice.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # starts server processes on PostgreSQL
pytest.importorskip("websockets")
psycopg = pytest.importorskip("psycopg")
from cluster_nodes import Message, Node, Player  # noqa: E402
from websockets.sync.client import ClientConnection, connect  # noqa: E402

from tendays.server.storage.notices import channel  # noqa: E402

UNLIMITED = {
    "CREATES_PER_MINUTE": "0",
    "JOINS_PER_MINUTE": "0",
    "CONNECTIONS_PER_MINUTE": "0",
    "CONNECTIONS_AT_ONCE": "0",
}
BUDGET = 40.0  # seconds of play, at most
MIN_OPENINGS = 20


class Spectator:
    """A table connection without a seat."""

    def __init__(self, node: Node, game_id: str) -> None:
        self._stack = contextlib.ExitStack()
        address = f"ws://127.0.0.1:{node.port}/ws/games/{game_id}"
        self.conn: ClientConnection = self._stack.enter_context(connect(address, open_timeout=10))
        self.conn.send(json.dumps({"type": "hello"}))
        self.version = -1
        self.over = False

    def until(self, version: int, seconds: float) -> bool:
        """Read until the table reaches ``version`` (or the game is over at it); False if not in time."""
        end = time.monotonic() + seconds
        while self.version < version:
            left = end - time.monotonic()
            if left <= 0:
                return False
            try:
                message: Message = json.loads(self.conn.recv(timeout=left))
            except TimeoutError:
                return False
            if message.get("type") == "state":
                self.version = max(self.version, message["version"])
        return True

    def close(self) -> None:
        self._stack.close()


def _move(alice: Player, rng: random.Random) -> bool:
    """Alice's move when it is her turn (False: the game is over)."""
    table = alice.latest
    if table["game"]["status"] == "over":
        return False
    if table["game"]["status"] == "playing" and table["game"]["current"] == alice.seat:
        move = rng.choice(table["game"]["legal_moves"])["text"]
        assert alice.conn is not None
        alice.conn.send(json.dumps({"type": "move", "move": move, "version": table["version"]}))
    alice.read(0.05)
    return True


def _move_notices(listener: Any) -> int:
    """The move notices heard so far on ``listener``."""
    return sum(1 for notice in listener.notifies(timeout=0.2) if " move " in notice.payload)


def test_a_follower_that_joins_mid_game_sees_every_move_and_a_game_nobody_follows_sends_none(
    postgres_url: str, nodes: list[Node]
) -> None:
    nodes.extend([Node(postgres_url, bot_delay=0.0, **UNLIMITED), Node(postgres_url, **UNLIMITED)])
    first, second = nodes
    rng = random.Random(31)
    openings, missed, games, unheard = 0, [], 0, None
    started = time.monotonic()
    while time.monotonic() - started < BUDGET or openings < MIN_OPENINGS:
        ticket = first.post(
            "/api/games",
            {"edition": "usa", "name": "Alice", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]},
        )
        games += 1
        alice = Player(ticket, first)
        if unheard is None:  # the first game: nobody but its driver holds it for its first moves
            with psycopg.connect(postgres_url, autocommit=True) as listener:
                listener.execute(f"LISTEN {channel(ticket['id'])}")
                while alice.latest["version"] < 12 and _move(alice, rng):
                    pass
                unheard = _move_notices(listener)
        spectator: Spectator | None = None
        while _move(alice, rng):
            if spectator is None and rng.random() < 0.3:
                spectator = Spectator(second, ticket["id"])  # read mid-game, as moves are stored
                openings += 1
            if spectator is not None:
                version = alice.latest["version"]
                if not spectator.until(version, 5):
                    missed.append((ticket["id"], version, spectator.version))
                    break
                if rng.random() < 0.3:
                    spectator.close()  # the second process forgets the game, and lets go of it
                    spectator = None
        if spectator is not None:
            final = alice.latest["version"]
            if not spectator.until(final, 5):
                missed.append((ticket["id"], final, spectator.version))
            spectator.close()
        alice.close()
        assert games < 60, "the games did not give enough openings"
    assert unheard == 0, f"{unheard} move notices of a game no other process holds"
    assert missed == [], f"tables that stopped short (game, Alice's version, the spectator's): {missed}"
