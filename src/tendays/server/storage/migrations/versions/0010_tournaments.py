"""Tournaments: events, their entrants, rounds and tables, and the chat of each event.

``tournament_series`` holds the operator's repeating events; ``tournaments`` each event, with
the lease of the process that runs it (as games have); ``tournament_entrants`` the people and
ladder bots in it (one entry per account and per bot level); ``tournament_tables`` each
pairing, written with the id its game will have before the game exists; ``tournament_seats``
who sits at it, where ``ux_tournament_seats_round`` (one table per entrant per Swiss round) and
``ux_tournament_seats_playing`` (one unfinished table per entrant) make a second pairing
impossible whoever writes it; ``tournament_byes`` the Swiss rounds an entrant sat out;
``tournament_chat`` the event's talk.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

# as storage/schema.py says them at this revision
SWISS_ROUND = sa.text("round > 0")
PLAYING = sa.text("playing")


def _event_columns() -> list[sa.Column[object]]:
    """What an event and a series of events both say."""
    return [
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("edition", sa.String(32), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("clock", sa.Text(), nullable=True),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("bots", sa.Text(), nullable=False),
        sa.Column("rating_min", sa.Float(), nullable=True),
        sa.Column("rating_max", sa.Float(), nullable=True),
    ]


def upgrade() -> None:
    op.create_table(
        "tournament_series",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        *_event_columns(),
        sa.Column("every", sa.Float(), nullable=False),
        sa.Column("first_start", sa.Float(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        *_event_columns(),
        sa.Column("starts_at", sa.Float(), nullable=False),
        sa.Column("ends_at", sa.Float(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False, server_default="0"),
        sa.Column(
            "created_by",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column(
            "series_id",
            sa.Integer(),
            sa.ForeignKey("tournament_series.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("reminded", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("lease_owner", sa.String(64), nullable=True),
        sa.Column("lease_epoch", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("lease_expires", sa.Float(), nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_index("ix_tournaments_starts_at", "tournaments", ["starts_at"])
    op.create_index(
        "ux_tournaments_series_start", "tournaments", ["series_id", "starts_at"], unique=True
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.Integer(),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("bot", sa.String(64), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined", sa.Float(), nullable=False),
        sa.Column("first_round", sa.Integer(), nullable=False, server_default="1"),
        sa.Column("withdrawn", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("paused", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("free_since", sa.Float(), nullable=True),
    )
    op.create_index(
        "ux_tournament_entrants_account",
        "tournament_entrants",
        ["tournament_id", "account_id"],
        unique=True,
    )
    op.create_index(
        "ux_tournament_entrants_bot", "tournament_entrants", ["tournament_id", "bot"], unique=True
    )
    op.create_index("ix_tournament_entrants_account_id", "tournament_entrants", ["account_id"])
    op.create_table(
        "tournament_tables",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.Integer(),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False, unique=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("playing", sa.Boolean(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_tournament_tables_tournament_id", "tournament_tables", ["tournament_id"])
    op.create_table(
        "tournament_seats",
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("tournament_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "entrant_id",
            sa.Integer(),
            sa.ForeignKey("tournament_entrants.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("playing", sa.Boolean(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
    )
    op.create_index(
        "ux_tournament_seats_round",
        "tournament_seats",
        ["entrant_id", "round"],
        unique=True,
        postgresql_where=SWISS_ROUND,
        sqlite_where=SWISS_ROUND,
    )
    op.create_index(
        "ux_tournament_seats_playing",
        "tournament_seats",
        ["entrant_id"],
        unique=True,
        postgresql_where=PLAYING,
        sqlite_where=PLAYING,
    )
    op.create_table(
        "tournament_byes",
        sa.Column(
            "entrant_id",
            sa.Integer(),
            sa.ForeignKey("tournament_entrants.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("points", sa.Float(), nullable=False),
    )
    op.create_table(
        "tournament_chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.Integer(),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_tournament_chat_tournament_id", "tournament_chat", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_chat_tournament_id", table_name="tournament_chat")
    op.drop_table("tournament_chat")
    op.drop_table("tournament_byes")
    op.drop_index("ux_tournament_seats_playing", table_name="tournament_seats")
    op.drop_index("ux_tournament_seats_round", table_name="tournament_seats")
    op.drop_table("tournament_seats")
    op.drop_index("ix_tournament_tables_tournament_id", table_name="tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_index("ix_tournament_entrants_account_id", table_name="tournament_entrants")
    op.drop_index("ux_tournament_entrants_bot", table_name="tournament_entrants")
    op.drop_index("ux_tournament_entrants_account", table_name="tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_index("ux_tournaments_series_start", table_name="tournaments")
    op.drop_index("ix_tournaments_starts_at", table_name="tournaments")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
    op.drop_table("tournament_series")
