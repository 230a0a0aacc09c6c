"""The inbox of each account (its notifications), when each account was last seen online (an open
page of the site), and whose turn it is in each game (``games.to_move``, for the "your move"
list)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

# at most one unread "your move" notification per account and game: as storage/schema.py says it
UNREAD_YOUR_MOVE = sa.text("kind = 'your_move' AND read_at IS NULL")


def upgrade() -> None:
    op.add_column("games", sa.Column("to_move", sa.Integer(), nullable=True))
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("read_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_notifications_inbox", "notifications", ["account_id", "id"])
    op.create_index(
        "ux_notifications_your_move",
        "notifications",
        ["account_id", "game_id"],
        unique=True,
        postgresql_where=UNREAD_YOUR_MOVE,
        sqlite_where=UNREAD_YOUR_MOVE,
    )
    op.create_table(
        "presence",
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seen_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("presence")
    op.drop_index("ux_notifications_your_move", table_name="notifications")
    op.drop_index("ix_notifications_inbox", table_name="notifications")
    op.drop_table("notifications")
    op.drop_column("games", "to_move")
