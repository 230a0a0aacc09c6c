"""The match master: the one authoritative copy of each game, as in boardgame.io's master.

A :class:`Match` holds the game (an engine :class:`~tendays.engine.Game`: the full state and its
moves), accepts a move only from the seat whose secret token the connection presented, at the
version the mover saw, and legal by the rules; stores it through the
:class:`~tendays.server.storage.journal.Journal` before anyone hears of it; and then sends every
subscriber its own ``view(state, seat)``. Bot seats, and people's seats while a bot stands in for
them, move here, on the server, through the engine's turn loop
(:func:`~tendays.engine.next_decision`). Nothing here touches sockets, so tests drive a match
directly.

A match owns its state and composes its helpers, each reading the match through a small interface
(a :class:`typing.Protocol` beside the helper):

- :class:`~tendays.server.matches.turns.Turns`: moves checked, stored, then told;
- :class:`~tendays.server.matches.joining.Joiner`: people taking free seats;
- :class:`~tendays.server.matches.fan_out.FanOut`: the connections, and the table each is sent;
- :class:`~tendays.server.matches.chat.Chat`: the table talk and the table's own notices;
- :class:`~tendays.server.matches.absence.Absence`: the clock's alarm, timeouts, people leaving and
  coming back;
- :class:`~tendays.server.matches.seat_bots.SeatBots`: the bots of bot seats and the stand-in for
  absent people;
- :class:`~tendays.server.matches.following.Follower`: what other server processes stored, when they
  share the database.
"""

from __future__ import annotations

import asyncio
import hmac
import math
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tendays import bots
from tendays.engine import (
    Edition,
    Game,
    GameRecord,
    Move,
    Options,
    Phase,
    State,
    load_edition,
    view,
)
from tendays.engine.i18n import gettext as _

from ..settings import MasterSettings
from ..storage.rows import MoveRow, StoredGame
from ..vocabulary import EndReason, MatchStatus, RejectionCode, SeatKind
from . import match_facts
from .absence import Absence
from .chat import Chat
from .fan_out import FanOut
from .following import Follower
from .joining import Joiner
from .messages import Outgoing, hint_message
from .notices import N_
from .seat_bots import SeatBots
from .seat_rows import seat_of_row, take_rows
from .seats import Rejected, Subscriber, hash_token
from .thinking import Thinker
from .timing import TurnClock
from .turns import Turns
from .wire import TableEncoder

if TYPE_CHECKING:
    from ..storage.journal import Journal

__all__ = ["Match"]


class Match:
    """One game and everyone at its table (see the module's text for its parts)."""

    def __init__(
        self, stored: StoredGame, journal: Journal, settings: MasterSettings, thinker: Thinker
    ) -> None:
        self.id = stored.id
        self.created: datetime = stored.created
        self.edition: Edition = load_edition(stored.edition)
        self.options: Options = stored.options
        self.seats = [seat_of_row(row) for row in stored.seats]
        self._journal = journal
        self._thinker = thinker
        encoder = TableEncoder(self.id, self.edition)
        # The game's seed is secret: never sent, never logged. A RecordError (a ValueError) says
        # which option or stored move does not replay.
        moves = tuple(Move.from_text(text) for text in stored.moves)
        record = GameRecord(self.edition.id, self.options, stored.seed, moves)
        self.game = Game.from_record(record, keep_states=False)
        # The table everyone has been told of. During a move it lags the
        # game until the move is stored.
        self._state: State = self.game.state
        self._version = self.game.move_count
        self.clock = (
            None
            if stored.pace is None
            else TurnClock(
                stored.pace,
                len(self.seats),
                [s.bank for s in stored.seats],
                stored.deadline,
                stored.turn_started,
            )
        )
        # "abandoned" or "closed" when the game ended before it was played out
        self.ended = stored.ended
        self.rematch = stored.rematch
        self.rated = stored.rated  # only signed-in people sit at it; leaving or going away loses it
        # what the result did to ratings, once decided (people/rated_rules.py's RatedOutcome)
        self.rated_outcome = stored.rated_outcome
        self.last_move_at = stored.last_move_at or stored.created.timestamp()
        # What the game's row holds: its deadline and turn start, and when it last moved.
        self.stored_clock: tuple[float | None, float | None] = (
            stored.deadline,
            stored.turn_started,
        )
        self.stored_at = self.last_move_at
        # Requests to end are stored: those made through other processes,
        # or before a restart, count.
        self.end_votes = {s.seat for s in stored.seats if s.end_vote and not s.left}
        # held while a move (or a join, or news from other processes) is taken
        self.lock = asyncio.Lock()
        # the seat whose timed-out turn the stand-in bot is playing
        self.stand_in_turn: int | None = None
        # With other server processes (tendays.server.storage.cluster): whether this one runs the
        # bots and the clock, the lease epoch its moves are fenced with (None: no other process),
        # and (monotonic) until when the lease surely holds, as last renewed.
        self.driving = True
        self.epoch: int | None = None
        self.lease_until = math.inf
        # the lobby's hook to let go of a finished game
        self.on_over: Callable[[Match], None] | None = None
        # the lobby's hook told that the turn passed to a seat (from the mover, None at the start)
        self.on_turn: Callable[[Match, int, int | None], None] | None = None
        self._fan_out = FanOut(self, encoder)
        self.chat = Chat(self, stored.chat, journal, settings, encoder)
        self.absence = Absence(self, journal, settings, self.chat)
        self.bots = SeatBots(self, settings, thinker)
        self.follower = Follower(self, journal, self.chat)
        self._turns = Turns(self, journal, self.absence, self.follower)
        self._joiner = Joiner(self, journal, self._fan_out, self.absence, self.follower)

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
    def status(self) -> MatchStatus:
        # asked several times a move: plain loops, not generators
        if self.ended is not None or self._state.phase is Phase.OVER:
            return MatchStatus.OVER
        for seat in self.seats:
            if seat.token_hash is None and seat.kind != SeatKind.BOT:  # not seat.taken, inlined
                return MatchStatus.WAITING
        return MatchStatus.PLAYING

    @property
    def all_taken(self) -> bool:
        """Whether every seat has a bot or a person (a game starts once it has)."""
        return all(s.taken for s in self.seats)

    @property
    def record(self) -> GameRecord:
        """The full record, seed included: for the server and its tests, never for the wire."""
        names = tuple(s.display_name for s in self.seats)
        return GameRecord(
            self.edition.id, self.options, self.game.seed, self.game.moves[: self.version], names
        )

    @property
    def joinable(self) -> bool:
        """Whether a stranger may join from the lobby: waiting, with a free
        seat not kept for a rematch."""
        return self.status == MatchStatus.WAITING and any(
            not s.taken and not s.reserved for s in self.seats
        )

    @property
    def forfeit_winner(self) -> int | None:
        """The seat that won a forfeit (a rated game left to one person: theirs), else None."""
        return match_facts.forfeit_winner(self)

    def summary(self) -> dict[str, Any]:
        """The lobby's public summary of this game (:func:`~.match_facts.summary`)."""
        return match_facts.summary(self)

    def seat_for(self, token: str) -> int | None:
        """The seat this token opens, or None. Compares against every seat in constant time."""
        given = hash_token(token)
        found = None
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(given, seat.token_hash):
                found = seat.index
        return found

    def seat_of_account(self, account_id: int) -> int | None:
        """The seat the account took here (and has not left), or None."""
        return next(
            (s.index for s in self.seats if s.account_id == account_id and not s.left), None
        )

    def connected(self, seat: int) -> bool:
        """Whether someone is at the seat: always for a bot seat; for a person's, while a table of
        theirs is open here (away or not), and never after they left."""
        place = self.seats[seat]
        if place.kind == SeatKind.BOT:
            return True
        return not place.left and any(s.seat == seat for s in self.subscribers)

    def table_facts(self, now: float) -> dict[str, Any]:
        """The table's facts beside the view (:func:`~.match_facts.table_facts`)."""
        return match_facts.table_facts(self, now)

    # -- seats and moves ---------------------------------------------------------------------

    async def join(
        self,
        name: str,
        seat: int | None = None,
        account_id: int | None = None,
        bot_account: bool = False,
    ) -> tuple[int, str]:
        """Give a free human seat to ``name`` (the first one not kept for a rematch, or ``seat``,
        which may be kept), signed in to ``account_id`` or anonymous: returns (seat, token). Like a
        move, a join completes once begun. :class:`LobbyError` (409, 422) by the rules of
        :mod:`~tendays.server.matches.seating`, checked under the lock and kept by the database.
        ``bot_account``: the account is a bot account (its seat says so)."""
        return await self._joiner.join(name, seat, account_id, bot_account)

    async def submit(self, seat: int | None, move: Any, version: Any) -> None:
        """Play ``move`` (its text) for ``seat`` if the mover saw ``version``; raise
        :class:`Rejected` if not (:meth:`~tendays.server.matches.turns.Turns.submit`)."""
        await self._turns.submit(seat, move, version)

    async def play_in_turn(
        self, seat: int, move: Move, version: int, by_person: bool = False
    ) -> None:
        """Play ``move`` for ``seat`` on the table of ``version``: checked by the rules, stored,
        then told (:meth:`~tendays.server.matches.turns.Turns.play_in_turn`)."""
        await self._turns.play_in_turn(seat, move, version, by_person)

    def show_game(self) -> None:
        """The table everyone is told of catches up with the game (its moves are stored)."""
        self._state, self._version = self.game.state, self.game.move_count

    def wake_bots(self) -> None:
        """Start the bots' loop if a bot is to move and it is not running yet."""
        self.bots.wake()

    def arm_clock(self) -> None:
        """Wake up at the turn's deadline (again after a restart: the
        deadline is stored, not counted)."""
        self.absence.arm_clock()

    # -- people away, leaving, coming back, ending -------------------------------------------

    async def leave(self, seat: int) -> None:
        """The person at ``seat`` leaves the game: a bot plays the seat from now on."""
        await self.absence.leave(seat)

    async def come_back(self, seat: int) -> None:
        """The person at ``seat`` is back (they opened their seat
        link): the bot stops standing in."""
        await self.absence.come_back(seat)

    async def vote_end(self, seat: int) -> None:
        """A person asks to end the game after someone left; it ends once every person left has
        asked. The request is stored, so requests made through other server processes, or before a
        restart, count."""
        if self._journal.store.shared:
            async with self.lock:
                await self.follower.catch_up()  # the others' requests
        await self.absence.vote_end(seat)
        if self.status != MatchStatus.OVER and seat in self.end_votes:
            await self._journal.run(self._journal.store.update_seat, self.id, seat, end_vote=True)

    async def offer_rematch(self, game_id: str, name: str) -> None:
        """Tell the table that ``name`` offers a rematch: game ``game_id``, with the same seats."""
        await self._journal.run(self._journal.store.set_rematch, self.id, game_id)
        self.rematch = game_id
        await self.chat.notice(
            N_("{name} offers a rematch: the same seats and options again"), name=name
        )
        self.publish()

    async def end(self, ended: EndReason, reason: str, **args: str | int) -> None:
        """End the game before it is played out (``ended``: "abandoned", "closed" or "forfeit": a
        rated game left to one person), saying why: ``reason`` is a msgid marked with
        :func:`~tendays.server.matches.notices.N_` (formatted with ``args``), told to each reader in
        their language."""
        async with self.lock:
            if self.status == MatchStatus.OVER:
                return
            now = time.time()
            await self._journal.run(self._journal.store.end_game, self.id, ended, now)
            self.ended = ended
            if self.clock is not None:
                self.clock.stop()
            self.absence.disarm()
        await self.chat.notice(reason, sentence=True, **args)
        self.publish()
        self.over()

    def over(self) -> None:
        """The game is over: the lobby lets go of it."""
        if self.on_over is not None:
            self.on_over(self)

    # -- chat --------------------------------------------------------------------------------

    async def say(self, seat: int | None, text: Any) -> None:
        """A line from ``seat``; raises :class:`Rejected` for a spectator,
        a bad line or too many lines."""
        await self.chat.say(seat, text)

    # -- other server processes --------------------------------------------------------------

    def drive(self, epoch: int | None) -> None:
        """This process drives the game from now on (``epoch``: its lease),
        or, with None, no longer does."""
        self.driving, self.epoch = epoch is not None, epoch
        if epoch is None:
            self.absence.disarm()
            self.bots.stop()
        else:
            self.absence.arm_clock()
            self.bots.wake()

    async def refresh(self, notices: Sequence[str] = ("",)) -> None:
        """Follow what other server processes stored, and tell the table. ``notices`` are what they
        said changed (:meth:`~tendays.server.matches.following.Follower.follow`)."""
        async with self.lock:
            changed = await self.follower.follow(notices)
        if not changed:
            return
        self.publish()
        self.absence.arm_clock()
        if self.status == MatchStatus.OVER:
            self.over()
        self.bots.wake()
        present = {seat.index for seat in self.seats if seat.present}
        if (
            self.driving
            and self.status == MatchStatus.PLAYING
            and self.end_votes
            and present <= self.end_votes
        ):
            # The last requests to end came through different processes at once: end it here.
            await self.absence.vote_end(min(self.end_votes))

    def take_move(self, row: MoveRow) -> None:
        """Another process stored ``row``, and the game has played it: take its clock and the
        mover's timeouts, and show the table (hold the lock)."""
        if self.clock is not None:
            self.clock.deadline, self.clock.turn_started = row.deadline, row.turn_started
            if row.bank is not None:
                self.clock.banks[row.seat] = row.bank
        if row.timeouts is not None:
            self.seats[row.seat].timeouts = row.timeouts
        self.show_game()
        self.stand_in_turn = None
        self.last_move_at = row.at
        self.stored_clock = (row.deadline, row.turn_started)

    def take_changes(self, stored: StoredGame) -> bool:
        """Other processes stored ``stored`` (the game has played its new moves): take its seats,
        clock, requests to end and ending (hold the lock). True if the
        table moved or its seats changed."""
        seats_changed = take_rows(self.seats, stored.seats)
        if self.clock is not None:
            self.clock = TurnClock(
                self.clock.pace,
                len(self.seats),
                [s.bank for s in stored.seats],
                stored.deadline,
                stored.turn_started,
            )
        moved = self.game.move_count != self._version
        if moved:
            self.show_game()
            self.stand_in_turn = None
        votes = {row.seat for row in stored.seats if row.end_vote and not row.left}
        seats_changed = seats_changed or votes != self.end_votes
        self.end_votes = votes
        self.ended, self.rematch = stored.ended, stored.rematch
        self.rated_outcome = stored.rated_outcome or self.rated_outcome
        self.last_move_at = stored.last_move_at or self.last_move_at
        self.stored_clock, self.stored_at = (
            (stored.deadline, stored.turn_started),
            self.last_move_at,
        )
        if seats_changed:
            self._fan_out.resync()  # the log's names may have changed
        return moved or seats_changed

    async def close(self) -> None:
        self.absence.close()
        await self.bots.close()

    # -- connections -------------------------------------------------------------------------

    @property
    def subscribers(self) -> list[Subscriber]:
        return self._fan_out.subscribers

    @property
    def watchers(self) -> int:
        return len(self._fan_out.subscribers)

    def state_message(self, subscriber: Subscriber) -> Outgoing:
        """The current table as the subscriber's seat (None: a spectator)
        may see it, from what it has."""
        return self._fan_out.state_message(subscriber)

    def subscribe(
        self, seat: int | None, reader: int | None = None, hidden: frozenset[int] = frozenset()
    ) -> Subscriber:
        """A new connection for ``seat`` (None: a spectator), signed in to the account ``reader``
        (None: anonymous), that reads no chat of the ``hidden`` accounts; it gets the table at
        once."""
        subscriber = Subscriber(seat, reader=reader, hidden=hidden)
        self._fan_out.subscribe(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        self._fan_out.unsubscribe(subscriber)

    def hide_chat(self, reader: int, hidden: frozenset[int]) -> None:
        """The connections signed in to the account ``reader`` read no chat of the ``hidden``
        accounts from now on, nor the lines already written (they are sent the table again)."""
        self._fan_out.hide_chat(reader, hidden)

    def publish(self) -> None:
        """Send every subscriber its own view of the current table, with what it has not had yet
        (:meth:`~tendays.server.matches.fan_out.FanOut.publish`)."""
        self._fan_out.publish()

    # -- hints -------------------------------------------------------------------------------

    async def hint(self, seat: int | None) -> Outgoing:
        """The ``hint`` message for ``seat``: how far its rack is from a
        complete journey, and where."""
        if seat is None:
            raise Rejected(RejectionCode.FORBIDDEN, _("spectators have no rack to hint at"))
        seen = view(self.state, seat)
        advice = await self._thinker.run(bots.hint, seen)
        return hint_message(advice.distance, advice.days, advice.message)
