"""The declarative base every table of the database is declared on: one ``Base``, whose metadata
Alembic's revisions are checked against."""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass
