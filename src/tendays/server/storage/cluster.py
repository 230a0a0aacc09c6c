"""Several server processes, on one machine or many, sharing one PostgreSQL database.

Each unfinished game is *held* (its moves stored, its tables viewed and sent, its bots moved and
its clock run) by one process at a time: the one holding the game's lease, a row in the database
naming the owner, until when (by the database's clock), and an epoch that every takeover raises.
The proxy sends every connection of a game to one process (deploy/nginx/tendays.conf hashes the
game id); a process that is sent a connection of a game held elsewhere takes the game's lease at
once (:meth:`~tendays.server.storage.leases.LeaseStore.take`), so games move to where their
connections go. The owner renews its leases every third of their length; a process that dies
(kill -9, a machine gone) stops renewing, and once its leases run out the others take its games
over, each takeover raising the epoch. A process that stops cleanly gives its leases back at once,
so a rolling restart hands every game on without waiting.

Any process may still hold a game's table connections and store a person's move: a move is row
(game, number) of the moves table, so of two processes that try to store move 31 one succeeds and
the other is told the table changed, exactly as two connections of one process would be. The moves
of the holding process (bots, the clock) also carry its lease epoch, checked in the same transaction
by updating the game's row: a paused owner that wakes after its games were taken over finds its
epoch gone and its moves refused.

Every write that another process may need also notifies the others (``pg_notify``, delivered when
the transaction commits; the channels and the format are in :mod:`tendays.server.storage.notices`):
a move only when a process besides its writer holds the game, its lease owner or a follower
(:mod:`tendays.server.storage.leases`). A process listens only to the channels of the games it has
in memory, so its work grows with its own games, not the site's.
``taken EPOCH`` (:func:`taken`) says a process took the game's lease, so the one that held it stops
driving at once; "released" (game ``*``) that a process gave its leases back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from sqlalchemy.engine import make_url

from ..settings import MasterSettings
from ..vocabulary import ChangeKind
from .database import database_url
from .leases import LeaseStore, taken
from .notices import CHANNEL, channel, read_announcement

__all__ = ["Cluster", "Database", "Driver", "taken"]

T = TypeVar("T")

_WATCH_WAIT = 5.0  # seconds a game's reader waits to hear its notices, at most

log = logging.getLogger("tendays.server")


class SharedStore(Protocol):
    """What the cluster reads of the :class:`~tendays.server.storage.store.Store` (which sends
    the notices this module hears, so this module does not import it)."""

    @property
    def owner(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def leases(self) -> LeaseStore: ...


class Database(Protocol):
    """What the cluster asks of the :class:`~tendays.server.storage.journal.Journal`: its store, and
    a call run on its database thread."""

    @property
    def store(self) -> SharedStore: ...

    async def run(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T: ...


class Driver(Protocol):
    """What the cluster asks of the lobby."""

    def changed(self, game_id: str, notice: str = "") -> None:
        """Another process changed ``game_id`` (``notice``: what, e.g. a
        move): follow it if held here."""

    def changed_all(self) -> None:
        """Notices may have been missed (the listening connection was
        lost): read every held game again."""

    def watched(self) -> Iterable[str]:
        """The games whose notices this process needs: those it has in memory or is reading."""

    def taken(self, game_id: str, epoch: int) -> None:
        """Another process took ``game_id``'s lease at ``epoch``: stop driving it if held here."""

    async def held(self, leases: dict[str, int], since: float) -> None:
        """The leases this process still holds ({game id: epoch}), renewed at ``since`` (monotonic,
        taken before asking); stop driving any other game."""

    async def took(self, leases: dict[str, int], since: float) -> None:
        """This process took these games over ({game id: epoch}) at ``since``: drive them."""


class Cluster:
    """Keeps this process's leases, takes over games whose owner went
    away, and listens for changes."""

    def __init__(self, journal: Database, settings: MasterSettings, driver: Driver) -> None:
        self.journal = journal
        self.settings = settings
        self.driver = driver
        self.owner = journal.store.owner
        self.listening = asyncio.Event()  # set once notices are heard (tests wait for it)
        # told the account of a :func:`sessions_ended` notice (the accounts install it)
        self.on_sessions_ended: Callable[[int], None] | None = None
        # told the account of an :func:`inbox_changed` notice (the notifications install it)
        self.on_inbox: Callable[[int], None] | None = None
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        # the game channels listened to, and those asked for: each waits until it is listened to
        self._channels: set[str] = set()
        self._asked: dict[str, asyncio.Future[None]] = {}
        self._rewatch = asyncio.Event()  # the channels asked for changed
        self._prune = False  # let go of the channels of games no longer in memory
        # channels watched since the last pruning: kept, their game may not be in memory yet
        self._recent: set[str] = set()

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._listen(), name="notices from other server processes"),
            asyncio.create_task(self._keep_leases(), name="game leases"),
        ]

    async def close(self) -> None:
        """Stop renewing and taking leases (the lobby gives them back
        once its games are stopped)."""
        # the flag as well as the cancel: a cancel that comes as a wake does can be lost in the wait
        self._stopping = True
        self._wake.set()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for waiting in self._asked.values():
            waiting.cancel()

    async def watch(self, game_id: str) -> None:
        """Return once this process hears ``game_id``'s notices: call it before reading the game,
        so that nothing stored after the read goes unheard."""
        name = channel(game_id)
        self._recent.add(name)
        if name in self._channels:
            return
        waiting = self._asked.get(name)
        if waiting is None:
            waiting = self._asked[name] = asyncio.get_running_loop().create_future()
            self._rewatch.set()
        try:
            await asyncio.wait_for(asyncio.shield(waiting), _WATCH_WAIT)
        except TimeoutError:  # not listening now: every held game is read again once it is
            log.warning("game %s: its notices are not heard yet (listening again)", game_id)

    async def take(self, game_id: str) -> int | None:
        """Take ``game_id``'s lease from whoever holds it (its connections come here): the new
        epoch, or None if the game is over. The process that held it hears of it at once."""
        await self.watch(game_id)
        leases = self.journal.store.leases
        return await self.journal.run(leases.take, game_id, self.settings.lease_ttl)

    async def release(self) -> None:
        """Give back every lease, so the other processes take these games
        over now, not when they expire."""
        with contextlib.suppress(Exception):  # the database is gone: the leases simply run out
            released = await self.journal.run(self.journal.store.leases.release)
            if released:
                log.info(
                    "gave back the leases of %d game(s) to the other server processes", released
                )

    async def _keep_leases(self) -> None:
        leases, ttl = self.journal.store.leases, self.settings.lease_ttl
        while not self._stopping:
            try:
                since = time.monotonic()
                await self.driver.held(await self.journal.run(leases.renew, ttl), since)
                self._prune = True  # games left memory since the last renewal
                self._rewatch.set()
                since = time.monotonic()
                claimed = await self.journal.run(leases.claim, ttl, self.settings.lease_batch)
                if claimed:
                    log.info(
                        "took over %d game(s) whose server process went away or stopped",
                        len(claimed),
                    )
                    await self.driver.took(claimed, since)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("renewing or taking game leases failed; trying again")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.settings.lease_renew):
                    await self._wake.wait()

    async def _listen(self) -> None:
        import psycopg

        conninfo = make_url(database_url(self.journal.store.url)).set(drivername="postgresql")
        address = conninfo.render_as_string(hide_password=False)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(address, autocommit=True) as db:
                    await db.execute(f"LISTEN {CHANNEL}")
                    await self._subscribe(db, everything=True)
                    self.listening.set()
                    # notices may have been missed: before this connection, or while it was lost
                    self.driver.changed_all()
                    await self._hear(db)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self.listening.clear()
                self._channels = set()
                log.warning("listening for other server processes failed (%s); again in 1 s", error)
                await asyncio.sleep(1.0)

    async def _hear(self, db: Any) -> None:
        """Hear notices on ``db`` until the connection fails; in between, listen to the channels
        asked for and let go of those no longer needed."""
        while True:
            self._rewatch.clear()
            if self._asked or self._prune:  # asked for while the last ones were listened to
                await self._subscribe(db)
                continue
            reading = asyncio.create_task(self._read(db))
            asked = asyncio.create_task(self._rewatch.wait())
            try:
                await asyncio.wait({reading, asked}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (reading, asked):
                    task.cancel()
                await asyncio.gather(reading, asked, return_exceptions=True)
            failed = None if reading.cancelled() else reading.exception()
            if failed is not None:
                raise failed

    async def _read(self, db: Any) -> None:
        # Cancelled only while it waits for the socket: notices already received are all heard
        # first (none is lost; psycopg keeps those that come during a LISTEN for the next read).
        async for notice in db.notifies():
            self._heard(notice.payload)

    async def _subscribe(self, db: Any, everything: bool = False) -> None:
        """LISTEN to the channels asked for (``everything``: and those of every game in memory);
        after a renewal, UNLISTEN those of games no longer in memory."""
        wanted = set(self._asked)
        if everything or self._prune:
            wanted |= {channel(game_id) for game_id in self.driver.watched()}
        if self._prune:
            self._prune = False
            wanted |= self._recent
            self._recent = set()
            for name in sorted(self._channels - wanted):
                if name in self._recent:  # watched meanwhile
                    continue
                self._channels.discard(name)  # first: a watch from now on asks for it again
                await db.execute(f"UNLISTEN {name}")
        for name in sorted(wanted - self._channels):
            await db.execute(f"LISTEN {name}")
            self._channels.add(name)
        for name in wanted:
            waiting = self._asked.pop(name, None)
            if waiting is not None and not waiting.done():
                waiting.set_result(None)

    def _heard(self, payload: str) -> None:
        sender, game_id, what = read_announcement(payload)
        if sender == self.owner:
            return
        kind, _, rest = what.partition(" ")
        if kind == ChangeKind.RELEASED:
            self._wake.set()  # take the games of a process that stopped, now
        elif game_id == "*" and kind == ChangeKind.SESSIONS:
            if self.on_sessions_ended is not None and rest.isdigit():
                self.on_sessions_ended(int(rest))
        elif game_id == "*" and kind == ChangeKind.INBOX:
            if self.on_inbox is not None and rest.isdigit():
                self.on_inbox(int(rest))
        elif kind == ChangeKind.TAKEN:
            if rest.isdigit():
                self.driver.taken(game_id, int(rest))
        else:
            self.driver.changed(game_id, what)
