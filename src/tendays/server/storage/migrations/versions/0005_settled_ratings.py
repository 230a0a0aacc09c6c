"""The leaderboard's index: an edition's settled ratings (deviation at most 6.0), best first, in a
partial index that holds only them, so that a page of the leaderboard reads only its own rows,
however few of the edition's players are settled. It replaces the index of every rating, which no
query needs any more."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

# as ``storage/schema.py`` says it (SETTLED_SIGMA) at this revision
SETTLED = sa.text("sigma <= 6.0")


def upgrade() -> None:
    op.create_index(
        "ix_ratings_settled",
        "ratings",
        ["edition", "rating", "account_id"],
        postgresql_where=SETTLED,
        sqlite_where=SETTLED,
    )
    op.drop_index("ix_ratings_rating", table_name="ratings")


def downgrade() -> None:
    op.create_index("ix_ratings_rating", "ratings", ["rating"])
    op.drop_index("ix_ratings_settled", table_name="ratings")
