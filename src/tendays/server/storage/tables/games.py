"""The tables of a game: the game itself, its seats, its moves and its table talk."""

from __future__ import annotations

from datetime import datetime

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
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


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
    # Revision 0008: what a rated game's result did (people/rated_rules.py's RatedOutcome):
    # "counted", "capped", "aborted" or "annulled"; null: unrated, or not decided yet.
    rated_outcome: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # Revision 0012: the seat whose turn it is, written with every move that passes the turn (the
    # lobby's "your move" list); null before the first move: seat 0 begins.
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Revision 0014 (PostgreSQL): the server processes besides the lease owner that hold the game in
    # memory and need its moves' notices (storage/leases.py); null: none. Unused on SQLite.
    followers: Mapped[list[str] | None] = mapped_column(
        ARRAY(String(64)).with_variant(Text(), "sqlite"), nullable=True
    )


# The condition of the indexes that hold only the seats that have an account or a compared name.
_HAS_ACCOUNT = "account_id IS NOT NULL"
_HAS_SKELETON = "name_skeleton IS NOT NULL"


class SeatTable(Base):
    """A seat of a game. Revision 0007: one account has at most one seat in a game
    (``ux_seats_game_account``), and no two people's names at a table look alike
    (``ux_seats_game_skeleton``, over :func:`~tendays.server.matches.lookalikes.name_skeleton`),
    decided by the database whoever writes."""

    __tablename__ = "seats"
    __table_args__ = (
        Index(
            "ux_seats_game_account",
            "game_id",
            "account_id",
            unique=True,
            postgresql_where=text(_HAS_ACCOUNT),
            sqlite_where=text(_HAS_ACCOUNT),
        ),
        Index(
            "ux_seats_game_skeleton",
            "game_id",
            "name_skeleton",
            unique=True,
            postgresql_where=text(_HAS_SKELETON),
            sqlite_where=text(_HAS_SKELETON),
        ),
    )

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # a SeatKind
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
    # Revision 0008: the person (not a bot standing in) has made a move here after the draft; a
    # rated game that ends early before every seat has is aborted (people/rated_rules.py).
    moved_after_draft: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # Revision 0007: the look-alike key of a person's name (taken or kept for a rematch); null for
    # a free seat, a bot (two bots of one level share a name) and a deleted account's seat.
    name_skeleton: Mapped[str | None] = mapped_column(String(1024), nullable=True)


class MoveTable(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1 for the first move
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(32))  # the engine's notation


class ChatLineTable(Base):
    """Table talk and the table's notices (timeouts, a player leaving), stored with the game."""

    __tablename__ = "chat"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1 for the first line
    # null: a notice of the table itself
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(8))  # a ChatKind
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)  # Unix seconds
