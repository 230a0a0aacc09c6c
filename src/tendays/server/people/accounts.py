"""Accounts: sign up, sign in (within limits), sessions, a new password, deletion, and one's own
data.

An account is a name (cleaned like a seat's name, unique regardless of case and invisible
characters, and of letters that look alike: :mod:`~tendays.server.matches.lookalikes`) and an
Argon2id hash of its password (:mod:`~tendays.server.people.passwords`). A
session is a random id that only its browser knows (in a cookie): the database keeps its SHA-256,
the account, when it ends, and the CSRF token that every changing request of that browser must
carry. Signing in always makes a new session (the one the browser had ends), so no session id chosen
by someone else survives it; signing out ends the session in the database, and "sign out everywhere"
ends them all. Ending sessions (these two, a new password, the operator's reset, deletion, and
:meth:`Accounts.end_sessions` for the operator's closing of an account) also revokes the account's
seat links and closes the table connections that held on them, in every server process
(:mod:`~tendays.server.people.session_ends`).

Every limited attempt (a sign-in, a sign-up, a current password given) is counted in the database
before its password is hashed (:mod:`~tendays.server.people.limits`); a sign-in from a browser the
account signed in on before counts against that device, not against the name that strangers may
have used up (:mod:`~tendays.server.people.devices`). The database work runs on the database thread
(:class:`~tendays.server.storage.journal.Journal`), the hashing in a bounded queue that answers 429
at once when full (:mod:`~tendays.server.people.hashing`), so neither holds up the event loop.
Refusals are :class:`AccountError` with the HTTP status and the reason in the asker's language.
Deleting an account keeps its games: its seats are then "deleted player"
(:data:`~tendays.server.matches.wire.DELETED_PLAYER`); its ratings, their history, its seeks and
sessions go.

The values and the rules of names are in :mod:`~tendays.server.people.account_types`, the sessions'
rows in :mod:`~tendays.server.people.account_sessions`, a deletion's rows in
:mod:`~tendays.server.people.account_deletion` and the operator's reset of a password in
:mod:`~tendays.server.people.password_reset`; this module's :class:`Accounts` runs them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import secrets
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from tendays.engine.i18n import gettext as _

from ..matches.lobby import Lobby
from ..matches.lookalikes import name_skeleton
from ..matches.text import name_key
from ..matches.wire import DELETED_PLAYER
from ..storage.schema import (
    AccountTable,
    SessionTable,
)
from .account_deletion import forget_account, rated_games_playing
from .account_sessions import live_session, new_session
from .account_types import (
    SESSION_SECONDS,
    Account,
    AccountError,
    Session,
    Ticket,
    account_name,
    lookup_key,
    name_taken_refusal,
    refuse_unless_active,
    refuse_while_limited,
    session_hash,
)
from .devices import known_device, remember_device
from .export import account_data
from .hashing import Asker, HashingBusy, HashingQueue, Lane
from .leaving import leave_games
from .limits import (
    SignInLimits,
    address_key,
    check_key,
    clear_count,
    count,
    counting,
    device_key,
    forget_old,
    name_key_of,
    refund,
    sign_up_key,
)
from .password_reset import reset_password
from .passwords import dummy_hash, hash_password, needs_rehash, password_problem, verify
from .session_ends import Revoked, SessionEnds, revoke_seat_links

__all__ = [
    "SESSION_SECONDS",
    "Account",
    "AccountError",
    "Accounts",
    "Session",
    "Ticket",
    "reset_password",
    "session_hash",
]

T = TypeVar("T")


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
        self.hashing = HashingQueue()
        # the table connections of this process that hold on sessions and seat links
        self.ends = SessionEnds(lobby, lambda: self.clock())

    @property
    def engine(self) -> Engine:
        return self.lobby.journal.store.engine

    async def _db(self, work: Callable[[Connection], T]) -> T:
        """``work`` in one transaction on the database thread."""

        def run() -> T:
            with self.engine.begin() as db:
                return work(db)

        return await self.lobby.journal.run(run)

    async def _count(self, work: Callable[[Connection], T]) -> T:
        """``work`` (counting attempts) in one transaction on the database thread, committed
        without waiting for the disk (:func:`~tendays.server.people.limits.counting`)."""

        def run() -> T:
            with counting(self.engine) as db:
                return work(db)

        return await self.lobby.journal.run(run)

    async def _slow(self, function: Callable[..., T], *args: Any, asker: Asker | None = None) -> T:
        """``function(*args)`` (a password hash) through the hashing queue; :class:`HashingBusy` at
        once when ``asker`` has no place. Without an asker: work for a signed-in account whose
        password was just checked, in the known lane, with no share of its own."""
        if asker is None:
            asker = Asker(Lane.KNOWN, f"call {secrets.token_hex(8)}")
        with self._place(asker):
            return await self.hashing.hash_in_place(asker.lane, function, *args)

    @contextlib.contextmanager
    def _place(self, asker: Asker) -> Iterator[None]:
        """A place in the hashing queue while inside; 429 at once when there is none."""
        with contextlib.ExitStack() as held:
            try:
                held.enter_context(self.hashing.place(asker))
            except HashingBusy:
                raise AccountError(
                    429, _("the server is busy checking passwords; try again in a moment"), 1.0
                ) from None
            yield

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
        limited = (
            [] if address is None else [(sign_up_key(address), self.limits.sign_ups_per_address)]
        )
        wait = await self._count(lambda db: count(db, limited, self.limits.window, now))
        if wait > 0:
            raise AccountError(
                429,
                _("too many accounts made from your address; try again in {minutes} min").format(
                    minutes=max(1, round(wait / 60))
                ),
                retry_after=wait,
            )
        # every sign-up counts, made or not, unless the server had no time to hash its password
        asker = Asker(Lane.STRANGER, address_key(address or "unknown"))
        try:
            password_hash = await self._slow(hash_password, password, asker=asker)
        except AccountError:
            await self._count(lambda db: refund(db, [key for key, _most in limited]))
            raise

        def create(db: Connection) -> Ticket | None:
            try:
                with db.begin_nested():
                    account_id = db.execute(
                        insert(AccountTable).values(
                            name=name,
                            name_key=name_key(name),
                            name_skeleton=name_skeleton(name),
                            password_hash=password_hash,
                            created=now,
                        )
                    ).inserted_primary_key[0]  # type: ignore[index]
            except IntegrityError:
                return None
            ticket = new_session(
                db, Account(int(account_id), name), replacing, now, self.session_seconds
            )
            device = remember_device(db, int(account_id), None, now)
            return dataclasses.replace(ticket, device=device)

        ticket = await self._db(create)
        if ticket is None:
            raise await self._db(lambda db: name_taken_refusal(db, name))
        return ticket

    async def sign_in(
        self,
        name: str,
        password: str,
        address: str,
        replacing: str | None = None,
        device: str | None = None,
    ) -> Ticket:
        """A new session for the account; 401 for a wrong name or password (the same answer for
        both), 429 while the name or the address has failed too often, or, for a browser that
        presents ``device``, a device cookie of this account, while that device has."""
        key = lookup_key(name)
        now = self.clock()
        limits = self.limits

        def knock(db: Connection) -> tuple[Any, str | None, list[str], float]:
            row = db.execute(
                select(
                    AccountTable.id,
                    AccountTable.name,
                    AccountTable.password_hash,
                    AccountTable.status,
                    AccountTable.bot,
                ).where(AccountTable.name_key == key)
            ).first()
            known = known_device(db, device, row.id if row else None, now)
            limited = (
                [(device_key(known), limits.per_device)]
                if known
                else [
                    (name_key_of(key), limits.per_name),
                    (address_key(address), limits.per_address),
                ]
            )
            wait = count(db, limited, limits.window, now)
            return row, known, [k for k, _most in limited], wait

        stranger = Asker(Lane.STRANGER, address_key(address))
        # A browser with no device cookie is a stranger: it takes its place in the hashing queue
        # first, so that a flood the queue cannot serve is answered before it costs any database
        # work. One with a cookie is placed once the database has said whether it is known.
        with self._place(stranger) if device is None else contextlib.nullcontext():
            row, known, keys, wait = await self._count(knock)
            refuse_while_limited(wait)
            asker = Asker(Lane.KNOWN, keys[0]) if known else stranger
            stored = row.password_hash if row else dummy_hash()
            try:
                if device is None:
                    good = await self.hashing.hash_in_place(Lane.STRANGER, verify, stored, password)
                else:
                    good = await self._slow(verify, stored, password, asker=asker)
            except AccountError:
                await self._count(lambda db: refund(db, keys))
                raise
        if row is None or not good:
            raise AccountError(401, _("wrong name or password"))
        refuse_unless_active(row.status)  # told only to one who knows the password
        account = Account(row.id, row.name, bool(row.bot))
        rehashed = None
        if needs_rehash(row.password_hash, good):
            # busy: the old hash still serves until the next sign-in
            with contextlib.suppress(AccountError):
                rehashed = await self._slow(hash_password, password, asker=asker)

        def enter(db: Connection) -> Ticket:
            # locked, so an operator's suspension lands before this session or ends it
            refuse_unless_active(
                db.scalar(
                    select(AccountTable.status)
                    .where(AccountTable.id == account.id)
                    .with_for_update()
                )
            )
            # a right password was no guess: the name's or device's count starts again, and the
            # address keeps its tries for other names
            clear_count(db, keys[0])
            refund(db, keys[1:])
            if rehashed is not None:
                db.execute(
                    update(AccountTable)
                    .where(AccountTable.id == account.id)
                    .values(password_hash=rehashed)
                )
            db.execute(delete(SessionTable).where(SessionTable.expires <= now))
            forget_old(db, now)
            ticket = new_session(db, account, replacing, now, self.session_seconds)
            return dataclasses.replace(ticket, device=remember_device(db, account.id, known, now))

        return await self._db(enter)

    # -- sessions -----------------------------------------------------------------------------

    async def session(self, session_id: str) -> Session | None:
        """The live session with this id, or None (unknown, ended or expired)."""
        if not 0 < len(session_id) <= 128:
            return None
        now = self.clock()
        return await self._db(lambda db: live_session(db, session_id, now))

    async def sign_out(self, session_id: str) -> None:
        """The session ends, and with it its account's seat links and the table connections that
        held on them (:meth:`end_sessions` says how)."""
        key = session_hash(session_id)

        def end(db: Connection) -> tuple[int, Revoked] | None:
            account_id = db.scalar(
                select(SessionTable.account_id).where(SessionTable.id_hash == key)
            )
            if account_id is None:
                return None
            db.execute(delete(SessionTable).where(SessionTable.id_hash == key))
            return account_id, revoke_seat_links(db, account_id, self.ends.sender)

        ended = await self._db(end)
        if ended is not None:
            await self.ends.ended(*ended)

    async def sign_out_everywhere(self, account: Account) -> None:
        await self.end_sessions(account.id)

    async def end_sessions(self, account_id: int) -> None:
        """Every session of the account ends, in every server process: its seats in unfinished
        games get new seat links (the old ones open nothing; signing in opens the seats as before),
        and every table connection signed in to it, or opened with one of those links, is closed
        (:mod:`~tendays.server.people.session_ends`). Also for the operator's closing or
        suspension of an account."""

        def end(db: Connection) -> Revoked:
            db.execute(delete(SessionTable).where(SessionTable.account_id == account_id))
            return revoke_seat_links(db, account_id, self.ends.sender)

        await self.ends.ended(account_id, await self._db(end))

    # -- the account's own changes ------------------------------------------------------------

    async def _check_password(self, account: Account, password: str, address: str) -> None:
        """401 unless ``password`` is the account's. Counted like a sign-in, per account and per
        address, so a session cannot guess it; but apart from the sign-ins by name, so strangers
        cannot stop the owner changing the password or closing the account."""
        limits, now = self.limits, self.clock()
        limited = [
            (check_key(account.id), limits.per_name),
            (address_key(address), limits.per_address),
        ]
        keys = [key for key, _most in limited]

        def knock(db: Connection) -> tuple[str | None, float]:
            wait = count(db, limited, limits.window, now)
            stored = db.scalar(
                select(AccountTable.password_hash).where(AccountTable.id == account.id)
            )
            return stored, wait

        stored, wait = await self._count(knock)
        refuse_while_limited(wait)
        asker = Asker(Lane.KNOWN, keys[0])
        try:
            good = stored is not None and bool(
                await self._slow(verify, stored, password, asker=asker)
            )
        except AccountError:
            await self._count(lambda db: refund(db, keys))
            raise
        if not good:
            raise AccountError(401, _("the current password is wrong"))
        await self._count(lambda db: refund(db, keys))

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

        def change(db: Connection) -> Revoked:
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
            return revoke_seat_links(db, account.id, self.ends.sender)

        await self.ends.ended(account.id, await self._db(change))

    async def delete(self, account: Account, password: str, address: str) -> None:
        """Delete the account: its games stay, with its seats named "deleted player"."""
        await self._check_password(account, password, address)
        await self._leave_rated_games(account)
        store = self.lobby.journal.store
        revoked = await self._db(
            lambda db: forget_account(db, store, account.id, account.name, self.ends.sender)
        )
        self.lobby.forget_account(account.id, DELETED_PLAYER)
        await self.ends.ended(account.id, revoked)

    async def _leave_rated_games(self, account: Account) -> None:
        """Deleting an account leaves its rated games being played, as leaving does: a loss, and
        with two people the game ends at once in the other's favour (its rating moves; the deleted
        one's is gone)."""
        playing = await self._db(lambda db: rated_games_playing(db, account.id))
        await leave_games(self.lobby, account.id, playing)

    async def export(self, account: Account) -> dict[str, Any]:
        """Everything the server keeps about the account, as JSON (no
        password hash, no session ids)."""
        return await self._db(lambda db: account_data(db, account.id))
