"""The part of a match that copes with people who are not there: clocks, timeouts, bots standing in,
leaving, coming back, and ending a game nobody plays any more.

- The clock (:class:`~tendays.server.timing.TurnClock`) gives each turn a deadline, stored with every
  move. When it passes, the seat's turn is played for it by the stand-in bot (the ``normal`` level) from
  that seat's view, and the table says so. After ``timeouts_to_bot`` such turns in a row the seat is
  handed to the bot for the rest of the game, until the person opens their seat link again. A person
  whose turns ran out while their table is open is away, not gone: they watch the bot play on and may take
  the seat back at any time. The table tells of a turn played on the clock once the bot has played it.
- A person may leave: a bot plays their seat, and the others may choose to end the game.
- A game in which no person is left (all have left, or are away with no table open) ends as abandoned.
- A seat a bot plays, and every seat of a game that is over, is offered no moves
  (:class:`~tendays.server.wire.TableEncoder`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tendays import bots
from tendays.engine import Decision, Edition, Game, Move, Options, Phase, State, load_edition, next_decision
from tendays.engine.i18n import gettext as _

from .chat import Talk
from .notices import N_
from .notices import mark_plural as ngettext  # a notice is translated for each reader
from .seats import Rejected, Seat, Subscriber
from .settings import MasterSettings
from .store import StoredGame
from .thinking import Thinker
from .timing import TurnClock
from .wire import SeatInfo, TableEncoder

if TYPE_CHECKING:
    from .journal import Journal

__all__ = ["Absence"]

log = logging.getLogger("tendays.server")


class Absence(Talk):
    """A match's state, and what happens when its people are absent (see the module's text)."""

    def __init__(self, stored: StoredGame, journal: Journal, settings: MasterSettings, thinker: Thinker) -> None:
        self.id = stored.id
        self.created: datetime = stored.created
        self.edition: Edition = load_edition(stored.edition)
        self.options: Options = stored.options
        self.seats = [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash, s.timeouts, s.away, s.left, s.reserved)
                      for s in stored.seats]
        self._all_taken = all(s.taken for s in self.seats)
        self._journal = journal
        self._settings = settings
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
                raise ValueError(f"stored move {number} ({text}) does not replay: {error}") from error
        # The table everyone has been told of. During a move it lags the game until the move is stored.
        self._state: State = self.game.state
        self._version = self.game.move_count
        self.clock = None if stored.pace is None else TurnClock(
            stored.pace, len(self.seats), [s.bank for s in stored.seats], stored.deadline, stored.turn_started)
        self.ended = stored.ended  # "abandoned" or "closed" when the game ended before it was played out
        self.rematch = stored.rematch
        self.last_move_at = stored.last_move_at or stored.created.timestamp()
        # What the game's row holds: its deadline and turn start, and when it last moved.
        self._stored_clock: tuple[float | None, float | None] = (stored.deadline, stored.turn_started)
        self._stored_at = self.last_move_at
        self.end_votes: set[int] = set()
        self._bots: dict[tuple[int, str], bots.Bot] = {}
        self._subscribers: list[Subscriber] = []
        self._lock = asyncio.Lock()
        self._bot_task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._stand_in_turn: int | None = None  # the seat whose timed-out turn the stand-in bot is playing
        self._closed = False
        self.on_over: Callable[[Any], None] | None = None  # the lobby's hook to let go of a finished game
        self._init_talk(stored.chat)

    if TYPE_CHECKING:  # provided by Match
        @property
        def state(self) -> State: ...
        @property
        def version(self) -> int: ...
        @property
        def status(self) -> str: ...
        def _publish(self) -> None: ...
        async def _play_in_turn(self, seat: int, move: Move, version: int, by_person: bool = False) -> None: ...

    # -- what the table shows ----------------------------------------------------------------

    def connected(self, seat: int) -> bool:
        """Whether someone is at the seat: always for a bot seat; for a person's, while a table of theirs is open
        here (away or not), and never after they left."""
        place = self.seats[seat]
        if place.kind == "bot":
            return True
        return not place.left and any(s.seat == seat for s in self._subscribers)

    def _someone_there(self) -> bool:
        """Whether a person is still at the table: one playing their seat, or one away whose table is open."""
        return any(s.present or (s.kind == "human" and s.away and self.connected(s.index)) for s in self.seats)

    def seat_infos(self) -> list[SeatInfo]:
        return [SeatInfo(s.index, s.kind, s.name, s.bot, self.connected(s.index), s.away, s.left) for s in self.seats]

    def _extra(self, now: float) -> dict[str, Any]:
        """The table's facts beside the view: the clock (running only while the game is played), why it
        ended, the rematch offered, and whether (and who asked) to end a game someone left."""
        playing = self.status == "playing"
        clock = None
        if self.clock is not None:
            clock = self.clock.to_json(now) if playing else {**self.clock.pace.to_json(), "deadline": None}
        gone = any(s.kind == "human" and (s.left or s.away) for s in self.seats)
        return {"clock": clock, "ended": self.ended, "rematch": self.rematch, "end_votes": sorted(self.end_votes),
                "can_end": playing and gone}

    # -- the clock ---------------------------------------------------------------------------

    def _clock_snapshot(self) -> tuple[list[float], float | None, float | None] | None:
        c = self.clock
        return None if c is None else (list(c.banks), c.deadline, c.turn_started)

    def _clock_restore(self, saved: tuple[list[float], float | None, float | None] | None) -> None:
        if self.clock is not None and saved is not None:
            self.clock.banks, self.clock.deadline, self.clock.turn_started = saved

    def _clock_row(self, seat: int, saved: tuple[list[float], float | None, float | None] | None,
                   timeouts: int) -> tuple[float | None, float | None, float | None, int | None]:
        """(deadline, turn started, the mover's bank, the mover's timeouts) to store with a move; the last two
        only when either changed since ``saved`` and ``timeouts`` (so most moves write no seat)."""
        c, place = self.clock, self.seats[seat]
        bank = None if c is None else c.banks[seat]
        changed = place.timeouts != timeouts or (saved is not None and bank != saved[0][seat])
        deadline, started = (None, None) if c is None else (c.deadline, c.turn_started)
        return deadline, started, bank if changed else None, place.timeouts if changed else None

    def _turn_passed(self, mover: int, state: State, now: float) -> None:
        """After a move: the clock of the turn that ended stops, the next one starts."""
        if self.clock is None:
            return
        if state.is_over:
            self.clock.finish(mover, now)
        elif state.current != mover:
            self.clock.finish(mover, now)
            self.clock.start(state.current, now)

    def _arm_clock(self) -> None:
        """Wake up at the turn's deadline (again after a restart: the deadline is stored, not counted)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        c = self.clock
        if self._closed or c is None or c.deadline is None or self.status != "playing":
            return
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(max(0.0, c.deadline - time.time()), self._on_deadline)

    def _on_deadline(self) -> None:
        self._timer = None
        task = asyncio.create_task(self._time_out(), name=f"clock of game {self.id}")
        task.add_done_callback(_log_failure)

    async def _time_out(self) -> None:
        """The turn's time ran out: the stand-in bot plays it, and after too many, takes the seat."""
        c = self.clock
        if c is None or c.deadline is None or self.status != "playing":
            return
        if time.time() < c.deadline - 0.05:  # woken early (a timer of a restarted clock): wait again
            self._arm_clock()
            return
        seat = self.seats[self.state.current]
        if seat.played_by_bot or self._stand_in_turn is not None:
            return  # a bot is already playing this turn
        seat.timeouts += 1
        self._stand_in_turn = seat.index
        seat.away = seat.timeouts >= self._settings.timeouts_to_bot
        await self._journal.run(self._journal.store.update_seat, self.id, seat.index, away=seat.away,
                                timeouts=seat.timeouts)
        if seat.away and await self._end_if_nobody_left():
            self._stand_in_turn = None
            return
        self._publish()
        self.wake_bots()  # the table hears of the timeout with the turn the bot plays (_told_of_timeout)

    async def _told_of_timeout(self, seat: int) -> None:
        """The stand-in bot has played the timed-out turn of ``seat``: say so, and whether the bot keeps the seat
        (stored; the caller publishes the table, so the notice comes with the turn it tells of)."""
        place = self.seats[seat]
        name = place.display_name
        try:
            await self._notice(N_("{name} ran out of time: the {bot} bot played the turn"), name=name,
                               bot=self._settings.stand_in)
            if place.away:
                await self._notice(ngettext("{name} missed {n} turn in a row: a bot plays the seat until {name} "
                                            "opens the seat link again",
                                            "{name} missed {n} turns in a row: a bot plays the seat until {name} "
                                            "opens the seat link again", place.timeouts), name=name)
        except Exception:  # the move is stored and the game goes on; only the notice is lost
            log.exception("game %s: could not store the notice of a turn played on the clock", self.id)

    # -- people leaving and coming back ------------------------------------------------------

    async def leave(self, seat: int) -> None:
        """The person at ``seat`` leaves the game: a bot plays the seat from now on."""
        place = self.seats[seat]
        if place.left:
            raise Rejected("forbidden", _("you have already left this game"))
        if self.status == "over":
            raise Rejected("illegal", _("the game is over; there is nothing to leave"))
        place.left, place.away = True, False
        self.end_votes.discard(seat)
        await self._journal.run(self._journal.store.update_seat, self.id, seat, left=True, away=False)
        await self._notice(N_("{name} left the game: a bot plays the seat from now on"), name=place.display_name)
        if not await self._end_if_nobody_left():
            self._publish()
            self.wake_bots()

    async def come_back(self, seat: int) -> None:
        """The person at ``seat`` is back (they opened their seat link): the bot stops standing in."""
        place = self.seats[seat]
        if not place.away or self.status == "over":
            return
        place.away, place.timeouts = False, 0
        await self._journal.run(self._journal.store.update_seat, self.id, seat, away=False, timeouts=0)
        await self._notice(N_("{name} is back and plays the seat again"), name=place.display_name)
        self._publish()

    async def vote_end(self, seat: int) -> None:
        """A person asks to end the game after someone left; it ends once every person left has asked."""
        if self.status != "playing":
            raise Rejected("illegal", _("only a game being played can be ended"))
        if not any(s.kind == "human" and (s.left or s.away) for s in self.seats):
            raise Rejected("illegal", _("a game can be ended only after a player has left it; otherwise play on "
                                        "or leave the game yourself"))
        self.end_votes.add(seat)
        present = {s.index for s in self.seats if s.present}
        if present <= self.end_votes:
            await self.end("abandoned", N_("the players chose to end the game"))
        else:
            await self._notice(N_("{name} would like to end the game"), name=self.seats[seat].display_name)
            self._publish()

    async def offer_rematch(self, game_id: str, name: str) -> None:
        """Tell the table that ``name`` offers a rematch: game ``game_id``, with the same seats."""
        await self._journal.run(self._journal.store.set_rematch, self.id, game_id)
        self.rematch = game_id
        await self._notice(N_("{name} offers a rematch: the same seats and options again"), name=name)
        self._publish()

    async def _end_if_nobody_left(self) -> bool:
        if self._someone_there() or self.status == "over":
            return False
        await self.end("abandoned", N_("nobody is left at the table: the game ends as abandoned"))
        return True

    async def end(self, ended: str, reason: str) -> None:
        """End the game before it is played out (``ended``: "abandoned" or "closed"), saying why: ``reason`` is a
        msgid marked with :func:`~tendays.server.notices.N_`, told to each reader in their language."""
        async with self._lock:
            if self.status == "over":
                return
            now = time.time()
            await self._journal.run(self._journal.store.end_game, self.id, ended, now)
            self.ended = ended
            if self.clock is not None:
                self.clock.stop()
            self._arm_clock()
        await self._notice(reason, sentence=True)
        self._publish()
        self._over()

    def _over(self) -> None:
        if self.on_over is not None:
            self.on_over(self)

    # -- bots --------------------------------------------------------------------------------

    def wake_bots(self) -> None:
        """Start the bots' loop if a bot is to move and it is not running yet."""
        if self._closed or self._bot_task is not None or not self._bot_to_move():
            return
        self._bot_task = asyncio.create_task(self._run_bots(), name=f"bots of game {self.id}")

    def _bot_to_move(self) -> bool:
        if self.status != "playing":
            return False
        current = self.state.current
        return self.seats[current].played_by_bot or self._stand_in_turn == current

    async def _run_bots(self) -> None:
        """The engine's turn loop, asynchronously: the next decision, a bot's answer, the move played."""
        try:
            while self._bot_to_move():
                timed_out = self._stand_in_turn is not None
                delay = self._settings.draft_delay if self.state.phase is Phase.DRAFT else self._settings.bot_delay
                if delay > 0 and not timed_out:
                    await asyncio.sleep(delay)
                async with self._lock:  # the game and its table agree while no move is being stored
                    decision, version = next_decision(self.game), self.version
                if decision is None or not self._bot_to_move() or decision.seat != self.state.current:
                    return
                move = await self._bot_move(decision)
                if version != self.version:
                    continue  # a person moved meanwhile (back in time): never play on a stale table
                try:
                    # Like a person's move, a bot's move completes once begun: stopping the bots (the lease
                    # was taken over) must not leave a move in the game that the database refused.
                    playing = asyncio.ensure_future(self._play_in_turn(decision.seat, move, version))
                    playing.add_done_callback(_outcome_seen)  # a refusal nobody waits for any more is no error
                    await asyncio.shield(playing)
                except Rejected as rejected:
                    if rejected.code == "stale":
                        continue
                    log.error("game %s: the bot in seat %d made a move the game refused: %s",
                              self.id, decision.seat + 1, rejected.message)
                    if rejected.code == "unavailable":
                        await asyncio.sleep(1.0)  # the database is down: retry gently
                        continue
                    return
        finally:
            self._bot_task = None

    def _bot_of(self, seat: int) -> tuple[str, bots.Bot]:
        """The bot that plays ``seat``: its own for a bot seat, the stand-in for a person's seat."""
        place = self.seats[seat]
        spec = (place.bot or "normal") if place.kind == "bot" else self._settings.stand_in
        bot = self._bots.get((seat, spec))
        if bot is None:
            bot = self._bots[seat, spec] = bots.make_bot(spec)
        return spec, bot

    async def _bot_move(self, decision: Decision) -> Move:
        seat, legal = decision.seat, decision.view.legal_moves()
        spec, bot = self._bot_of(seat)
        try:
            move = await self._thinker.choose(spec, bot, decision)
        except Exception:
            log.exception("game %s: the %s bot in seat %d failed; it plays a random move", self.id, spec, seat + 1)
            return decision.rng.choice(legal)
        if move not in legal:
            log.error("game %s: the %s bot in seat %d chose %s, which is not legal; it plays a random move",
                      self.id, spec, seat + 1, move)
            return decision.rng.choice(legal)
        return move

    async def close(self) -> None:
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        task = self._bot_task
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a game's clock failed", exc_info=task.exception())


def _outcome_seen(task: asyncio.Future[None]) -> None:
    """Mark a move's outcome as seen, so a refusal that came after its bots were stopped is not logged."""
    if not task.cancelled():
        task.exception()
