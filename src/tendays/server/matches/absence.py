"""The part of a match that copes with people who are not there: clocks, timeouts, bots standing in,
leaving, coming back, and ending a game nobody plays any more.

- The clock (:class:`~tendays.server.matches.timing.TurnClock`) gives each turn a deadline, stored
  with every move. When it passes, the seat's turn is played for it by the stand-in bot (the
  ``normal`` level) from that seat's view, and the table says so. After ``timeouts_to_bot`` such
  turns in a row the seat is handed to the bot for the rest of the game, until the person opens
  their seat link again. A person whose turns ran out while their table is open is away, not gone:
  they watch the bot play on and may take the seat back at any time. The table tells of a turn
  played on the clock once the bot has played it.
- A person may leave: a bot plays their seat, and the others may choose to end the game.
- A game in which no person is left (all have left, or are away with no table open) ends as
  abandoned.
- In a rated game, being away until a bot takes the seat is leaving it (for good: it counts as a
  loss), and a rated game with one person left ends at once in their favour ("forfeit").
- A seat a bot plays, and every seat of a game that is over, is offered no moves
  (:class:`~tendays.server.matches.wire.TableEncoder`).

:class:`Absence` does this for one match, reading and changing the match through
:class:`AbsentTable`; the bots themselves are :class:`~tendays.server.matches.seat_bots.SeatBots`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from tendays.engine import State
from tendays.engine.i18n import gettext as _

from ..settings import MasterSettings
from ..vocabulary import EndReason, MatchStatus, RejectionCode, SeatKind
from .chat import Chat
from .notices import N_
from .notices import mark_plural as ngettext  # a notice is translated for each reader
from .seats import Rejected, Seat
from .timing import TurnClock

if TYPE_CHECKING:
    from ..storage.journal import Journal

__all__ = ["Absence", "AbsentTable"]

log = logging.getLogger("tendays.server")


class AbsentTable(Protocol):
    """What :class:`Absence` reads of its match, and what it asks the match to do."""

    id: str
    clock: TurnClock | None
    end_votes: set[int]
    driving: bool
    lease_until: float
    stand_in_turn: int | None
    rated: bool

    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def state(self) -> State: ...
    @property
    def status(self) -> str: ...
    def connected(self, seat: int) -> bool: ...
    def publish(self) -> None: ...
    def wake_bots(self) -> None: ...
    async def end(self, ended: EndReason, reason: str, **args: str | int) -> None: ...


class Absence:
    """One match's clock alarm, timeouts, and people leaving and coming
    back (see the module's text)."""

    def __init__(
        self, table: AbsentTable, journal: Journal, settings: MasterSettings, chat: Chat
    ) -> None:
        self._table = table
        self._journal = journal
        self._settings = settings
        self._chat = chat
        self._timer: asyncio.TimerHandle | None = None
        self._armed_for: float | None = None  # the deadline the timer was set for by arm_clock
        self._closed = False

    def someone_there(self) -> bool:
        """Whether a person is still at the table: one playing their seat, or
        one away whose table is open."""
        table = self._table
        return any(
            s.present or (s.kind == SeatKind.HUMAN and s.away and table.connected(s.index))
            for s in table.seats
        )

    # -- the clock ---------------------------------------------------------------------------

    def arm_clock(self) -> None:
        """Wake up at the turn's deadline (again after a restart: the deadline is stored, not
        counted); only the process that drives the game keeps the alarm."""
        c, table = self._table.clock, self._table
        if (
            self._closed
            or not table.driving
            or c is None
            or c.deadline is None
            or table.status != MatchStatus.PLAYING
        ):
            self.disarm()
            return
        armed_for = self._armed_for
        if self._timer is not None and armed_for is not None and armed_for <= c.deadline:
            # The timer set for this deadline, or an earlier one, stays: a turn that passes moves
            # the deadline later, and a timer woken early looks again (_time_out) instead of
            # being cancelled and set again at every turn.
            return
        self.disarm()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(max(0.0, c.deadline - time.time()), self._on_deadline)
        self._armed_for = c.deadline

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._armed_for = None

    def close(self) -> None:
        self._closed = True
        self.disarm()

    def _on_deadline(self) -> None:
        self._timer, self._armed_for = None, None
        task = asyncio.create_task(self._time_out(), name=f"clock of game {self._table.id}")
        task.add_done_callback(_log_failure)

    async def _time_out(self) -> None:
        """The turn's time ran out: the stand-in bot plays it, and after too many, takes the seat.
        Only while the lease surely holds: a process that was paused past its lease must not write a
        timeout the new owner never decided; it looks again in a second."""
        table = self._table
        c = table.clock
        if (
            not table.driving
            or c is None
            or c.deadline is None
            or table.status != MatchStatus.PLAYING
        ):
            return
        if time.monotonic() > table.lease_until:
            self._timer = asyncio.get_running_loop().call_later(1.0, self._on_deadline)
            return
        # woken early (a timer of a restarted clock): wait again
        if time.time() < c.deadline - 0.05:
            self.arm_clock()
            return
        seat = table.seats[table.state.current]
        if seat.played_by_bot or table.stand_in_turn is not None:
            return  # a bot is already playing this turn
        seat.timeouts += 1
        table.stand_in_turn = seat.index
        seat.away = seat.timeouts >= self._settings.timeouts_to_bot
        # away in a rated game: the seat is left, and the game lost
        lost = seat.away and table.rated
        if lost:
            seat.away, seat.left = False, True
        await self._journal.run(
            self._journal.store.update_seat,
            table.id,
            seat.index,
            away=seat.away,
            timeouts=seat.timeouts,
            **({"left": True} if lost else {}),
        )
        if lost:
            await self._chat.notice(
                N_(
                    "{name} was away until a bot took the seat, which loses a rated game: a bot "
                    "plays the seat from now on"
                ),
                name=seat.display_name,
            )
            if await self.forfeit_if_alone():
                table.stand_in_turn = None
                return
        if (seat.away or lost) and await self.end_if_nobody_left():
            table.stand_in_turn = None
            return
        table.publish()
        # the table hears of the timeout with the turn the bot plays (turn_played)
        table.wake_bots()

    async def turn_played(self, state: State, by_person: bool) -> None:
        """A move led to ``state``: if it ended a turn that ran out, the stand-in is done, and when
        the stand-in played it the table hears of it with this move (stored; the
        caller publishes the table)."""
        table = self._table
        stand_in = table.stand_in_turn
        if stand_in is None or not (state.is_over or state.current != stand_in):
            return
        table.stand_in_turn = None
        if not by_person:
            await self._told_of_timeout(stand_in)

    async def _told_of_timeout(self, seat: int) -> None:
        """Say that the stand-in bot played the timed-out turn of ``seat``, and whether the bot
        keeps the seat."""
        place = self._table.seats[seat]
        name = place.display_name
        try:
            await self._chat.notice(
                N_("{name} ran out of time: the {bot} bot played the turn"),
                name=name,
                bot=self._settings.stand_in,
            )
            if place.away:
                await self._chat.notice(
                    ngettext(
                        "{name} missed {n} turn in a row: a bot plays the seat until "
                        "{name} opens the seat link again",
                        "{name} missed {n} turns in a row: a bot plays the seat until "
                        "{name} opens the seat link again",
                        place.timeouts,
                    ),
                    name=name,
                )
        except Exception:  # the move is stored and the game goes on; only the notice is lost
            log.exception(
                "game %s: could not store the notice of a turn played on the clock", self._table.id
            )

    # -- people leaving and coming back ------------------------------------------------------

    async def leave(self, seat: int) -> None:
        """The person at ``seat`` leaves the game: a bot plays the seat from now on."""
        table = self._table
        place = table.seats[seat]
        if place.left:
            raise Rejected(RejectionCode.FORBIDDEN, _("you have already left this game"))
        if table.status == MatchStatus.OVER:
            raise Rejected(RejectionCode.ILLEGAL, _("the game is over; there is nothing to leave"))
        place.left, place.away = True, False
        table.end_votes.discard(seat)
        await self._journal.run(
            self._journal.store.update_seat, table.id, seat, left=True, away=False
        )
        await self._chat.notice(
            N_("{name} left the game: a bot plays the seat from now on"), name=place.display_name
        )
        if not await self.forfeit_if_alone() and not await self.end_if_nobody_left():
            table.publish()
            table.wake_bots()

    async def come_back(self, seat: int) -> None:
        """The person at ``seat`` is back (they opened their seat
        link): the bot stops standing in."""
        table = self._table
        place = table.seats[seat]
        if not place.away or table.status == MatchStatus.OVER:
            return
        place.away, place.timeouts = False, 0
        await self._journal.run(
            self._journal.store.update_seat, table.id, seat, away=False, timeouts=0
        )
        await self._chat.notice(
            N_("{name} is back and plays the seat again"), name=place.display_name
        )
        table.publish()

    async def vote_end(self, seat: int) -> None:
        """A person asks to end the game after someone left; it ends once
        every person left has asked."""
        table = self._table
        if table.status != MatchStatus.PLAYING:
            raise Rejected(RejectionCode.ILLEGAL, _("only a game being played can be ended"))
        if not any(s.kind == SeatKind.HUMAN and (s.left or s.away) for s in table.seats):
            raise Rejected(
                RejectionCode.ILLEGAL,
                _(
                    "a game can be ended only after a player has left it; otherwise play on "
                    "or leave the game yourself"
                ),
            )
        table.end_votes.add(seat)
        present = {s.index for s in table.seats if s.present}
        if present <= table.end_votes:
            await table.end(EndReason.ABANDONED, N_("the players chose to end the game"))
        else:
            await self._chat.notice(
                N_("{name} would like to end the game"), name=table.seats[seat].display_name
            )
            table.publish()

    async def forfeit_if_alone(self) -> bool:
        """End a rated game at once when only one person is left in it (the others left, or were
        away until a bot took their seats): that person wins it."""
        table = self._table
        staying = [s for s in table.seats if s.kind == SeatKind.HUMAN and not s.left]
        if not table.rated or table.status != MatchStatus.PLAYING or len(staying) != 1:
            return False
        await table.end(
            EndReason.FORFEIT,
            N_("{name} is the only player left at this rated game, and wins it"),
            name=staying[0].display_name,
        )
        return True

    async def end_if_nobody_left(self) -> bool:
        if self.someone_there() or self._table.status == MatchStatus.OVER:
            return False
        await self._table.end(
            EndReason.ABANDONED, N_("nobody is left at the table: the game ends as abandoned")
        )
        return True


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a game's clock failed", exc_info=task.exception())
