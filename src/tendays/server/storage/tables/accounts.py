"""The tables of an account: the account, its API tokens, sessions, sign-in attempt counts,
known devices and ratings (with their history)."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, literal_column, text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base

#: The accounts left off the leaderboards (revision 0009): suspended, closed or hidden by the
#: operator, whom the partial index ``ix_accounts_unlisted`` holds (a handful, however many accounts
#: there are). A query that leaves them out states the condition as the index does.
UNLISTED_SQL = "status <> 'active' OR hidden"


class AccountTable(Base):
    """A person's account (revision 0004). The name is shown as typed; ``name_key`` (its case-folded
    form) keeps names unique regardless of case."""

    __tablename__ = "accounts"
    __table_args__ = (
        Index("ux_accounts_name_skeleton", "name_skeleton", unique=True),
        Index(
            "ix_accounts_unlisted",
            "id",
            postgresql_where=text(UNLISTED_SQL),
            sqlite_where=text(UNLISTED_SQL),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    # Revision 0007: the look-alike key of the name (matches/lookalikes.py), unique: "Аlice" with a
    # Cyrillic А cannot sign up beside "Alice". Null only for an account made before the rule whose
    # name looked like an older account's.
    name_skeleton: Mapped[str | None] = mapped_column(String(1024), nullable=True)
    # Argon2id, PHC string: never leaves the server
    password_hash: Mapped[str] = mapped_column(String(256))
    created: Mapped[float] = mapped_column(Float)  # Unix seconds
    # Revision 0009: moderation. ``status`` is an AccountStatus (people/moderation_types.py);
    # only an active account signs in. A hidden account is left off the leaderboards.
    status: Mapped[str] = mapped_column(String(16), default="active", server_default="active")
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    # Revision 0013: a bot account (people/bot_accounts.py) plays only through the Bot API; set
    # once, never unset.
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))


class ApiTokenTable(Base):
    """A personal API token (revision 0013): ``Authorization: Bearer`` on the Bot API
    (people/api_tokens.py). Only the SHA-256 of the token is stored, so a copy of the database
    plays for nobody; ``scopes`` are TokenScope values separated by spaces; a revoked token keeps
    its row (``revoked_at``) so its owner's list says when."""

    __tablename__ = "api_tokens"
    __table_args__ = (Index("ux_api_tokens_hash", "token_hash", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[str] = mapped_column(String(120))
    created: Mapped[float] = mapped_column(Float)
    last_used: Mapped[float | None] = mapped_column(Float, nullable=True)
    revoked_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class SessionTable(Base):
    """A signed-in browser (revision 0004). Only the SHA-256 of the session id is stored, so a copy
    of the database signs nobody in."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float, index=True)


class AttemptCountTable(Base):
    """Attempts counted per limit key (revision 0006, in place of 0004's ``sign_in_limits``):
    sign-ins per name, address and known device, sign-ups, games created and joined per address. One
    statement counts an attempt and reads the count (people/limits.py), so every server process
    counts together and a burst cannot pass a limit."""

    __tablename__ = "attempt_counts"

    # "name:<name key>", "address:<address>", "device:<hash>", "create:<address>", ...
    key: Mapped[str] = mapped_column(String(160), primary_key=True)
    hits: Mapped[int] = mapped_column(Integer)
    window_end: Mapped[float] = mapped_column(Float, index=True)  # Unix seconds


class KnownDeviceTable(Base):
    """A browser an account signed in on (revision 0006; people/devices.py): its sign-ins are
    limited per device, so strangers cannot lock the owner out. Only the SHA-256 of the device
    cookie is stored."""

    __tablename__ = "known_devices"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float, index=True)


#: A rating whose deviation is at most this is settled (not provisional): the leaderboard's players,
#: whom the partial index ``ix_ratings_settled`` holds (revision 0005; a new value needs a new
#: revision).
SETTLED_SIGMA = 6.0
# The condition as the index states it: a literal, so that both databases
# see that a query implies it.
_SETTLED_SQL = f"sigma <= {SETTLED_SIGMA!r}"


class RatingTable(Base):
    """A person's rating in one edition (revision 0004). The leaderboard reads an edition's settled
    players, best first, from ``ix_ratings_settled`` (revision 0005), which holds only them: a page
    costs its rows, however few of the edition's players are settled."""

    __tablename__ = "ratings"
    __table_args__ = (
        Index(
            "ix_ratings_settled",
            "edition",
            "rating",
            "account_id",
            postgresql_where=text(_SETTLED_SQL),
            sqlite_where=text(_SETTLED_SQL),
        ),
    )

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    edition: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    # the shown rating, kept for the leaderboard's order
    rating: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


#: A query's condition for the settled ratings, written as the index's (so the index serves the
#: query).
SETTLED = RatingTable.sigma <= literal_column(repr(SETTLED_SIGMA))


class RatingHistoryTable(Base):
    """Each counted rated game's effect on a person's rating (revision 0004): the profile's chart,
    and the record of which games moved ratings, in order (one row per account per counted game).
    ``ix_rating_history_recent`` (revision 0008) finds a person's games of the last day, for the
    repeat cap."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_recent", "account_id", "edition", "at"),)

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    edition: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[float] = mapped_column(Float, index=True)
    rating: Mapped[float] = mapped_column(Float)  # after the game
    deviation: Mapped[float] = mapped_column(Float)
