"""Alembic's environment: migrate the connection the server hands over
(see :func:`tendays.server.storage.schema.upgrade`)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    if connection.dialect.name == "postgresql":
        # Several servers may start at once on one database: one migrates while the others wait,
        # then find it done. The lock goes with the transaction.
        connection.execute(text("SELECT pg_advisory_xact_lock(461086731)"))
    context.run_migrations()
