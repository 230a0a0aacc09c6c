"""Known devices: the browsers an account signed in on, so that strangers who guess its password
cannot keep its owner out (OWASP's "device cookies").

After a good sign-in (or a sign-up) the browser is given a device cookie: a random secret that only
it knows; the database keeps the secret's SHA-256, the account, and when it ends
(:data:`DEVICE_SECONDS` after that sign-in). A sign-in that presents a live device cookie of the
account it names is limited per device cookie (a few wrong passwords lock that cookie alone), not by
the name's count, which strangers may have used up. Every good sign-in replaces the browser's
device cookie with a new one, and an account keeps at most :data:`DEVICES_PER_ACCOUNT` of them (the
most recently used). A device cookie is no session: it signs nobody in, it only says which limit a
sign-in counts against.
"""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from ..storage.schema import KnownDeviceTable

__all__ = [
    "DEVICES_PER_ACCOUNT",
    "DEVICE_SECONDS",
    "device_hash",
    "known_device",
    "remember_device",
]

DEVICE_SECONDS = 365 * 24 * 3600.0  # a device is known for a year after its latest sign-in
DEVICES_PER_ACCOUNT = 20
_MAX_SECRET = 128  # a longer cookie was not made here


def device_hash(secret: str) -> str:
    """What the database keeps of a device cookie: its SHA-256, hex."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def known_device(
    db: Connection, secret: str | None, account_id: int | None, now: float
) -> str | None:
    """The hash of ``secret`` if it is a live device cookie of ``account_id``, else None."""
    if not secret or account_id is None or len(secret) > _MAX_SECRET:
        return None
    hashed = device_hash(secret)
    found = db.scalar(
        select(KnownDeviceTable.id_hash).where(
            KnownDeviceTable.id_hash == hashed,
            KnownDeviceTable.account_id == account_id,
            KnownDeviceTable.expires > now,
        )
    )
    return None if found is None else hashed


def remember_device(db: Connection, account_id: int, replacing: str | None, now: float) -> str:
    """A new device cookie for ``account_id`` (the secret; the database keeps its hash), in place
    of ``replacing`` (the hash of the cookie it presented, if that was the account's)."""
    if replacing is not None:
        db.execute(delete(KnownDeviceTable).where(KnownDeviceTable.id_hash == replacing))
    db.execute(delete(KnownDeviceTable).where(KnownDeviceTable.expires <= now))
    secret = secrets.token_urlsafe(32)
    db.execute(
        insert(KnownDeviceTable).values(
            id_hash=device_hash(secret),
            account_id=account_id,
            created=now,
            expires=now + DEVICE_SECONDS,
        )
    )
    newest = (
        select(KnownDeviceTable.id_hash)
        .where(KnownDeviceTable.account_id == account_id)
        .order_by(KnownDeviceTable.expires.desc())
        .limit(DEVICES_PER_ACCOUNT)
    )
    db.execute(
        delete(KnownDeviceTable).where(
            KnownDeviceTable.account_id == account_id,
            KnownDeviceTable.id_hash.not_in(newest),
        )
    )
    return secret
