"""One holder per game: a game's notices go to its own channel, and a process that is sent a game's
connections takes its lease, fencing the previous holder's moves (tendays.server.storage.cluster)."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from tendays.engine import Game, Options
from tendays.server.storage.notices import CHANNEL, SHARDS, channel, read_announcement
from tendays.server.storage.rows import MoveConflict, MoveRow, StoredGame, StoredSeat, read_options


def test_a_games_notices_have_a_channel_of_their_own_and_the_site_one_stays() -> None:
    assert channel("*") == CHANNEL  # released, sessions, inbox: every process hears them
    names = {channel(f"game{n}") for n in range(2000)}
    assert names <= {f"{CHANNEL}_g_{n}" for n in range(SHARDS)} and len(names) > SHARDS // 2
    assert channel("abc") == channel("abc")  # every process computes the same one


def _game(game_id: str) -> StoredGame:
    return StoredGame(
        game_id,
        "usa",
        Options(players=2),
        5,
        datetime.now(UTC),
        [StoredSeat(0, "human", name="A", token_hash="a"), StoredSeat(1, "bot", bot="easy")],
        last_move_at=time.time(),
    )


@pytest.mark.slow  # PostgreSQL
def test_taking_a_held_game_fences_its_holder_and_tells_it(postgres_url: str) -> None:
    psycopg = pytest.importorskip("psycopg")
    from tendays.server.storage.store import Store

    first, second = Store(postgres_url), Store(postgres_url)
    try:
        first.create_game(_game("moved"), lease=60.0)
        with psycopg.connect(postgres_url, autocommit=True) as listener:
            listener.execute(f"LISTEN {channel('moved')}")
            assert second.leases.take("moved", 60.0) == 2  # held by a live process: taken all the same
            heard = [n.payload for n in listener.notifies(timeout=5, stop_after=1)]
        assert [read_announcement(p)[1:] for p in heard] == [("moved", "taken 2")]
        legal = str(Game("usa", read_options('{"players": 2}'), 5).state.legal_moves()[0])
        move = MoveRow("moved", 1, 0, legal, epoch=1)
        with pytest.raises(MoveConflict) as refused:
            first.append_moves([move])  # the old holder's move, with its epoch
        assert refused.value.lease_lost
        assert first.leases.renew(60.0) == {}  # nor does it hold the lease any more
        second.append_moves([replace(move, epoch=2)])
        first.end_game("moved", "closed", time.time())
        assert first.leases.take("moved", 60.0) is None  # an ended game is nobody's to take
    finally:
        first.close()
        second.close()
