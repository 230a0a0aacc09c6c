"""Challenges between people (or open links), and who follows whom."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

# -- challenges ------------------------------------------------------------------------------------

# One challenger has at most three open challenges to one person: each takes one of three slots, and
# two open ones cannot share a slot (as ``storage/schema.py`` says it at this revision).
OPEN_CHALLENGE = sa.text("status = 'open'")


def _upgrade_challenges() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column(
            "challenger_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "challenged_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column(
            "accepter_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("edition", sa.String(32), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("clock", sa.Text(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("answered_at", sa.Float(), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_challenges_challenger_id", "challenges", ["challenger_id"])
    op.create_index("ix_challenges_challenged_id", "challenges", ["challenged_id"])
    op.create_index("ix_challenges_expires_at", "challenges", ["expires_at"])
    op.create_index(
        "ux_challenges_open_slot",
        "challenges",
        ["challenger_id", "challenged_id", "slot"],
        unique=True,
        postgresql_where=OPEN_CHALLENGE,
        sqlite_where=OPEN_CHALLENGE,
    )


def _downgrade_challenges() -> None:
    op.drop_index("ux_challenges_open_slot", table_name="challenges")
    op.drop_index("ix_challenges_expires_at", table_name="challenges")
    op.drop_index("ix_challenges_challenged_id", table_name="challenges")
    op.drop_index("ix_challenges_challenger_id", table_name="challenges")
    op.drop_table("challenges")


# -- follows (who follows whom) -------------------------------------------------------------------


def _upgrade_follows() -> None:
    op.create_table(
        "follows",
        sa.Column(
            "follower_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "followed_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ix_follows_followed_id", "follows", ["followed_id"])


def _downgrade_follows() -> None:
    op.drop_index("ix_follows_followed_id", table_name="follows")
    op.drop_table("follows")


# -- the revision ----------------------------------------------------------------------------------


def upgrade() -> None:
    _upgrade_challenges()
    _upgrade_follows()


def downgrade() -> None:
    _downgrade_follows()
    _downgrade_challenges()
