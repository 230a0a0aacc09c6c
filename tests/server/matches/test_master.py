"""The match master in-process, without sockets: storing before acknowledging, restoring, bots."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from pathlib import Path
from typing import Any

import pytest
from server_helpers import SEED, write_game_row
from server_helpers import close_lobby as close
from server_helpers import open_lobby as open_lobby_at
from sqlalchemy import select

from tendays.engine import RULES_VERSION, Game, GameRecord, Options, Phase
from tendays.server.matches.lobby import Lobby
from tendays.server.matches.master import Match
from tendays.server.matches.seat_bots import SeatBots
from tendays.server.matches.seats import LobbyError, Rejected
from tendays.server.storage.schema import GameTable


def open_lobby(path: Path, **changes: Any) -> Lobby:
    return open_lobby_at(f"sqlite:///{path / 'games.db'}", **changes)


async def wait_for(match: Match, version: int) -> None:
    for _ in range(3000):  # up to half a minute
        if match.version >= version:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the game stayed at version {match.version}")


async def test_moves_are_stored_before_anyone_hears_of_them(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    match, _ = await lobby.create("usa", [("human", None), ("human", None)], {}, "Alice")
    await match.join("Bob")
    watcher = match.subscribe(None)
    watcher.drain()
    stored_when_sent: list[int] = []
    original = lobby.journal.store.append_moves

    def append_and_note(rows: Any) -> None:
        original(rows)
        stored_when_sent.append(len(watcher.drain()))  # nothing was sent while the move was being stored

    lobby.journal.store.append_moves = append_and_note  # type: ignore[method-assign]
    await match.submit(0, "draft 3", 0)
    assert stored_when_sent == [0]
    assert watcher.pending() == 1 and match.version == 1
    stored = lobby.journal.store.load_game(match.id)
    assert stored is not None and stored.moves == ["draft 3"] and stored.seed == SEED
    await close(lobby)


async def test_a_move_that_cannot_be_stored_is_not_played(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    match, _ = await lobby.create("usa", [("human", None), ("human", None)], {}, "Alice")
    await match.join("Bob")
    before = match.state

    def broken(rows: Any) -> None:
        raise OSError("disk full")

    lobby.journal.store.append_moves = broken  # type: ignore[method-assign]
    with pytest.raises(Rejected) as rejected:
        await match.submit(0, "draft 3", 0)
    assert rejected.value.code == "unavailable" and "not played" in rejected.value.message
    assert match.version == 0 and match.state is before
    await close(lobby)


async def test_concurrent_moves_of_many_games_share_commits(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    matches = []
    for _ in range(8):
        match, _ = await lobby.create("usa", [("human", None), ("human", None)], {}, "Alice")
        await match.join("Bob")
        matches.append(match)
    batches: list[int] = []
    original = lobby.journal.store.append_moves

    def counting(rows: Any) -> None:
        batches.append(len(rows))
        original(rows)

    lobby.journal.store.append_moves = counting  # type: ignore[method-assign]
    await asyncio.gather(*(m.submit(0, "draft 1", 0) for m in matches))
    assert sum(batches) == 8 and len(batches) < 8  # group commit
    assert all(m.version == 1 for m in matches)
    # The same move sent twice at once: one is played, the other is stale.
    outcomes = await asyncio.gather(
        matches[0].submit(1, "draft 1", 1), matches[0].submit(1, "draft 2", 1), return_exceptions=True
    )
    assert outcomes[0] is None and isinstance(outcomes[1], Rejected) and outcomes[1].code == "stale"
    await close(lobby)


async def test_restart_rebuilds_every_unfinished_game_from_its_record(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    playing, alice = await lobby.create("usa", [("human", None), ("human", None)], {"days": 5}, "Alice")
    _, bob = await playing.join("Bob")
    waiting, _ = await lobby.create("germany", [("human", None), ("human", None)], {}, "Carol")
    finished, _ = await lobby.create("usa", [("human", None)], {"turn_limit": 1, "days": 5}, "Dan")
    for day in range(1, 6):
        await playing.submit(0, f"draft {day}", playing.version)
        await playing.submit(1, f"draft {day}", playing.version)
        await finished.submit(0, f"draft {day}", finished.version)
    await playing.submit(playing.state.current, "draw", playing.version)
    await finished.submit(0, "draw", finished.version)
    await finished.submit(0, "discard 1", finished.version)
    assert finished.status == "over"
    record = playing.record
    await close(lobby)

    again = open_lobby(tmp_path)
    assert set(again.matches) == {playing.id, waiting.id}  # finished games stay in the store only
    restored = again.matches[playing.id]
    assert restored.record == record and restored.state == record.replay()
    assert restored.seat_for(alice) == 0 and restored.seat_for(bob) == 1 and restored.seat_for("guess") is None
    assert [s.name for s in restored.seats] == ["Alice", "Bob"]
    assert again.matches[waiting.id].status == "waiting"
    loaded = await again.get(finished.id)
    assert loaded is not None and loaded.status == "over"
    await restored.submit(restored.state.current, "discard 2", restored.version)
    assert restored.version == len(record.moves) + 1
    await close(again)


async def test_bots_play_on_the_server_and_carry_on_after_a_restart(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path, bot_delay=60.0, draft_delay=60.0)
    match, _ = await lobby.create(
        "usa", [("human", None), ("bot", "easy"), ("bot", "normal")], {"turn_limit": 30}, "Alice"
    )
    await match.submit(0, "draft 1", 0)
    assert match.state.current == 1 and match.version == 1
    await close(lobby)  # the server stops while a bot is about to move...

    again = open_lobby(tmp_path)  # ...and on restart the bots carry on at once
    restored = again.matches[match.id]
    await wait_for(restored, 3)
    assert restored.state.current == 0
    for _ in range(20_000):
        if restored.status == "over":
            break
        if restored.state.current == 0:
            moves = restored.state.legal_moves()
            await restored.submit(0, str(moves[-1]), restored.version)
        else:
            await asyncio.sleep(0.001)
    assert restored.status == "over"
    # Bots decide with a seeded stream per decision: the same game replays from its record alone.
    record = restored.record
    assert GameRecord.loads(record.dumps()).replay() == restored.state
    await close(again)


async def test_lobby_refuses_with_reasons(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path, max_games=1)
    with pytest.raises(LobbyError, match="unknown bot level 'cmd:sh'"):
        await lobby.create("usa", [("human", None), ("bot", "cmd:sh")], {}, "Alice")
    with pytest.raises(LobbyError, match="1 to 4 players"):
        await lobby.create("usa", [("human", None)] * 5, {}, "Alice")
    await lobby.create("usa", [("human", None), ("human", None)], {}, "Alice")
    with pytest.raises(LobbyError) as full:
        await lobby.create("usa", [("human", None), ("human", None)], {}, "Alice")
    assert full.value.status == 503
    assert lobby.journal.store.load_unfinished()[0].options == Options(players=2)
    await close(lobby)


async def test_refused_options_are_the_engines(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    with pytest.raises(LobbyError, match="with 3 players a rack has at most 16 days") as too_long:
        await lobby.create("germany", [("human", None)] * 3, {"days": 17}, "Alice")
    assert too_long.value.status == 422
    with pytest.raises(LobbyError, match="the first player must be one of the 2 seats, not seat 3"):
        await lobby.create("usa", [("human", None)] * 2, {"first_seat": 2}, "Alice")
    assert lobby.matches == {}
    await close(lobby)


async def test_the_first_seat_begins_and_new_games_are_stored_with_their_rules(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path)
    match, _ = await lobby.create("usa", [("human", None), ("human", None)], {"days": 2, "first_seat": 1}, "Alice")
    await match.join("Bob")
    for move in ("draft 1", "draft 1", "draft 2", "draft 2"):
        await match.submit(match.state.current, move, match.version)
    assert match.state.phase is Phase.DRAW and match.state.current == 1
    with lobby.journal.store.engine.connect() as db:
        stored = json.loads(db.execute(select(GameTable.options)).scalar_one())
    assert stored == {
        "players": 2,
        "days": 2,
        "swap": False,
        "open_hands": False,
        "turn_limit": None,
        "first_seat": 1,
        "rules": RULES_VERSION,
    }
    await close(lobby)


def rules_1_game() -> tuple[Game, list[tuple[int, str]]]:
    """A game under rules 1, played past a reshuffle of the draw pile (where the rules versions differ),
    and its (seat, move) pairs."""
    game = Game("usa", Options(players=2, days=5, rules=1), SEED)
    rng = random.Random(1)
    played = []
    while game.state.reshuffles == 0 or game.move_count < 110:
        moves = game.state.legal_moves()
        move = next((m for m in moves if str(m) == "draw"), None) or rng.choice(moves)
        played.append((game.state.current, str(move)))
        game.play(move)
    assert not game.state.is_over
    return game, played


async def test_a_row_from_before_rules_versions_replays_under_rules_1(tmp_path: Path) -> None:
    game, played = rules_1_game()
    old_form = {"players": 2, "days": 5, "swap": False, "open_hands": False, "turn_limit": None}
    write_game_row(f"sqlite:///{tmp_path / 'games.db'}", "old", old_form, played)
    lobby = open_lobby(tmp_path)
    restored = lobby.matches["old"]
    assert restored.options == Options(players=2, days=5, rules=1)
    assert restored.state == game.state and restored.version == game.move_count
    under_rules_2 = GameRecord("usa", Options(players=2, days=5), SEED, game.moves)
    assert under_rules_2.replay() != game.state  # so the rules version read back is what made it the same game
    move = restored.state.legal_moves()[0]
    await restored.submit(restored.state.current, str(move), restored.version)
    game.play(move)
    await close(lobby)
    again = open_lobby(tmp_path)
    assert again.matches["old"].state == game.state  # and it goes on under rules 1 after another restart
    await close(again)


async def test_a_row_under_unknown_rules_is_refused_and_the_rest_is_served(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    write_game_row(
        url,
        "future",
        {
            "players": 2,
            "days": 10,
            "swap": False,
            "open_hands": False,
            "turn_limit": None,
            "first_seat": None,
            "rules": 99,
        },
    )
    write_game_row(url, "garbled", {"players": 2, "days": "ten"})
    write_game_row(url, "today", Options(players=2).to_json(), [(0, "draft 1")])
    with caplog.at_level(logging.ERROR, logger="tendays.server"):
        lobby = open_lobby(tmp_path)
    assert set(lobby.matches) == {"today"} and lobby.matches["today"].version == 1
    assert "game future cannot be played by this server, so it is not served" in caplog.text
    assert "rules version 99 is unknown to this version of tendays" in caplog.text
    assert (
        "game garbled cannot be read, so it is not served: its options: option 'days' must be a whole number"
        in caplog.text
    )
    with pytest.raises(LobbyError, match="rules version 99") as refused:
        await lobby.get("future")
    assert refused.value.status == 409 and "future" not in lobby.matches
    await lobby.matches["today"].submit(1, "draft 1", 1)
    await close(lobby)


async def test_bots_think_in_worker_processes(tmp_path: Path) -> None:
    lobby = open_lobby(tmp_path, bot_processes=1)
    match, _ = await lobby.create("germany", [("human", None), ("bot", "normal")], {"days": 5}, "Alice")
    await match.submit(0, "draft 1", 0)
    await wait_for(match, 2)
    assert match.state.current == 0 and match.state.racks[1].count(None) == 4
    await close(lobby)


async def test_a_bot_still_thinking_when_its_game_is_closed_plays_nothing_and_logs_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    thinking, answer = asyncio.Event(), asyncio.Event()
    think = SeatBots._move

    async def slow_move(self: SeatBots, decision: Any) -> Any:
        move = await think(self, decision)
        thinking.set()
        await answer.wait()  # the game is closed while the bot still thinks
        return move

    monkeypatch.setattr(SeatBots, "_move", slow_move)
    lobby = open_lobby(tmp_path, bot_delay=0.0, draft_delay=0.0)
    match, _ = await lobby.create("usa", [("human", None), ("bot", "normal")], {}, "Alice")
    await match.submit(0, "draft 1", 0)
    await asyncio.wait_for(thinking.wait(), 30)
    version = match.version
    with caplog.at_level(logging.WARNING, logger="tendays"):
        await match.end("closed", "closed by the operator")
        answer.set()
        await asyncio.sleep(0.2)
    assert match.status == "over" and match.version == version
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    await close(lobby)
