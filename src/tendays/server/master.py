"""The match master: the one authoritative copy of each game, as in boardgame.io's master.

A :class:`Match` holds the full :class:`~tendays.engine.State`, accepts a move only from the seat
whose secret token the connection presented, at the version the mover saw, and legal by the rules;
stores it through the :class:`~tendays.server.store.Journal` before anyone hears of it; and then
sends every subscriber its own ``view(state, seat)``. Bot seats move here, on the server. The
:class:`Lobby` creates, joins, finds and restores matches. Nothing here touches sockets, so tests
drive a match directly.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import os
import random
import secrets
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tendays import bots
from tendays.engine import (
    Edition,
    GameRecord,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Options,
    OutOfTurnError,
    State,
    apply,
    load_edition,
    new_game,
    view,
)

from .store import Journal, MoveRow, StoredGame, StoredSeat
from .thinking import Thinker
from .wire import SeatInfo, TableEncoder, dumps

__all__ = ["BOT_LEVELS", "Lobby", "LobbyError", "Match", "MasterSettings", "Rejected", "Subscriber", "hash_token"]

log = logging.getLogger("tendays.server")

# The bot levels a browser may ask for. External engines (``cmd:...``) run programs on the server,
# so only the operator may configure them, never a web request.
BOT_LEVELS = ("easy", "normal", "hard", "random", "greedy", "expert")


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

    def to_message(self) -> str:
        return dumps({"type": "error", "code": self.code, "message": self.message})


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
        self._box: deque[tuple[bool, str]] = deque()
        self._ready = asyncio.Event()

    def put(self, text: str, *, is_state: bool = False) -> None:
        if is_state and self._box:
            self._box = deque(item for item in self._box if not item[0])
        self._box.append((is_state, text))
        self._ready.set()

    def pending(self) -> int:
        return len(self._box)

    async def get(self) -> str:
        """The next message to send, waiting for one."""
        while not self._box:
            self._ready.clear()
            await self._ready.wait()
        return self._box.popleft()[1]

    def drain(self) -> list[str]:
        """Every message waiting now (for tests that read without waiting)."""
        items = [text for _, text in self._box]
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
        self.options = Options.from_json(stored.options)
        self._seed = stored.seed  # secret: never sent, never logged
        self.seats = [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in stored.seats]
        self._all_taken = all(s.taken for s in self.seats)
        self._journal = journal
        self._settings = settings
        self._thinker = thinker
        self._encoder = TableEncoder(self.id, self.edition)
        state = new_game(self.edition, self.options, self._seed)
        self._moves: list[Move] = []
        for number, text in enumerate(stored.moves, 1):
            move = Move.from_text(text)
            try:
                state = apply(state, move)
            except IllegalMoveError as error:  # the engine changed under a stored game: say which move
                raise ValueError(f"game {self.id}: stored move {number} ({text}) does not replay: {error}") from error
            self._moves.append(move)
        self.state: State = state
        self._bots = {s.index: bots.make_bot(s.bot or "normal") for s in self.seats if s.kind == "bot"}
        self._subscribers: list[Subscriber] = []
        self._lock = asyncio.Lock()
        self._bot_task: asyncio.Task[None] | None = None
        self._closed = False
        self.on_over: Callable[[Match], None] | None = None  # the lobby's hook to let go of a finished game

    # -- public facts ------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The number of moves played."""
        return len(self._moves)

    @property
    def status(self) -> str:
        if self.state.is_over:
            return "over"
        return "playing" if self._all_taken else "waiting"

    @property
    def record(self) -> GameRecord:
        """The full record, seed included: for the server and its tests, never for the wire."""
        names = tuple(s.name or f"Player {s.index + 1}" for s in self.seats)
        return GameRecord(self.edition.id, self.options, self._seed, tuple(self._moves), names)

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

    def state_message(self, seat: int | None) -> str:
        spectator = view(self.state, None)
        public = self._encoder.public(spectator, self.version, self.status, self.seat_infos())
        seen = spectator if seat is None else view(self.state, seat)
        return self._encoder.state_message(public, seen, self.version, self.status)

    def subscribe(self, seat: int | None) -> Subscriber:
        """A new connection for ``seat`` (None: a spectator); it gets the table at once."""
        subscriber = Subscriber(seat)
        was_connected = seat is not None and self.connected(seat)
        self._subscribers.append(subscriber)
        if seat is not None and not was_connected:
            self._publish()  # everyone sees the seat come online
        else:
            subscriber.put(self.state_message(seat), is_state=True)
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
        public = self._encoder.public(spectator, version, status, self.seat_infos())
        messages: dict[int | None, str] = {}
        for subscriber in self._subscribers:
            seat = subscriber.seat
            text = messages.get(seat)
            if text is None:
                seen = spectator if seat is None else view(self.state, seat)
                text = messages[seat] = self._encoder.state_message(public, seen, version, status)
            subscriber.put(text, is_state=True)

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
                state = apply(self.state, move, seat)
            except OutOfTurnError:
                raise Rejected("out_of_turn", f"it is {name}'s turn, not yours") from None
            except IllegalMoveError as error:
                raise Rejected("illegal", str(error)) from None
            row = MoveRow(self.id, self.version + 1, seat, str(move), state.is_over)
            try:
                await self._journal.append_move(row)
            except Exception:
                log.exception("game %s: could not store move %d", self.id, row.number)
                raise Rejected("unavailable", "the move could not be saved, so it was not played; "
                                              "try again") from None
            self.state = state
            self._moves.append(move)
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
        try:
            while self._bot_to_move():
                seat, version = self.state.current, self.version
                delay = self._settings.draft_delay if self.state.phase.name == "DRAFT" else self._settings.bot_delay
                if delay > 0:
                    await asyncio.sleep(delay)
                move = await self._bot_move(seat, version)
                if version != self.version:
                    continue  # cannot happen while only bots move here, but never play on a stale table
                try:
                    await self._play_in_turn(seat, move, version)
                except Rejected as rejected:
                    log.error("game %s: the bot in seat %d made a move the game refused: %s",
                              self.id, seat + 1, rejected.message)
                    if rejected.code == "unavailable":
                        await asyncio.sleep(1.0)  # the database is down: retry gently
                        continue
                    return
        finally:
            self._bot_task = None

    async def _bot_move(self, seat: int, version: int) -> Move:
        seen = view(self.state, seat)
        # A seeded stream per decision: the game stays reproducible, and a restart changes nothing.
        rng = random.Random(f"tendays-bot/{self._seed}/{seat}/{version}")
        bot = self._bots[seat]
        try:
            move = await self._thinker.choose(self.seats[seat].bot or "normal", bot, seen, rng)
        except Exception:
            log.exception("game %s: the %s bot in seat %d failed; it plays a random move", self.id,
                          self.seats[seat].bot, seat + 1)
            return rng.choice(seen.legal_moves())
        if move not in seen.legal_moves():
            log.error("game %s: the %s bot in seat %d chose %s, which is not legal; it plays a random move",
                      self.id, self.seats[seat].bot, seat + 1, move)
            return rng.choice(seen.legal_moves())
        return move

    # -- hints -------------------------------------------------------------------------------

    async def hint(self, seat: int | None) -> str:
        """The ``hint`` message for ``seat``: how far its rack is from a complete journey, and where."""
        if seat is None:
            raise Rejected("forbidden", "spectators have no rack to hint at")
        seen = view(self.state, seat)
        advice = await self._thinker.run(bots.hint, seen)
        return dumps({"type": "hint", "distance": advice.distance, "days": list(advice.days),
                      "message": advice.message})

    async def close(self) -> None:
        self._closed = True
        task = self._bot_task
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


class Lobby:
    """Every match the server holds: create, join, find, and restore them from the store."""

    def __init__(self, journal: Journal, settings: MasterSettings | None = None) -> None:
        self.journal = journal
        self.settings = settings or MasterSettings()
        self.thinker = Thinker(processes=self.settings.bot_processes)
        self.matches: dict[str, Match] = {}

    def _match(self, stored: StoredGame) -> Match:
        match = Match(stored, self.journal, self.settings, self.thinker)
        match.on_over = self.release
        return match

    def restore(self) -> int:
        """Rebuild every unfinished game from its stored record; returns how many. Call before serving."""
        for stored in self.journal.store.load_unfinished():
            try:
                self.matches[stored.id] = self._match(stored)
            except (ValueError, KeyError) as error:
                log.error("game %s cannot be restored: %s", stored.id, error)
        return len(self.matches)

    def start(self) -> None:
        """Let the bots of restored games move again (needs the running event loop)."""
        self.thinker.warm_up()
        for match in self.matches.values():
            match.wake_bots()

    async def close(self) -> None:
        await asyncio.gather(*(m.close() for m in self.matches.values()))
        self.thinker.close()

    def active(self) -> list[Match]:
        return [m for m in self.matches.values() if m.status != "over"]

    async def create(self, edition: str, seats: Sequence[tuple[str, str | None]], options: dict[str, Any],
                     name: str) -> tuple[Match, str]:
        """A new game; ``seats`` are (kind, bot level) pairs and seat 0 goes to ``name``. Returns (match, token)."""
        if len(self.active()) >= self.settings.max_games:
            raise LobbyError(503, "the server holds as many games as it may; try again later")
        try:
            loaded = load_edition(edition)
        except ValueError as error:
            raise LobbyError(422, str(error)) from None
        if not seats or seats[0][0] != "human":
            raise LobbyError(422, "seat 1 is yours, so it must be a human seat")
        for number, (kind, level) in enumerate(seats, 1):
            if kind == "bot" and level not in BOT_LEVELS:
                raise LobbyError(422, f"seat {number}: unknown bot level {level!r}; choose one of "
                                      f"{', '.join(BOT_LEVELS)}")
        try:
            game_options = Options.from_json({**options, "players": len(seats)})
            game_options.validate(loaded)
        except (TypeError, ValueError) as error:
            raise LobbyError(422, str(error)) from None
        token = new_token()
        stored = StoredGame(
            id=self._new_id(),
            edition=loaded.id,
            options=game_options.to_json(),
            seed=self.settings.seed_source(),
            created=datetime.now(UTC),
            seats=[StoredSeat(i, kind, level if kind == "bot" else None,
                              name if i == 0 else (f"{level.capitalize()} bot" if kind == "bot" and level else None),
                              hash_token(token) if i == 0 else None)
                   for i, (kind, level) in enumerate(seats)],
        )
        match = self._match(stored)
        await asyncio.shield(self._register(match, stored))
        log.info("game %s created: %s, %d seats", match.id, loaded.id, len(seats))
        match.wake_bots()
        return match, token

    async def _register(self, match: Match, stored: StoredGame) -> None:
        await self.journal.run(self.journal.store.create_game, stored)
        self.matches[match.id] = match

    def _new_id(self) -> str:
        while True:
            game_id = secrets.token_urlsafe(6)
            if game_id not in self.matches:
                return game_id

    async def join(self, game_id: str, name: str) -> tuple[Match, int, str]:
        match = await self.get(game_id)
        if match is None:
            raise LobbyError(404, f"there is no game {game_id!r}")
        seat, token = await match.join(name)
        log.info("game %s: seat %d taken", match.id, seat + 1)
        return match, seat, token

    async def get(self, game_id: str) -> Match | None:
        """The match, loading a finished game from the store if it is not held."""
        match = self.matches.get(game_id)
        if match is not None:
            return match
        stored = await self.journal.run(self.journal.store.load_game, game_id)
        if stored is None:
            return None
        match = self.matches.setdefault(game_id, self._match(stored))
        return match

    def release(self, match: Match) -> None:
        """Forget a finished match nobody watches; the store still has it."""
        if match.status == "over" and not match.watchers and self.matches.get(match.id) is match:
            del self.matches[match.id]

