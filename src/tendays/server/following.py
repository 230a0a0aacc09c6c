"""What a match does when other server processes share its database (PostgreSQL).

Every process that holds a table connection holds the match, but only the one with the game's lease
*drives* it: its bots move and its clock runs there (see :mod:`tendays.server.cluster`). The others follow
what is stored: a move another process stored arrives as a notice and is played as told; anything else
(seats, chat, the clock, an ending) is read from the database. Alone on its database (SQLite) a process
drives every game, and nothing here changes what it does.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .absence import Absence
from .settings import MasterSettings
from .store import MoveConflict, MoveRow, StoredGame
from .thinking import Thinker
from .timing import TurnClock

if TYPE_CHECKING:
    from .journal import Journal

__all__ = ["Following"]

log = logging.getLogger("tendays.server")


class Following(Absence):
    """A match's part in a game shared by several server processes: driving it, or following it."""

    driving = True  # this process runs the bots and the clock
    epoch: int | None = None  # the lease epoch its moves are fenced with (None: no other process)
    lease_until = math.inf  # (monotonic) until when the lease surely holds, as last renewed

    def __init__(self, stored: StoredGame, journal: Journal, settings: MasterSettings, thinker: Thinker) -> None:
        super().__init__(stored, journal, settings, thinker)
        # Requests to end are stored: those made through other processes, or before a restart, count.
        self.end_votes = {s.seat for s in stored.seats if s.end_vote and not s.left}

    def drive(self, epoch: int | None) -> None:
        """This process drives the game from now on (``epoch``: its lease), or, with None, no longer does."""
        self.driving, self.epoch = epoch is not None, epoch
        if epoch is None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._bot_task is not None:
                self._bot_task.cancel()
        else:
            self._arm_clock()
            self.wake_bots()

    def _bot_to_move(self) -> bool:
        return self.driving and super()._bot_to_move()

    def _arm_clock(self) -> None:
        if self.driving:
            super()._arm_clock()
        elif self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def _time_out(self) -> None:
        """A turn's time ran out: play it only while the lease surely holds. A process that was paused past
        its lease must not write a timeout the new owner never decided; it looks again in a second."""
        if not self.driving:
            return
        if time.monotonic() > self.lease_until:
            self._timer = asyncio.get_running_loop().call_later(1.0, self._on_deadline)
            return
        await super()._time_out()

    async def _conflict(self, error: MoveConflict) -> None:
        """A move of ours was refused by the database: another process moved first, or drives the game now."""
        if error.lease_lost and self.driving:
            log.warning("game %s: a move was refused because another server process drives the game now: %s",
                        self.id, error)
            self.drive(None)
        await self._catch_up()

    async def refresh(self, notices: Sequence[str] = ("",)) -> None:
        """Follow what other server processes stored, and tell the table. ``notices`` are what they said
        changed: a move (:meth:`MoveRow.notice`) is applied as told; anything else is read from the database."""
        changed = False
        async with self._lock:
            for notice in notices:
                applied = self._apply_notice(notice)
                if applied is None:  # not a move, or not the next one: read everything new
                    applied = await self._catch_up()
                changed = applied or changed
        if changed:
            self._publish()
            self._arm_clock()
            if self.status == "over":
                self._over()
            self.wake_bots()
            present = {seat.index for seat in self.seats if seat.present}
            if self.driving and self.status == "playing" and self.end_votes and present <= self.end_votes:
                # The last requests to end came through different processes at once: end it here.
                await super().vote_end(min(self.end_votes))

    def _apply_notice(self, notice: str) -> bool | None:
        """Play a move another process stored, as its notice tells (hold the lock): True if played, False if
        already known, None if the notice is not the next move (read the database instead)."""
        try:
            row = MoveRow.from_notice(self.id, notice)
        except ValueError:
            return None
        if row.number <= self.game.move_count:
            return False
        if row.number != self.game.move_count + 1:
            return None
        try:
            self.game.play(row.move)
        except ValueError:
            return None
        if self.clock is not None:
            self.clock.deadline, self.clock.turn_started = row.deadline, row.turn_started
            if row.bank is not None:
                self.clock.banks[row.seat] = row.bank
        if row.timeouts is not None:
            self.seats[row.seat].timeouts = row.timeouts
        self._state, self._version = self.game.state, self.game.move_count
        self._stand_in_turn = None
        self.last_move_at = row.at
        self._stored_clock = (row.deadline, row.turn_started)
        return True

    async def _catch_up(self) -> bool:
        """Apply the stored moves, seats, clock, chat and ending this match has not seen (hold the lock)."""
        store = self._journal.store
        stored = await self._journal.run(store.load_changes, self.id, self.game.move_count, self._chat_next - 1)
        if stored is None:
            return False
        for text in stored.moves:
            self.game.play(text)
        before = [(s.name, s.token_hash, s.kind, s.away, s.left, s.reserved, s.timeouts) for s in self.seats]
        for seat, row in zip(self.seats, stored.seats, strict=False):
            seat.kind, seat.bot, seat.name, seat.token_hash = row.kind, row.bot, row.name, row.token_hash
            seat.timeouts, seat.away, seat.left, seat.reserved = row.timeouts, row.away, row.left, row.reserved
        seats_changed = before != [(s.name, s.token_hash, s.kind, s.away, s.left, s.reserved, s.timeouts)
                                   for s in self.seats]
        self._all_taken = all(s.taken for s in self.seats)
        if self.clock is not None:
            self.clock = TurnClock(self.clock.pace, len(self.seats), [s.bank for s in stored.seats],
                                   stored.deadline, stored.turn_started)
        moved = self.game.move_count != self._version
        if moved:
            self._state, self._version = self.game.state, self.game.move_count
            self._stand_in_turn = None
        for line in stored.chat:
            self._encoder.add_chat(self._line(line))
            self._chat_next = line.number + 1
        votes = {row.seat for row in stored.seats if row.end_vote and not row.left}
        seats_changed = seats_changed or votes != self.end_votes
        self.end_votes = votes
        self.ended, self.rematch = stored.ended, stored.rematch
        self.last_move_at = stored.last_move_at or self.last_move_at
        self._stored_clock, self._stored_at = (stored.deadline, stored.turn_started), self.last_move_at
        if seats_changed:
            for subscriber in self._subscribers:
                subscriber.resync()  # the log's names may have changed
        return moved or seats_changed or bool(stored.chat) or stored.finished

    async def vote_end(self, seat: int) -> None:
        """Ask to end the game. The request is stored, so requests made through other server processes, or
        before a restart, count together."""
        if self._journal.store.shared:
            async with self._lock:
                await self._catch_up()  # the others' requests
        await super().vote_end(seat)
        if self.status != "over" and seat in self.end_votes:
            await self._journal.run(self._journal.store.update_seat, self.id, seat, end_vote=True)

    async def _add(self, seat: int | None, kind: str, text: str) -> None:
        try:
            await super()._add(seat, kind, text)
        except MoveConflict:  # another process wrote a line of this number first: read its lines, write after
            stored = await self._journal.run(self._journal.store.load_changes, self.id, self.game.move_count,
                                             self._chat_next - 2)
            for line in stored.chat if stored is not None else ():
                self._encoder.add_chat(self._line(line))
                self._chat_next = line.number + 1
            await super()._add(seat, kind, text)
