"""Several ``tendays serve`` processes on one PostgreSQL database: a game played across them, its owner
killed (kill -9) and paused (SIGSTOP), a rolling restart, and the fence that refuses a stale owner's moves.

Every move a client saw acknowledged must be stored, once, at its number, and the stored game must
replay by the rules.
"""

from __future__ import annotations

import contextlib
import json
import random
import signal
import time
from dataclasses import replace

import pytest

pytest.importorskip("websockets")
pytest.importorskip("psycopg")
import psycopg  # noqa: E402
from cluster_nodes import LEASE, Node, Player  # noqa: E402

from tendays.engine import Game  # noqa: E402
from tendays.server.storage.rows import MoveConflict, MoveRow, StoredGame, StoredSeat, read_options  # noqa: E402
from tendays.server.storage.store import Store  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve processes on PostgreSQL


def play(players: list[Player], nodes: list[Node], moves: int, acked: dict[int, str], rng: random.Random) -> int:
    """Play ``moves`` moves (people's and the bot's); record each person's acknowledged move by number.
    A player whose server went away reconnects to a live one, as the browser client does."""
    start = max(p.latest["version"] for p in players)
    deadline = time.monotonic() + 40
    while True:
        assert time.monotonic() < deadline, "the game did not go on"
        for player in players:
            try:
                player.read(0.05)
            except Exception:  # its server is gone: reconnect to another (a load balancer would)
                player.connect(next(n for n in nodes if n.alive()))
        table = max((p.latest for p in players), key=lambda m: m["version"])
        version = table["version"]
        if version >= start + moves or table["game"]["status"] == "over":
            return version
        mover = next((p for p in players if p.seat == table["game"]["current"]), None)
        if mover is None or mover.latest["version"] != version:
            continue  # the bot's turn (on the driving process), or the mover has not seen the table yet
        move = rng.choice(mover.latest["game"]["legal_moves"])["text"]
        assert mover.conn is not None
        with contextlib.suppress(Exception):
            mover.conn.send(json.dumps({"type": "move", "move": move, "version": version}))
            end = time.monotonic() + 5
            while mover.latest["version"] == version and time.monotonic() < end:
                mover.read(0.2)
            if mover.latest["version"] > version:  # acknowledged: the new table came
                acked[version + 1] = move


def stored_moves(url: str, game_id: str) -> list[str]:
    """The stored moves, checked: numbered 1..n without a gap, and replaying by the rules."""
    with psycopg.connect(url) as db:
        edition, options, seed = db.execute(
            "SELECT edition, options, seed FROM games WHERE id = %s", (game_id,)
        ).fetchone() or ("", "", 0)
        rows = db.execute("SELECT number, move FROM moves WHERE game_id = %s ORDER BY number", (game_id,)).fetchall()
    assert [n for n, _ in rows] == list(range(1, len(rows) + 1))
    game = Game(edition, read_options(options), seed)
    for _, move in rows:
        game.play(move)
    return [move for _, move in rows]


def lease_owner(url: str, game_id: str) -> tuple[str | None, int]:
    with psycopg.connect(url) as db:
        row = db.execute("SELECT lease_owner, lease_epoch FROM games WHERE id = %s", (game_id,)).fetchone()
    assert row is not None
    return row[0], row[1]


def test_three_servers_play_one_game_through_a_kill_and_a_rolling_restart(postgres_url: str, nodes: list[Node]) -> None:
    url, rng, acked = postgres_url, random.Random(7), {}
    nodes.extend(Node(url) for _ in range(3))
    first, second, third = nodes
    alice = first.post(
        "/api/games",
        {
            "edition": "usa",
            "name": "Alice",
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}],
        },
    )
    bob = third.post(f"/api/games/{alice['id']}/join", {"name": "Bob"})  # joined through another process
    players = [Player(alice, second), Player(bob, third)]  # neither on the process that drives the game
    owner, epoch = lease_owner(url, alice["id"])
    assert owner is not None and f":{first.process.pid}:" in owner and epoch == 1
    version = play(players, nodes, 24, acked, rng)  # the bot moves on the first process
    assert version >= 24

    first.kill()  # kill -9 of the driving process, mid-game
    version = play(players, nodes, 12, acked, rng)  # the bot's turns come again once another took it over
    owner, epoch = lease_owner(url, alice["id"])
    assert owner is not None and f":{first.process.pid}:" not in owner and epoch >= 2  # taken over

    first.forget()
    nodes[0] = Node(url, first.port)  # back, then every process restarted in turn
    for index in range(3):
        nodes[index].stop()
        nodes[index].forget()
        nodes[index] = Node(url, nodes[index].port)
        version = play(players, nodes, 6, acked, rng)
    moves = stored_moves(url, alice["id"])
    # Every move a client saw is stored; the bot may have made one more since (its seat moves on its own).
    assert version <= len(moves) <= version + 1, (len(moves), version)
    assert all(moves[number - 1] == move for number, move in acked.items())  # every acknowledged move, once
    assert len(acked) >= 15


def test_a_paused_owner_finds_its_game_taken_over_and_its_late_moves_refused(
    postgres_url: str, nodes: list[Node]
) -> None:
    url, rng, acked = postgres_url, random.Random(11), {}
    nodes.extend([Node(url, bot_delay=0.3), Node(url, bot_delay=0.3)])
    owner_node, other = nodes
    alice = owner_node.post(
        "/api/games", {"edition": "usa", "name": "Alice", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]}
    )
    players = [Player(alice, other)]
    play(players, nodes, 6, acked, rng)
    owner_node.process.send_signal(signal.SIGSTOP)  # mid-game; perhaps its bot is about to move
    try:
        deadline = time.monotonic() + 15
        while f":{owner_node.process.pid}:" in (lease_owner(url, alice["id"])[0] or ""):
            assert time.monotonic() < deadline, "the lease of the paused process was not taken over"
            time.sleep(0.2)
        version = play(players, nodes, 6, acked, rng)  # driven by the other process now
    finally:
        owner_node.process.send_signal(signal.SIGCONT)
    time.sleep(LEASE)  # the woken process tries its late moves and renews its leases: both are refused
    version = play(players, nodes, 4, acked, rng)
    owner_node.stop()
    assert "driven by another server process now" in owner_node.output()
    moves = stored_moves(url, alice["id"])
    assert version <= len(moves) <= version + 1, (len(moves), version)  # the bot may have moved once since
    assert all(moves[number - 1] == move for number, move in acked.items())


def _game(game_id: str) -> StoredGame:
    from datetime import UTC, datetime

    from tendays.engine import Options

    return StoredGame(
        game_id,
        "usa",
        Options(players=2),
        5,
        datetime.now(UTC),
        [StoredSeat(0, "human", name="A", token_hash="a"), StoredSeat(1, "bot", bot="easy")],
        last_move_at=time.time(),
    )


def test_the_fence_refuses_a_stale_owners_move_and_a_taken_number(postgres_url: str) -> None:
    first, second = Store(postgres_url), Store(postgres_url)
    try:
        first.create_game(_game("fenced"), lease=60.0)
        move = MoveRow(
            "fenced", 1, 0, str(Game("usa", read_options('{"players": 2}'), 5).state.legal_moves()[0]), epoch=1
        )
        assert second.leases.claim(60.0, 10) == {}  # the lease is held
        with first.engine.begin() as db:  # the owner stops answering: its lease runs out
            db.exec_driver_sql("UPDATE games SET lease_expires = 0 WHERE id = 'fenced'")
        assert second.leases.claim(60.0, 10) == {"fenced": 2}
        assert first.leases.renew(60.0) == {}  # the old owner learns it lost the game
        with pytest.raises(MoveConflict) as refused:
            first.append_moves([move])  # its late move, with the old epoch
        assert refused.value.lease_lost
        second.append_moves([replace(move, epoch=2)])
        with pytest.raises(MoveConflict):  # the number is taken, whoever asks
            first.append_moves([replace(move, epoch=None)])
        assert second.load_changes("fenced", 0, 0).moves == [move.move]  # type: ignore[union-attr]
    finally:
        first.close()
        second.close()
