"""Attempt limits counted in the database: each attempt is counted and judged in one statement.

A limit is a key (``"name:<name key>"``, ``"address:<address>"``, ``"device:<hash>"``,
``"sign-up:<address>"``, ``"create:<address>"``, ...), the most attempts it may make, and a window
of seconds that opens at its first attempt. :func:`count` adds the attempt and reads the new count
in one ``INSERT .. ON CONFLICT DO UPDATE .. RETURNING`` (SQLite 3.35 or later, PostgreSQL): the
database orders attempts on one key however many requests and server processes send them at
once, so a burst can never make more attempts than the limit, and an attempt is counted before the
work it asks for (a slow password hash, a new game) is done. An attempt over the limit is answered
with the seconds until its window ends; it is not counted, so the refused ones never lengthen the
wait.

Some attempts are given back (:func:`refund`): those refused by another of their keys, those that
were never tried because the server was busy, and a right password (a limit counts guesses, not
sign-ins). A good sign-in clears its name's or device's count (:func:`clear_count`).
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, delete, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from ..storage.journal import Journal
from ..storage.schema import AttemptCountTable

__all__ = [
    "Attempts",
    "SignInLimits",
    "address_key",
    "check_key",
    "clear_count",
    "count",
    "counting",
    "device_key",
    "name_key_of",
    "refund",
    "sign_up_key",
]

# The table's key column is this long; a longer key (a name that is not a name) is hashed.
_KEY_CHARS = 160


def _key(kind: str, value: str) -> str:
    key = f"{kind}:{value}"
    if len(key) <= _KEY_CHARS:
        return key
    return f"{kind}#{hashlib.sha256(value.encode('utf-8', 'replace')).hexdigest()}"


def name_key_of(key: str) -> str:
    """Guesses at an account's password by browsers it does not know, per name key."""
    return _key("name", key)


def address_key(address: str) -> str:
    """Wrong passwords sent from an address, whatever the names."""
    return _key("address", address)


def device_key(device_hash: str) -> str:
    """Wrong passwords sent by one known device (a browser the account signed in on before)."""
    return _key("device", device_hash)


def check_key(account_id: int) -> str:
    """Wrong current passwords given by the account's own sessions (a new password, deletion)."""
    return _key("check", str(account_id))


def sign_up_key(address: str) -> str:
    """Accounts made from an address (each costs a slow hash)."""
    return _key("sign-up", address)


@dataclass(frozen=True)
class SignInLimits:
    """How many attempts each key may make within ``window`` seconds (opened by its first).

    ``per_name``: sign-ins for one name from browsers the account does not know, whatever their
    address; ``per_device``: sign-ins from one known device (its own count, so that strangers who
    use up ``per_name`` cannot keep the owner out); ``per_address``: failed sign-ins and wrong
    current passwords from one address; ``sign_ups_per_address``: accounts made from one address.
    """

    per_name: int = 5
    per_device: int = 5
    per_address: int = 20
    sign_ups_per_address: int = 20
    window: float = 15 * 60.0


def _upsert(db: Connection) -> Callable[..., Any]:
    """The dialect's INSERT, which knows ON CONFLICT."""
    return postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert


def count(db: Connection, limited: list[tuple[str, int]], window: float, now: float) -> float:
    """Count one attempt against every ``(key, most)``: 0 when every key may make it, else the
    seconds until the last refusing key's window ends (and then nothing is counted).

    Keys are counted in a fixed order, so that two transactions on PostgreSQL that hold the same two
    rows always take them in the same order and never wait for each other."""
    counted, wait = [], 0.0
    table = AttemptCountTable
    for key, most in sorted(limited):
        fresh = table.window_end <= now
        statement = (
            _upsert(db)(table)
            .values(key=key, hits=1, window_end=now + window)
            .on_conflict_do_update(
                index_elements=[table.key],
                set_={
                    "hits": case((fresh, 1), else_=table.hits + 1),
                    "window_end": case((fresh, now + window), else_=table.window_end),
                },
            )
            .returning(table.hits, table.window_end)
        )
        hits, window_end = db.execute(statement).one()
        counted.append(key)
        if hits > most:
            wait = max(wait, window_end - now, 1.0)
    if wait > 0:
        refund(db, counted)
    return wait


def refund(db: Connection, keys: list[str]) -> None:
    """Give back one attempt of each key (one that was not a guess, or was never tried)."""
    for key in sorted(keys):
        db.execute(
            update(AttemptCountTable)
            .where(AttemptCountTable.key == key, AttemptCountTable.hits > 0)
            .values(hits=AttemptCountTable.hits - 1)
        )


def clear_count(db: Connection, key: str) -> None:
    """Forget ``key``'s count (a good sign-in, an operator's reset, a deleted account)."""
    db.execute(delete(AttemptCountTable).where(AttemptCountTable.key == key))


def forget_old(db: Connection, now: float) -> None:
    """Drop the counts whose window has ended: they limit nothing any more."""
    db.execute(delete(AttemptCountTable).where(AttemptCountTable.window_end <= now))


@contextlib.contextmanager
def counting(engine: Engine) -> Iterator[Connection]:
    """A transaction for counting attempts, whose commit does not wait for the disk: a flood of
    attempts is counted as fast as the database can order them, not as fast as the disk syncs.
    It stays atomic and consistent; a crash of the machine may forget the last counts, which end
    within minutes anyway. (PostgreSQL: ``synchronous_commit`` off for this transaction; SQLite,
    whose log is written ahead: ``synchronous=NORMAL`` while it runs.)"""
    with engine.connect() as db:
        sqlite = db.dialect.name == "sqlite"
        if sqlite:
            level = db.exec_driver_sql("PRAGMA synchronous").scalar()
            db.exec_driver_sql("PRAGMA synchronous=NORMAL")
            db.commit()
        try:
            with db.begin():
                if not sqlite:
                    db.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")
                yield db
        finally:
            if sqlite:
                db.exec_driver_sql(f"PRAGMA synchronous={int(level or 2)}")
                db.commit()


class Attempts:
    """The front door's limits (games created, seats joined), counted with :func:`count` on the
    database thread."""

    def __init__(self, journal: Journal, clock: Callable[[], float] = time.time) -> None:
        self.journal = journal
        self.clock = clock  # wall-clock seconds: every server process must agree on them

    async def allow(self, key: str, most: int, window: float) -> float:
        """0 if ``key`` may make one more attempt now (counted), else the seconds to wait. A limit
        of 0 or less limits nothing."""
        if most <= 0:
            return 0.0
        now = self.clock()

        def run() -> float:
            with counting(self.journal.store.engine) as db:
                return count(db, [(key, most)], window, now)

        return await self.journal.run(run)
