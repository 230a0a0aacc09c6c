"""A table opened on one server process just as a move is stored through another must show that move.

Alice plays through the first process; Bob's table is on the second, which holds the game only while he
watches. Each trial closes Bob's table, then Alice moves as Bob opens it again, a few milliseconds before or
after: the second process loads the game while the move is being stored and announced. However the two
meet, Bob's table must reach Alice's move, and his own move must then be accepted. A table that never shows
the move is a frozen game: Bob's move would be refused as out of turn for ever.
"""

from __future__ import annotations

import json
import random
import threading
import time

import pytest

pytestmark = pytest.mark.slow  # starts server processes
pytest.importorskip("websockets")
pytest.importorskip("psycopg")
from cluster_nodes import Message, Node, Player  # noqa: E402

TRIALS = 300
BUDGET = 40.0  # seconds: on a slow machine the trials stop early, after at least MIN_TRIALS
MIN_TRIALS = 200
UNLIMITED = {
    "CREATES_PER_MINUTE": "0",
    "JOINS_PER_MINUTE": "0",
    "CONNECTIONS_PER_MINUTE": "0",
    "CONNECTIONS_AT_ONCE": "0",
}


def _until(player: Player, version: int, seconds: float) -> bool:
    """Read ``player``'s table until it reaches ``version``; False if it does not within ``seconds``."""
    end = time.monotonic() + seconds
    while player.latest["version"] < version:
        if time.monotonic() >= end:
            return False
        player.read(0.1)
    return True


def _send(player: Player, table: Message, rng: random.Random) -> None:
    assert player.conn is not None
    move = rng.choice(table["game"]["legal_moves"])["text"]
    player.conn.send(json.dumps({"type": "move", "move": move, "version": table["version"]}))


def test_a_table_opened_while_a_move_is_stored_elsewhere_shows_the_move(postgres_url: str, nodes: list[Node]) -> None:
    nodes.extend([Node(postgres_url, **UNLIMITED), Node(postgres_url, **UNLIMITED)])
    first, second = nodes
    rng = random.Random(23)
    trials, frozen = 0, []
    started = time.monotonic()

    def more() -> bool:
        return trials < TRIALS and (trials < MIN_TRIALS or time.monotonic() - started < BUDGET)

    while more():
        ticket = first.post(
            "/api/games", {"edition": "usa", "name": "Alice", "seats": [{"kind": "human"}, {"kind": "human"}]}
        )
        bob_ticket = second.post(f"/api/games/{ticket['id']}/join", {"name": "Bob"})
        alice = Player(ticket, first)
        bob: Player | None = None
        while more():
            table = alice.latest
            if table["game"]["status"] == "over":
                break
            if table["game"]["status"] == "waiting":  # Bob's seat, taken on the second process, is on its way
                alice.read(0.1)
                continue
            version = table["version"]
            if table["game"]["current"] == alice.seat:
                # Bob opens his table on the second process as Alice's move is stored on the first.
                lead = rng.uniform(-0.012, 0.012)
                mover = threading.Timer(max(0.0, lead), _send, (alice, table, rng))
                mover.start()
                time.sleep(max(0.0, -lead))
                bob = Player(bob_ticket, second)
                mover.join()
                trials += 1
                assert _until(alice, version + 1, 10), "Alice's move was not acknowledged"
                if not _until(bob, version + 1, 3):
                    frozen.append((ticket["id"], version + 1, round(lead * 1000, 1)))
                    break  # this game cannot go on: start another
            else:
                if bob is None:
                    bob = Player(bob_ticket, second)
                _send(bob, bob.latest, rng)
                assert _until(bob, version + 1, 10), "Bob's move was not accepted"
                assert _until(alice, version + 1, 10), "Alice's table did not show Bob's move"
            if bob is not None and alice.latest["game"]["current"] == alice.seat:
                bob.close()  # the second process forgets the game until Bob opens his table again
                bob = None
                time.sleep(0.02)
        alice.close()
        if bob is not None:
            bob.close()
    assert trials >= MIN_TRIALS
    assert frozen == [], f"{len(frozen)} of {trials} tables never showed the move (game, move, lead ms): {frozen}"
