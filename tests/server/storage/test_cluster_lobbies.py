"""Two lobbies on one PostgreSQL database, in one process as two server processes would be: a move made
through either reaches the other's connections, a request to end counts wherever it was made, and a
game whose driver stops is taken over with its bots."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest

pytest.importorskip("psycopg")
from server_helpers import settings  # noqa: E402

from tendays.server.matches.lobby import Lobby  # noqa: E402
from tendays.server.storage.journal import Journal  # noqa: E402
from tendays.server.storage.store import Store  # noqa: E402

pytestmark = pytest.mark.slow  # starts PostgreSQL

HUMANS = [("human", None)] * 3


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("waited in vain")


@pytest.fixture
async def lobbies(postgres_url: str) -> AsyncIterator[list[Lobby]]:
    made: list[Lobby] = []
    for _ in range(2):
        lobby = Lobby(Journal(Store(postgres_url)), settings(lease_ttl=1.5))
        lobby.restore()
        lobby.start()
        assert lobby.cluster is not None
        await asyncio.wait_for(lobby.cluster.listening.wait(), 10)
        made.append(lobby)
    yield made
    for lobby in made:
        for name, step in (("close", lobby.close()), ("journal", lobby.journal.close())):
            try:
                await asyncio.wait_for(step, 5)
            except TimeoutError:
                print("HANG", name, [(t.get_name(), t.get_coro()) for t in asyncio.all_tasks()])
                raise


async def test_a_move_through_either_process_reaches_the_other(lobbies: list[Lobby]) -> None:
    first, second = lobbies
    match, _ = await first.create("usa", HUMANS[:2], {}, "Ann")
    await match.join("Ben")
    follower = await second.get(match.id)
    assert follower is not None and not follower.driving and match.driving
    watcher = follower.subscribe(None)
    watcher.drain()
    await match.submit(0, str(match.state.legal_moves()[0]), 0)  # on the driving process
    await until(lambda: follower.version == 1)
    assert watcher.drain()  # its connection got the new table
    await follower.submit(1, str(follower.state.legal_moves()[0]), 1)  # a person's move through the other one
    await until(lambda: match.version == 2)
    assert follower.game.moves == match.game.moves


async def test_requests_to_end_count_across_processes(lobbies: list[Lobby]) -> None:
    first, second = lobbies
    match, _ = await first.create("usa", HUMANS, {}, "Ann")
    await match.join("Ben")
    await match.join("Cem")
    await match.leave(2)
    follower = await second.get(match.id)
    assert follower is not None
    follower.subscribe(1)  # Ben watches through the second process
    await until(lambda: follower.seats[2].left)
    await match.vote_end(0)
    assert match.status == "playing"
    await follower.vote_end(1)
    await until(lambda: match.status == "over" and follower.status == "over")
    assert match.ended == "abandoned"


async def test_a_stopped_driver_hands_its_game_over_with_its_bots(lobbies: list[Lobby]) -> None:
    first, second = lobbies
    match, _ = await first.create("usa", [("human", None), ("bot", "easy")], {}, "Ann")
    follower = await second.get(match.id)
    assert follower is not None
    follower.subscribe(0)
    await first.close()  # a clean stop gives the lease back: the other takes the game at once
    await until(lambda: follower.driving, 5)
    for _ in range(3):  # Ann moves through the second process; the bot answers there
        await until(lambda: follower.state.current == 0)
        await follower.submit(0, str(follower.state.legal_moves()[0]), follower.version)
    await until(lambda: follower.state.current == 0)
    assert follower.version >= 4
