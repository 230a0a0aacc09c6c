"""Turns: a move is checked, stored, and only then told (boardgame.io's master does the same).

:class:`Turns` takes the moves of one match: a person's (:meth:`Turns.submit`: from the seat the
connection's token opened, at the version they saw) and a bot's (:meth:`Turns.play_in_turn`, fenced
by this process's lease). The engine checks the move; the journal stores it with the clock; the
table everyone is told of follows once it is stored. A move that cannot be stored is taken back, so
the game and its stored record never part. It reads and moves its match through :class:`TurnTable`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from tendays.engine import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    OutOfTurnError,
    Phase,
)
from tendays.engine.i18n import gettext as _

from ..storage.rows import MoveConflict, MoveRow
from ..vocabulary import MatchStatus, RejectionCode
from .absence import Absence
from .following import Follower
from .seats import Rejected, SeatedTable
from .timing import ClockReading, TurnClock

if TYPE_CHECKING:
    from ..storage.journal import Journal

__all__ = ["TurnTable", "Turns", "stale"]

log = logging.getLogger("tendays.server")

# The longest text a move may have (the longest real one is far shorter).
MOVE_LENGTH = 64


def stale() -> Rejected:
    """The answer to a move made on a table that has changed since (here, or in another process)."""
    return Rejected(
        RejectionCode.STALE,
        _(
            "someone moved while you were choosing: the table is up to date "
            "again, so look and choose again"
        ),
    )


class TurnTable(SeatedTable, Protocol):
    """What :class:`Turns` reads of its match, and what it asks the match to do."""

    id: str
    game: Game
    lock: asyncio.Lock
    clock: TurnClock | None
    epoch: int | None
    last_move_at: float
    # what the game's row holds: its deadline and turn start, and when it last moved
    stored_clock: tuple[float | None, float | None]
    stored_at: float
    on_turn: Callable[[Any, int, int | None], None] | None

    def show_game(self) -> None: ...
    def publish(self) -> None: ...
    def over(self) -> None: ...
    def wake_bots(self) -> None: ...


class Turns:
    """Checks, stores and tells the moves of one match."""

    def __init__(
        self, table: TurnTable, journal: Journal, absence: Absence, follower: Follower
    ) -> None:
        self._table = table
        self._journal = journal
        self._absence = absence
        self._follower = follower

    async def submit(self, seat: int | None, move: Any, version: Any) -> None:
        """Play ``move`` (its text) for ``seat`` if the mover saw ``version``; raise
        :class:`Rejected` if not.

        The move is stored before anyone hears of it. Once storing has begun it completes even if
        the caller goes away, so the game and its stored record never part.
        """
        if seat is None:
            raise Rejected(
                RejectionCode.FORBIDDEN,
                _("spectators cannot move; join the game or open your seat link"),
            )
        if not isinstance(move, str) or len(move) > MOVE_LENGTH:
            raise Rejected(
                RejectionCode.MALFORMED,
                _("a move is a text in the game's notation, such as 'replace 4 2'"),
            )
        if not isinstance(version, int) or isinstance(version, bool):
            raise Rejected(
                RejectionCode.MALFORMED, _("a move needs the version of the table it was made on")
            )
        try:
            parsed = Move.from_text(move)
        except InvalidMoveError as error:
            raise Rejected(RejectionCode.MALFORMED, str(error)) from None
        place, table = self._table.seats[seat], self._table
        if place.left:
            raise Rejected(
                RejectionCode.FORBIDDEN, _("you left this game; a bot plays your seat now")
            )
        if place.away and table.status == MatchStatus.PLAYING:
            raise Rejected(
                RejectionCode.FORBIDDEN,
                _("a bot plays your seat while you are away; take your seat back to play again"),
            )
        await asyncio.shield(self.play_in_turn(seat, parsed, version, by_person=True))

    def _check_turn(self, version: int) -> None:
        """Refuse a move on a table that is not being played, or has changed since."""
        table = self._table
        status = table.status
        if status == MatchStatus.WAITING:
            raise Rejected(
                RejectionCode.ILLEGAL,
                _("the game has not started: it waits for every seat to be taken"),
            )
        if status == MatchStatus.OVER and not table.state.is_over:
            raise Rejected(
                RejectionCode.ILLEGAL,
                _("the game is over: it was ended before it was played out"),
            )
        if version != table.version:
            raise stale()

    async def play_in_turn(
        self, seat: int, move: Move, version: int, by_person: bool = False
    ) -> None:
        """Play ``move`` for ``seat`` on the table of ``version``: checked by the rules, stored,
        then told. A person's move (``by_person``) resets the seat's timeouts; a bot's is fenced by
        this process's lease."""
        table = self._table
        async with table.lock:
            self._check_turn(version)
            mover = table.state.current
            # the person's first move after the draft (the abort rule counts it, not a bot's)
            first_after_draft = (
                by_person
                and table.state.phase is not Phase.DRAFT
                and not table.seats[seat].moved_after_draft
            )
            try:
                state = table.game.play(move, seat)
            except OutOfTurnError:
                name = table.seats[mover].shown_name
                raise Rejected(
                    RejectionCode.OUT_OF_TURN, _("it is {name}'s turn, not yours").format(name=name)
                ) from None
            except IllegalMoveError as error:
                raise Rejected(RejectionCode.ILLEGAL, str(error)) from None
            # The game holds the move now; the table (``table.state``)
            # follows once the move is stored.
            now = time.time()
            clock = table.clock
            saved = None if clock is None else clock.reading()
            timeouts = table.seats[seat].timeouts
            if by_person:
                table.seats[seat].timeouts = 0
            if clock is not None:
                clock.passed(mover, state, now)
            clock_row = self._clock_row(seat, saved, timeouts)
            # The game's row changes when the deadline or whose turn it is does; when it last
            # moved is kept to the minute.
            passed = not state.is_over and state.current != mover
            touch = (
                state.is_over
                or passed
                or clock_row[:2] != table.stored_clock
                or now - table.stored_at >= 60
            )
            row = MoveRow(
                table.id,
                table.game.move_count,
                seat,
                str(move),
                state.is_over,
                now,
                *clock_row,
                touch,
                # the driver's own moves are fenced
                epoch=None if by_person else table.epoch,
                first_after_draft=first_after_draft,
                to_move=None if state.is_over else state.current,
            )
            await self._store(row, saved, timeouts)
            table.show_game()
            table.last_move_at = now
            if first_after_draft:
                table.seats[seat].moved_after_draft = True
            if touch:
                table.stored_clock, table.stored_at = clock_row[:2], now
            await self._absence.turn_played(state, by_person)
            table.publish()
            self._absence.arm_clock()
            if state.is_over:
                table.over()
            elif passed and table.on_turn is not None:
                table.on_turn(table, state.current, mover)
        table.wake_bots()

    async def _store(self, row: MoveRow, saved: ClockReading | None, timeouts: int) -> None:
        """Store the move of ``row``; if it cannot be, take it back (the clock as ``saved``, the
        mover's ``timeouts``) and refuse it: nobody has heard of it."""
        table = self._table
        try:
            await self._journal.append_move(row)
        except Exception as error:
            table.game.undo()  # nobody has heard of the move, so it was never played
            if table.clock is not None and saved is not None:
                table.clock.restore(saved)
            table.seats[row.seat].timeouts = timeouts
            # another process stored this move's number, or drives now
            if isinstance(error, MoveConflict):
                await self._follower.conflict(error)
                raise stale() from None
            log.exception("game %s: could not store move %d", table.id, row.number)
            raise Rejected(
                RejectionCode.UNAVAILABLE,
                _("the move could not be saved, so it was not played; try again"),
            ) from None

    def _clock_row(
        self, seat: int, saved: ClockReading | None, timeouts: int
    ) -> tuple[float | None, float | None, float | None, int | None]:
        """(deadline, turn started, the mover's bank, the mover's timeouts) to store with a move;
        the last two only when either changed since ``saved`` and ``timeouts``
        (so most moves write no seat)."""
        c, place = self._table.clock, self._table.seats[seat]
        bank = None if c is None else c.banks[seat]
        changed = place.timeouts != timeouts or (saved is not None and bank != saved[0][seat])
        deadline, started = (None, None) if c is None else (c.deadline, c.turn_started)
        return deadline, started, bank if changed else None, place.timeouts if changed else None
