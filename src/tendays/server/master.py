"""The match master: the one authoritative copy of each game, as in boardgame.io's master.

A :class:`Match` holds the game (an engine :class:`~tendays.engine.Game`: the full state and its
moves), accepts a move only from the seat whose secret token the connection presented, at the version
the mover saw, and legal by the rules; stores it through the :class:`~tendays.server.journal.Journal`
before anyone hears of it; and then sends every subscriber its own ``view(state, seat)``. Bot seats,
and people's seats while a bot stands in for them, move here, on the server, through the engine's turn
loop (:func:`~tendays.engine.next_decision`). What happens when people are absent (the clock, timeouts,
leaving, coming back, ending) is in :class:`~tendays.server.absence.Absence`, the table talk in
:mod:`tendays.server.chat`. Nothing here touches sockets, so tests drive a match directly.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import time
from typing import Any

from tendays import bots
from tendays.engine import (
    GameRecord,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    OutOfTurnError,
    PlayerView,
    State,
    view,
)
from tendays.engine.i18n import gettext as _

from .following import Following
from .seats import LobbyError, Rejected, Subscriber, hash_token, new_token
from .settings import MasterSettings
from .store import MoveConflict, MoveRow, SeatTaken
from .wire import Outgoing

__all__ = ["LobbyError", "MasterSettings", "Match", "Rejected", "Subscriber", "hash_token", "new_token"]

log = logging.getLogger("tendays.server")


class Match(Following):
    """One game and everyone at its table (with other server processes: see :class:`Following`)."""

    # -- public facts ------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The full, secret state of the table: for the server and its tests, never for the wire."""
        return self._state

    @property
    def version(self) -> int:
        """The number of moves played (and stored)."""
        return self._version

    @property
    def status(self) -> str:
        if self.state.is_over or self.ended is not None:
            return "over"
        return "playing" if self._all_taken else "waiting"

    @property
    def record(self) -> GameRecord:
        """The full record, seed included: for the server and its tests, never for the wire."""
        names = tuple(s.display_name for s in self.seats)
        return GameRecord(self.edition.id, self.options, self.game.seed, self.game.moves[: self.version], names)

    @property
    def joinable(self) -> bool:
        """Whether a stranger may join from the lobby: waiting, with a free seat not kept for a rematch."""
        return self.status == "waiting" and any(not s.taken and not s.reserved for s in self.seats)

    def summary(self) -> dict[str, Any]:
        """The lobby's public summary of this game; bots' names in the current language."""
        return {
            "id": self.id,
            "edition": self.edition.id,
            "status": self.status,
            "ended": self.ended,
            "seats": [{"seat": s.index, "kind": s.kind, "name": s.shown_name if s.kind == "bot" else s.name,
                       "bot": s.bot, "taken": s.taken,
                       "reserved": s.reserved and not s.taken, "left": s.left} for s in self.seats],
            "options": {"days": self.options.days, "swap": self.options.swap, "open_hands": self.options.open_hands,
                        "turn_limit": self.options.turn_limit},
            "pace": self.clock.pace.to_json() if self.clock else None,
            "created": self.created.isoformat(),
            "rematch": self.rematch,
        }

    def seat_for(self, token: str) -> int | None:
        """The seat this token opens, or None. Compares against every seat in constant time."""
        given = hash_token(token)
        found = None
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(given, seat.token_hash):
                found = seat.index
        return found

    # -- seats -------------------------------------------------------------------------------

    async def join(self, name: str, seat: int | None = None) -> tuple[int, str]:
        """Give a free human seat to ``name`` (the first one not kept for a rematch, or ``seat``, which may be
        kept): returns (seat, token). Like a move, a join completes once begun."""
        return await asyncio.shield(self._join(name, seat))

    async def _join(self, name: str, wanted: int | None) -> tuple[int, str]:
        async with self._lock:
            free = [s for s in self.seats if not s.taken and (s.index == wanted if wanted is not None
                                                              else not s.reserved)]
            if not free or self.status != "waiting":
                raise LobbyError(409, _("every seat of this game is taken"))
            seat = free[0]
            token = new_token()
            token_hash = hash_token(token)
            now = time.time()
            starts = all(s.taken for s in self.seats if s is not seat)
            deadline = None
            if starts and self.clock is not None:
                self.clock.start(self.state.current, now)
                deadline = self.clock.deadline
            try:
                await self._journal.run(self._journal.store.take_seat, self.id, seat.index, name, token_hash, now,
                                        deadline)
            except Exception as error:
                if self.clock is not None and deadline is not None:
                    self.clock.stop()
                if isinstance(error, SeatTaken):  # through another server process: see who has it
                    await self._catch_up()
                    raise LobbyError(409, _("every seat of this game is taken")) from None
                raise
            seat.name, seat.token_hash, seat.reserved = name, token_hash, False
            self._all_taken = all(s.taken for s in self.seats)
            self.last_move_at = now
            for subscriber in self._subscribers:
                subscriber.resync()  # the log's names may have changed
            self._publish()
            self._arm_clock()
        self.wake_bots()
        return seat.index, token

    # -- moves -------------------------------------------------------------------------------

    async def play(self, seat: int | None, move: Any, version: Any) -> None:
        """Play ``move`` (its text) for ``seat`` if the mover saw ``version``; raise :class:`Rejected` if not.

        The move is stored before anyone hears of it. Once storing has begun it completes even if
        the caller goes away, so the game and its stored record never part.
        """
        if seat is None:
            raise Rejected("forbidden", _("spectators cannot move; join the game or open your seat link"))
        if not isinstance(move, str) or len(move) > 64:
            raise Rejected("malformed", _("a move is a text in the game's notation, such as 'replace 4 2'"))
        if not isinstance(version, int) or isinstance(version, bool):
            raise Rejected("malformed", _("a move needs the version of the table it was made on"))
        try:
            parsed = Move.from_text(move)
        except InvalidMoveError as error:
            raise Rejected("malformed", str(error)) from None
        if self.seats[seat].left:
            raise Rejected("forbidden", _("you left this game; a bot plays your seat now"))
        if self.seats[seat].away and self.status == "playing":
            raise Rejected("forbidden", _("a bot plays your seat while you are away; take your seat back to "
                                          "play again"))
        await asyncio.shield(self._play_in_turn(seat, parsed, version, by_person=True))

    async def _play_in_turn(self, seat: int, move: Move, version: int, by_person: bool = False) -> None:
        async with self._lock:
            status = self.status
            if status == "waiting":
                raise Rejected("illegal", _("the game has not started: it waits for every seat to be taken"))
            if status == "over" and not self.state.is_over:
                raise Rejected("illegal", _("the game is over: it was ended before it was played out"))
            if version != self.version:
                raise Rejected("stale", _("someone moved while you were choosing: the table is up to date "
                                          "again, so look and choose again"))
            name = self.seats[self.state.current].shown_name
            mover = self.state.current
            try:
                state = self.game.play(move, seat)
            except OutOfTurnError:
                raise Rejected("out_of_turn", _("it is {name}'s turn, not yours").format(name=name)) from None
            except IllegalMoveError as error:
                raise Rejected("illegal", str(error)) from None
            # The game holds the move now; the table (``self.state``) follows once the move is stored.
            now = time.time()
            saved = self._clock_snapshot()
            timeouts = self.seats[seat].timeouts
            if by_person:
                self.seats[seat].timeouts = 0
            self._turn_passed(mover, state, now)
            clock_row = self._clock_row(seat, saved, timeouts)
            # The game's row changes when the deadline does; when it last moved is kept to the minute.
            touch = state.is_over or clock_row[:2] != self._stored_clock or now - self._stored_at >= 60
            row = MoveRow(self.id, self.game.move_count, seat, str(move), state.is_over, now, *clock_row, touch,
                          epoch=None if by_person else self.epoch)  # the driver's own moves are fenced
            try:
                await self._journal.append_move(row)
            except Exception as error:
                self.game.undo()  # nobody has heard of the move, so it was never played
                self._clock_restore(saved)
                self.seats[seat].timeouts = timeouts
                if isinstance(error, MoveConflict):  # another process stored this move's number, or drives now
                    await self._conflict(error)
                    raise Rejected("stale", _("someone moved while you were choosing: the table is up to date "
                                              "again, so look and choose again")) from None
                log.exception("game %s: could not store move %d", self.id, row.number)
                raise Rejected("unavailable", _("the move could not be saved, so it was not played; "
                                                "try again")) from None
            self._state, self._version = state, self.game.move_count
            self.last_move_at = now
            if touch:
                self._stored_clock, self._stored_at = clock_row[:2], now
            stand_in = self._stand_in_turn
            if stand_in is not None and (state.is_over or state.current != stand_in):
                self._stand_in_turn = None
                if not by_person:  # the bot played the turn that ran out: the table hears of it with this move
                    await self._told_of_timeout(stand_in)
            self._publish()
            self._arm_clock()
            if state.is_over:
                self._over()
        self.wake_bots()

    # -- connections -------------------------------------------------------------------------

    def state_message(self, subscriber: Subscriber) -> Outgoing:
        """The current table as the subscriber's seat (None: a spectator) may see it, from what it has."""
        seen = view(self.state, subscriber.seat)
        shared = self._encoder.shared(seen, self.version, self.status, self.seat_infos())
        return self._encoder.table(shared, seen, self.version, self.status, subscriber.log_known,
                                   subscriber.chat_known, self._extra(time.time()), subscriber.lang)

    def subscribe(self, seat: int | None) -> Subscriber:
        """A new connection for ``seat`` (None: a spectator); it gets the table at once."""
        subscriber = Subscriber(seat)
        was_connected = seat is not None and self.connected(seat)
        self._subscribers.append(subscriber)
        if seat is not None and not was_connected:
            self._publish()  # everyone sees the seat come online
        else:
            subscriber.put(self.state_message(subscriber))
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        if subscriber not in self._subscribers:
            return
        self._subscribers.remove(subscriber)
        if subscriber.seat is not None and not self.connected(subscriber.seat):
            self._publish()

    @property
    def watchers(self) -> int:
        return len(self._subscribers)

    def _publish(self) -> None:
        """Send every subscriber its own view of the current table, with what it has not had yet.

        Each seat's view is made once, whoever watches it; the additions all share come from any of them.
        """
        if not self._subscribers:
            return
        state, version, status = self.state, self.version, self.status
        views: dict[int | None, PlayerView] = {}
        for subscriber in self._subscribers:
            if subscriber.seat not in views:
                views[subscriber.seat] = view(state, subscriber.seat)
        shared = self._encoder.shared(next(iter(views.values())), version, status, self.seat_infos())
        extra = self._extra(time.time())
        messages: dict[tuple[int | None, str, int, int], Outgoing] = {}
        for subscriber in self._subscribers:
            key = (subscriber.seat, subscriber.lang, subscriber.log_known, subscriber.chat_known)
            message = messages.get(key)
            if message is None:
                message = messages[key] = self._encoder.table(shared, views[subscriber.seat], version, status,
                                                              subscriber.log_known, subscriber.chat_known, extra,
                                                              subscriber.lang)
            subscriber.put(message)

    # -- hints -------------------------------------------------------------------------------

    async def hint(self, seat: int | None) -> Outgoing:
        """The ``hint`` message for ``seat``: how far its rack is from a complete journey, and where."""
        if seat is None:
            raise Rejected("forbidden", _("spectators have no rack to hint at"))
        seen = view(self.state, seat)
        advice = await self._thinker.run(bots.hint, seen)
        return Outgoing.of({"type": "hint", "distance": advice.distance, "days": list(advice.days),
                            "message": advice.message})
