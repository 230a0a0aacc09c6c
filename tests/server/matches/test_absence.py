"""Absent and leaving players, in-process: clocks, timeouts played by the bot, the seat handed over and
taken back, leaving, ending a game nobody plays, rematches, and clocks kept across a restart."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import close_lobby as close
from server_helpers import open_lobby as open_lobby_at

from tendays.server.matches.lobby import Lobby
from tendays.server.matches.master import Match
from tendays.server.matches.notices import N_, render_notice
from tendays.server.matches.seats import LobbyError, Rejected, Subscriber
from tendays.server.matches.timing import TurnClock
from tendays.server.settings import Pace, PaceLimits

HUMAN: tuple[str, None] = ("human", None)
QUICK = PaceLimits(live_min=0.05)


def open_lobby(path: Path, **changes: Any) -> Lobby:
    values: dict[str, Any] = {"paces": QUICK, "timeouts_to_bot": 2}
    values.update(changes)
    return open_lobby_at(f"sqlite:///{path / 'games.db'}", **values)


async def until(condition: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never came true")
        await asyncio.sleep(0.02)


def chat_texts(lobby: Lobby, match: Match) -> list[str]:
    stored = lobby.journal.store.load_game(match.id)
    assert stored is not None
    return [render_notice(row.text) for row in stored.chat]  # notices are stored as data


def test_the_bank_pays_for_slow_turns() -> None:
    clock = TurnClock(Pace("live", 10, 30), 2)
    clock.start(0, 100.0)
    assert clock.deadline == 100.0 + 10 + 30
    clock.finish(0, 125.0)  # 25 s: 15 beyond the move's 10 come out of the bank
    assert clock.banks == [15.0, 30.0] and clock.deadline is None
    clock.start(1, 125.0)
    clock.finish(1, 130.0)  # within the limit: the bank is untouched
    clock.start(0, 130.0)
    assert clock.deadline == 130.0 + 10 + 15
    assert clock.to_json(131.0) == {
        "kind": "live",
        "per_move": 10,
        "bank": 30,
        "banks": [15.0, 30.0],
        "deadline": 155.0,
        "now": 131.0,
    }


def test_paces_outside_the_operators_limits_are_refused() -> None:
    limits = PaceLimits()
    limits.check(Pace("live", 30, 120))
    limits.check(Pace("correspondence", 86400))
    for pace, words in (
        (Pace("live", 5), "10 seconds to 10 minutes, not 5 seconds"),
        (Pace("correspondence", 60), "1 hour to 14 days, not 1 minute"),
        (Pace("correspondence", 86400, 10), "no bank"),
        (Pace("live", 30, 7200), "bank is 0 to"),
        (Pace("blitz", 30), "unknown pace"),
    ):
        with pytest.raises(ValueError, match=words):
            limits.check(pace)


@pytest.mark.slow  # waits on a clock or a timeout
async def test_timeouts_are_played_by_the_bot_then_the_seat_is_handed_over_and_taken_back(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    match, _ = await lobby.create("usa", [HUMAN, HUMAN], {"days": 5}, "Alice", Pace("live", 0.3))
    await match.join("Bob")
    assert match.clock is not None and match.clock.deadline is not None

    async def alice_plays() -> None:
        while match.status == "playing" and not match.seats[1].away:
            if match.state.current == 0:
                await match.submit(0, str(match.state.legal_moves()[0]), match.version)
            await asyncio.sleep(0.01)

    await asyncio.wait_for(alice_plays(), 20)
    bob = match.seats[1]
    assert bob.away and bob.timeouts == 2 and bob.played_by_bot
    with pytest.raises(Rejected, match="while you are away; take your seat back"):  # the bot plays it now
        await match.submit(1, "draw", match.version)
    await until(lambda: len(chat_texts(lobby, match)) >= 3)
    lines = chat_texts(lobby, match)
    assert lines[:2] == ["Bob ran out of time: the normal bot played the turn"] * 2
    assert lines[2] == "Bob missed 2 turns in a row: a bot plays the seat until Bob opens the seat link again"
    version = match.version
    await until(lambda: match.version > version + 1 or match.status == "over")  # the game goes on
    await match.come_back(1)
    assert not bob.away and bob.timeouts == 0
    assert chat_texts(lobby, match)[-1] == "Bob is back and plays the seat again"
    stored = lobby.journal.store.load_game(match.id)
    assert stored is not None and not stored.seats[1].away
    await close(lobby)


@pytest.mark.slow  # waits on a clock
async def test_a_timer_left_for_an_earlier_deadline_times_out_nobody(tmp_path: Path) -> None:
    """The clock's timer is not set again when a turn passes: woken at the turn's old deadline, it
    looks again, and only the deadline of the turn being played times a seat out."""
    lobby = open_lobby(tmp_path)
    match, _ = await lobby.create("usa", [HUMAN, HUMAN], {"days": 5}, "Alice", Pace("live", 0.5))
    await match.join("Bob")
    assert match.clock is not None and match.clock.deadline is not None
    first = match.clock.deadline
    await asyncio.sleep(0.25)
    mover = match.state.current
    await match.submit(mover, str(match.state.legal_moves()[0]), match.version)
    assert match.state.current != mover and match.clock.deadline > first + 0.2
    await asyncio.sleep(first - time.time() + 0.1)  # the first deadline has passed
    assert [s.timeouts for s in match.seats] == [0, 0] and match.stand_in_turn is None
    await until(lambda: match.seats[match.state.current].timeouts > 0 or match.version > 1)
    assert time.time() >= first + 0.2
    await close(lobby)


async def test_a_game_whose_only_person_times_out_ends_as_abandoned(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    match, _ = await lobby.create("usa", [HUMAN, ("bot", "easy")], {"days": 5}, "Alice", Pace("live", 0.2))
    abandoned = "Nobody is left at the table: the game ends as abandoned."
    # The game reads as over the moment it ends; the reason reaches the chat just after.
    await until(lambda: match.status == "over" and chat_texts(lobby, match)[-1:] == [abandoned])
    assert match.ended == "abandoned" and not match.state.is_over
    with pytest.raises(Rejected, match="ended before it was played out"):
        await match.submit(0, "draft 1", match.version)
    stored = lobby.journal.store.load_game(match.id)
    assert stored is not None and stored.finished and stored.ended == "abandoned" and stored.finished_at
    await close(lobby)


async def test_the_deadline_is_stored_not_counted(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    match, _ = await lobby.create("usa", [HUMAN, HUMAN], {}, "Alice", Pace("live", 30, 60))
    await match.join("Bob")
    assert match.clock is not None
    deadline = match.clock.deadline
    assert deadline is not None and abs(deadline - (time.time() + 90)) < 5
    await match.submit(0, "draft 1", 0)
    next_deadline = match.clock.deadline
    await close(lobby)
    await asyncio.sleep(0.2)
    again = open_lobby(tmp_path)
    restored = again.matches[match.id]
    assert restored.clock is not None and restored.clock.deadline == next_deadline != deadline
    assert restored.clock.banks == [60.0, 60.0]
    await close(again)


async def test_a_player_leaves_the_game_goes_on_and_the_others_may_end_it(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    match, _ = await lobby.create("usa", [HUMAN, HUMAN, HUMAN], {"days": 5}, "Alice")
    await match.join("Bob")
    await match.join("Carol")
    with pytest.raises(Rejected, match="only after a player has left"):
        await match.vote_end(0)
    await match.submit(0, "draft 1", 0)
    await match.leave(1)  # Bob, whose turn it is
    await until(lambda: match.version >= 2)  # the bot plays Bob's seat at once
    assert match.seats[1].left and match.status == "playing"
    with pytest.raises(Rejected, match="you left this game"):
        await match.submit(1, "draft 2", match.version)
    await match.vote_end(0)
    assert match.status == "playing" and match.end_votes == {0}
    await match.vote_end(2)
    assert match.status == "over" and match.ended == "abandoned"
    assert chat_texts(lobby, match)[-1] == "The players chose to end the game."
    await close(lobby)


async def test_when_the_last_person_leaves_the_game_is_finished(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    match, _ = await lobby.create("usa", [HUMAN, ("bot", "easy")], {}, "Alice")
    await match.leave(0)
    assert match.status == "over" and match.ended == "abandoned"
    assert match.id not in {m.id for m in lobby.active()}
    await close(lobby)


async def finished_game(lobby: Lobby) -> Match:
    match, _ = await lobby.create(
        "usa",
        [HUMAN, HUMAN, ("bot", "easy")],
        {"days": 5, "turn_limit": 1, "first_seat": 0},
        "Alice",
        Pace("live", 60, 30),
    )
    await match.join("Bob")
    while match.status != "over":
        current = match.state.current
        if match.seats[current].kind == "human":
            await match.submit(current, str(match.state.legal_moves()[0]), match.version)
        await asyncio.sleep(0.01)
    return match


async def test_a_rematch_offers_the_same_seats_and_options_again(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    match = await finished_game(lobby)
    bob_first, _ = await lobby.rematch(match, 1)  # Bob asks first: he keeps his seat
    assert match.rematch == bob_first.id and bob_first.status == "waiting"
    assert [s.name for s in bob_first.seats] == ["Alice", "Bob", "Easy bot"]
    assert bob_first.seats[0].reserved and not bob_first.seats[0].taken and not bob_first.joinable
    assert bob_first.options.days == 5 and bob_first.options.turn_limit == 1
    assert bob_first.clock is not None and bob_first.clock.pace == Pace("live", 60, 30)
    with pytest.raises(LobbyError):
        await lobby.join(bob_first.id, "Mallory")  # a stranger cannot take a kept seat
    again, token = await lobby.rematch(match, 0)
    assert again is bob_first and again.seat_for(token) == 0 and again.status == "playing"
    assert chat_texts(lobby, match)[-1] == "Bob offers a rematch: the same seats and options again"
    with pytest.raises(Rejected, match="already started"):
        await lobby.rematch(match, 0)
    await close(lobby)


async def test_a_rematch_needs_a_finished_game(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    match, _ = await lobby.create("usa", [HUMAN, HUMAN], {}, "Alice")
    with pytest.raises(Rejected, match="once the game is over"):
        await lobby.rematch(match, 0)
    await close(lobby)


async def record_tables(subscriber: Subscriber, into: list[dict[str, Any]]) -> None:
    """Read every message sent to ``subscriber`` as a connection would, keeping the tables' games."""
    while True:
        message = json.loads(await subscriber.get())
        if message["type"] == "state":
            into.append(message["game"])


async def test_a_person_at_the_table_whose_turns_run_out_is_away_and_the_bot_plays_on(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    match, _ = await lobby.create(
        "usa", [HUMAN, ("bot", "normal")], {"days": 5, "first_seat": 0, "turn_limit": 3}, "Alice", Pace("live", 0.1)
    )
    tables: list[dict[str, Any]] = []
    reader = asyncio.create_task(record_tables(match.subscribe(0), tables))  # Alice's tab stays open
    await until(lambda: match.status == "over")
    await until(lambda: any(t["status"] == "over" for t in tables))
    reader.cancel()
    # Away, not gone: the bot played Alice's seat to the end of the game.
    assert match.ended is None and match.state.is_over
    assert match.seats[0].away and not match.seats[0].left
    lines = chat_texts(lobby, match)
    assert lines[:3] == ["Alice ran out of time: the normal bot played the turn"] * 2 + [
        "Alice missed 2 turns in a row: a bot plays the seat until Alice opens the seat link again"
    ]
    assert not any("abandoned" in line for line in lines)
    # Each notice that the bot played the turn came with a table on which the turn was played.
    told = [t for t in tables if any("ran out of time" in line["text"] for line in t["chat"])]
    assert len(told) == 2
    for table in told:
        assert table["status"] == "over" or (table["current"] != 0 and table["in_hand"] is None), table
    # While a bot plays the seat, Alice is offered no move, and she is still shown at the table.
    away = [t for t in tables if t["seats"][0]["away"]]
    assert away and all(t["legal_moves"] == [] and t["seats"][0]["connected"] for t in away)
    await close(lobby)


async def test_a_seat_that_left_is_sent_no_moves_and_is_not_shown_online(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    match, _ = await lobby.create("usa", [HUMAN, HUMAN], {"days": 5, "first_seat": 1, "turn_limit": 2}, "Alice")
    await match.join("Bob")
    alice, bob = match.subscribe(0), match.subscribe(1)  # both tabs stay open
    bob_tables: list[dict[str, Any]] = []
    reader = asyncio.create_task(record_tables(bob, bob_tables))
    await until(lambda: bool(bob_tables))
    assert bob_tables[-1]["legal_moves"] == [] and bob_tables[-1]["current"] == 0  # Alice drafts first
    await match.leave(1)
    while match.status == "playing":  # Alice plays on; the bot plays Bob's old seat
        if match.state.current == 0:
            await match.submit(0, str(match.state.legal_moves()[0]), match.version)
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    reader.cancel()
    after = [t for t in bob_tables if t["seats"][1]["left"]]
    assert any(t["current"] == 1 and t["status"] == "playing" for t in after)  # his seat's turns came
    assert all(t["legal_moves"] == [] for t in after)
    assert all(not t["seats"][1]["connected"] for t in after)
    assert json.loads(match.state_message(alice).text)["game"]["seats"][1]["connected"] is False
    await close(lobby)


async def test_a_game_ended_early_offers_nothing(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    match, _ = await lobby.create("usa", [HUMAN, HUMAN], {"days": 5, "first_seat": 0}, "Alice")
    await match.join("Bob")
    on_turn = match.subscribe(match.state.current)
    assert json.loads(match.state_message(on_turn).text)["game"]["legal_moves"]
    await match.end("closed", N_("the server's operator closed the game"))
    game = json.loads(match.state_message(on_turn).text)["game"]
    assert game["status"] == "over" and game["ended"] == "closed" and game["legal_moves"] == []
    await close(lobby)
