"""Ending an account's sessions everywhere: its seat links revoked, every server process told, and
the table connections that held on them closed.

A table connection (WebSocket) plays a seat, or watches, on the authority of a signed-in session
(its cookie's), of a seat link (the token of its hello), or of both. When sessions of an account
end (sign-out, sign-out everywhere, a new password, the operator's reset, the account deleted or
closed):

- every seat of the account in an unfinished game gets a new token hash in the same transaction, so
  the old seat links open nothing, wherever they were copied to; the account's own way in (the
  hello's ``"account": true``, ``GET /api/games/{id}/seat``) opens the seat as before;
- on PostgreSQL the transaction also sends, when it commits, a ``seat`` notice for each of those
  games (every process holding one reads its seats again) and a ``sessions ACCOUNT`` notice
  (:func:`~tendays.server.storage.cluster.sessions_ended`);
- each server process then closes its connections held on a session that no longer lives, or on a
  seat link of the account (:class:`OpenTables`).

A notice can be missed: the operator's reset runs in a process with no server, and SQLite has no
notices. So a connection also checks what it holds on before it acts on a message
(:func:`still_held`): a session by one primary-key read of the sessions table, a seat link of an
account's seat by one primary-key read of its seat row. A seat link of an anonymous seat never ends
this way, so it costs nothing.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from ..matches.lobby import Lobby
from ..matches.seats import hash_token, new_token
from ..storage.notices import notify, sessions_ended
from ..storage.schema import GameTable, SeatTable, SessionTable
from ..vocabulary import ChangeKind

__all__ = [
    "OUTSIDE_SERVER",
    "Ending",
    "HeldTable",
    "OpenTables",
    "Revoked",
    "SessionEnds",
    "close_once",
    "follow_revoked",
    "live_sessions",
    "revoke_seat_links",
    "still_held",
]

T = TypeVar("T")

log = logging.getLogger("tendays.server")

# {game id: {seat: its new token hash}}
Revoked = dict[str, dict[int, str]]

# The sender of the notices of a change made outside every server (the operator's commands).
OUTSIDE_SERVER = "operator"


class Ending(enum.Enum):
    """Why a table connection is closed."""

    SIGNED_OUT = "signed_out"  # the session it was signed in to ended
    LINK_REVOKED = "link_revoked"  # the seat link it opened the seat with was replaced


@dataclass(eq=False)
class HeldTable:
    """An open table connection and what it holds on: the session it is signed in to (its hash and
    account), and the seat link it opened another account's seat with (that account, the seat and
    the link's token hash). ``close`` ends the connection, saying why in its reader's words."""

    game_id: str
    seat: int | None
    close: Callable[[Ending], Awaitable[None]]
    session_hash: str | None = None
    session_account: int | None = None
    link_account: int | None = None
    token_hash: str | None = None
    closing: bool = field(default=False)

    @property
    def accounts(self) -> set[int]:
        return {a for a in (self.session_account, self.link_account) if a is not None}


class OpenTables:
    """This process's table connections that hold on a session or on an account's seat link, by
    account."""

    def __init__(self) -> None:
        self._by_account: dict[int, set[HeldTable]] = {}

    def add(self, table: HeldTable) -> None:
        for account in table.accounts:
            self._by_account.setdefault(account, set()).add(table)

    def discard(self, table: HeldTable) -> None:
        for account in table.accounts:
            held = self._by_account.get(account)
            if held is not None:
                held.discard(table)
                if not held:
                    del self._by_account[account]

    def of(self, account_id: int) -> list[HeldTable]:
        return list(self._by_account.get(account_id, ()))

    async def sessions_ended(self, account_id: int, live: Iterable[str]) -> int:
        """Sessions of the account ended (``live``: the hashes of its sessions still alive): close
        its connections held on any other session or on one of its seat links; how many."""
        alive = set(live)
        closed = 0
        for table in self.of(account_id):
            if table.link_account == account_id:
                why = Ending.LINK_REVOKED
            elif table.session_account == account_id and table.session_hash not in alive:
                why = Ending.SIGNED_OUT
            else:
                continue
            closed += await close_once(table, why)
        return closed


async def close_once(table: HeldTable, why: Ending) -> int:
    """Close ``table`` unless it is closing already; 1 if this call closed it."""
    if table.closing:
        return 0
    table.closing = True
    await table.close(why)
    return 1


def revoke_seat_links(db: Connection, account_id: int, sender: str) -> Revoked:
    """In ``db``'s transaction: a new token hash (of a token nobody is told) for every seat of the
    account in an unfinished game, and the notices that tell the other server processes (sent as
    ``sender`` when the transaction commits). The seats whose links changed."""
    seats = db.execute(
        select(SeatTable.game_id, SeatTable.seat)
        .join(GameTable, GameTable.id == SeatTable.game_id)
        .where(
            SeatTable.account_id == account_id,
            SeatTable.token_hash.is_not(None),
            GameTable.finished.is_(False),
        )
    ).all()
    revoked: Revoked = {}
    for game_id, seat in seats:
        token_hash = hash_token(new_token())
        db.execute(
            update(SeatTable)
            .where(SeatTable.game_id == game_id, SeatTable.seat == seat)
            .values(token_hash=token_hash)
        )
        revoked.setdefault(game_id, {})[seat] = token_hash
    for game_id in revoked:
        notify(db, sender, game_id, ChangeKind.SEAT)
    notify(db, sender, "*", sessions_ended(account_id))
    return revoked


def follow_revoked(lobby: Lobby, revoked: Revoked) -> None:
    """The games held in this process take the new token hashes at once (the database already has
    them), so the old links open nothing here from now on."""
    for game_id, seats in revoked.items():
        match = lobby.matches.get(game_id)
        if match is None:
            continue
        for index, token_hash in seats.items():
            if index < len(match.seats):
                match.seats[index].token_hash = token_hash


def live_sessions(db: Connection, hashes: Iterable[str], now: float) -> set[str]:
    """Which of these session hashes are of sessions that have not ended (primary-key reads)."""
    wanted = sorted(set(hashes))
    if not wanted:
        return set()
    return set(
        db.scalars(
            select(SessionTable.id_hash).where(
                SessionTable.id_hash.in_(wanted), SessionTable.expires > now
            )
        )
    )


def still_held(db: Connection, table: HeldTable, now: float) -> Ending | None:
    """Whether ``table`` still holds on what it opened with: None if so, else why not. At most one
    primary-key read for its session and one for its seat link's seat."""
    if table.session_hash is not None and not live_sessions(db, [table.session_hash], now):
        return Ending.SIGNED_OUT
    if table.link_account is not None and table.seat is not None:
        stored = db.scalar(
            select(SeatTable.token_hash).where(
                SeatTable.game_id == table.game_id, SeatTable.seat == table.seat
            )
        )
        if stored != table.token_hash:
            return Ending.LINK_REVOKED
    return None


class SessionEnds:
    """This process's part in ending sessions: it follows a revocation made here, closes the
    connections that held on what ended (told by this process or, through the cluster, by another),
    and checks a connection before it acts on a message."""

    def __init__(self, lobby: Lobby, clock: Callable[[], float]) -> None:
        self.lobby = lobby
        self.clock = clock
        self.tables = OpenTables()
        self._closing: set[asyncio.Task[None]] = set()
        if lobby.cluster is not None:
            lobby.cluster.on_sessions_ended = self._heard

    @property
    def sender(self) -> str:
        """Who this process is in the notices it sends."""
        return self.lobby.journal.store.owner

    async def _read(self, work: Callable[[Connection], T]) -> T:
        """``work`` on a reader thread: a check never waits behind the writer's batch of moves."""
        engine = self.lobby.journal.store.engine

        def run() -> T:
            with engine.connect() as db:
                return work(db)

        return await self.lobby.journal.read(run)

    async def ended(self, account_id: int, revoked: Revoked) -> None:
        """Sessions of the account ended and its seat links were revoked (committed): the games held
        here take the new links and the connections that held on what ended are closed."""
        follow_revoked(self.lobby, revoked)
        await self.close_ended(account_id)

    async def close_ended(self, account_id: int) -> int:
        """Close this process's connections of the account held on a session that ended or on one
        of its seat links (one read of the sessions they hold on); how many."""
        tables = self.tables.of(account_id)
        if not tables:
            return 0
        hashes = [
            t.session_hash
            for t in tables
            if t.session_hash is not None and t.session_account == account_id
        ]
        now = self.clock()
        live = await self._read(lambda db: live_sessions(db, hashes, now))
        return await self.tables.sessions_ended(account_id, live)

    def _heard(self, account_id: int) -> None:
        """Another process (or the operator) ended sessions of the account."""
        task = asyncio.create_task(self._close_heard(account_id), name="ended sessions")
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _close_heard(self, account_id: int) -> None:
        try:
            await self.close_ended(account_id)
        except Exception:  # each connection still checks before it acts on a message
            log.exception("closing the table connections of ended sessions failed")

    async def check(self, table: HeldTable) -> Ending | None:
        """Why ``table`` no longer holds on what it opened with, or None (it does); nothing is read
        for a connection that holds on neither a session nor an account's seat link."""
        if table.session_hash is None and table.link_account is None:
            return None
        now = self.clock()
        return await self._read(lambda db: still_held(db, table, now))
