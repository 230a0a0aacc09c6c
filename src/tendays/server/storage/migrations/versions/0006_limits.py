"""Atomic limits and known devices: ``attempt_counts`` counts every limited attempt (sign-ins per
name, address and known device, sign-ups, games created and joined) in one statement each, in place
of 0004's ``sign_in_limits``, which was read and then written; ``known_devices`` keeps the SHA-256
of each browser's device cookie, so that an account's owner signs in from a known device whatever
strangers guess. The old counts are not carried over: they end within 15 minutes anyway."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "attempt_counts",
        sa.Column("key", sa.String(160), primary_key=True),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("window_end", sa.Float(), nullable=False),
    )
    op.create_index("ix_attempt_counts_window_end", "attempt_counts", ["window_end"])
    op.create_table(
        "known_devices",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_index("ix_known_devices_account_id", "known_devices", ["account_id"])
    op.create_index("ix_known_devices_expires", "known_devices", ["expires"])
    op.drop_table("sign_in_limits")


def downgrade() -> None:
    op.create_table(
        "sign_in_limits",
        sa.Column("key", sa.String(160), primary_key=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("window_start", sa.Float(), nullable=False),
        sa.Column("blocked_until", sa.Float(), nullable=True),
    )
    op.drop_index("ix_known_devices_expires", table_name="known_devices")
    op.drop_index("ix_known_devices_account_id", table_name="known_devices")
    op.drop_table("known_devices")
    op.drop_index("ix_attempt_counts_window_end", table_name="attempt_counts")
    op.drop_table("attempt_counts")
