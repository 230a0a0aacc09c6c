"""The bridge's main loop: the account's event stream, the challenges it answers, and one
:class:`~tendays.bridge.game_player.GamePlayer` task per game.

The event stream opens with the account's unfinished games (``gameStart``) and open challenges, so
after a dropped connection or a server restart the bridge reconnects (with :class:`Backoff`) and
takes up every game again; a game already being played keeps its one task.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from .backoff import Backoff
from .game_player import GamePlayer
from .policy import Policy
from .site import Busy, Site, SiteError, TokenRefused

__all__ = ["Bridge", "BridgeStopped"]

EVENTS_PATH = "/api/stream/event"
TOKEN_PATH = "/api/token"
BOT_PLAY = "bot:play"
# An accepted challenge counts as a game being played until its gameStart comes, or this long.
ACCEPTED_WAIT = 60.0


class BridgeStopped(RuntimeError):
    """The bridge cannot go on: the site refused its token (``status``, and the site's words in
    ``detail``). The message says why and what to do."""

    def __init__(self, message: str, status: int, detail: str) -> None:
        super().__init__(message)
        self.status = status
        self.detail = detail


class Bridge:
    """Plays on ``site`` as its token's bot account, running ``command`` for each game."""

    def __init__(
        self,
        site: Site,
        policy: Policy,
        command: str,
        log: logging.Logger,
        backoff: Callable[[], Backoff] = Backoff,
        clock: Callable[[], float] = time.monotonic,
        program_name: str = "",
    ) -> None:
        self.site = site
        self.program_name = program_name
        self.policy = policy
        self.command = command
        self.log = log
        self._backoff = backoff
        self._clock = clock
        self.games: dict[str, asyncio.Task[None]] = {}
        self._accepted: dict[str, float] = {}  # game id -> when its challenge was accepted
        self._refused: TokenRefused | None = None
        self._stop = asyncio.Event()
        self.connections = 0

    def stop(self) -> None:
        """Ask :meth:`run` to stop (SIGINT, SIGTERM)."""
        self._stop.set()

    async def run(self) -> None:
        """Until :meth:`stop`; then every program is stopped. Raises :class:`BridgeStopped` when
        the site refuses the token."""
        named = f" ({self.program_name})" if self.program_name else ""
        self.log.info(
            "bridge to %s with %s: program %s%s; %s",
            self.site.server,
            self.site.token_label,
            self.command,
            named,
            self.policy.said(),
        )
        await self._check_token()
        if self._refused is not None:
            refused = self._refused
            await self.site.close()
            raise BridgeStopped(self._refused_words(refused), refused.status, refused.detail)
        events = asyncio.create_task(self._follow_events())
        stopping = asyncio.create_task(self._stop.wait())
        try:
            await asyncio.wait({events, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (events, stopping, *self.games.values()):
                task.cancel()
            await asyncio.gather(events, stopping, *self.games.values(), return_exceptions=True)
            await self.site.close()
            self.log.info("bridge stopped")
        if self._refused is not None:
            refused = self._refused
            raise BridgeStopped(self._refused_words(refused), refused.status, refused.detail)

    async def _check_token(self) -> None:
        """Before anything else: the token must be a bot account's, with ``bot:play``. A site that
        cannot be reached now is not a refusal: the event stream's reconnecting takes it up."""
        try:
            owner = await self.site.get(TOKEN_PATH)
        except TokenRefused as refusal:
            self._refused = refusal
            return
        except (SiteError, httpx.HTTPError) as error:
            self.log.info("could not check the token at %s (%s)", self.site.server, _said(error))
            return
        scopes = owner.get("scopes")
        if not isinstance(scopes, list) or BOT_PLAY not in scopes:
            self._refused = TokenRefused(403, f"this token lacks the scope {BOT_PLAY}")
        elif owner.get("bot_account") is not True:
            name = owner.get("name")
            self._refused = TokenRefused(
                403,
                f"{name} is not a bot account: turn it into one first with "
                "POST /api/bot/account/upgrade (docs/bridge.md)",
            )

    def _refused_words(self, refusal: TokenRefused) -> str:
        return (
            f"the server refused the token ({refusal.status}: {refusal.detail}); make a token "
            f"with bot:play at {self.site.server}/account/tokens"
        )

    @property
    def playing(self) -> int:
        """Games being played, and accepted ones not started yet."""
        now = self._clock()
        for game_id, when in list(self._accepted.items()):
            if game_id in self.games or now - when > ACCEPTED_WAIT:
                del self._accepted[game_id]
        return len(self.games) + len(self._accepted)

    async def _follow_events(self) -> None:
        backoff = self._backoff()
        while True:
            try:
                async with self.site.stream(EVENTS_PATH) as events:
                    self.connections += 1
                    backoff.reset()
                    self.log.info(
                        "%s to %s",
                        "connected" if self.connections == 1 else "reconnected",
                        self.site.server,
                    )
                    async for event in events:
                        await self._on_event(event)
                self.log.info("the event stream ended")
            except TokenRefused as refusal:
                self._refused = refusal
                self.log.info(self._refused_words(refusal))
                self._stop.set()
                return
            except Busy as busy:
                self.log.info("the server is busy (%s)", busy.detail)
                await backoff.sleep_for(busy.retry_after)
                continue
            except SiteError as error:
                self.log.info("the event stream was refused (%s)", error)
            except httpx.HTTPError as error:
                self.log.info("connection to %s lost (%s)", self.site.server, _said(error))
            seconds = backoff.next_wait()
            self.log.info("reconnecting in %.1f s", seconds)
            await backoff.sleep_for(seconds)

    async def _on_event(self, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge":
            await self._answer(event.get("challenge") or {})
        elif kind == "gameStart":
            self._start_game(str((event.get("game") or {}).get("id")))
        elif kind == "gameFinish":
            self.log.info("game %s finished", (event.get("game") or {}).get("id"))
        elif kind == "challengeCanceled":
            self.log.info("challenge %s cancelled", (event.get("challenge") or {}).get("id"))
        elif kind == "challengeDeclined":
            challenge = event.get("challenge") or {}
            self.log.info(
                "challenge %s declined (%s)", challenge.get("id"), challenge.get("reason")
            )

    async def _answer(self, challenge: Mapping[str, Any]) -> None:
        challenge_id = challenge.get("id")
        said = _challenge_said(challenge)
        reason = self.policy.verdict(challenge, self.playing)
        try:
            if reason is None:
                answer = await self.site.post(f"/api/challenges/{challenge_id}/accept")
                if answer.status == 200:
                    game_id = str(answer.body.get("game"))
                    if game_id not in self.games:
                        self._accepted[game_id] = self._clock()
                    self.log.info("accepted challenge %s: %s; game %s", challenge_id, said, game_id)
                else:
                    self.log.info("could not accept challenge %s: %s", challenge_id, answer.detail)
                return
            answer = await self.site.post(
                f"/api/challenges/{challenge_id}/decline", {"reason": reason.value}
            )
            words = "declined" if answer.status == 200 else f"could not decline ({answer.detail})"
            self.log.info("%s challenge %s: %s; reason %s", words, challenge_id, said, reason)
        except TokenRefused:
            raise
        except SiteError as error:
            self.log.info("challenge %s: %s", challenge_id, error)

    def _start_game(self, game_id: str) -> None:
        self._accepted.pop(game_id, None)
        if game_id in self.games:
            return  # resumed after a reconnect: its task is still playing it
        self.log.info("game %s started", game_id)
        player = GamePlayer(self.site, game_id, self.command, self.log, self._backoff())
        task = asyncio.create_task(self._play(player))
        self.games[game_id] = task
        task.add_done_callback(lambda _task: self.games.pop(game_id, None))

    async def _play(self, player: GamePlayer) -> None:
        try:
            await player.play()
        except TokenRefused as refusal:
            self._refused = refusal
            self.log.info(self._refused_words(refusal))
            self._stop.set()
        except Exception as error:  # a bug must not stop the other games
            self.log.info("game %s: stopped by %r", player.game_id, error)


def _challenge_said(challenge: Mapping[str, Any]) -> str:
    clock = challenge.get("clock")
    kind = clock.get("kind", "?") if isinstance(clock, Mapping) else "no clock"
    rated = "rated" if challenge.get("rated") else "casual"
    return f"from {challenge.get('from')}, {challenge.get('edition')}, {kind}, {rated}"


def _said(error: Exception) -> str:
    return str(error) or type(error).__name__
