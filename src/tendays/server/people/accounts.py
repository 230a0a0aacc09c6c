"""Accounts: sign up, sign in (within limits), sessions, a new password, deletion, and one's own
data.

An account is a name (cleaned like a seat's name, unique regardless of case and invisible
characters) and an Argon2id hash of its password (:mod:`~tendays.server.people.passwords`). A
session is a random id that only its browser knows (in a cookie): the database keeps its SHA-256,
the account, when it ends, and the CSRF token that every changing request of that browser must
carry. Signing in always makes a new session (the one the browser had ends), so no session id chosen
by someone else survives it; signing out ends the session in the database, and "sign out everywhere"
ends them all.

The database work runs on the database thread (:class:`~tendays.server.storage.journal.Journal`),
the hashing on threads of its own (at most two at once: each takes 64 MiB), so neither holds up the
event loop. Refusals are :class:`AccountError` with the HTTP status and the reason in the asker's
language. Deleting an account keeps its games: its seats are then "deleted player"
(:data:`~tendays.server.matches.wire.DELETED_PLAYER`); its ratings, their history, its seeks and
sessions go.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from tendays.engine.i18n import gettext as _

from ..matches.lobby import Lobby
from ..matches.seats import Rejected
from ..matches.text import clean_name, name_key
from ..matches.wire import DELETED_PLAYER
from ..storage.schema import (
    AccountTable,
    GameTable,
    RatingHistoryTable,
    RatingTable,
    SeatTable,
    SeekTable,
    SessionTable,
)
from .export import account_data
from .passwords import dummy_hash, hash_password, needs_rehash, password_problem, verify
from .sign_in_limits import SignInLimits, address_key, name_key_of, sign_up_key

__all__ = [
    "SESSION_SECONDS",
    "Account",
    "AccountError",
    "Accounts",
    "Session",
    "Ticket",
    "reset_password",
]

SESSION_SECONDS = 30 * 24 * 3600.0  # a session ends 30 days after its sign-in

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Account:
    """A person with an account: its id in the database and its name as typed."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Session:
    """A signed-in browser: whose it is, the CSRF token its changing
    requests carry, and when it ends."""

    account: Account
    csrf: str
    expires: float


@dataclass(frozen=True, slots=True)
class Ticket:
    """A new session: ``id`` is the cookie's secret (the database keeps only its hash)."""

    id: str
    session: Session


class AccountError(Exception):
    """A request about an account that cannot be granted: the HTTP status, the reason in words, and
    for a sign-in limit the seconds to wait."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def session_hash(session_id: str) -> str:
    """What the database keeps of a session id: its SHA-256, hex."""
    return hashlib.sha256(session_id.encode("utf-8", "replace")).hexdigest()


def account_name(name: str) -> str:
    """An account's name, cleaned like a seat's; :class:`AccountError` (422)
    in words if it cannot be one."""
    try:
        cleaned = clean_name(name)
    except ValueError as error:
        raise AccountError(422, str(error)) from None
    if name_key(cleaned) in (name_key(DELETED_PLAYER), name_key(_(DELETED_PLAYER))):
        raise AccountError(422, _("this name is kept for deleted accounts; choose another"))
    # browsers read /players/.. as the folder above: no link could reach the profile
    if cleaned in (".", ".."):
        raise AccountError(422, _("a name of one or two dots cannot be; choose another"))
    return cleaned


class Accounts:
    """Every account of the server's database (see the module's text)."""

    def __init__(
        self,
        lobby: Lobby,
        limits: SignInLimits | None = None,
        session_seconds: float = SESSION_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.lobby = lobby
        self.limits = limits or SignInLimits()
        self.session_seconds = session_seconds
        self.clock = clock
        self._hashing = asyncio.Semaphore(2)

    @property
    def engine(self) -> Engine:
        return self.lobby.journal.store.engine

    async def _db(self, work: Callable[[Connection], T]) -> T:
        """``work`` in one transaction on the database thread."""

        def run() -> T:
            with self.engine.begin() as db:
                return work(db)

        return await self.lobby.journal.run(run)

    async def _slow(self, function: Callable[..., T], *args: Any) -> T:
        async with self._hashing:
            return await asyncio.to_thread(function, *args)

    # -- signing up and in ----------------------------------------------------------------------

    async def sign_up(
        self, name: str, password: str, replacing: str | None = None, address: str | None = None
    ) -> Ticket:
        """A new account, signed in; 422 for a name or password that cannot be, 409 for a name
        taken, 429 when ``address`` made as many accounts as it may (each costs a slow hash) within
        the limits' window."""
        name = account_name(name)
        problem = password_problem(password, name)
        if problem is not None:
            raise AccountError(422, problem)
        now = self.clock()
        if address is not None:
            keys = [sign_up_key(address)]
            wait = await self._db(lambda db: self.limits.waiting(db, keys, now))
            if wait > 0:
                raise AccountError(
                    429,
                    _(
                        "too many accounts made from your address; try again in {minutes} min"
                    ).format(minutes=max(1, round(wait / 60))),
                    retry_after=wait,
                )
            # every sign-up counts, made or not
            await self._db(lambda db: self.limits.fail(db, keys, now))
        password_hash = await self._slow(hash_password, password)

        def create(db: Connection) -> Ticket | None:
            try:
                with db.begin_nested():
                    account_id = db.execute(
                        insert(AccountTable).values(
                            name=name,
                            name_key=name_key(name),
                            password_hash=password_hash,
                            created=now,
                        )
                    ).inserted_primary_key[0]  # type: ignore[index]
            except IntegrityError:
                return None
            return self._new_session(db, Account(int(account_id), name), replacing, now)

        ticket = await self._db(create)
        if ticket is None:
            raise AccountError(409, _("the name {name} is taken; choose another").format(name=name))
        return ticket

    async def sign_in(
        self, name: str, password: str, address: str, replacing: str | None = None
    ) -> Ticket:
        """A new session for the account; 401 for a wrong name or password (the same answer for
        both), 429 while the name or the address has failed too often."""
        try:
            key = name_key(clean_name(name))
        except ValueError:
            key = name_key(name)
        keys = [name_key_of(key), address_key(address)]
        now = self.clock()
        await self._refuse_while_limited(keys, now)
        row = await self._db(
            lambda db: db.execute(
                select(AccountTable.id, AccountTable.name, AccountTable.password_hash).where(
                    AccountTable.name_key == key
                )
            ).first()
        )
        good = await self._slow(verify, row.password_hash if row else dummy_hash(), password)
        if row is None or not good:
            await self._db(lambda db: self.limits.fail(db, keys, self.clock()))
            raise AccountError(401, _("wrong name or password"))
        account = Account(row.id, row.name)
        rehashed = (
            await self._slow(hash_password, password) if needs_rehash(row.password_hash) else None
        )

        def enter(db: Connection) -> Ticket:
            SignInLimits.clear(db, keys[0])
            if rehashed is not None:
                db.execute(
                    update(AccountTable)
                    .where(AccountTable.id == account.id)
                    .values(password_hash=rehashed)
                )
            db.execute(delete(SessionTable).where(SessionTable.expires <= now))
            self.limits.forget_old(db, now)
            return self._new_session(db, account, replacing, now)

        return await self._db(enter)

    def _new_session(
        self, db: Connection, account: Account, replacing: str | None, now: float
    ) -> Ticket:
        # the browser's old session ends: a sign-in never keeps a session id it did not make
        if replacing:
            db.execute(delete(SessionTable).where(SessionTable.id_hash == session_hash(replacing)))
        session_id, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        expires = now + self.session_seconds
        db.execute(
            insert(SessionTable).values(
                id_hash=session_hash(session_id),
                account_id=account.id,
                csrf=csrf,
                created=now,
                expires=expires,
            )
        )
        return Ticket(session_id, Session(account, csrf, expires))

    # -- sessions -----------------------------------------------------------------------------

    async def session(self, session_id: str) -> Session | None:
        """The live session with this id, or None (unknown, ended or expired)."""
        if not 0 < len(session_id) <= 128:
            return None
        now = self.clock()
        row = await self._db(
            lambda db: db.execute(
                select(AccountTable.id, AccountTable.name, SessionTable.csrf, SessionTable.expires)
                .join(AccountTable, AccountTable.id == SessionTable.account_id)
                .where(SessionTable.id_hash == session_hash(session_id), SessionTable.expires > now)
            ).first()
        )
        return None if row is None else Session(Account(row.id, row.name), row.csrf, row.expires)

    async def sign_out(self, session_id: str) -> None:
        await self._db(
            lambda db: db.execute(
                delete(SessionTable).where(SessionTable.id_hash == session_hash(session_id))
            )
        )

    async def sign_out_everywhere(self, account: Account) -> None:
        await self._db(
            lambda db: db.execute(delete(SessionTable).where(SessionTable.account_id == account.id))
        )

    # -- the account's own changes ------------------------------------------------------------

    async def _refuse_while_limited(self, keys: list[str], now: float) -> None:
        """429 while the name or the address has failed to sign in too often."""
        wait = await self._db(lambda db: self.limits.waiting(db, keys, now))
        if wait > 0:
            raise AccountError(
                429,
                _("too many failed sign-ins; try again in {minutes} min").format(
                    minutes=max(1, round(wait / 60))
                ),
                retry_after=wait,
            )

    async def _check_password(self, account: Account, password: str, address: str) -> None:
        """401 unless ``password`` is the account's (counted like a sign-in,
        so a session cannot guess it)."""
        keys = [name_key_of(name_key(account.name)), address_key(address)]
        await self._refuse_while_limited(keys, self.clock())
        stored = await self._db(
            lambda db: db.scalar(
                select(AccountTable.password_hash).where(AccountTable.id == account.id)
            )
        )
        if stored is None or not await self._slow(verify, stored, password):
            await self._db(lambda db: self.limits.fail(db, keys, self.clock()))
            raise AccountError(401, _("the current password is wrong"))

    async def change_password(
        self, account: Account, password: str, new_password: str, address: str, keep: str
    ) -> None:
        """A new password; every other session of the account ends
        (``keep``: the asker's goes on)."""
        await self._check_password(account, password, address)
        problem = password_problem(new_password, account.name)
        if problem is not None:
            raise AccountError(422, problem)
        new_hash = await self._slow(hash_password, new_password)

        def change(db: Connection) -> None:
            db.execute(
                update(AccountTable)
                .where(AccountTable.id == account.id)
                .values(password_hash=new_hash)
            )
            db.execute(
                delete(SessionTable).where(
                    SessionTable.account_id == account.id,
                    SessionTable.id_hash != session_hash(keep),
                )
            )

        await self._db(change)

    async def delete(self, account: Account, password: str, address: str) -> None:
        """Delete the account: its games stay, with its seats named "deleted player"."""
        await self._check_password(account, password, address)
        await self._leave_rated_games(account)
        store = self.lobby.journal.store

        def forget(db: Connection) -> list[str]:
            games = store.forget_account_seats(db, account.id, DELETED_PLAYER)
            for table in (RatingHistoryTable, RatingTable, SeekTable, SessionTable):
                db.execute(delete(table).where(table.account_id == account.id))
            SignInLimits.clear(db, name_key_of(name_key(account.name)))
            db.execute(delete(AccountTable).where(AccountTable.id == account.id))
            return games

        await self._db(forget)
        self.lobby.forget_account(account.id, DELETED_PLAYER)

    async def _leave_rated_games(self, account: Account) -> None:
        """Deleting an account leaves its rated games being played, as leaving does: a loss, and
        with two people the game ends at once in the other's favour (its rating moves; the deleted
        one's is gone)."""

        def playing(db: Connection) -> list[str]:
            return list(
                db.scalars(
                    select(SeatTable.game_id)
                    .join(GameTable, GameTable.id == SeatTable.game_id)
                    .where(
                        SeatTable.account_id == account.id,
                        GameTable.rated.is_(True),
                        GameTable.finished.is_(False),
                    )
                    .distinct()
                )
            )

        for game_id in await self._db(playing):
            match = await self.lobby.get(game_id)
            if match is None:
                continue
            try:
                seat = match.seat_of_account(account.id)
                if seat is not None and match.status == "playing":
                    await match.leave(seat)
            except Rejected:  # it ended meanwhile: nothing to leave
                pass
            finally:
                self.lobby.release(match)
        await self.lobby.results_written()  # rated while the account still names its seat

    async def export(self, account: Account) -> dict[str, Any]:
        """Everything the server keeps about the account, as JSON (no
        password hash, no session ids)."""
        return await self._db(lambda db: account_data(db, account.id))


def reset_password(engine: Engine, name: str, password: str) -> None:
    """The operator's reset of a forgotten password: every session of the account ends, its sign-in
    limit is cleared. :class:`AccountError` (404) for an unknown name, (422)
    for a password that cannot be."""
    key = name_key(name)
    with engine.connect() as db:
        row = db.execute(
            select(AccountTable.id, AccountTable.name).where(AccountTable.name_key == key)
        ).first()
    if row is None:
        raise AccountError(404, _("there is no account called {name}").format(name=name))
    problem = password_problem(password, row.name)
    if problem is not None:
        raise AccountError(422, problem)
    new_hash = hash_password(password)
    with engine.begin() as db:
        db.execute(
            update(AccountTable).where(AccountTable.id == row.id).values(password_hash=new_hash)
        )
        db.execute(delete(SessionTable).where(SessionTable.account_id == row.id))
        SignInLimits.clear(db, name_key_of(key))
