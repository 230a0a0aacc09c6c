"""What the server says of accounts: an account, a session and a new session's ticket, the refusal
of a request about an account, and the rules a name must keep (see
:mod:`~tendays.server.people.accounts`)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.engine import Connection

from tendays.engine.i18n import gettext as _

from ..matches.lookalikes import name_skeleton
from ..matches.text import clean_name, name_key
from ..matches.wire import DELETED_PLAYER
from ..storage.schema import AccountTable
from .moderation_types import AccountStatus

SESSION_SECONDS = 30 * 24 * 3600.0  # a session ends 30 days after its sign-in


@dataclass(frozen=True, slots=True)
class Account:
    """A person with an account: its id in the database, its name as typed, and whether it is a
    bot account (it plays only through the Bot API)."""

    id: int
    name: str
    bot: bool = False


@dataclass(frozen=True, slots=True)
class Session:
    """A signed-in browser: whose it is, the CSRF token its changing
    requests carry, and when it ends."""

    account: Account
    csrf: str
    expires: float


@dataclass(frozen=True, slots=True)
class Ticket:
    """A new session: ``id`` is the cookie's secret (the database keeps only its hash); ``device``
    the browser's new device cookie (:mod:`~tendays.server.people.devices`), if it gets one."""

    id: str
    session: Session
    device: str | None = None


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


def lookup_key(name: str) -> str:
    """The key a sign-in looks its name up by, and counts its limit by: "ALICE", " alice " and
    "Alice" are one name, to the lookup and to the limit alike."""
    try:
        return name_key(clean_name(name))
    except ValueError:
        return name_key(name)


def account_name(name: str) -> str:
    """An account's name, cleaned like a seat's; :class:`AccountError` (422)
    in words if it cannot be one."""
    try:
        cleaned = clean_name(name)
    except ValueError as error:
        raise AccountError(422, str(error)) from None
    deleted = (name_skeleton(DELETED_PLAYER), name_skeleton(_(DELETED_PLAYER)))
    if name_skeleton(cleaned) in deleted:
        raise AccountError(422, _("this name is kept for deleted accounts; choose another"))
    # browsers read /players/.. as the folder above: no link could reach the profile
    if cleaned in (".", ".."):
        raise AccountError(422, _("a name of one or two dots cannot be; choose another"))
    return cleaned


def name_taken_refusal(db: Connection, name: str) -> AccountError:
    """409 for a name another account has, or one that looks like it ("Аlice" with a Cyrillic
    А beside "Alice"), naming that account."""
    other = db.scalar(
        select(AccountTable.name).where(
            (AccountTable.name_key == name_key(name))
            | (AccountTable.name_skeleton == name_skeleton(name))
        )
    )
    if other is None or name_key(other) == name_key(name):
        return AccountError(409, _("the name {name} is taken; choose another").format(name=name))
    return AccountError(
        409,
        _("the name {name} looks like {other}, a registered player's; choose another").format(
            name=name, other=other
        ),
    )


def refuse_unless_active(status: str | None) -> None:
    """403 in words for an account the operator suspended or closed (or deleted meanwhile)."""
    refusal = AccountStatus(status or AccountStatus.CLOSED).sign_in_refusal()
    if refusal is not None:
        raise AccountError(403, refusal)


def refuse_while_limited(wait: float) -> None:
    """429 when the attempt was over a limit (``wait``: the seconds until it may be made)."""
    if wait > 0:
        raise AccountError(
            429,
            _("too many failed sign-ins; try again in {minutes} min").format(
                minutes=max(1, round(wait / 60))
            ),
            retry_after=wait,
        )
