"""Fixtures for the server tests: an app on a temporary database, SQLite and PostgreSQL, with bots that do
not wait."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from postgres import PostgresCluster, binaries  # noqa: E402
from server_helpers import TestClient, Ticker, settings  # noqa: E402

from tendays.server.face.app import Limits, create_app  # noqa: E402
from tendays.server.storage.store import Store  # noqa: E402


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A PostgreSQL cluster for the whole run (Debian's ``postgresql`` package; scripts/test.sh installs it)."""
    bin_dir = binaries()
    if bin_dir is None:
        pytest.skip("PostgreSQL's server programs are not installed (apt-get install postgresql)")
    pytest.importorskip("psycopg", reason="the PostgreSQL driver is missing: pip install -e '.[postgres]'")
    cluster = PostgresCluster(bin_dir)
    yield cluster
    cluster.stop()


@pytest.fixture
def postgres_url(postgres: PostgresCluster) -> str:
    """The cluster's database, with no games."""
    return postgres.database()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database with no games that the migrations brought to the newest revision, made once:
    copying it costs far less than migrating a new file for every test (the migrations themselves
    are tested in test_migrations.py, and on every PostgreSQL database)."""
    path = tmp_path_factory.mktemp("migrated") / "tendays.db"
    Store(f"sqlite:///{path}").close()
    return path


# the PostgreSQL half of every test that uses db_url starts a database: slow
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The server's database: a SQLite file, and (the same test again) a PostgreSQL database."""
    if request.param == "sqlite":
        path = tmp_path / "tendays.db"
        template: Path = request.getfixturevalue("migrated_sqlite")
        with closing(sqlite3.connect(template)) as source, closing(sqlite3.connect(path)) as copy:
            source.backup(copy)
        return f"sqlite:///{path}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    # 0.1 s between messages: well inside the limit of 20 a second, however slow the test machine. The
    # per-client limits are tested on their own (test_limits.py).
    unlimited = Limits(
        clock=Ticker(0.1), creates_per_minute=0, joins_per_minute=0, connections_per_minute=0, connections_at_once=0
    )
    with TestClient(create_app(db_url, settings(), unlimited)) as test_client:
        yield test_client


@pytest.fixture
def nodes() -> Iterator[list[Any]]:
    """The ``tendays serve`` processes a test starts (cluster_nodes.Node), killed at its end."""
    started: list[Any] = []
    yield started
    for node in started:
        node.kill()
        node.forget()
