"""Followers: the server processes besides a game's lease owner that hold it in memory, so that the
process storing a move sends its notice only when another process needs it (see
:mod:`tendays.server.storage.leases`). Null: none; SQLite (one process) never writes it."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import ARRAY

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    kind = ARRAY(sa.String(64)).with_variant(sa.Text(), "sqlite")
    op.add_column("games", sa.Column("followers", kind, nullable=True))


def downgrade() -> None:
    op.drop_column("games", "followers")
