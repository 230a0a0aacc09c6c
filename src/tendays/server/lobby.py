"""The lobby: every match the server holds. It creates, joins, finds and restores them from the store,
lists the games a newcomer can join a page at a time, offers rematches, and expires idle games and
deletes old ended ones (:meth:`Lobby.sweep`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from tendays import bots
from tendays.engine import Options, load_edition

from .journal import Journal
from .master import Match
from .seats import LobbyError, Rejected, hash_token, new_token
from .settings import MasterSettings
from .store import StoredGame, StoredSeat
from .thinking import Thinker
from .timing import Pace

__all__ = ["Lobby"]

log = logging.getLogger("tendays.server")


class Lobby:
    """Every match the server holds: create, join, find, and restore them from the store."""

    def __init__(self, journal: Journal, settings: MasterSettings | None = None) -> None:
        self.journal = journal
        self.settings = settings or MasterSettings()
        self.thinker = Thinker(processes=self.settings.bot_processes)
        self.matches: dict[str, Match] = {}
        self._sweeper: asyncio.Task[None] | None = None

    def _match(self, stored: StoredGame) -> Match:
        match = Match(stored, self.journal, self.settings, self.thinker)
        match.on_over = self.release
        return match

    def _rebuild(self, stored: StoredGame) -> Match:
        """The match of a stored game; :class:`LobbyError` (409) if this server cannot play it."""
        try:
            return self._match(stored)
        except (ValueError, KeyError) as error:
            log.error("game %s cannot be played by this server, so it is not served: %s", stored.id, error)
            raise LobbyError(409, f"game {stored.id} cannot be played by this server: {error}") from None

    def restore(self) -> int:
        """Rebuild every unfinished game from its stored record; returns how many. Call before serving.

        Games idle past the expiry time are closed first, so they are not replayed. A game this server
        cannot replay (stored under rules it does not know, say) is left out, with a log line saying why.
        """
        self._expire_and_purge()
        for stored in self.journal.store.load_unfinished():
            with contextlib.suppress(LobbyError):
                self.matches[stored.id] = self._rebuild(stored)
        return len(self.matches)

    def start(self) -> None:
        """Let the bots and clocks of restored games run again (needs the running event loop)."""
        self.thinker.warm_up()
        for match in self.matches.values():
            match.wake_bots()
            match._arm_clock()
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="expiry of idle games")

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
        await asyncio.gather(*(m.close() for m in self.matches.values()))
        self.thinker.close()

    def active(self) -> list[Match]:
        return [m for m in self.matches.values() if m.status != "over"]

    def page(self, show: str, page: int, per_page: int) -> tuple[list[Match], int]:
        """One page of the games a newcomer may join (``show="joinable"``) or watch ("playing"), newest
        first, and how many there are in all."""
        wanted = [m for m in self.matches.values()
                  if (m.joinable if show == "joinable" else m.status == "playing")]
        wanted.reverse()  # the dict keeps the order of creation (restored games first, oldest first)
        start = (page - 1) * per_page
        return wanted[start:start + per_page], len(wanted)

    # -- creating and joining ----------------------------------------------------------------

    async def create(self, edition: str, seats: Sequence[tuple[str, str | None]], options: dict[str, Any],
                     name: str, pace: Pace | None = None, seat: int = 0,
                     reserved: Sequence[int] = (), names: Sequence[str | None] = ()) -> tuple[Match, str]:
        """A new game; ``seats`` are (kind, bot level) pairs and ``seat`` (0 unless a rematch) goes to
        ``name``. ``reserved``: human seats kept for named players (a rematch). Returns (match, token)."""
        if len(self.active()) >= self.settings.max_games:
            raise LobbyError(503, "the server holds as many games as it may; try again later")
        try:
            loaded = load_edition(edition)
        except ValueError as error:
            raise LobbyError(422, str(error)) from None
        if not seats or seats[seat][0] != "human":
            raise LobbyError(422, "seat 1 is yours, so it must be a human seat")
        # Only the registry's plain names: external engines (``cmd:...``) and budgets run programs or
        # spend the server's time, so only the operator may configure them, never a web request.
        for number, (kind, level) in enumerate(seats, 1):
            if kind == "bot" and level not in bots.bot_names():
                raise LobbyError(422, f"seat {number}: unknown bot level {level!r}; choose one of "
                                      f"{', '.join(bots.bot_names())}")
        try:
            game_options = Options.from_json({**options, "players": len(seats)})
            game_options.validate(loaded)
            if pace is not None:
                self.settings.paces.check(pace)
        except (TypeError, ValueError) as error:
            raise LobbyError(422, str(error)) from None
        token = new_token()
        now = time.time()

        def seat_name(i: int, kind: str, level: str | None) -> str | None:
            if i == seat:
                return name
            if kind == "bot":
                return f"{(level or 'normal').capitalize()} bot"
            return names[i] if i < len(names) and i in reserved else None

        stored = StoredGame(
            id=self._new_id(), edition=loaded.id, options=game_options, seed=self.settings.seed_source(),
            created=datetime.now(UTC), last_move_at=now, pace=pace,
            seats=[StoredSeat(i, kind, level if kind == "bot" else None, seat_name(i, kind, level),
                              hash_token(token) if i == seat else None, reserved=i in reserved and i != seat)
                   for i, (kind, level) in enumerate(seats)],
        )
        match = self._match(stored)
        if match._all_taken and match.clock is not None:
            match.clock.start(match.state.current, now)
            stored.deadline, stored.turn_started = match.clock.deadline, match.clock.turn_started
        await asyncio.shield(self._register(match, stored))
        log.info("game %s created: %s, %d seats", match.id, loaded.id, len(seats))
        match._arm_clock()
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

    async def rematch(self, match: Match, seat: int) -> tuple[Match, str]:
        """The same seats and options again, for the player at ``seat`` of a finished game: the first to
        ask creates the game, and every other person's seat is kept for them. Returns (match, token)."""
        if match.status != "over":
            raise Rejected("illegal", "a rematch can be offered once the game is over")
        if match.seats[seat].left:
            raise Rejected("forbidden", "you left this game, so you cannot offer a rematch of it")
        name = match.seats[seat].display_name
        if match.rematch is not None:
            again = await self.get(match.rematch)
            if again is None or again.status != "waiting" or again.seats[seat].taken:
                raise Rejected("illegal", "the rematch has already started or ended without you")
            taken, token = await again.join(name, seat)
            return again, token
        kinds = [("bot", s.bot) if s.kind == "bot" else ("human", None) for s in match.seats]
        kept = [s.index for s in match.seats if s.kind == "human" and not s.left and s.index != seat]
        options = {k: v for k, v in match.options.to_json().items() if k not in ("players", "rules")}
        pace = match.clock.pace if match.clock is not None else None
        try:
            again, token = await self.create(match.edition.id, kinds, options, name, pace, seat, kept,
                                             [s.name for s in match.seats])
        except LobbyError as error:
            raise Rejected("unavailable", error.message) from None
        await match.offer_rematch(again.id, name)
        return again, token

    async def get(self, game_id: str) -> Match | None:
        """The match, or None if there is no such game; a finished game is loaded from the store.

        Raises :class:`LobbyError` (409) for a stored game this server cannot play.
        """
        match = self.matches.get(game_id)
        if match is not None:
            return match
        stored = await self.journal.run(self.journal.store.load_game, game_id)
        if stored is None:
            return None
        return self.matches.setdefault(game_id, self._rebuild(stored))

    def release(self, match: Match) -> None:
        """Forget a finished match nobody watches; the store still has it."""
        if match.status == "over" and not match.watchers and self.matches.get(match.id) is match:
            del self.matches[match.id]

    # -- expiry ------------------------------------------------------------------------------

    def _expire_and_purge(self) -> tuple[list[str], list[str]]:
        """(ids closed as abandoned, ids deleted) in the store, now (the database thread, or at start-up)."""
        now, store = time.time(), self.journal.store
        expired = store.expire_idle(now - self.settings.idle_expiry, now)
        retention = self.settings.retention
        deleted = store.purge_finished(now - retention) if retention is not None else []
        if expired or deleted:
            log.info("%d idle game(s) closed as abandoned, %d ended game(s) deleted", len(expired), len(deleted))
        return expired, deleted

    async def sweep(self) -> tuple[int, int]:
        """Close idle games as abandoned and delete ended ones past their retention; (closed, deleted)."""
        expired, deleted = await self.journal.run(self._expire_and_purge)
        for game_id in expired:
            match = self.matches.get(game_id)
            if match is not None:
                await match.end("abandoned", "nobody moved for too long: the game was closed as abandoned")
        for game_id in deleted:
            match = self.matches.pop(game_id, None)
            if match is not None:
                await match.close()
        return len(expired), len(deleted)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("expiring idle games failed; trying again in %g s", self.settings.sweep_every)
