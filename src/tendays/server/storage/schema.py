"""The database schema, in one place: the tables, and their migrations (Alembic, run at every
start).

The tables are declared here for the queries; the revisions in
``tendays/server/storage/migrations/versions`` make them. The first revision also upgrades a
database an older tendays made without Alembic, so every database, new or old, SQLite or PostgreSQL,
reaches the newest revision the same way. A new column comes with a new revision (written by hand
beside the others: each names the one it follows), and ``tests/server/test_migrations.py`` checks
that the revisions make exactly these tables.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    literal_column,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "MIGRATIONS",
    "SETTLED",
    "SETTLED_SIGMA",
    "AccountTable",
    "Base",
    "ChatTable",
    "GameTable",
    "MoveTable",
    "RatingHistoryTable",
    "RatingTable",
    "SeatTable",
    "SeekTable",
    "SessionTable",
    "SignInLimitTable",
    "upgrade",
]


class Base(DeclarativeBase):
    pass


class GameTable(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    edition: Mapped[str] = mapped_column(String(32))
    # Options.to_json() as JSON text, rules version included
    options: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)  # secret: never leaves the server
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    # Added by the second schema (all nullable, so older servers still read the table):
    # the pace as JSON; null: no clock
    clock: Mapped[str | None] = mapped_column(Text, nullable=True)
    # the turn's deadline, Unix seconds
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    # when the current turn began
    turn_started: Mapped[float | None] = mapped_column(Float, nullable=True)
    # creation, join or move
    last_move_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    # "abandoned", "closed"; null: played out
    ended: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # the id of the rematch game
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # Revision 0002: the server process that drives the game (its bots and clock), until when (the
    # database's clock, Unix seconds), and the fencing epoch, raised by every takeover.
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    lease_expires: Mapped[float | None] = mapped_column(Float, nullable=True)
    # Revision 0004: a rated game (only signed-in people sit at it; its result moves their ratings).
    rated: Mapped[bool | None] = mapped_column(Boolean, nullable=True)


class SeatTable(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "bot"
    bot: Mapped[str | None] = mapped_column(String(64))
    name: Mapped[str | None] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64))  # SHA-256 of the seat token, hex
    # Added by the second schema:
    # live clock: seconds of bank left
    bank: Mapped[float | None] = mapped_column(Float, nullable=True)
    # turns in a row played on the clock
    timeouts: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # a bot plays it until the person is back
    away: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # the person left; a bot plays it
    left: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # a rematch seat kept for its player
    reserved: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # Revision 0003: the person asked to end the game (after someone left).
    end_vote: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # Revision 0004: the account that took the seat (null: anonymous, a bot, or a deleted account),
    # and the seat's place once the game is over (1 for the winner; ties share a place).
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id"), nullable=True, index=True
    )
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)


class MoveTable(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1 for the first move
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(32))  # the engine's notation


class ChatTable(Base):
    """Table talk and the table's notices (timeouts, a player leaving), stored with the game."""

    __tablename__ = "chat"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1 for the first line
    # null: a notice of the table itself
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(8))  # "chat" or "notice"
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)  # Unix seconds


class AccountTable(Base):
    """A person's account (revision 0004). The name is shown as typed; ``name_key`` (its case-folded
    form) keeps names unique regardless of case."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    # Argon2id, PHC string: never leaves the server
    password_hash: Mapped[str] = mapped_column(String(256))
    created: Mapped[float] = mapped_column(Float)  # Unix seconds


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


class SignInLimitTable(Base):
    """Failed sign-ins counted per account name and per address (revision 0004), in the database so
    that every server process counts together."""

    __tablename__ = "sign_in_limits"

    # "name:<name_key>" or "address:<ip>"
    key: Mapped[str] = mapped_column(String(160), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    window_start: Mapped[float] = mapped_column(Float)
    blocked_until: Mapped[float | None] = mapped_column(Float, nullable=True)


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
    """Each rated game's effect on a person's rating (revision 0004): the profile's chart."""

    __tablename__ = "rating_history"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    edition: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[float] = mapped_column(Float, index=True)
    rating: Mapped[float] = mapped_column(Float)  # after the game
    deviation: Mapped[float] = mapped_column(Float)


class SeekTable(Base):
    """A wish to play someone now (revision 0004), paired with a
    compatible one into a rated game."""

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    edition: Mapped[str] = mapped_column(String(32))
    # the pace as JSON; null: no clock
    pace: Mapped[str | None] = mapped_column(Text, nullable=True)
    rating_min: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating_max: Mapped[float | None] = mapped_column(Float, nullable=True)
    created: Mapped[float] = mapped_column(Float, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)  # "open", "paired", "cancelled"
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # the paired seat's token, for its owner
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)


MIGRATIONS = Path(__file__).parent / "migrations"


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision (a new database is made;
    an old one keeps every game)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
