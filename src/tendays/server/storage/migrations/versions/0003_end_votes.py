"""A person's request to end a game someone left, stored with the seat, so that requests made
through different server processes count together."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("end_vote", sa.Boolean(), nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "end_vote")
