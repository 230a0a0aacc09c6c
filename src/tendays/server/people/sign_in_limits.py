"""Sign-in limits: failed sign-ins counted per account name and per address, in the database.

The counts live in the ``sign_in_limits`` table, so every server process counts together. A key
(``"name:<name key>"`` or ``"address:<address>"``) that fails ``most`` times within ``window``
seconds is blocked for ``block`` seconds; while it is blocked no password is even tried. A name that
does not exist is counted like one that does, so the limits answer the same for both. A good sign-in
clears its name's count. Accounts made from one address are counted the same way
(``"sign-up:<address>"``): each costs a slow hash.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ..storage.schema import SignInLimitTable

__all__ = ["SignInLimits", "address_key", "name_key_of", "sign_up_key"]


def name_key_of(key: str) -> str:
    return f"name:{key}"


def address_key(address: str) -> str:
    return f"address:{address}"


def sign_up_key(address: str) -> str:
    """The count of accounts made from an address (each costs a slow hash), limited like an
    address's failed sign-ins."""
    return f"sign-up:{address}"


@dataclass(frozen=True)
class SignInLimits:
    """How many failed sign-ins a name and an address may have within ``window`` seconds before they
    wait ``block`` seconds."""

    per_name: int = 5
    per_address: int = 20
    window: float = 15 * 60.0
    block: float = 15 * 60.0

    def most(self, key: str) -> int:
        return self.per_name if key.startswith("name:") else self.per_address

    def waiting(self, db: Connection, keys: list[str], now: float) -> float:
        """The seconds until every key may try again (0: they may now)."""
        blocked = db.scalars(
            select(SignInLimitTable.blocked_until).where(
                SignInLimitTable.key.in_(keys), SignInLimitTable.blocked_until > now
            )
        )
        return max((until - now for until in blocked if until is not None), default=0.0)

    def fail(self, db: Connection, keys: list[str], now: float) -> None:
        """Count a failed sign-in against every key; block those that reach their limit."""
        for key in keys:
            self._fail(db, key, now)

    def _fail(self, db: Connection, key: str, now: float) -> None:
        row = db.execute(
            select(SignInLimitTable).where(SignInLimitTable.key == key).with_for_update()
        ).first()
        if row is None:
            try:
                # another process may insert the same key at the same moment
                with db.begin_nested():
                    db.execute(
                        insert(SignInLimitTable).values(key=key, failures=1, window_start=now)
                    )
                    self._block_if_over(db, key, 1, now)
                return
            except IntegrityError:
                row = db.execute(
                    select(SignInLimitTable).where(SignInLimitTable.key == key).with_for_update()
                ).one()
        fresh = now - row.window_start >= self.window
        failures = 1 if fresh else row.failures + 1
        db.execute(
            update(SignInLimitTable)
            .where(SignInLimitTable.key == key)
            .values(failures=failures, window_start=now if fresh else row.window_start)
        )
        self._block_if_over(db, key, failures, now)

    def _block_if_over(self, db: Connection, key: str, failures: int, now: float) -> None:
        if failures >= self.most(key):
            db.execute(
                update(SignInLimitTable)
                .where(SignInLimitTable.key == key)
                .values(failures=0, window_start=now, blocked_until=now + self.block)
            )

    def forget_old(self, db: Connection, now: float) -> None:
        """Drop the counts whose window has passed and that block nothing:
        they would count nothing more."""
        db.execute(
            delete(SignInLimitTable).where(
                SignInLimitTable.window_start < now - self.window,
                (SignInLimitTable.blocked_until.is_(None))
                | (SignInLimitTable.blocked_until <= now),
            )
        )

    @staticmethod
    def clear(db: Connection, key: str) -> None:
        db.execute(delete(SignInLimitTable).where(SignInLimitTable.key == key))
