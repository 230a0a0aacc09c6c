"""Persistence: game records in any SQLAlchemy database, written before anything is acknowledged.

A game is determined by (edition, options, seed, moves), so that is all the store keeps, plus the
seats (names, kinds, bot levels and the SHA-256 hashes of their secret tokens). The options carry the
rules version the game is played under; rows written before rules versions existed are read as rules 1,
the rules they were played under. Every write goes through one :class:`Journal` thread; moves that
arrive together are committed in one transaction ("group commit"), and each caller is answered only
once its transaction is committed.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.pool import StaticPool

from tendays.engine import Options

__all__ = ["Journal", "MoveRow", "Store", "StoredGame", "StoredSeat", "read_options", "redact_url"]

T = TypeVar("T")

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


class SeatTable(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "bot"
    bot: Mapped[str | None] = mapped_column(String(64))
    name: Mapped[str | None] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64))  # SHA-256 of the seat token, hex


class MoveTable(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1 for the first move
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(32))  # the engine's notation


@dataclass
class StoredSeat:
    seat: int
    kind: str
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None


@dataclass
class StoredGame:
    id: str
    edition: str
    options: Options
    seed: int
    created: datetime
    seats: list[StoredSeat]
    moves: list[str] = field(default_factory=list)
    finished: bool = False


@dataclass(frozen=True)
class MoveRow:
    """One accepted move to store; ``finished`` marks the move that ended the game."""

    game_id: str
    number: int
    seat: int
    move: str
    finished: bool = False


def read_options(text: str) -> Options:
    """Stored options. Rows from before rules versions existed name none: they were played under rules 1."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"options must be a JSON object, not {text[:40]!r}")
    return Options.from_json(data, rules_if_missing=1)


def redact_url(url: str) -> str:
    """The database URL without its password, for messages."""
    return make_url(url).render_as_string(hide_password=True)


def _make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    memory = parsed.database in (None, "", ":memory:")
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False},
        # An in-memory database exists once per connection: share one.
        **({"poolclass": StaticPool} if memory else {}),
    )

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        if not memory:
            # WAL lets readers run beside the writer; FULL syncs the log on every commit, so a
            # committed move survives a crash of the process and of the machine.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()

    return engine


class Store:
    """Synchronous access to the game tables. Use it from one thread (the :class:`Journal`'s)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _make_engine(url)
        Base.metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create_game(self, game: StoredGame) -> None:
        with self.engine.begin() as db:
            db.execute(insert(GameTable).values(
                id=game.id, edition=game.edition, options=json.dumps(game.options.to_json()), seed=game.seed,
                created=game.created, finished=game.finished,
            ))
            db.execute(insert(SeatTable), [
                {"game_id": game.id, "seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                 "token_hash": s.token_hash}
                for s in game.seats
            ])

    def take_seat(self, game_id: str, seat: int, name: str, token_hash: str) -> None:
        with self.engine.begin() as db:
            db.execute(update(SeatTable).where(SeatTable.game_id == game_id, SeatTable.seat == seat)
                       .values(name=name, token_hash=token_hash))

    def append_moves(self, rows: list[MoveRow]) -> None:
        """Store moves of any number of games in one transaction."""
        with self.engine.begin() as db:
            db.execute(insert(MoveTable), [
                {"game_id": r.game_id, "number": r.number, "seat": r.seat, "move": r.move} for r in rows
            ])
            finished = [r.game_id for r in rows if r.finished]
            if finished:
                db.execute(update(GameTable).where(GameTable.id.in_(finished)).values(finished=True))

    def load_game(self, game_id: str) -> StoredGame | None:
        games = self._load(GameTable.id == game_id)
        return games[0] if games else None

    def load_unfinished(self) -> list[StoredGame]:
        return self._load(GameTable.finished.is_(False))

    def _load(self, where: Any) -> list[StoredGame]:
        with self.engine.connect() as db:
            games: dict[str, StoredGame] = {}
            for row in db.execute(select(GameTable).where(where).order_by(GameTable.created)):
                try:
                    options = read_options(row.options)
                except ValueError as error:  # one unreadable row must not keep the others from being served
                    log.error("game %s cannot be read, so it is not served: its options: %s", row.id, error)
                    continue
                created = row.created if row.created.tzinfo else row.created.replace(tzinfo=UTC)
                games[row.id] = StoredGame(row.id, row.edition, options, row.seed, created, [], [], row.finished)
            if not games:
                return []
            ids = list(games)
            for seat in db.execute(select(SeatTable).where(SeatTable.game_id.in_(ids))
                                   .order_by(SeatTable.game_id, SeatTable.seat)):
                games[seat.game_id].seats.append(StoredSeat(seat.seat, seat.kind, seat.bot, seat.name,
                                                            seat.token_hash))
            for move in db.execute(select(MoveTable.game_id, MoveTable.move).where(MoveTable.game_id.in_(ids))
                                   .order_by(MoveTable.game_id, MoveTable.number)):
                games[move.game_id].moves.append(move.move)
        return list(games.values())


class Journal:
    """Runs every database call on one thread and batches concurrent moves into one commit."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tendays-db")
        self._pending: list[tuple[MoveRow, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Call ``function(*args)`` on the database thread."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, function, *args)

    async def append_move(self, row: MoveRow) -> None:
        """Return once ``row`` is committed; raise if it could not be."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((row, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending())
        await future

    async def _write_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self.run(self.store.append_moves, [row for row, _ in batch])
            except Exception as error:
                if len(batch) == 1:
                    _settle(batch[0][1], error)
                    continue
                # One bad row must not fail the moves of other games: retry them one by one.
                for row, future in batch:
                    try:
                        await self.run(self.store.append_moves, [row])
                    except Exception as row_error:
                        _settle(future, row_error)
                    else:
                        _settle(future, None)
            else:
                for _, future in batch:
                    _settle(future, None)

    async def close(self) -> None:
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)
        self._executor.shutdown(wait=True)
        self.store.close()


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():  # the mover stopped waiting; the outcome still stands in the database
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
