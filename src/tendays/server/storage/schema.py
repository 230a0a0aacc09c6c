"""The database schema, in one place: the tables, and their migrations (Alembic, run at every
start).

The tables are declared in ``tables/``, one module per area on one ``Base``, and gathered here
for the queries; the revisions in
``tendays/server/storage/migrations/versions`` make them. The first revision also upgrades a
database an older tendays made without Alembic, so every database, new or old, SQLite or PostgreSQL,
reaches the newest revision the same way. A new column comes with a new revision (written by hand
beside the others: each names the one it follows), and
``tests/server/storage/test_migrations.py`` checks that the revisions make exactly these tables.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

from .tables.accounts import (
    SETTLED,
    SETTLED_SIGMA,
    UNLISTED_SQL,
    AccountTable,
    ApiTokenTable,
    AttemptCountTable,
    KnownDeviceTable,
    RatingHistoryTable,
    RatingTable,
    SessionTable,
)
from .tables.base import Base
from .tables.games import ChatLineTable, GameTable, MoveTable, SeatTable
from .tables.notices import UNREAD_YOUR_MOVE_SQL, ChallengeTable, NotificationTable, PresenceTable
from .tables.people import AuditTable, BlockTable, FollowTable, ReportTable, SeekTable
from .tables.tournaments import (
    TournamentByeTable,
    TournamentChatTable,
    TournamentEntrantTable,
    TournamentSeatTable,
    TournamentSeriesTable,
    TournamentTable,
    TournamentTableTable,
)

__all__ = [
    "MIGRATIONS",
    "SETTLED",
    "SETTLED_SIGMA",
    "UNLISTED_SQL",
    "UNREAD_YOUR_MOVE_SQL",
    "AccountTable",
    "ApiTokenTable",
    "AttemptCountTable",
    "AuditTable",
    "Base",
    "BlockTable",
    "ChallengeTable",
    "ChatLineTable",
    "FollowTable",
    "GameTable",
    "KnownDeviceTable",
    "MoveTable",
    "NotificationTable",
    "PresenceTable",
    "RatingHistoryTable",
    "RatingTable",
    "ReportTable",
    "SeatTable",
    "SeekTable",
    "SessionTable",
    "TournamentByeTable",
    "TournamentChatTable",
    "TournamentEntrantTable",
    "TournamentSeatTable",
    "TournamentSeriesTable",
    "TournamentTable",
    "TournamentTableTable",
    "upgrade",
]


MIGRATIONS = Path(__file__).parent / "migrations"


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision (a new database is made;
    an old one keeps every game)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
