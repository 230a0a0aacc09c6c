"""Several server processes, on one machine or many, sharing one PostgreSQL database.

Each unfinished game is *driven* (its bots move and its clock runs) by one process at a time: the
one holding the game's lease, a row in the database naming the owner, until when (by the database's
clock), and an epoch that every takeover raises. The owner renews its leases every third of their
length; a process that dies (kill -9, a machine gone) stops renewing, and once its leases run out
the others take its games over, each takeover raising the epoch. A process that stops cleanly gives
its leases back at once, so a rolling restart hands every game on without waiting.

Any process may hold a game's table connections and store a person's move: a move is row (game,
number) of the moves table, so of two processes that try to store move 31 one succeeds and the other
is told the table changed, exactly as two connections of one process would be. The moves of the
driving process (bots, the clock) also carry its lease epoch, checked in the same transaction by
updating the game's row: a paused owner that wakes after its games were taken over finds its epoch
gone and its moves refused.

Every write also notifies the others (``pg_notify`` on the ``tendays`` channel, delivered when the
transaction commits), which read what changed and tell their connections: a move made on one process
reaches the tables held by the others within milliseconds.

A notice reads ``SENDER GAME WHAT`` (:func:`announcement`); a stored move's WHAT carries the move
and the clock after it (:class:`MoveNotice`), so the others follow it without reading the database.
Notices about no game name the game ``*``: "released" (a process gave its leases back) and
``sessions ACCOUNT`` (:func:`sessions_ended`: sessions of an account ended, its table connections
are checked by whoever holds them) and ``inbox ACCOUNT`` (:func:`inbox_changed`: the account's
inbox changed, its open pages read it again).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol, TypeVar

from sqlalchemy import text
from sqlalchemy.engine import Connection, make_url

from ..settings import MasterSettings
from .database import database_url
from .leases import LeaseStore

__all__ = [
    "CHANNEL",
    "Cluster",
    "Database",
    "Driver",
    "MoveNotice",
    "announcement",
    "inbox_changed",
    "notify",
    "read_announcement",
    "sessions_ended",
]

T = TypeVar("T")

CHANNEL = "tendays"  # the LISTEN/NOTIFY channel

log = logging.getLogger("tendays.server")


def announcement(sender: str, game_id: str, what: str) -> str:
    """A notice: ``sender`` (a process, :attr:`Store.owner`) changed ``game_id``; ``what``: how
    ("seat", "chat", "ended", "rematch", a :class:`MoveNotice`), or "released" with game "*": it
    gave its leases back."""
    return f"{sender} {game_id} {what}"


def notify(db: Connection, sender: str, game_id: str, what: str) -> None:
    """On PostgreSQL, tell the other server processes (once ``db``'s transaction commits) what
    ``sender`` changed; elsewhere nothing (one process alone, or none)."""
    if db.dialect.name == "postgresql":
        db.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": CHANNEL, "payload": announcement(sender, game_id, what)},
        )


_SESSIONS_ENDED = "sessions"


def sessions_ended(account_id: int) -> str:
    """The WHAT of a notice (game ``*``): sessions of the account ended."""
    return f"{_SESSIONS_ENDED} {account_id}"


_INBOX = "inbox"


def inbox_changed(account_id: int) -> str:
    """The WHAT of a notice (game ``*``): the account's inbox changed."""
    return f"{_INBOX} {account_id}"


def read_announcement(payload: str) -> tuple[str, str, str]:
    """(sender, game id, what) of an :func:`announcement`; missing parts are empty."""
    sender, game_id, what = (payload.split(" ", 2) + ["", ""])[:3]
    return sender, game_id, what


class MoveNotice(NamedTuple):
    """A stored move as the other server processes hear of it, written ``move NUMBER SEAT AT
    DEADLINE STARTED BANK TIMEOUTS TEXT`` ("-" for none; the text may hold spaces)."""

    number: int
    seat: int
    move: str
    at: float
    deadline: float | None
    turn_started: float | None
    bank: float | None
    timeouts: int | None

    def text(self) -> str:
        def part(value: float | None) -> str:
            return "-" if value is None else repr(value)

        return (
            f"move {self.number} {self.seat} {self.at!r} {part(self.deadline)} "
            f"{part(self.turn_started)} {part(self.bank)} {part(self.timeouts)} {self.move}"
        )

    @staticmethod
    def read(text: str) -> MoveNotice:
        """The move of a notice's :meth:`text`; ``ValueError`` if it is not one."""
        kind, number, seat, at, deadline, started, bank, timeouts, move = text.split(" ", 8)
        if kind != "move":
            raise ValueError(f"not a move: {text[:40]!r}")

        def value(part: str) -> float | None:
            return None if part == "-" else float(part)

        spent = value(timeouts)
        return MoveNotice(
            int(number),
            int(seat),
            move,
            float(at),
            value(deadline),
            value(started),
            value(bank),
            None if spent is None else int(spent),
        )


class SharedStore(Protocol):
    """What the cluster reads of the :class:`~tendays.server.storage.store.Store` (which writes
    notices in this module's format, so this module does not import it)."""

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
        lost = False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(address, autocommit=True) as db:
                    await db.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if lost:
                        self.driver.changed_all()
                        lost = False
                    async for notice in db.notifies():
                        self._heard(notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                lost = True
                self.listening.clear()
                log.warning("listening for other server processes failed (%s); again in 1 s", error)
                await asyncio.sleep(1.0)

    def _heard(self, payload: str) -> None:
        sender, game_id, what = read_announcement(payload)
        if sender == self.owner:
            return
        if what == "released":
            self._wake.set()  # take the games of a process that stopped, now
        elif game_id == "*" and what.startswith(_SESSIONS_ENDED + " "):
            account = what.removeprefix(_SESSIONS_ENDED + " ")
            if self.on_sessions_ended is not None and account.isdigit():
                self.on_sessions_ended(int(account))
        elif game_id == "*" and what.startswith(_INBOX + " "):
            account = what.removeprefix(_INBOX + " ")
            if self.on_inbox is not None and account.isdigit():
                self.on_inbox(int(account))
        else:
            self.driver.changed(game_id, what)
