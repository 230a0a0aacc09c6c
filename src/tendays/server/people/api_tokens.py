"""Personal API tokens: what a program shows in ``Authorization: Bearer`` to act for an account on
the Bot API.

A token is ``tdb_`` and 43 random URL-safe characters (256 bits). The database keeps only its
SHA-256 (``api_tokens.token_hash``): the secret is random and long, so a plain hash is as safe as a
slow one and costs a request nothing, and a copy of the database plays for nobody. Its owner sees
the token once, in the answer that makes it; lists show the name, the scopes and the dates.

Rules, each decided in the database so that requests sent at once from any number of server
processes cannot break them:

- an account holds at most :data:`MOST_LIVE_TOKENS` tokens that are not revoked: making one locks
  the account's row, then inserts only while fewer are live (:func:`make_token`);
- a token may do only what its scopes (:class:`TokenScope`) allow;
- a token is refused once revoked, and while its account is suspended or closed; deleting the
  account deletes its tokens;
- every request a token makes counts against its per-minute limit (one
  :func:`~tendays.server.people.limits.count` statement, shared by all processes), and its
  ``last_used`` is written at most once a minute (a conditional UPDATE), not once per request.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import desc, func, insert, literal, select, update
from sqlalchemy.engine import Connection

from tendays.engine.i18n import gettext as _

from ..storage.schema import AccountTable, ApiTokenTable
from .accounts import Account, AccountError
from .limits import count
from .moderation_types import AccountStatus

__all__ = [
    "LAST_USED_EVERY",
    "MOST_LIVE_TOKENS",
    "NAME_CHARS",
    "TOKEN_PREFIX",
    "NewToken",
    "TokenHolder",
    "TokenListing",
    "TokenScope",
    "authenticate",
    "list_tokens",
    "make_token",
    "revoke_token",
    "scopes_from",
    "token_alive",
    "token_hash",
    "token_limit_key",
    "token_name",
]

TOKEN_PREFIX = "tdb_"
MOST_LIVE_TOKENS = 20  # tokens not revoked, per account
NAME_CHARS = 60  # the most characters in a token's name
LAST_USED_EVERY = 60.0  # seconds: ``last_used`` is written at most this often per token
_TOKEN_CHARS = 128  # a longer Authorization value is no token of ours; not even hashed


class TokenScope(StrEnum):
    """What a token may do. ``bot:play``: play as a bot account (its event stream, its games,
    answering challenges); ``challenge:write``: send, accept and decline challenges;
    ``board:play``: play one's own games (a person's, not a bot account's) from a program."""

    BOT_PLAY = "bot:play"
    CHALLENGE_WRITE = "challenge:write"
    BOARD_PLAY = "board:play"


@dataclass(frozen=True, slots=True)
class NewToken:
    """A token just made: ``token`` is the secret, shown this once."""

    id: int
    name: str
    scopes: tuple[TokenScope, ...]
    token: str


@dataclass(frozen=True, slots=True)
class TokenListing:
    """A token as its owner's list shows it: never its value. Times are Unix seconds;
    ``revoked`` is when it was revoked, None while it works."""

    id: int
    name: str
    scopes: tuple[TokenScope, ...]
    created: float
    last_used: float | None
    revoked: float | None


@dataclass(frozen=True, slots=True)
class TokenHolder:
    """A live token that a request showed: which token, whose account, what it may do."""

    token_id: int
    account: Account
    scopes: frozenset[TokenScope]


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def token_limit_key(token_id: int) -> str:
    """The key a token's requests are counted by (``attempt_counts``)."""
    return f"token:{token_id}"


def scopes_from(values: list[str]) -> tuple[TokenScope, ...]:
    """The scopes a person asked for, in the order of :class:`TokenScope`, each once;
    :class:`AccountError` (422) in words for none or an unknown one."""
    known = {scope.value for scope in TokenScope}
    unknown = [value for value in values if value not in known]
    if unknown:
        raise AccountError(
            422,
            _("there is no scope {scope}; a token's scopes are {known}").format(
                scope=", ".join(repr(value) for value in unknown),
                known=", ".join(scope.value for scope in TokenScope),
            ),
        )
    if not values:
        raise AccountError(
            422,
            _("choose at least one scope: {known}").format(
                known=", ".join(scope.value for scope in TokenScope)
            ),
        )
    return tuple(scope for scope in TokenScope if scope.value in values)


def token_name(name: str) -> str:
    """A token's name, its ends stripped: 1 to 60 characters, none of them control characters;
    :class:`AccountError` (422) in words otherwise."""
    cleaned = name.strip()
    if not 1 <= len(cleaned) <= NAME_CHARS:
        raise AccountError(
            422,
            _("a token's name is 1 to {most} characters, not {given}").format(
                most=NAME_CHARS, given=len(cleaned)
            ),
        )
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in cleaned):
        raise AccountError(422, _("a token's name cannot hold control characters"))
    return cleaned


def _scopes_of(text: str) -> tuple[TokenScope, ...]:
    stored = set(text.split())
    return tuple(scope for scope in TokenScope if scope.value in stored)


def make_token(
    db: Connection, account_id: int, name: str, scopes: tuple[TokenScope, ...], now: float
) -> NewToken:
    """A new token for the account; :class:`AccountError` (409) when it already holds
    :data:`MOST_LIVE_TOKENS` live ones. The account's row is locked first (PostgreSQL; SQLite
    takes its write lock with the INSERT), so that tokens made at once are counted one after the
    other and never pass the cap."""
    locked = db.execute(
        select(AccountTable.id).where(AccountTable.id == account_id).with_for_update()
    ).first()
    if locked is None:
        raise AccountError(404, _("this account no longer exists"))
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    live = (
        select(func.count())
        .select_from(ApiTokenTable)
        .where(ApiTokenTable.account_id == account_id, ApiTokenTable.revoked_at.is_(None))
        .scalar_subquery()
    )
    values: dict[str, Any] = {
        "account_id": account_id,
        "name": name,
        "token_hash": token_hash(token),
        "scopes": " ".join(scope.value for scope in scopes),
        "created": now,
    }
    made = db.execute(
        insert(ApiTokenTable)
        .from_select(
            list(values),
            select(
                *(
                    literal(value, ApiTokenTable.__table__.c[key].type).label(key)
                    for key, value in values.items()
                )
            ).where(live < MOST_LIVE_TOKENS),
        )
        .returning(ApiTokenTable.id)
    ).first()
    if made is None:
        raise AccountError(
            409,
            _(
                "an account holds at most {most} tokens that are not revoked; revoke one "
                "before making another"
            ).format(most=MOST_LIVE_TOKENS),
        )
    return NewToken(made.id, name, scopes, token)


def list_tokens(db: Connection, account_id: int) -> list[TokenListing]:
    """The account's tokens, newest first, revoked ones too (never their values)."""
    rows = db.execute(
        select(
            ApiTokenTable.id,
            ApiTokenTable.name,
            ApiTokenTable.scopes,
            ApiTokenTable.created,
            ApiTokenTable.last_used,
            ApiTokenTable.revoked_at,
        )
        .where(ApiTokenTable.account_id == account_id)
        .order_by(desc(ApiTokenTable.created), desc(ApiTokenTable.id))
    ).all()
    return [
        TokenListing(
            row.id, row.name, _scopes_of(row.scopes), row.created, row.last_used, row.revoked_at
        )
        for row in rows
    ]


def revoke_token(db: Connection, account_id: int, token_id: int, now: float) -> None:
    """Revoke one of the account's tokens (revoking a revoked one changes nothing);
    :class:`AccountError` (404) for a token that is not the account's."""
    db.execute(
        update(ApiTokenTable)
        .where(
            ApiTokenTable.id == token_id,
            ApiTokenTable.account_id == account_id,
            ApiTokenTable.revoked_at.is_(None),
        )
        .values(revoked_at=now)
    )
    mine = db.scalar(
        select(ApiTokenTable.id).where(
            ApiTokenTable.id == token_id, ApiTokenTable.account_id == account_id
        )
    )
    if mine is None:
        raise AccountError(404, _("you have no token {id}").format(id=token_id))


def _live_token(db: Connection, token: str) -> Any:
    """The token's row joined with its account's, if the token is live and the account active."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > _TOKEN_CHARS:
        return None
    return db.execute(
        select(
            ApiTokenTable.id,
            ApiTokenTable.scopes,
            ApiTokenTable.last_used,
            AccountTable.id.label("account_id"),
            AccountTable.name,
            AccountTable.bot,
        )
        .join(AccountTable, AccountTable.id == ApiTokenTable.account_id)
        .where(
            ApiTokenTable.token_hash == token_hash(token),
            ApiTokenTable.revoked_at.is_(None),
            AccountTable.status == AccountStatus.ACTIVE.value,
        )
    ).first()


def authenticate(
    db: Connection, token: str, per_minute: int, now: float
) -> TokenHolder | float | None:
    """Who the token acts for, with its request counted: the holder; the seconds to wait when the
    token has made its ``per_minute`` requests of this minute (0 or less: no limit); None for a
    token that is unknown, revoked, or whose account is not active."""
    row = _live_token(db, token)
    if row is None:
        return None
    if per_minute > 0:
        wait = count(db, [(token_limit_key(row.id), per_minute)], 60.0, now)
        if wait > 0:
            return wait
    if row.last_used is None or row.last_used <= now - LAST_USED_EVERY:
        # conditional, so that requests at once write it once
        db.execute(
            update(ApiTokenTable)
            .where(
                ApiTokenTable.id == row.id,
                (ApiTokenTable.last_used.is_(None))
                | (ApiTokenTable.last_used <= now - LAST_USED_EVERY),
            )
            .values(last_used=now)
        )
    return TokenHolder(
        row.id, Account(row.account_id, row.name, bool(row.bot)), frozenset(_scopes_of(row.scopes))
    )


def token_alive(db: Connection, token_id: int) -> bool:
    """Whether the token still works: not revoked, and its account active (an open stream asks
    at each keep-alive and closes when the answer is no)."""
    alive = db.scalar(
        select(ApiTokenTable.id)
        .join(AccountTable, AccountTable.id == ApiTokenTable.account_id)
        .where(
            ApiTokenTable.id == token_id,
            ApiTokenTable.revoked_at.is_(None),
            AccountTable.status == AccountStatus.ACTIVE.value,
        )
    )
    return alive is not None
