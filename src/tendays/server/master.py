"""The match master: the one authoritative copy of each game, as in boardgame.io's master.

A :class:`Match` holds the game (an engine :class:`~tendays.engine.Game`: the full state and its
moves), accepts a move only from the seat whose secret token the connection presented, at the version
the mover saw, and legal by the rules; stores it through the :class:`~tendays.server.store.Journal`
before anyone hears of it; and then sends every subscriber its own ``view(state, seat)``. Bot seats
move here, on the server, through the engine's turn loop (:func:`~tendays.engine.next_decision`). The
lobby (:mod:`tendays.server.lobby`) creates, joins, finds and restores matches. Nothing here touches
sockets, so tests drive a match directly.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import os
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tendays import bots
from tendays.engine import (
    Decision,
    Edition,
    Game,
    GameRecord,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Options,
    OutOfTurnError,
    Phase,
    State,
    load_edition,
    next_decision,
    view,
)

from .store import Journal, MoveRow, StoredGame
from .thinking import Thinker
from .wire import Outgoing, SeatInfo, TableEncoder

__all__ = ["LobbyError", "Match", "MasterSettings", "Rejected", "Subscriber", "hash_token", "new_token"]

log = logging.getLogger("tendays.server")


def hash_token(token: str) -> str:
    """What the store keeps of a seat token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A seat token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


class Rejected(Exception):
    """A message that changed nothing; ``code`` is one of the protocol's error codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_message(self) -> Outgoing:
        return Outgoing.of({"type": "error", "code": self.code, "message": self.message})


class LobbyError(Exception):
    """A lobby request that cannot be granted; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class MasterSettings:
    """How matches behave. Tests use ``bot_delay=0``."""

    bot_delay: float = 0.8  # seconds before a bot's turn, so people can follow it
    draft_delay: float = 0.2  # seconds before a bot's draft move (the draft has many small moves)
    # Worker processes where bots think (0: on threads of the server process).
    bot_processes: int = field(default_factory=lambda: min(4, max(1, (os.cpu_count() or 2) - 1)))
    max_games: int = 10_000  # unfinished games held at once; beyond it, creating a game is refused
    seed_source: Callable[[], int] = field(default=lambda: secrets.randbits(62))


class Subscriber:
    """One connection's mailbox. A newer table replaces an unsent older one: only the latest matters."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self._box: deque[Outgoing] = deque()
        self._ready = asyncio.Event()

    def put(self, message: Outgoing) -> None:
        if message.is_table and self._box:
            self._box = deque(item for item in self._box if not item.is_table)
        self._box.append(message)
        self._ready.set()

    def pending(self) -> int:
        return len(self._box)

    async def get(self) -> str:
        """The next message to send, waiting for one."""
        while not self._box:
            self._ready.clear()
            await self._ready.wait()
        return self._box.popleft().text

    def drain(self) -> list[str]:
        """Every message waiting now (for tests that read without waiting)."""
        items = [item.text for item in self._box]
        self._box.clear()
        return items


@dataclass
class Seat:
    index: int
    kind: str  # "human" or "bot"
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None


class Match:
    """One game and everyone at its table."""

    def __init__(self, stored: StoredGame, journal: Journal, settings: MasterSettings, thinker: Thinker) -> None:
        self.id = stored.id
        self.created = stored.created
        self.edition: Edition = load_edition(stored.edition)
        self.options: Options = stored.options
        self.seats = [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in stored.seats]
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
            except (InvalidMoveError, IllegalMoveError) as error:  # say which stored move no longer replays
                raise ValueError(f"stored move {number} ({text}) does not replay: {error}") from error
        # The table everyone has been told of. During a move it lags the game until the move is stored.
        self._state: State = self.game.state
        self._version = self.game.move_count
        self._bots = {s.index: bots.make_bot(s.bot or "normal") for s in self.seats if s.kind == "bot"}
        self._subscribers: list[Subscriber] = []
        self._lock = asyncio.Lock()
        self._bot_task: asyncio.Task[None] | None = None
        self._closed = False
        self.on_over: Callable[[Match], None] | None = None  # the lobby's hook to let go of a finished game

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
        if self.state.is_over:
            return "over"
        return "playing" if self._all_taken else "waiting"

    @property
    def record(self) -> GameRecord:
        """The full record, seed included: for the server and its tests, never for the wire."""
        names = tuple(s.name or f"Player {s.index + 1}" for s in self.seats)
        return GameRecord(self.edition.id, self.options, self.game.seed, self.game.moves[: self.version], names)

    def connected(self, seat: int) -> bool:
        return self.seats[seat].kind == "bot" or any(s.seat == seat for s in self._subscribers)

    def seat_infos(self) -> list[SeatInfo]:
        return [SeatInfo(s.index, s.kind, s.name, s.bot, self.connected(s.index)) for s in self.seats]

    def summary(self) -> dict[str, Any]:
        """The lobby's public summary of this game."""
        return {
            "id": self.id,
            "edition": self.edition.id,
            "status": self.status,
            "seats": [{"seat": s.index, "kind": s.kind, "name": s.name, "bot": s.bot, "taken": s.taken}
                      for s in self.seats],
            "created": self.created.isoformat(),
        }

    def seat_for(self, token: str) -> int | None:
        """The seat this token opens, or None. Compares against every seat in constant time."""
        given = hash_token(token)
        found = None
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(given, seat.token_hash):
                found = seat.index
        return found

    # -- connections -------------------------------------------------------------------------

    def state_message(self, seat: int | None) -> Outgoing:
        """The current table as ``seat`` (None: a spectator) may see it."""
        spectator = view(self.state, None)
        shared = self._encoder.shared(spectator, self.version, self.status, self.seat_infos())
        seen = spectator if seat is None else view(self.state, seat)
        return self._encoder.table(shared, seen, self.version, self.status)

    def subscribe(self, seat: int | None) -> Subscriber:
        """A new connection for ``seat`` (None: a spectator); it gets the table at once."""
        subscriber = Subscriber(seat)
        was_connected = seat is not None and self.connected(seat)
        self._subscribers.append(subscriber)
        if seat is not None and not was_connected:
            self._publish()  # everyone sees the seat come online
        else:
            subscriber.put(self.state_message(seat))
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
        """Send every subscriber its own view of the current table."""
        if not self._subscribers:
            return
        spectator = view(self.state, None)
        version, status = self.version, self.status
        shared = self._encoder.shared(spectator, version, status, self.seat_infos())
        messages: dict[int | None, Outgoing] = {}
        for subscriber in self._subscribers:
            seat = subscriber.seat
            message = messages.get(seat)
            if message is None:
                seen = spectator if seat is None else view(self.state, seat)
                message = messages[seat] = self._encoder.table(shared, seen, version, status)
            subscriber.put(message)

    # -- seats -------------------------------------------------------------------------------

    async def join(self, name: str) -> tuple[int, str]:
        """Give the first free human seat to ``name``: returns (seat, token).

        Like a move, a join completes once begun, so the stored seats and the held ones never part.
        """
        return await asyncio.shield(self._join(name))

    async def _join(self, name: str) -> tuple[int, str]:
        async with self._lock:
            free = [s for s in self.seats if not s.taken]
            if not free or self.status != "waiting":
                raise LobbyError(409, "every seat of this game is taken")
            seat = free[0]
            token = new_token()
            token_hash = hash_token(token)
            await self._journal.run(self._journal.store.take_seat, self.id, seat.index, name, token_hash)
            seat.name, seat.token_hash = name, token_hash
            self._all_taken = all(s.taken for s in self.seats)
            self._publish()
        self.wake_bots()
        return seat.index, token

    # -- moves -------------------------------------------------------------------------------

    async def play(self, seat: int | None, move: Any, version: Any) -> None:
        """Play ``move`` (its text) for ``seat`` if the mover saw ``version``; raise :class:`Rejected` if not.

        The move is stored before anyone hears of it. Once storing has begun it completes even if
        the caller goes away, so the game and its stored record never part.
        """
        if seat is None:
            raise Rejected("forbidden", "spectators cannot move; join the game or open your seat link")
        if not isinstance(move, str) or len(move) > 64:
            raise Rejected("malformed", "a move is a text in the game's notation, such as 'replace 4 2'")
        if not isinstance(version, int) or isinstance(version, bool):
            raise Rejected("malformed", "a move needs the version of the table it was made on")
        try:
            parsed = Move.from_text(move)
        except InvalidMoveError as error:
            raise Rejected("malformed", str(error)) from None
        await asyncio.shield(self._play_in_turn(seat, parsed, version))

    async def _play_in_turn(self, seat: int, move: Move, version: int) -> None:
        async with self._lock:
            status = self.status
            if status == "waiting":
                raise Rejected("illegal", "the game has not started: it waits for every seat to be taken")
            if version != self.version:
                raise Rejected("stale", f"the table has changed (version {self.version}, not {version}); "
                                        "look again and choose again")
            name = self.seats[self.state.current].name or f"player {self.state.current + 1}"
            try:
                state = self.game.play(move, seat)
            except OutOfTurnError:
                raise Rejected("out_of_turn", f"it is {name}'s turn, not yours") from None
            except IllegalMoveError as error:
                raise Rejected("illegal", str(error)) from None
            # The game holds the move now; the table (``self.state``) follows once the move is stored.
            row = MoveRow(self.id, self.game.move_count, seat, str(move), state.is_over)
            try:
                await self._journal.append_move(row)
            except Exception:
                self.game.undo()  # nobody has heard of the move, so it was never played
                log.exception("game %s: could not store move %d", self.id, row.number)
                raise Rejected("unavailable", "the move could not be saved, so it was not played; "
                                              "try again") from None
            self._state, self._version = state, self.game.move_count
            self._publish()
            if state.is_over and self.on_over is not None:
                self.on_over(self)
        self.wake_bots()

    # -- bots --------------------------------------------------------------------------------

    def wake_bots(self) -> None:
        """Start the bots' loop if a bot is to move and it is not running yet."""
        if self._closed or self._bot_task is not None or not self._bot_to_move():
            return
        self._bot_task = asyncio.create_task(self._run_bots(), name=f"bots of game {self.id}")

    def _bot_to_move(self) -> bool:
        return self.status == "playing" and self.seats[self.state.current].kind == "bot"

    async def _run_bots(self) -> None:
        """The engine's turn loop, asynchronously: the next decision, a bot's answer, the move played."""
        try:
            while self._bot_to_move():
                delay = self._settings.draft_delay if self.state.phase is Phase.DRAFT else self._settings.bot_delay
                if delay > 0:
                    await asyncio.sleep(delay)
                async with self._lock:  # the game and its table agree while no move is being stored
                    decision, version = next_decision(self.game), self.version
                if decision is None or self.seats[decision.seat].kind != "bot":
                    return
                move = await self._bot_move(decision)
                if version != self.version:
                    continue  # cannot happen while only bots move here, but never play on a stale table
                try:
                    await self._play_in_turn(decision.seat, move, version)
                except Rejected as rejected:
                    log.error("game %s: the bot in seat %d made a move the game refused: %s",
                              self.id, decision.seat + 1, rejected.message)
                    if rejected.code == "unavailable":
                        await asyncio.sleep(1.0)  # the database is down: retry gently
                        continue
                    return
        finally:
            self._bot_task = None

    async def _bot_move(self, decision: Decision) -> Move:
        seat, legal = decision.seat, decision.view.legal_moves()
        spec = self.seats[seat].bot or "normal"
        try:
            move = await self._thinker.choose(spec, self._bots[seat], decision)
        except Exception:
            log.exception("game %s: the %s bot in seat %d failed; it plays a random move", self.id, spec, seat + 1)
            return decision.rng.choice(legal)
        if move not in legal:
            log.error("game %s: the %s bot in seat %d chose %s, which is not legal; it plays a random move",
                      self.id, spec, seat + 1, move)
            return decision.rng.choice(legal)
        return move

    # -- hints -------------------------------------------------------------------------------

    async def hint(self, seat: int | None) -> Outgoing:
        """The ``hint`` message for ``seat``: how far its rack is from a complete journey, and where."""
        if seat is None:
            raise Rejected("forbidden", "spectators have no rack to hint at")
        seen = view(self.state, seat)
        advice = await self._thinker.run(bots.hint, seen)
        return Outgoing.of({"type": "hint", "distance": advice.distance, "days": list(advice.days),
                            "message": advice.message})

    async def close(self) -> None:
        self._closed = True
        task = self._bot_task
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
