"""What a match does when other server processes share its database (PostgreSQL).

Every process that holds a table connection holds the match, but only the one with the game's lease
*drives* it: its bots move and its clock runs there (see :mod:`tendays.server.storage.cluster`). The
others follow what is stored: a move another process stored arrives as a notice and is played as
told; anything else (seats, chat, the clock, an ending) is read from the database. Alone on its
database (SQLite) a process drives every game, and nothing here changes what it does.

:class:`Follower` reads what changed for one match and hands it over through :class:`FollowedTable`;
the match itself decides what each change means for its table. Whether this process drives is the
match's ``driving`` (its bots and clock alarm look at it).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from tendays.engine import Game

from ..storage.rows import MoveConflict, MoveRow, StoredGame
from .chat import Chat

if TYPE_CHECKING:
    from ..storage.journal import Journal

__all__ = ["FollowedTable", "Follower"]

log = logging.getLogger("tendays.server")


class FollowedTable(Protocol):
    """What the follower reads of its match, and how it hands over what other processes stored."""

    id: str
    game: Game
    driving: bool

    def drive(self, epoch: int | None) -> None: ...
    def take_move(self, row: MoveRow) -> None: ...
    def take_changes(self, stored: StoredGame) -> bool: ...


class Follower:
    """Brings one match up to date with what other server processes stored."""

    def __init__(self, table: FollowedTable, journal: Journal, chat: Chat) -> None:
        self._table = table
        self._journal = journal
        self._chat = chat

    async def follow(self, notices: Sequence[str]) -> bool:
        """Take what other processes said changed (hold the match's lock): a move
        (:meth:`MoveRow.notice`) is applied as told; anything else is read from the database. True
        if the table changed."""
        changed = False
        for notice in notices:
            applied = self._apply_notice(notice)
            if applied is None:  # not a move, or not the next one: read everything new
                applied = await self.catch_up()
            changed = applied or changed
        return changed

    def _apply_notice(self, notice: str) -> bool | None:
        """Play a move another process stored, as its notice tells: True if played, False if already
        known, None if the notice is not the next move (read the database instead)."""
        table = self._table
        try:
            row = MoveRow.from_notice(table.id, notice)
        except ValueError:
            return None
        if row.number <= table.game.move_count:
            return False
        if row.number != table.game.move_count + 1:
            return None
        try:
            table.game.play(row.move)
        except ValueError:
            return None
        table.take_move(row)
        return True

    async def catch_up(self) -> bool:
        """Apply the stored moves, seats, clock, chat and ending this match
        has not seen (hold the lock)."""
        table, store = self._table, self._journal.store
        stored = await self._journal.run(
            store.load_changes, table.id, table.game.move_count, self._chat.known
        )
        if stored is None:
            return False
        for text in stored.moves:
            table.game.play(text)
        changed = table.take_changes(stored)
        self._chat.take(stored.chat)
        return changed or bool(stored.chat) or stored.finished

    async def conflict(self, error: MoveConflict) -> None:
        """A move of ours was refused by the database: another process moved
        first, or drives the game now."""
        table = self._table
        if error.lease_lost and table.driving:
            log.warning(
                "game %s: a move was refused because another server process drives the game now: "
                "%s",
                table.id,
                error,
            )
            table.drive(None)
        await self.catch_up()
