"""Following other server processes: the lobby's side of
:class:`~tendays.server.storage.cluster.Cluster` (its ``Driver``).

On PostgreSQL several server processes share the database. :class:`OtherProcesses` follows what
the others change in the games held here (their notices, in order, per game), reads a game not held
yet so that it is never older than the database at the moment it was asked for, takes the lease of
a game whose connections come here (:meth:`OtherProcesses.serve_here`: the proxy routes a game's
connections to one process, so that one stores, views and sends its moves), stops driving a game
whose lease another process took, and drives the games this process took over. Each match follows
its own changes (:class:`~tendays.server.matches.following.Follower`); this is the part that knows
every held game.

A game read here is registered as followed by this process before it is read, so the process that
stores its moves announces them here (:mod:`tendays.server.storage.leases`); this process lets go of
the games it no longer holds at each lease renewal, and at once of a game another process took
that no connection here watches.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Iterable, MutableMapping
from typing import TYPE_CHECKING, Protocol

from ..settings import MasterSettings
from ..storage.journal import Journal
from ..storage.rows import StoredGame
from ..vocabulary import MatchStatus
from .seats import LobbyError

if TYPE_CHECKING:
    from .master import Match

__all__ = ["OtherProcesses"]

log = logging.getLogger("tendays.server")


class HeldGames(Protocol):
    """What :class:`OtherProcesses` reads of the lobby, and what it asks the lobby to do."""

    @property
    def matches(self) -> MutableMapping[str, Match]: ...

    def rebuild(self, stored: StoredGame) -> Match:
        """The match of a stored game; :class:`LobbyError` (409) if this server cannot play it."""

    def forget_if_unused(self, match: Match) -> None:
        """Let go of a match nobody here needs any more."""


class Listening(Protocol):
    """What :class:`OtherProcesses` asks of the :class:`~tendays.server.storage.cluster.Cluster`."""

    async def watch(self, game_id: str) -> None:
        """Return once this process hears the game's notices."""

    async def take(self, game_id: str) -> int | None:
        """Take the game's lease from whoever holds it: its new epoch (None: the game is over)."""


class OtherProcesses:
    """Follows the other processes' changes to the held games, and drives the leased ones."""

    def __init__(self, held: HeldGames, journal: Journal, settings: MasterSettings) -> None:
        self._held = held
        self._journal = journal
        self._settings = settings
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        # what other processes said changed, per game, not yet followed
        self._notices: dict[str, list[str]] = {}
        # games being read from the database: their notices are kept
        self._loading: Counter[str] = Counter()
        # leased games this server cannot replay (it keeps them, unplayed)
        self.unplayable: set[str] = set()
        # the cluster, on PostgreSQL (the lobby sets it)
        self.cluster: Listening | None = None
        # games whose lease is being taken here: not given back as stray meanwhile
        self._taking: set[str] = set()
        # games this process may be registered as following (unfollowed once not held)
        self._followed: set[str] = set()
        self._letting_go: set[asyncio.Task[None]] = set()

    def changed(self, game_id: str, notice: str = "") -> None:
        """Another process changed a game: if held here, follow it (notices of one game in their
        order). The notices of a game being loaded are kept, and followed once it is
        (:meth:`load`)."""
        matches = self._held.matches
        if game_id not in matches and not self._loading[game_id]:
            return
        self._notices.setdefault(game_id, []).append(notice)
        if game_id in matches:
            self._follow(game_id)

    def changed_all(self) -> None:
        for game_id in list(self._held.matches):
            self.changed(game_id)

    def watched(self) -> Iterable[str]:
        return [*self._held.matches, *self._loading]

    def taken(self, game_id: str, epoch: int) -> None:
        match = self._held.matches.get(game_id)
        if match is None or not match.driving or match.epoch is None or match.epoch >= epoch:
            return
        self._followed.add(game_id)  # the taker made this process a follower
        log.info(
            "game %s is held by another server process now (its connections went there)", game_id
        )
        match.drive(None)
        self._held.forget_if_unused(match)
        if game_id not in self._held.matches:  # no connection here: its moves need no notice
            letting_go = asyncio.get_running_loop().create_task(self._let_go(now=True))
            self._letting_go.add(letting_go)
            letting_go.add_done_callback(self._letting_go.discard)

    async def serve_here(self, match: Match) -> None:
        """A table connection of ``match`` came to this process: take the game's lease unless it
        is held here already, so that one process stores, views and sends its moves. The process
        that held it stops driving it; its moves, fenced by the lease epoch, are refused from now
        on, and those it stored before are read here first."""
        if (
            self.cluster is None
            or match.driving
            or match.status == MatchStatus.OVER
            or match.id in self.unplayable
            or match.id in self._taking
        ):
            return
        self._taking.add(match.id)
        try:
            since = time.monotonic()
            epoch = await self.cluster.take(match.id)
            if epoch is None:
                return
            await match.refresh()
            match.lease_until = since + self._settings.lease_ttl
            match.drive(epoch)
        except Exception:  # the connection is served all the same, the game held where it was
            log.exception("game %s: taking its lease for a connection here failed", match.id)
        finally:
            self._taking.discard(match.id)

    def _follow(self, game_id: str) -> asyncio.Task[None] | None:
        """Follow the notices of a held game not followed yet; the task that
        does it (None: nothing new)."""
        if game_id in self._notices and game_id not in self._refreshing:
            self._refreshing[game_id] = asyncio.create_task(
                self._refresh(game_id), name=f"refresh of {game_id}"
            )
        return self._refreshing.get(game_id)

    async def load(self, game_id: str) -> Match | None:
        """The held match of ``game_id``, read from the database if it is not held yet; None if
        there is no such game. Its notices are heard from before the read starts, and whatever they
        say was stored after the read (a move by number, anything else by reading again) is applied
        before the match is handed out: a match is never older than the database at the moment it
        was asked for. :class:`LobbyError` (409) for a game this server cannot play."""
        self._loading[game_id] += 1
        try:
            if self.cluster is None:
                stored = await self._journal.run(self._journal.store.load_game, game_id)
            else:
                await self.cluster.watch(game_id)
                self._followed.add(game_id)
                stored = await self._journal.run(self._follow_and_read, game_id)
        finally:
            self._loading[game_id] -= 1
            if not self._loading[game_id]:
                del self._loading[game_id]
        matches = self._held.matches
        match = matches.get(game_id)
        try:
            if match is None and stored is not None:
                match = matches[game_id] = self._held.rebuild(stored)
        finally:
            if match is None and not self._loading[game_id]:
                self._notices.pop(game_id, None)  # nobody follows this game here
        if match is not None and (following := self._follow(game_id)) is not None:
            await asyncio.shield(following)
        return match

    def _follow_and_read(self, game_id: str) -> StoredGame | None:
        """On the database thread: register as following ``game_id`` (its notices are heard
        already), then read it. Every move is either announced here or in the read."""
        store = self._journal.store
        store.leases.follow(game_id)
        return store.load_game(game_id)

    async def _refresh(self, game_id: str) -> None:
        try:
            while notices := self._notices.pop(game_id, None):
                match = self._held.matches.get(game_id)
                if match is None:
                    return
                try:
                    await match.refresh(notices)
                except Exception:
                    log.exception(
                        "game %s: following the changes of another server process failed", game_id
                    )
        finally:
            self._refreshing.pop(game_id, None)

    async def held(self, leases: dict[str, int], since: float) -> None:
        until = since + self._settings.lease_ttl
        matches = self._held.matches
        driven = {m.id for m in matches.values() if m.driving}
        stray = [
            game_id
            for game_id in leases
            if game_id not in driven
            and game_id not in self.unplayable
            and game_id not in self._taking
        ]
        # taken but not driven (reading it failed, or it ended here): let any process take it again
        if stray:
            self._followed |= set(stray)  # given back, this process follows them
            await self._journal.run(self._journal.store.leases.release, stray)
        for match in list(matches.values()):
            if not match.driving or match.epoch is None or match.status == MatchStatus.OVER:
                continue
            if leases.get(match.id) == match.epoch:
                match.lease_until = until
            else:
                log.warning(
                    "game %s is driven by another server process now (its lease was taken over)",
                    match.id,
                )
                self._followed.add(match.id)  # whoever took it made this process a follower
                match.drive(None)
                self._held.forget_if_unused(match)
        self._followed |= set(matches)
        await self._let_go()

    async def _let_go(self, now: bool = False) -> None:
        """Stop following the games followed but no longer held: their moves need no notice for
        this process. Which they are is decided as the statement is handed to the database thread
        (no wait in between), so it runs before the registration of any read that starts later
        and cannot undo it; a game being read or taken is kept. ``now``: on its own (not at a
        renewal), a failure only logged (the registrations left cost notices nobody hears)."""
        held = self._held.matches
        gone = sorted(g for g in self._followed if g not in held and not self._loading[g])
        gone = [g for g in gone if g not in self._taking]
        self._followed -= set(gone)
        if not gone:
            return
        try:
            await self._journal.run(self._journal.store.leases.unfollow, gone)
        except Exception:
            if not now:
                raise
            log.exception("letting go of %d game(s) held elsewhere now failed", len(gone))

    async def took(self, leases: dict[str, int], since: float) -> None:
        for game_id, epoch in leases.items():
            match = self._held.matches.get(game_id)
            try:
                if match is not None:
                    await match.refresh()
                else:
                    match = await self.load(game_id)
                    if match is None:
                        continue
            except LobbyError:
                self.unplayable.add(game_id)
                continue
            except Exception:  # given back at the next renewal, to be taken again
                log.exception("game %s could not be taken over", game_id)
                continue
            match.lease_until = since + self._settings.lease_ttl
            match.drive(epoch)

    async def close(self) -> None:
        for task in self._refreshing.values():
            task.cancel()
        await asyncio.gather(*self._refreshing.values(), *self._letting_go, return_exceptions=True)
