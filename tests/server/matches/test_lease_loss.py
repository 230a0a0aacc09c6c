"""A process that stops driving a game while its bot's move is being stored (its lease was taken over)
keeps its game as the database has it: the refused move is taken back, never left in memory to push the
next move's number past a gap."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from server_helpers import close_lobby, open_lobby

from tendays.server.storage.rows import MoveConflict, MoveRow


@pytest.mark.slow  # waits on a clock or a timeout
async def test_a_bot_move_refused_after_its_driver_stopped_is_taken_back(tmp_path: Path) -> None:
    lobby = open_lobby(f"sqlite:///{tmp_path / 't.db'}", bot_processes=0)
    storing, refuse = asyncio.Event(), asyncio.Event()
    stored = lobby.journal.append_move

    async def lease_lost_while_storing(row: MoveRow) -> None:
        if row.seat == 1:  # the bot's move: the lease is taken over while it is being stored
            storing.set()
            await refuse.wait()
            raise MoveConflict("driven by another server process now", lease_lost=True)
        await stored(row)

    lobby.journal.append_move = lease_lost_while_storing  # type: ignore[method-assign]
    try:
        match, _ = await lobby.create("usa", [("human", None), ("bot", "easy")], {}, "Alice")
        while match.state.current == 0:  # Alice's draft moves, until the bot's turn
            await match.submit(0, str(match.state.legal_moves()[0]), match.version)
        before = match.version
        await asyncio.wait_for(storing.wait(), 10)
        match.drive(None)  # as the lease renewal does when another process took the game
        refuse.set()
        for _ in range(100):
            await asyncio.sleep(0.01)
        assert match.game.move_count == match.version == before  # the refused move is not in the game
        assert match.state.current == 1  # still the bot's turn, as stored
    finally:
        await close_lobby(lobby)
