"""Leases: which server process drives each unfinished game (its bots and clock), until when, and
the fencing epoch that every move it stores must still match (see
:mod:`tendays.server.storage.cluster`)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("lease_owner", sa.String(64), nullable=True))
    op.add_column(
        "games", sa.Column("lease_epoch", sa.Integer(), nullable=False, server_default="0")
    )
    op.add_column("games", sa.Column("lease_expires", sa.Float(), nullable=True))


def downgrade() -> None:
    for column in ("lease_expires", "lease_epoch", "lease_owner"):
        op.drop_column("games", column)
