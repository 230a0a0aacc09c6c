"""Joining: a person takes a free seat of a match that waits for its players.

:class:`Joiner` gives a free human seat (the first one not kept for a rematch, or the kept one asked
for) to a name, signed in to an account or anonymous, with a new secret token. The rules of
:mod:`~tendays.server.matches.seating` (one seat per account, no look-alike names) are checked under
the match's lock and kept by the database, so two processes never give one seat twice. The join
that takes the last seat starts the game (and its clock). It reads and seats its match through
:class:`JoinTable`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from tendays.engine import State
from tendays.engine.i18n import gettext as _

from ..storage.rows import SeatRefused, SeatTaken
from ..vocabulary import MatchStatus, SeatKind
from .absence import Absence
from .fan_out import FanOut
from .following import Follower
from .seating import check_seat, refused, seat_skeleton
from .seats import LobbyError, Seat, hash_token, new_token
from .timing import TurnClock

if TYPE_CHECKING:
    from ..storage.journal import Journal

__all__ = ["JoinTable", "Joiner"]


class JoinTable(Protocol):
    """What :class:`Joiner` reads of its match, and what it asks the match to do."""

    id: str
    lock: asyncio.Lock
    clock: TurnClock | None
    last_move_at: float
    on_turn: Callable[[Any, int, int | None], None] | None

    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def state(self) -> State: ...
    @property
    def status(self) -> str: ...
    def wake_bots(self) -> None: ...


class Joiner:
    """Seats people at one match."""

    def __init__(
        self,
        table: JoinTable,
        journal: Journal,
        fan_out: FanOut,
        absence: Absence,
        follower: Follower,
    ) -> None:
        self._table = table
        self._journal = journal
        self._fan_out = fan_out
        self._absence = absence
        self._follower = follower

    async def join(
        self, name: str, wanted: int | None, account_id: int | None, bot_account: bool = False
    ) -> tuple[int, str]:
        """Give a free human seat to ``name`` (``wanted``, or the first one not kept): (seat,
        token). Like a move, a join completes once begun."""
        return await asyncio.shield(self._join(name, wanted, account_id, bot_account))

    async def _join(
        self, name: str, wanted: int | None, account_id: int | None, bot_account: bool
    ) -> tuple[int, str]:
        table = self._table
        async with table.lock:
            free = [
                s
                for s in table.seats
                if not s.taken and (s.index == wanted if wanted is not None else not s.reserved)
            ]
            check_seat(table.seats, name, account_id, free[0].index if free else None)
            if not free or table.status != MatchStatus.WAITING:
                raise LobbyError(409, _("every seat of this game is taken"))
            seat = free[0]
            token = new_token()
            token_hash = hash_token(token)
            now = time.time()
            starts = all(s.taken for s in table.seats if s is not seat)
            deadline = None
            if starts and table.clock is not None:
                table.clock.start(table.state.current, now)
                deadline = table.clock.deadline
            try:
                await self._journal.run(
                    self._journal.store.take_seat,
                    table.id,
                    seat.index,
                    name,
                    token_hash,
                    now,
                    deadline,
                    account_id,
                    seat_skeleton(SeatKind.HUMAN, name),
                )
            except Exception as error:
                if table.clock is not None and deadline is not None:
                    table.clock.stop()
                if isinstance(error, SeatTaken):  # through another server process: see who has it
                    await self._follower.catch_up()
                    raise LobbyError(409, _("every seat of this game is taken")) from None
                if isinstance(error, SeatRefused):  # the database's rules, through another process
                    await self._follower.catch_up()
                    raise refused(error, table.seats, name, account_id, seat.index) from None
                raise
            seat.name, seat.token_hash, seat.reserved, seat.account_id = (
                name,
                token_hash,
                False,
                account_id,
            )
            seat.bot_account = bot_account
            table.last_move_at = now
            self._fan_out.resync()  # the log's names may have changed
            self._fan_out.publish()
            self._absence.arm_clock()
            if starts and table.on_turn is not None:
                table.on_turn(table, table.state.current, None)
        table.wake_bots()
        return seat.index, token
