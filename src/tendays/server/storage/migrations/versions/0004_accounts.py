"""People: accounts and their sessions, sign-in limits, ratings and their history, seeks for quick
pairing; a game can be rated, and a seat belongs to the account that took it."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_index("ix_sessions_expires", "sessions", ["expires"])
    op.create_table(
        "sign_in_limits",
        sa.Column("key", sa.String(160), primary_key=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("window_start", sa.Float(), nullable=False),
        sa.Column("blocked_until", sa.Float(), nullable=True),
    )
    op.create_table(
        "ratings",
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("edition", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_index("ix_ratings_rating", "ratings", ["rating"])
    op.create_table(
        "rating_history",
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("edition", sa.String(32), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
    )
    op.create_index("ix_rating_history_at", "rating_history", ["at"])
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("edition", sa.String(32), nullable=False),
        sa.Column("pace", sa.Text(), nullable=True),
        sa.Column("rating_min", sa.Float(), nullable=True),
        sa.Column("rating_max", sa.Float(), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("token", sa.String(64), nullable=True),
    )
    op.create_index("ix_seeks_account_id", "seeks", ["account_id"])
    op.create_index("ix_seeks_created", "seeks", ["created"])
    op.create_index("ix_seeks_status", "seeks", ["status"])
    op.add_column("games", sa.Column("rated", sa.Boolean(), nullable=True))
    # SQLite cannot add a foreign key to an existing table in place: batch mode copies the table.
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
        seats.add_column(sa.Column("place", sa.Integer(), nullable=True))
        seats.create_foreign_key("fk_seats_account_id", "accounts", ["account_id"], ["id"])
        seats.create_index("ix_seats_account_id", ["account_id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_index("ix_seats_account_id")
        seats.drop_constraint("fk_seats_account_id", type_="foreignkey")
        seats.drop_column("place")
        seats.drop_column("account_id")
    op.drop_column("games", "rated")
    for table in ("seeks", "rating_history", "ratings", "sign_in_limits", "sessions", "accounts"):
        op.drop_table(table)
