"""Moderation: reports of players and blocks between people, an account's status (active,
suspended, closed) and whether the leaderboards hide it, and the audit log of every operator
action. (A game's annulled result is marked by revision 0008's ``games.rated_outcome``.)"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

# the accounts left off the leaderboards (suspended, closed or hidden): a partial index of a handful
UNLISTED = sa.text("status <> 'active' OR hidden")


def upgrade() -> None:
    # In place, not in batch mode: SQLite's batch copy drops the old accounts table, and with
    # foreign keys on that would cascade into every rating and session.
    op.add_column(
        "accounts", sa.Column("status", sa.String(16), nullable=False, server_default="active")
    )
    op.add_column(
        "accounts", sa.Column("hidden", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    # as ``storage/schema.py`` says it (UNLISTED_SQL) at this revision
    op.create_index(
        "ix_accounts_unlisted",
        "accounts",
        ["id"],
        postgresql_where=UNLISTED,
        sqlite_where=UNLISTED,
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "reporter_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column(
            "reported_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("closed_note", sa.Text(), nullable=True),
        sa.Column("closed_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_reports_reported_id", "reports", ["reported_id"])
    op.create_index("ix_reports_created", "reports", ["created"])
    op.create_table(
        "blocks",
        sa.Column(
            "blocker_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "blocked_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("operator", sa.String(80), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("account_name", sa.String(64), nullable=True),
        sa.Column("report_id", sa.Integer(), nullable=True),
        sa.Column("note", sa.Text(), nullable=False, server_default=""),
        sa.Column("outcome", sa.Text(), nullable=False, server_default=""),
    )
    op.create_index("ix_audit_log_at", "audit_log", ["at"])
    op.create_index("ix_audit_log_account_id", "audit_log", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_audit_log_account_id", table_name="audit_log")
    op.drop_index("ix_audit_log_at", table_name="audit_log")
    op.drop_table("audit_log")
    op.drop_table("blocks")
    op.drop_index("ix_reports_created", table_name="reports")
    op.drop_index("ix_reports_reported_id", table_name="reports")
    op.drop_table("reports")
    op.drop_index("ix_accounts_unlisted", table_name="accounts")
    op.drop_column("accounts", "hidden")
    op.drop_column("accounts", "status")
