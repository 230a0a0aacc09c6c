"""Rated results that mean something: what each rated game's result did (``games.rated_outcome``:
counted, capped by the repeat cap, aborted, annulled), whether each seat's person has moved after
the draft (``seats.moved_after_draft``, for the abort rule), and an index that finds a person's
counted games of the last day (``ix_rating_history_recent``, for the repeat cap).

Rated games rated before this revision moved ratings: those with rating history rows are marked
counted, so the history and the outcome say the same."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE, which SQLite does in place: a batch copy of ``games`` would drop the table
    # its seats refer to.
    op.add_column("games", sa.Column("rated_outcome", sa.String(16), nullable=True))
    op.add_column("seats", sa.Column("moved_after_draft", sa.Boolean(), nullable=True))
    op.create_index("ix_rating_history_recent", "rating_history", ["account_id", "edition", "at"])
    op.execute(
        "UPDATE games SET rated_outcome = 'counted' WHERE rated_outcome IS NULL AND id IN "
        "(SELECT game_id FROM rating_history)"
    )


def downgrade() -> None:
    op.drop_index("ix_rating_history_recent", table_name="rating_history")
    op.drop_column("seats", "moved_after_draft")
    op.drop_column("games", "rated_outcome")
