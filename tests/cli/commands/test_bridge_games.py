"""`tendays bridge` playing whole games against a stand-in site (bridge_site.py): it accepts and
declines challenges by its settings, plays each game to its end through its program, restarts a
program that crashed, plays on past illegal answers, takes up its games again after lost
connections without a second task for any, and stops when its token is revoked. The programs are
small scripts of the standard library alone (engines/first_move_engine.py), quick to start."""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from bridge_site import SERVER, TOKEN, FakeSite

from tendays.bridge import ClockChoice, Policy, RatedChoice
from tendays.bridge.backoff import Backoff
from tendays.bridge.logs import close_log, open_log
from tendays.bridge.runner import Bridge, BridgeStopped
from tendays.bridge.site import Site

ENGINE = str(Path(__file__).parent / "engines" / "first_move_engine.py")
WAIT = 120.0  # seconds before a test that waits for something gives up


async def no_wait(_seconds: float) -> None:
    await asyncio.sleep(0)


@dataclass
class Running:
    bridge: Bridge
    task: asyncio.Task[None]
    out: io.StringIO

    @property
    def log(self) -> str:
        return self.out.getvalue()

    async def stop(self) -> None:
        self.bridge.stop()
        await asyncio.wait_for(self.task, WAIT)


@pytest.fixture
def site() -> FakeSite:
    return FakeSite()


async def start(site: FakeSite, policy: Policy, *program: str) -> Running:
    out = io.StringIO()
    log = open_log(TOKEN, None, stream=out)
    command = " ".join([sys.executable, ENGINE, *program])
    bridge = Bridge(
        Site(SERVER, TOKEN, transport=site.transport),
        policy,
        command,
        log,
        backoff=lambda: Backoff(sleep=no_wait),
    )
    return Running(bridge, asyncio.create_task(bridge.run()), out)


@pytest.fixture
async def closing() -> AsyncIterator[list[Running]]:
    """Bridges to stop at the end of a test, whatever happened."""
    bridges: list[Running] = []
    yield bridges
    for running in bridges:
        running.bridge.stop()
        await asyncio.wait_for(asyncio.gather(running.task, return_exceptions=True), WAIT)
        close_log(running.bridge.log)


async def until(condition: object, what: str) -> None:
    async def poll() -> None:
        while not condition():  # type: ignore[operator]
            await asyncio.sleep(0.01)

    try:
        await asyncio.wait_for(poll(), WAIT)
    except TimeoutError:
        raise AssertionError(f"waited {WAIT:g} s for {what}") from None


async def test_challenges_are_answered_by_the_settings_and_the_game_played_to_its_end(
    site: FakeSite, closing: list[Running]
) -> None:
    policy = Policy(
        editions=frozenset({"usa"}), games=1, rated=RatedChoice.NO, clocks=ClockChoice.NONE
    )
    running = await start(site, policy)
    closing.append(running)
    await site.wait_for_connections(1)
    site.challenge("germany", edition="germany")
    site.challenge("rated", rated=True)
    site.challenge("live", clock={"kind": "live", "per_move": 60.0, "bank": 300.0})
    site.challenge("good")
    await until(lambda: "good" in site.answers, "the good challenge's answer")
    game = site.games["g-good"]
    game.hold = True
    site.challenge("second")  # one game at once: the bridge is playing one
    await until(lambda: "second" in site.answers, "the second challenge's answer")
    assert site.answers == {
        "germany": "edition",
        "rated": "casual",
        "live": "clock",
        "good": "accepted",
        "second": "later",
    }
    game.release()
    await asyncio.wait_for(game.over.wait(), WAIT)
    await until(lambda: not running.bridge.games, "the game's task to end")
    await running.stop()
    assert game.finished and site.moves
    assert "declined challenge germany: from Ann, germany, no clock, casual; reason edition" in (
        running.log
    )
    assert "accepted challenge good: from Ann, usa, no clock, casual; game g-good" in running.log
    assert "game g-good over:" in running.log
    assert "the site refused" not in running.log  # every move it sent was legal and in turn
    assert TOKEN not in running.log


async def test_a_program_that_crashes_is_started_again_and_the_game_goes_on(
    site: FakeSite, closing: list[Running], tmp_path: Path
) -> None:
    game = site.add_game("g1")
    marker = tmp_path / "crashed"
    running = await start(site, Policy(), "--crash-after", "3", "--marker", str(marker))
    closing.append(running)
    await asyncio.wait_for(game.over.wait(), WAIT)
    await until(lambda: "game g1 over" in running.log, "the end of the game in the log")
    assert marker.exists()
    assert "game g1: the program failed (the engine stopped without answering" in running.log
    assert "game g1: program restarted (1 so far)" in running.log
    assert "1 program restarts" in running.log
    assert "the site refused" not in running.log


async def test_a_program_answering_illegal_moves_is_asked_again_then_the_first_legal_move_played(
    site: FakeSite, closing: list[Running]
) -> None:
    game = site.add_game("g1", days=4)
    running = await start(site, Policy(), "--illegal")
    closing.append(running)
    await asyncio.wait_for(game.over.wait(), WAIT)
    await until(lambda: "game g1 over" in running.log, "the end of the game in the log")
    log = running.log
    assert "the program answered 'swap 1 2', which the rules do not allow now; asking again" in log
    assert "playing the first legal move 'draft 1' instead" in log
    assert all(move != "swap 1 2" for _game, move in site.moves)


async def test_lost_connections_are_taken_up_again_without_a_second_task_for_a_game(
    site: FakeSite, closing: list[Running]
) -> None:
    game = site.add_game("g1", hold=True)
    running = await start(site, Policy(games=3))
    closing.append(running)
    await asyncio.wait_for(game.waiting.wait(), WAIT)  # the bridge moved; the opponent waits
    moves = len(site.moves)
    site.refuse_connections = 3  # a server restarting: three attempts fail before it answers
    site.drop_connections()
    await site.wait_for_connections(2)
    await until(lambda: game.opened == 2, "the game's stream to be opened again")
    assert list(running.bridge.games) == ["g1"]
    game.release()
    await asyncio.wait_for(game.over.wait(), WAIT)
    await until(lambda: not running.bridge.games, "the game's task to end")
    assert game.most_open == 1  # never two followers of one game
    assert len(site.moves) > moves
    log = running.log
    assert "connection to http://site.test lost (the connection was dropped)" in log
    assert "reconnected to http://site.test" in log
    assert "game g1: connection lost" in log
    assert log.count("game g1 started") == 1
    assert "the site refused" not in log


async def test_a_token_revoked_while_playing_stops_the_bridge_with_the_sites_words(
    site: FakeSite, closing: list[Running]
) -> None:
    game = site.add_game("g1", hold=True)
    running = await start(site, Policy())
    await asyncio.wait_for(game.waiting.wait(), WAIT)
    site.token = "tdb_another"  # the token is revoked: the site knows it no more
    site.drop_connections()
    with pytest.raises(BridgeStopped, match="401: this token is not known or was revoked"):
        await asyncio.wait_for(running.task, WAIT)
    assert not running.bridge.games
    assert TOKEN not in running.log
