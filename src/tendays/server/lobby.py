"""The lobby: every match the server holds. It creates, joins, finds and restores them from the store."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from tendays import bots
from tendays.engine import Options, load_edition

from .master import LobbyError, MasterSettings, Match, hash_token, new_token
from .store import Journal, StoredGame, StoredSeat
from .thinking import Thinker

__all__ = ["Lobby"]

log = logging.getLogger("tendays.server")


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

    def _rebuild(self, stored: StoredGame) -> Match:
        """The match of a stored game; :class:`LobbyError` (409) if this server cannot play it."""
        try:
            return self._match(stored)
        except (ValueError, KeyError) as error:
            log.error("game %s cannot be played by this server, so it is not served: %s", stored.id, error)
            raise LobbyError(409, f"game {stored.id} cannot be played by this server: {error}") from None

    def restore(self) -> int:
        """Rebuild every unfinished game from its stored record; returns how many. Call before serving.

        A game this server cannot replay (stored under rules it does not know, say) is left out, with a
        log line saying why; the others are served as usual.
        """
        for stored in self.journal.store.load_unfinished():
            with contextlib.suppress(LobbyError):
                self.matches[stored.id] = self._rebuild(stored)
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
        # Only the registry's plain names: external engines (``cmd:...``) and budgets run programs or
        # spend the server's time, so only the operator may configure them, never a web request.
        for number, (kind, level) in enumerate(seats, 1):
            if kind == "bot" and level not in bots.bot_names():
                raise LobbyError(422, f"seat {number}: unknown bot level {level!r}; choose one of "
                                      f"{', '.join(bots.bot_names())}")
        try:
            game_options = Options.from_json({**options, "players": len(seats)})
            game_options.validate(loaded)
        except (TypeError, ValueError) as error:
            raise LobbyError(422, str(error)) from None
        token = new_token()
        stored = StoredGame(
            id=self._new_id(),
            edition=loaded.id,
            options=game_options,
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

