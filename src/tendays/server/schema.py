"""The database schema, in one place: the tables, and the upgrade of a database written by an older tendays.

``create_all`` makes missing tables but never changes an existing one, so :func:`upgrade` adds the
columns and indexes a newer tendays needs to tables an older one created, with values that keep every
game as it was: an old unfinished game counts as last moved at the upgrade (it does not expire at once),
an old finished game as finished at the upgrade (it is kept for the whole retention time). Every column
added since the first schema is nullable, so an older tendays still reads a database this one upgraded.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    inspect,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["Base", "ChatTable", "GameTable", "MoveTable", "SeatTable", "upgrade"]

log = logging.getLogger("tendays.server")


class Base(DeclarativeBase):
    pass


class GameTable(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    edition: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text)  # Options.to_json() as JSON text, rules version included
    seed: Mapped[int] = mapped_column(BigInteger)  # secret: never leaves the server
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    # Added by the second schema (all nullable, so older servers still read the table):
    clock: Mapped[str | None] = mapped_column(Text, nullable=True)  # the pace as JSON; null: no clock
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)  # the turn's deadline, Unix seconds
    turn_started: Mapped[float | None] = mapped_column(Float, nullable=True)  # when the current turn began
    last_move_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)  # creation, join or move
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    ended: Mapped[str | None] = mapped_column(String(16), nullable=True)  # "abandoned", "closed"; null: played out
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the id of the rematch game


class SeatTable(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "bot"
    bot: Mapped[str | None] = mapped_column(String(64))
    name: Mapped[str | None] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64))  # SHA-256 of the seat token, hex
    # Added by the second schema:
    bank: Mapped[float | None] = mapped_column(Float, nullable=True)  # live clock: seconds of bank left
    timeouts: Mapped[int | None] = mapped_column(Integer, nullable=True)  # turns in a row played on the clock
    away: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # a bot plays it until the person is back
    left: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # the person left; a bot plays it
    reserved: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # a rematch seat kept for its player


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
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # null: a notice of the table itself
    kind: Mapped[str] = mapped_column(String(8))  # "chat" or "notice"
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)  # Unix seconds


def upgrade(engine: Engine) -> None:
    """Create missing tables, and add the newer columns and indexes to tables an older tendays created."""
    Base.metadata.create_all(engine)
    inspector = inspect(engine)
    added: list[str] = []
    with engine.begin() as db:
        for table in Base.metadata.sorted_tables:
            present = {c["name"] for c in inspector.get_columns(table.name)}
            for column in table.columns:
                if column.name not in present:
                    _add_column(db, table.name, column, engine)
                    added.append(f"{table.name}.{column.name}")
        if added:
            now = time.time()
            # Old games keep their whole time: as if last moved (or finished) at the upgrade.
            db.execute(text("UPDATE games SET last_move_at = :now WHERE last_move_at IS NULL"), {"now": now})
            db.execute(text("UPDATE games SET finished_at = :now WHERE finished_at IS NULL AND finished = :yes"),
                       {"now": now, "yes": True})
    for table in Base.metadata.sorted_tables:
        indexes = {i["name"] for i in inspect(engine).get_indexes(table.name)}
        for index in table.indexes:
            if index.name not in indexes:
                _create_index(index, engine)
    if added:
        log.info("database upgraded: added %s", ", ".join(added))


def _add_column(db: object, table: str, column: Column[object], engine: Engine) -> None:
    kind = column.type.compile(dialect=engine.dialect)
    db.execute(text(f'ALTER TABLE {table} ADD COLUMN "{column.name}" {kind}'))  # type: ignore[attr-defined]


def _create_index(index: Index, engine: Engine) -> None:
    index.create(engine, checkfirst=True)
