"""Persistence: game records in any SQLAlchemy database, written before anything is acknowledged.

A game is determined by (edition, options, seed, moves), so that is what the store keeps, plus the
seats (names, kinds, bot levels, the SHA-256 hashes of their secret tokens, what is left of each bank,
whether the person left), the pace and the turn's deadline, the table's chat, and when the game last
moved or ended. The options carry the rules version the game is played under; rows written before rules
versions existed are read as rules 1, the rules they were played under. The tables and their upgrade are
in :mod:`tendays.server.schema`; every write goes through the :class:`~tendays.server.journal.Journal`.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from sqlalchemy import Row, bindparam, create_engine, delete, event, func, insert, select, update
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import StaticPool

from tendays.engine import Options

from .schema import ChatTable, GameTable, MoveTable, SeatTable, upgrade
from .timing import Pace

__all__ = ["ChatRow", "DatabaseBusy", "DatabaseLock", "MoveRow", "Store", "StoredGame", "StoredSeat",
           "read_options", "redact_url"]

log = logging.getLogger("tendays.server")


@dataclass
class StoredSeat:
    seat: int
    kind: str
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    bank: float | None = None
    timeouts: int = 0
    away: bool = False
    left: bool = False
    reserved: bool = False


@dataclass(frozen=True, slots=True)
class ChatRow:
    """One line of the table's talk (``seat``) or one of its notices (``seat`` None, kind "notice")."""

    number: int
    seat: int | None
    kind: str
    text: str
    at: float


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
    pace: Pace | None = None
    deadline: float | None = None
    turn_started: float | None = None
    last_move_at: float | None = None
    finished_at: float | None = None
    ended: str | None = None
    rematch: str | None = None
    chat: list[ChatRow] = field(default_factory=list)


@dataclass(frozen=True)
class MoveRow:
    """One accepted move to store, with the clock as it stands after it.

    ``finished`` marks the move that ended the game; ``bank`` and ``timeouts`` are the mover's, given
    (both) only when either changed. The game's row (its deadline, and when it last moved, for expiry)
    is written only when ``touch`` says so: most moves store one row.
    """

    game_id: str
    number: int
    seat: int
    move: str
    finished: bool = False
    at: float = 0.0
    deadline: float | None = None
    turn_started: float | None = None
    bank: float | None = None
    timeouts: int | None = None
    touch: bool = True  # write the game's row (its deadline changed, or its last move time is a minute old)


def read_options(text: str) -> Options:
    """Stored options. Rows from before rules versions existed name none: they were played under rules 1."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"options must be a JSON object, not {text[:40]!r}")
    return Options.from_json(data, rules_if_missing=1)


def redact_url(url: str) -> str:
    """The database URL without its password, for messages."""
    return make_url(url).render_as_string(hide_password=True)


class DatabaseBusy(RuntimeError):
    """Another server process already serves this database."""


class DatabaseLock:
    """One server per SQLite file: an exclusive lock on the file, held while the server runs.

    Two processes that each keep games in memory would accept moves the other never hears of, and
    a game's record would mix both. The lock is the kernel's (``flock``): it goes with the process,
    even one killed outright, so a crashed server never blocks its restart.
    """

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        database = parsed.database if parsed.get_backend_name() == "sqlite" else None
        self.path = None if database in (None, "", ":memory:") else os.path.abspath(str(database))
        self._file: IO[bytes] | None = None

    def acquire(self) -> None:
        if self.path is None:
            return
        handle = open(self.path, "ab")  # noqa: SIM115 - held open while the server runs
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise DatabaseBusy(f"another tendays server is already using the database {self.path}; stop it "
                               "first (two servers on one SQLite file would each accept moves the other "
                               "never sees)") from None
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
            self._file = None


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


# Built once: a move is stored with the same statements every time (executemany over a batch).
_INSERT_MOVE = insert(MoveTable)
_AFTER_MOVE = (update(GameTable).where(GameTable.id == bindparam("b_id"))
               .values(last_move_at=bindparam("b_at"), deadline=bindparam("b_deadline"),
                       turn_started=bindparam("b_started")))
_FINISHED = (update(GameTable).where(GameTable.id == bindparam("b_id"))
             .values(finished=True, finished_at=bindparam("b_at"), deadline=None, turn_started=None))
_SEAT_CLOCK = (update(SeatTable).where(SeatTable.game_id == bindparam("b_id"), SeatTable.seat == bindparam("b_seat"))
               .values(bank=bindparam("b_bank"), timeouts=bindparam("b_timeouts")))


class Store:
    """Synchronous access to the game tables. Use it from one thread (the Journal's)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _make_engine(url)
        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- writing ---------------------------------------------------------------------------

    def create_game(self, game: StoredGame) -> None:
        with self.engine.begin() as db:
            db.execute(insert(GameTable).values(
                id=game.id, edition=game.edition, options=json.dumps(game.options.to_json()), seed=game.seed,
                created=game.created, finished=game.finished, last_move_at=game.last_move_at,
                clock=json.dumps(game.pace.to_json()) if game.pace else None, deadline=game.deadline,
                turn_started=game.turn_started,
            ))
            db.execute(insert(SeatTable), [
                {"game_id": game.id, "seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                 "token_hash": s.token_hash, "bank": s.bank, "timeouts": 0, "away": False, "left": False,
                 "reserved": s.reserved}
                for s in game.seats
            ])

    def take_seat(self, game_id: str, seat: int, name: str, token_hash: str, at: float,
                  deadline: float | None = None) -> None:
        """A person takes a free seat; ``deadline``: the game starts now, and its first turn ends then."""
        with self.engine.begin() as db:
            db.execute(update(SeatTable).where(SeatTable.game_id == game_id, SeatTable.seat == seat)
                       .values(name=name, token_hash=token_hash, reserved=False))
            values: dict[str, Any] = {"last_move_at": at}
            if deadline is not None:
                values.update(deadline=deadline, turn_started=at)
            db.execute(update(GameTable).where(GameTable.id == game_id).values(**values))

    def append_moves(self, rows: list[MoveRow]) -> None:
        """Store moves of any number of games, with their clocks, in one transaction (one statement each)."""
        with self.engine.begin() as db:
            db.execute(_INSERT_MOVE, [{"game_id": r.game_id, "number": r.number, "seat": r.seat, "move": r.move}
                                      for r in rows])
            touched = [{"b_id": r.game_id, "b_at": r.at, "b_deadline": r.deadline, "b_started": r.turn_started}
                       for r in rows if r.touch]
            if touched:
                db.execute(_AFTER_MOVE, touched)
            finished = [{"b_id": r.game_id, "b_at": r.at} for r in rows if r.finished]
            if finished:
                db.execute(_FINISHED, finished)
            seats = [{"b_id": r.game_id, "b_seat": r.seat, "b_bank": r.bank, "b_timeouts": r.timeouts}
                     for r in rows if r.timeouts is not None]
            if seats:
                db.execute(_SEAT_CLOCK, seats)

    def update_seat(self, game_id: str, seat: int, **values: Any) -> None:
        """Change a seat's kind, bot, timeouts, ``away`` or ``left``."""
        with self.engine.begin() as db:
            db.execute(update(SeatTable).where(SeatTable.game_id == game_id, SeatTable.seat == seat).values(**values))

    def end_game(self, game_id: str, ended: str, at: float) -> None:
        """The game is over without being played out: ``ended`` says why ("abandoned", "closed")."""
        with self.engine.begin() as db:
            db.execute(update(GameTable).where(GameTable.id == game_id)
                       .values(finished=True, finished_at=at, ended=ended, deadline=None, turn_started=None))

    def set_rematch(self, game_id: str, rematch: str) -> None:
        with self.engine.begin() as db:
            db.execute(update(GameTable).where(GameTable.id == game_id).values(rematch=rematch))

    def add_chat(self, game_id: str, row: ChatRow) -> None:
        with self.engine.begin() as db:
            db.execute(insert(ChatTable).values(game_id=game_id, number=row.number, seat=row.seat, kind=row.kind,
                                                text=row.text, at=row.at))

    # -- expiry ----------------------------------------------------------------------------

    def expire_idle(self, before: float, at: float) -> list[str]:
        """Close every unfinished game with no move since ``before`` as abandoned; their ids."""
        with self.engine.begin() as db:
            ids = list(db.scalars(select(GameTable.id).where(GameTable.finished.is_(False),
                                                             GameTable.last_move_at < before)))
            for start in range(0, len(ids), 500):
                db.execute(update(GameTable).where(GameTable.id.in_(ids[start:start + 500])).values(
                    finished=True, finished_at=at, ended="abandoned", deadline=None, turn_started=None))
        return ids

    def purge_finished(self, before: float, limit: int = 1000) -> list[str]:
        """Delete up to ``limit`` games that ended before ``before``, with their seats, moves and chat."""
        with self.engine.begin() as db:
            ids = list(db.scalars(select(GameTable.id).where(GameTable.finished.is_(True),
                                                             GameTable.finished_at < before).limit(limit)))
            if ids:
                for table in (ChatTable, MoveTable, SeatTable):
                    db.execute(delete(table).where(table.game_id.in_(ids)))
                db.execute(delete(GameTable).where(GameTable.id.in_(ids)))
        return ids

    # -- reading ---------------------------------------------------------------------------

    def load_game(self, game_id: str) -> StoredGame | None:
        games = self._load(GameTable.id == game_id)
        return games[0] if games else None

    def load_unfinished(self) -> list[StoredGame]:
        return self._load(GameTable.finished.is_(False))

    def list_games(self, finished: bool | None, offset: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        """Games for the operator, newest first: (id, edition, created, finished, ended, moves, names), total."""
        where = [] if finished is None else [GameTable.finished.is_(finished)]
        moves = (select(MoveTable.game_id, func.count().label("moves")).group_by(MoveTable.game_id).subquery())
        with self.engine.connect() as db:
            total = db.scalar(select(func.count()).select_from(GameTable).where(*where)) or 0
            rows = db.execute(select(GameTable.id, GameTable.edition, GameTable.created, GameTable.finished,
                                     GameTable.ended, GameTable.last_move_at, func.coalesce(moves.c.moves, 0))
                              .outerjoin(moves, moves.c.game_id == GameTable.id).where(*where)
                              .order_by(GameTable.created.desc()).offset(offset).limit(limit)).all()
        return [{"id": r[0], "edition": r[1], "created": _utc(r[2]).isoformat(), "finished": bool(r[3]),
                 "ended": r[4], "last_move_at": r[5], "moves": int(r[6])} for r in rows], int(total)

    def _load(self, where: Any) -> list[StoredGame]:
        with self.engine.connect() as db:
            games: dict[str, StoredGame] = {}
            for row in db.execute(select(GameTable).where(where).order_by(GameTable.created)):
                try:
                    options = read_options(row.options)
                    pace = Pace.from_json(json.loads(row.clock)) if row.clock else None
                except (ValueError, KeyError, TypeError) as error:  # one unreadable row must not stop the others
                    log.error("game %s cannot be read, so it is not served: its options: %s", row.id, error)
                    continue
                games[row.id] = _stored_game(row, options, pace)
            if not games:
                return []
            ids = list(games)
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                for seat in db.execute(select(SeatTable).where(SeatTable.game_id.in_(chunk))
                                       .order_by(SeatTable.game_id, SeatTable.seat)):
                    games[seat.game_id].seats.append(StoredSeat(
                        seat.seat, seat.kind, seat.bot, seat.name, seat.token_hash, seat.bank, seat.timeouts or 0,
                        bool(seat.away), bool(seat.left), bool(seat.reserved)))
                for move in db.execute(select(MoveTable.game_id, MoveTable.move).where(MoveTable.game_id.in_(chunk))
                                       .order_by(MoveTable.game_id, MoveTable.number)):
                    games[move.game_id].moves.append(move.move)
                for line in db.execute(select(ChatTable).where(ChatTable.game_id.in_(chunk))
                                       .order_by(ChatTable.game_id, ChatTable.number)):
                    games[line.game_id].chat.append(ChatRow(line.number, line.seat, line.kind, line.text, line.at))
        return list(games.values())


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _stored_game(row: Row[Any], options: Options, pace: Pace | None) -> StoredGame:
    return StoredGame(row.id, row.edition, options, row.seed, _utc(row.created), [], [], bool(row.finished),
                      pace=pace, deadline=row.deadline, turn_started=row.turn_started, last_move_at=row.last_move_at,
                      finished_at=row.finished_at, ended=row.ended, rematch=row.rematch)
