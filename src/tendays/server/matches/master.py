"""The match master: the one authoritative copy of each game, as in boardgame.io's master.

A :class:`Match` holds the game (an engine :class:`~tendays.engine.Game`: the full state and its
moves), accepts a move only from the seat whose secret token the connection presented, at the
version the mover saw, and legal by the rules; stores it through the
:class:`~tendays.server.storage.journal.Journal` before anyone hears of it; and then sends every
subscriber its own ``view(state, seat)``. Bot seats, and people's seats while a bot stands in for
them, move here, on the server, through the engine's turn loop
(:func:`~tendays.engine.next_decision`). Nothing here touches sockets, so tests drive a match
directly.

A match owns its state and composes four helpers, each reading the match through a small interface
(a :class:`typing.Protocol` beside the helper):

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
import logging
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
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Options,
    OutOfTurnError,
    Phase,
    PlayerView,
    State,
    load_edition,
    view,
)
from tendays.engine.i18n import gettext as _

from ..settings import MasterSettings
from ..storage.rows import MoveConflict, MoveRow, SeatRefused, SeatTaken, StoredGame
from .absence import Absence
from .chat import Chat
from .following import Follower
from .notices import N_
from .seat_bots import SeatBots
from .seating import check_seat, refused, seat_skeleton
from .seats import LobbyError, Rejected, Seat, Subscriber, hash_token, hidden_seats, new_token
from .thinking import Thinker
from .timing import ClockReading, TurnClock
from .wire import Outgoing, SeatInfo, TableEncoder, listed_name

if TYPE_CHECKING:
    from ..storage.journal import Journal

__all__ = [
    "LobbyError",
    "MasterSettings",
    "Match",
    "Rejected",
    "Subscriber",
    "hash_token",
    "new_token",
]

log = logging.getLogger("tendays.server")


def _stale() -> Rejected:
    """The answer to a move made on a table that has changed since (here, or in another process)."""
    return Rejected(
        "stale",
        _(
            "someone moved while you were choosing: the table is up to date "
            "again, so look and choose again"
        ),
    )


class Match:
    """One game and everyone at its table (see the module's text for its parts)."""

    def __init__(
        self, stored: StoredGame, journal: Journal, settings: MasterSettings, thinker: Thinker
    ) -> None:
        self.id = stored.id
        self.created: datetime = stored.created
        self.edition: Edition = load_edition(stored.edition)
        self.options: Options = stored.options
        self.seats = [
            Seat(
                s.seat,
                s.kind,
                s.bot,
                s.name,
                s.token_hash,
                s.timeouts,
                s.away,
                s.left,
                s.reserved,
                s.account_id,
                moved_after_draft=s.moved_after_draft,
                bot_account=s.bot_account,
            )
            for s in stored.seats
        ]
        self._journal = journal
        self._thinker = thinker
        self._encoder = TableEncoder(self.id, self.edition)
        try:
            # The game's seed is secret: never sent, never logged.
            self.game = Game(self.edition, self.options, stored.seed, keep_states=False)
        except ValueError as error:
            raise ValueError(f"its options cannot be played: {error}") from error
        for number, text in enumerate(stored.moves, 1):
            try:
                self.game.play(text)
            except ValueError as error:  # say which stored move no longer replays
                raise ValueError(
                    f"stored move {number} ({text}) does not replay: {error}"
                ) from error
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
        self._stored_clock: tuple[float | None, float | None] = (
            stored.deadline,
            stored.turn_started,
        )
        self._stored_at = self.last_move_at
        # Requests to end are stored: those made through other processes,
        # or before a restart, count.
        self.end_votes = {s.seat for s in stored.seats if s.end_vote and not s.left}
        self.subscribers: list[Subscriber] = []
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
        self.chat = Chat(self, stored.chat, journal, settings, self._encoder)
        self.absence = Absence(self, journal, settings, self.chat)
        self.bots = SeatBots(self, settings, thinker)
        self.follower = Follower(self, journal, self.chat)

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
        return "playing" if self.all_taken else "waiting"

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
        return self.status == "waiting" and any(not s.taken and not s.reserved for s in self.seats)

    @property
    def forfeit_winner(self) -> int | None:
        """The seat that won a forfeit (a rated game left to one person: theirs), else None."""
        if self.ended != "forfeit":
            return None
        staying = [s.index for s in self.seats if s.kind == "human" and not s.left]
        return staying[0] if len(staying) == 1 else None

    def forfeit_result(self) -> dict[str, Any]:
        """A forfeit's result as data: the winner's seat and each seat's place (1 the winner, 2 the
        others who left); nothing for any other game (its ``winner`` is the view's)."""
        winner = self.forfeit_winner
        if winner is None:
            return {}
        return {"winner": winner, "places": [1 if s.index == winner else 2 for s in self.seats]}

    def summary(self) -> dict[str, Any]:
        """The lobby's public summary of this game; bots' and deleted accounts'
        names in the current language."""
        return {
            "id": self.id,
            "edition": self.edition.id,
            "status": self.status,
            "ended": self.ended,
            "winner": None,
            "places": None,
            **self.forfeit_result(),
            "seats": [
                {
                    "seat": s.index,
                    "kind": s.kind,
                    "name": listed_name(s.index, s.kind, s.name, s.bot),
                    "bot": s.bot,
                    "taken": s.taken,
                    "reserved": s.reserved and not s.taken,
                    "left": s.left,
                    "account": s.account_id is not None,
                    "bot_account": s.bot_account,
                }
                for s in self.seats
            ],
            "options": {
                "days": self.options.days,
                "swap": self.options.swap,
                "open_hands": self.options.open_hands,
                "turn_limit": self.options.turn_limit,
            },
            "pace": self.clock.pace.to_json() if self.clock else None,
            "created": self.created.isoformat(),
            "rematch": self.rematch,
            "rated": self.rated,
            "rated_outcome": self.rated_outcome,
        }

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
        if place.kind == "bot":
            return True
        return not place.left and any(s.seat == seat for s in self.subscribers)

    def seat_infos(self) -> list[SeatInfo]:
        return [
            SeatInfo(
                s.index,
                s.kind,
                s.name,
                s.bot,
                self.connected(s.index),
                s.away,
                s.left,
                account=s.account_id is not None,
                bot_account=s.bot_account,
            )
            for s in self.seats
        ]

    def _extra(self, now: float) -> dict[str, Any]:
        """The table's facts beside the view: the clock (running only while the game is played), why
        it ended, the rematch offered, whether (and who asked) to end a game someone left, and
        whether it is rated."""
        playing = self.status == "playing"
        clock = None
        if self.clock is not None:
            clock = (
                self.clock.to_json(now)
                if playing
                else {**self.clock.pace.to_json(), "deadline": None}
            )
        gone = any(s.kind == "human" and (s.left or s.away) for s in self.seats)
        return {
            "clock": clock,
            "ended": self.ended,
            "rematch": self.rematch,
            "end_votes": sorted(self.end_votes),
            "can_end": playing and gone,
            "rated": self.rated,
            "rated_outcome": self.rated_outcome,
            **self.forfeit_result(),  # the view says no winner: the game was not played out
        }

    # -- seats -------------------------------------------------------------------------------

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
        return await asyncio.shield(self._join(name, seat, account_id, bot_account))

    async def _join(
        self, name: str, wanted: int | None, account_id: int | None, bot_account: bool = False
    ) -> tuple[int, str]:
        async with self.lock:
            free = [
                s
                for s in self.seats
                if not s.taken and (s.index == wanted if wanted is not None else not s.reserved)
            ]
            check_seat(self.seats, name, account_id, free[0].index if free else None)
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
                await self._journal.run(
                    self._journal.store.take_seat,
                    self.id,
                    seat.index,
                    name,
                    token_hash,
                    now,
                    deadline,
                    account_id,
                    seat_skeleton("human", name),
                )
            except Exception as error:
                if self.clock is not None and deadline is not None:
                    self.clock.stop()
                if isinstance(error, SeatTaken):  # through another server process: see who has it
                    await self.follower.catch_up()
                    raise LobbyError(409, _("every seat of this game is taken")) from None
                if isinstance(error, SeatRefused):  # the database's rules, through another process
                    await self.follower.catch_up()
                    raise refused(error, self.seats, name, account_id, seat.index) from None
                raise
            seat.name, seat.token_hash, seat.reserved, seat.account_id = (
                name,
                token_hash,
                False,
                account_id,
            )
            seat.bot_account = bot_account
            self.last_move_at = now
            for subscriber in self.subscribers:
                subscriber.resync()  # the log's names may have changed
            self.publish()
            self.absence.arm_clock()
            if starts and self.on_turn is not None:
                self.on_turn(self, self.state.current, None)
        self.wake_bots()
        return seat.index, token

    # -- moves -------------------------------------------------------------------------------

    async def submit(self, seat: int | None, move: Any, version: Any) -> None:
        """Play ``move`` (its text) for ``seat`` if the mover saw ``version``; raise
        :class:`Rejected` if not.

        The move is stored before anyone hears of it. Once storing has begun it completes even if
        the caller goes away, so the game and its stored record never part.
        """
        if seat is None:
            raise Rejected(
                "forbidden", _("spectators cannot move; join the game or open your seat link")
            )
        if not isinstance(move, str) or len(move) > 64:
            raise Rejected(
                "malformed", _("a move is a text in the game's notation, such as 'replace 4 2'")
            )
        if not isinstance(version, int) or isinstance(version, bool):
            raise Rejected("malformed", _("a move needs the version of the table it was made on"))
        try:
            parsed = Move.from_text(move)
        except InvalidMoveError as error:
            raise Rejected("malformed", str(error)) from None
        if self.seats[seat].left:
            raise Rejected("forbidden", _("you left this game; a bot plays your seat now"))
        if self.seats[seat].away and self.status == "playing":
            raise Rejected(
                "forbidden",
                _("a bot plays your seat while you are away; take your seat back to play again"),
            )
        await asyncio.shield(self.play_in_turn(seat, parsed, version, by_person=True))

    async def play_in_turn(
        self, seat: int, move: Move, version: int, by_person: bool = False
    ) -> None:
        """Play ``move`` for ``seat`` on the table of ``version``: checked by the rules, stored,
        then told. A person's move (``by_person``) resets the seat's timeouts; a bot's is fenced by
        this process's lease."""
        async with self.lock:
            status = self.status
            if status == "waiting":
                raise Rejected(
                    "illegal", _("the game has not started: it waits for every seat to be taken")
                )
            if status == "over" and not self.state.is_over:
                raise Rejected(
                    "illegal", _("the game is over: it was ended before it was played out")
                )
            if version != self.version:
                raise _stale()
            name = self.seats[self.state.current].shown_name
            mover = self.state.current
            # the person's first move after the draft (the abort rule counts it, not a bot's)
            first_after_draft = (
                by_person
                and self.state.phase is not Phase.DRAFT
                and not self.seats[seat].moved_after_draft
            )
            try:
                state = self.game.play(move, seat)
            except OutOfTurnError:
                raise Rejected(
                    "out_of_turn", _("it is {name}'s turn, not yours").format(name=name)
                ) from None
            except IllegalMoveError as error:
                raise Rejected("illegal", str(error)) from None
            # The game holds the move now; the table (``self.state``)
            # follows once the move is stored.
            now = time.time()
            saved = None if self.clock is None else self.clock.reading()
            timeouts = self.seats[seat].timeouts
            if by_person:
                self.seats[seat].timeouts = 0
            if self.clock is not None:
                self.clock.passed(mover, state, now)
            clock_row = self._clock_row(seat, saved, timeouts)
            # The game's row changes when the deadline or whose turn it is does; when it last
            # moved is kept to the minute.
            passed = not state.is_over and state.current != mover
            touch = (
                state.is_over
                or passed
                or clock_row[:2] != self._stored_clock
                or now - self._stored_at >= 60
            )
            row = MoveRow(
                self.id,
                self.game.move_count,
                seat,
                str(move),
                state.is_over,
                now,
                *clock_row,
                touch,
                # the driver's own moves are fenced
                epoch=None if by_person else self.epoch,
                first_after_draft=first_after_draft,
                to_move=None if state.is_over else state.current,
            )
            try:
                await self._journal.append_move(row)
            except Exception as error:
                self.game.undo()  # nobody has heard of the move, so it was never played
                if self.clock is not None and saved is not None:
                    self.clock.restore(saved)
                self.seats[seat].timeouts = timeouts
                # another process stored this move's number, or drives now
                if isinstance(error, MoveConflict):
                    await self.follower.conflict(error)
                    raise _stale() from None
                log.exception("game %s: could not store move %d", self.id, row.number)
                raise Rejected(
                    "unavailable", _("the move could not be saved, so it was not played; try again")
                ) from None
            self._state, self._version = state, self.game.move_count
            self.last_move_at = now
            if first_after_draft:
                self.seats[seat].moved_after_draft = True
            if touch:
                self._stored_clock, self._stored_at = clock_row[:2], now
            await self.absence.turn_played(state, by_person)
            self.publish()
            self.absence.arm_clock()
            if state.is_over:
                self._over()
            elif passed and self.on_turn is not None:
                self.on_turn(self, state.current, mover)
        self.wake_bots()

    def _clock_row(
        self, seat: int, saved: ClockReading | None, timeouts: int
    ) -> tuple[float | None, float | None, float | None, int | None]:
        """(deadline, turn started, the mover's bank, the mover's timeouts) to store with a move;
        the last two only when either changed since ``saved`` and ``timeouts``
        (so most moves write no seat)."""
        c, place = self.clock, self.seats[seat]
        bank = None if c is None else c.banks[seat]
        changed = place.timeouts != timeouts or (saved is not None and bank != saved[0][seat])
        deadline, started = (None, None) if c is None else (c.deadline, c.turn_started)
        return deadline, started, bank if changed else None, place.timeouts if changed else None

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
        if self.status != "over" and seat in self.end_votes:
            await self._journal.run(self._journal.store.update_seat, self.id, seat, end_vote=True)

    async def offer_rematch(self, game_id: str, name: str) -> None:
        """Tell the table that ``name`` offers a rematch: game ``game_id``, with the same seats."""
        await self._journal.run(self._journal.store.set_rematch, self.id, game_id)
        self.rematch = game_id
        await self.chat.notice(
            N_("{name} offers a rematch: the same seats and options again"), name=name
        )
        self.publish()

    async def end(self, ended: str, reason: str, **args: str | int) -> None:
        """End the game before it is played out (``ended``: "abandoned", "closed" or "forfeit": a
        rated game left to one person), saying why: ``reason`` is a msgid marked with
        :func:`~tendays.server.matches.notices.N_` (formatted with ``args``), told to each reader in
        their language."""
        async with self.lock:
            if self.status == "over":
                return
            now = time.time()
            await self._journal.run(self._journal.store.end_game, self.id, ended, now)
            self.ended = ended
            if self.clock is not None:
                self.clock.stop()
            self.absence.disarm()
        await self.chat.notice(reason, sentence=True, **args)
        self.publish()
        self._over()

    def _over(self) -> None:
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
        if self.status == "over":
            self._over()
        self.bots.wake()
        present = {seat.index for seat in self.seats if seat.present}
        if (
            self.driving
            and self.status == "playing"
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
        self._state, self._version = self.game.state, self.game.move_count
        self.stand_in_turn = None
        self.last_move_at = row.at
        self._stored_clock = (row.deadline, row.turn_started)

    def take_changes(self, stored: StoredGame) -> bool:
        """Other processes stored ``stored`` (the game has played its new moves): take its seats,
        clock, requests to end and ending (hold the lock). True if the
        table moved or its seats changed."""
        before = [
            (s.name, s.token_hash, s.kind, s.away, s.left, s.reserved, s.timeouts)
            for s in self.seats
        ]
        for seat, row in zip(self.seats, stored.seats, strict=False):
            seat.kind, seat.bot, seat.name, seat.token_hash = (
                row.kind,
                row.bot,
                row.name,
                row.token_hash,
            )
            seat.timeouts, seat.away, seat.left, seat.reserved = (
                row.timeouts,
                row.away,
                row.left,
                row.reserved,
            )
            seat.account_id, seat.bot_account = row.account_id, row.bot_account
            seat.moved_after_draft = seat.moved_after_draft or row.moved_after_draft
        seats_changed = before != [
            (s.name, s.token_hash, s.kind, s.away, s.left, s.reserved, s.timeouts)
            for s in self.seats
        ]
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
            self._state, self._version = self.game.state, self.game.move_count
            self.stand_in_turn = None
        votes = {row.seat for row in stored.seats if row.end_vote and not row.left}
        seats_changed = seats_changed or votes != self.end_votes
        self.end_votes = votes
        self.ended, self.rematch = stored.ended, stored.rematch
        self.rated_outcome = stored.rated_outcome or self.rated_outcome
        self.last_move_at = stored.last_move_at or self.last_move_at
        self._stored_clock, self._stored_at = (
            (stored.deadline, stored.turn_started),
            self.last_move_at,
        )
        if seats_changed:
            for subscriber in self.subscribers:
                subscriber.resync()  # the log's names may have changed
        return moved or seats_changed

    async def close(self) -> None:
        self.absence.close()
        await self.bots.close()

    # -- connections -------------------------------------------------------------------------

    def state_message(self, subscriber: Subscriber) -> Outgoing:
        """The current table as the subscriber's seat (None: a spectator)
        may see it, from what it has."""
        seen = view(self.state, subscriber.seat)
        shared = self._encoder.shared(seen, self.version, self.status, self.seat_infos())
        return self._encoder.table(
            shared,
            seen,
            self.version,
            self.status,
            subscriber.log_known,
            subscriber.chat_known,
            self._extra(time.time()),
            subscriber.lang,
            hidden_seats(self.seats, subscriber),
        )

    def subscribe(
        self, seat: int | None, reader: int | None = None, hidden: frozenset[int] = frozenset()
    ) -> Subscriber:
        """A new connection for ``seat`` (None: a spectator), signed in to the account ``reader``
        (None: anonymous), that reads no chat of the ``hidden`` accounts; it gets the table at
        once."""
        subscriber = Subscriber(seat, reader=reader, hidden=hidden)
        was_connected = seat is not None and self.connected(seat)
        self.subscribers.append(subscriber)
        if seat is not None and not was_connected:
            self.publish()  # everyone sees the seat come online
        else:
            subscriber.put(self.state_message(subscriber))
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        if subscriber not in self.subscribers:
            return
        self.subscribers.remove(subscriber)
        if subscriber.seat is not None and not self.connected(subscriber.seat):
            self.publish()

    def hide_chat(self, reader: int, hidden: frozenset[int]) -> None:
        """The connections signed in to the account ``reader`` read no chat of the ``hidden``
        accounts from now on, nor the lines already written (they are sent the table again)."""
        readers = [s for s in self.subscribers if s.reader == reader]
        for subscriber in readers:
            subscriber.hidden = hidden
            subscriber.resync()
        if readers:
            self.publish()

    @property
    def watchers(self) -> int:
        return len(self.subscribers)

    def publish(self) -> None:
        """Send every subscriber its own view of the current table, with what it has not had yet.

        Each seat's view is made once, whoever watches it; the additions all share come from any of
        them.
        """
        if not self.subscribers:
            return
        state, version, status = self.state, self.version, self.status
        views: dict[int | None, PlayerView] = {}
        for subscriber in self.subscribers:
            if subscriber.seat not in views:
                views[subscriber.seat] = view(state, subscriber.seat)
        shared = self._encoder.shared(
            next(iter(views.values())), version, status, self.seat_infos()
        )
        extra = self._extra(time.time())
        messages: dict[tuple[int | None, str, int, int, frozenset[int]], Outgoing] = {}
        for subscriber in self.subscribers:
            hidden = hidden_seats(self.seats, subscriber)
            key = (
                subscriber.seat,
                subscriber.lang,
                subscriber.log_known,
                subscriber.chat_known,
                hidden,
            )
            message = messages.get(key)
            if message is None:
                message = messages[key] = self._encoder.table(
                    shared,
                    views[subscriber.seat],
                    version,
                    status,
                    subscriber.log_known,
                    subscriber.chat_known,
                    extra,
                    subscriber.lang,
                    hidden,
                )
            subscriber.put(message)

    # -- hints -------------------------------------------------------------------------------

    async def hint(self, seat: int | None) -> Outgoing:
        """The ``hint`` message for ``seat``: how far its rack is from a
        complete journey, and where."""
        if seat is None:
            raise Rejected("forbidden", _("spectators have no rack to hint at"))
        seen = view(self.state, seat)
        advice = await self._thinker.run(bots.hint, seen)
        return Outgoing.of(
            {
                "type": "hint",
                "distance": advice.distance,
                "days": list(advice.days),
                "message": advice.message,
            }
        )
