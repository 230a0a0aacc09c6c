"""The games, their seats, moves and chat, as the server kept them before it used Alembic.

A database written by an older tendays (with ``create_all``, no Alembic) has some or all of these
tables, perhaps without the columns added since its first schema. This revision makes what is
missing and leaves what is there, so such a database upgrades in place: an old unfinished game
counts as last moved at the upgrade (it does not expire at once), an old finished game as finished
at the upgrade (it is kept for the whole retention time).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

Columns = Callable[[], list[sa.Column[object]]]


def _games() -> list[sa.Column[object]]:
    return [
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("edition", sa.String(32), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        # Added by the second schema (nullable, so a first-schema server still reads the table):
        sa.Column("clock", sa.Text(), nullable=True),
        sa.Column("deadline", sa.Float(), nullable=True),
        sa.Column("turn_started", sa.Float(), nullable=True),
        sa.Column("last_move_at", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.Column("ended", sa.String(16), nullable=True),
        sa.Column("rematch", sa.String(32), nullable=True),
    ]


def _seats() -> list[sa.Column[object]]:
    return [
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(64), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("bank", sa.Float(), nullable=True),
        sa.Column("timeouts", sa.Integer(), nullable=True),
        sa.Column("away", sa.Boolean(), nullable=True),
        sa.Column("left", sa.Boolean(), nullable=True),
        sa.Column("reserved", sa.Boolean(), nullable=True),
    ]


def _moves() -> list[sa.Column[object]]:
    return [
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(32), nullable=False),
    ]


def _chat() -> list[sa.Column[object]]:
    return [
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    ]


TABLES: dict[str, Columns] = {"games": _games, "seats": _seats, "moves": _moves, "chat": _chat}
INDEXES = {
    "ix_games_finished": "finished",
    "ix_games_last_move_at": "last_move_at",
    "ix_games_finished_at": "finished_at",
}


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    present = set(inspector.get_table_names())
    added: list[str] = []
    for name, columns in TABLES.items():
        if name not in present:
            op.create_table(name, *columns())
            continue
        have = {c["name"] for c in inspector.get_columns(name)}
        for column in columns():
            if column.name not in have:
                op.add_column(name, sa.Column(column.name, column.type, nullable=True))
                added.append(column.name)
    indexes = {i["name"] for i in inspector.get_indexes("games")} if "games" in present else set()
    for index, column_name in INDEXES.items():
        if index not in indexes:
            op.create_index(index, "games", [column_name])
    if added:
        now = time.time()
        games = sa.table(
            "games",
            sa.column("last_move_at", sa.Float()),
            sa.column("finished_at", sa.Float()),
            sa.column("finished", sa.Boolean()),
        )
        op.execute(games.update().where(games.c.last_move_at.is_(None)).values(last_move_at=now))
        op.execute(
            games.update()
            .where(games.c.finished_at.is_(None), games.c.finished.is_(True))
            .values(finished_at=now)
        )


def downgrade() -> None:
    for name in reversed(TABLES):
        op.drop_table(name)
