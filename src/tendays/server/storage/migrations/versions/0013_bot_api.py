"""The Bot API: personal API tokens (only their SHA-256 is stored), bot accounts (``accounts.bot``,
set once and never unset) and tournaments that let bot accounts enter (``bots_allowed``)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "accounts", sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    for table in ("tournaments", "tournament_series"):
        op.add_column(
            table,
            sa.Column("bots_allowed", sa.Boolean(), nullable=False, server_default=sa.false()),
        )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("scopes", sa.String(120), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("last_used", sa.Float(), nullable=True),
        sa.Column("revoked_at", sa.Float(), nullable=True),
    )
    op.create_index("ux_api_tokens_hash", "api_tokens", ["token_hash"], unique=True)
    op.create_index("ix_api_tokens_account_id", "api_tokens", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_api_tokens_account_id", table_name="api_tokens")
    op.drop_index("ux_api_tokens_hash", table_name="api_tokens")
    op.drop_table("api_tokens")
    for table in ("tournament_series", "tournaments"):
        op.drop_column(table, "bots_allowed")
    op.drop_column("accounts", "bot")
