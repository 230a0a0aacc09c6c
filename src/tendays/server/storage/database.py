"""Opening the database: its URL and driver, the engine with the settings each kind needs, and the
lock that keeps a second server off a SQLite file."""

from __future__ import annotations

import contextlib
import fcntl
import os
from typing import IO, Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import StaticPool

__all__ = [
    "DatabaseBusy",
    "DatabaseLock",
    "MissingDriver",
    "database_url",
    "make_engine",
    "redact_url",
]


def redact_url(url: str) -> str:
    """The database URL without its password, for messages."""
    return make_url(url).render_as_string(hide_password=True)


class DatabaseBusy(RuntimeError):
    """Another server process already serves this database."""


class MissingDriver(RuntimeError):
    """The database's driver is not installed."""


def database_url(url: str) -> str:
    """The URL SQLAlchemy is given: ``postgresql://`` means psycopg 3 (the ``postgres`` extra)."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.drivername == "postgresql+psycopg":
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise MissingDriver(
                "the PostgreSQL driver (psycopg 3) is not installed: "
                "pip install -e '.[postgres]' in a clone of tendays"
            ) from None
    return parsed.render_as_string(hide_password=False)


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
            raise DatabaseBusy(
                f"another tendays server is already using the database {self.path}; stop it "
                "first (two servers on one SQLite file would each accept moves the other "
                "never sees)"
            ) from None
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
            self._file = None


def make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        # A process stopped inside a transaction (SIGSTOP, a machine that froze) must not hold a
        # game's row, and so its takeover, for ever: PostgreSQL ends such a
        # session and undoes its transaction.
        return create_engine(
            url,
            pool_pre_ping=True,
            connect_args={"options": "-c idle_in_transaction_session_timeout=5000"},
        )
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
