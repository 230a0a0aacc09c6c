"""The schema's migrations (Alembic): they make exactly the tables the code declares, on SQLite and
PostgreSQL; a database made before migrations existed upgrades in place, one at revision 0003 (before
accounts) reaches the newest with its games intact, and one at 0004 gets the leaderboard's index (0005) with
its ratings intact; a missing driver is named."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

pytest.importorskip("alembic")
from alembic import command  # noqa: E402
from alembic.autogenerate import compare_metadata  # noqa: E402
from alembic.config import Config  # noqa: E402
from alembic.runtime.migration import MigrationContext  # noqa: E402
from server_helpers import write_game_row  # noqa: E402
from sqlalchemy import MetaData, Table, inspect, text  # noqa: E402

from tendays.server.matches.seats import hash_token  # noqa: E402
from tendays.server.people.profiles import leaderboard  # noqa: E402
from tendays.server.storage.schema import MIGRATIONS, Base  # noqa: E402
from tendays.server.storage.store import Store  # noqa: E402

HEAD = "0014"  # the newest revision


def test_the_migrations_make_exactly_the_declared_tables(db_url: str) -> None:
    store = Store(db_url)
    try:
        with store.engine.connect() as db:
            assert compare_metadata(MigrationContext.configure(db), Base.metadata) == []
            assert db.scalar(text("SELECT version_num FROM alembic_version")) == HEAD
    finally:
        store.close()


@pytest.mark.slow  # over a second of CPU
def test_a_database_made_before_migrations_upgrades_and_keeps_its_games(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = Store(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as db:  # back to the tables as create_all made them, with no Alembic record
        config.attributes["connection"] = db
        command.downgrade(config, "0001")
        db.execute(text("DROP TABLE alembic_version"))
    store.close()
    tokens = write_game_row(url, "kept", {"players": 2, "rules": 2}, [(0, "draft 3")])
    store = Store(url)  # upgrades: detects the tables, adds what is new
    try:
        assert "lease_epoch" in {c["name"] for c in inspect(store.engine).get_columns("games")}
        game = store.load_game("kept")
        assert game is not None and game.moves == ["draft 3"] and len(tokens) == 2
    finally:
        store.close()


@pytest.mark.slow  # starts tendays serve
def test_a_missing_postgresql_driver_is_named_in_one_line(tmp_path: Path) -> None:
    hidden = tmp_path / "psycopg"
    hidden.mkdir()
    (hidden / "__init__.py").write_text("raise ImportError('psycopg is not installed')\n")
    done = subprocess.run(
        [sys.executable, "-m", "tendays", "serve", "--db", "postgresql://tendays@127.0.0.1:9/x"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 2
    assert "pip install -e '.[postgres]'" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_database_at_revision_0003_upgrades_to_the_newest_with_its_games_intact(db_url: str) -> None:
    store = Store(db_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as db:  # the database as the server before accounts left it
        config.attributes["connection"] = db
        command.downgrade(config, "0003")
    engine = store.engine
    assert "accounts" not in inspect(engine).get_table_names()
    tables = MetaData()
    games, seats, moves = (Table(name, tables, autoload_with=engine) for name in ("games", "seats", "moves"))
    with engine.begin() as db:  # rows written through the tables of 0003 as they are, not this code's
        db.execute(
            games.insert().values(
                id="kept",
                edition="usa",
                options='{"players": 2, "rules": 2}',
                seed=7,
                created=datetime.now(UTC),
                finished=False,
                last_move_at=1.0,
                lease_epoch=0,
            )
        )
        db.execute(
            seats.insert(),
            [
                {
                    "game_id": "kept",
                    "seat": seat,
                    "kind": "human",
                    "name": name,
                    "token_hash": hash_token(f"token-{seat}"),
                    "left": False,
                }
                for seat, name in enumerate(("Ann", "Ben"))
            ],
        )
        db.execute(moves.insert(), [{"game_id": "kept", "number": 1, "seat": 0, "move": "draft 3"}])
    store.close()
    store = Store(db_url)  # upgrades to the newest revision
    try:
        with store.engine.connect() as db:
            assert db.scalar(text("SELECT version_num FROM alembic_version")) == HEAD
        game = store.load_game("kept")
        assert game is not None and game.moves == ["draft 3"]
        assert [(s.name, s.token_hash, s.account_id) for s in game.seats] == [
            ("Ann", hash_token("token-0"), None),
            ("Ben", hash_token("token-1"), None),
        ]
        assert {"accounts", "sessions", "attempt_counts", "known_devices", "ratings", "rating_history", "seeks"} <= set(
            inspect(store.engine).get_table_names()
        )
    finally:
        store.close()


def test_a_database_at_revision_0004_gets_the_leaderboards_index_with_its_ratings_intact(db_url: str) -> None:
    store = Store(db_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as db:
        config.attributes["connection"] = db
        command.downgrade(config, "0004")
    engine = store.engine
    assert "ix_ratings_rating" in {i["name"] for i in inspect(engine).get_indexes("ratings")}
    tables = MetaData()
    accounts, ratings = (Table(name, tables, autoload_with=engine) for name in ("accounts", "ratings"))
    with engine.begin() as db:
        db.execute(
            accounts.insert(),
            [{"id": n, "name": f"P{n}", "name_key": f"p{n}", "password_hash": "-", "created": 1.0} for n in (1, 2)],
        )
        db.execute(
            ratings.insert(),
            [
                {
                    "account_id": n,
                    "edition": "usa",
                    "mu": 20.0 + n,
                    "sigma": sigma,
                    "rating": 20.0 + n,
                    "games": 30,
                    "updated": 1.0,
                }
                for n, sigma in ((1, 3.0), (2, 7.0))
            ],
        )
    store.close()
    store = Store(db_url)  # upgrades to the newest revision
    try:
        indexes = {i["name"] for i in inspect(store.engine).get_indexes("ratings")}
        assert "ix_ratings_settled" in indexes and "ix_ratings_rating" not in indexes
        board = leaderboard(store.engine, "usa")
        assert [(p["name"], p["rating"]) for p in board["players"]] == [("P1", 21.0)]  # P2 is provisional
        assert board["total"] == 1
    finally:
        store.close()
