"""The ``--db`` option of the operator's commands that open the server's database themselves
(``tendays accounts``, ``tendays admin backup``): the same URL the server is started with."""

from __future__ import annotations

import argparse
import os

__all__ = ["DEFAULT_DATABASE", "add_database_argument"]

DEFAULT_DATABASE = "sqlite:///tendays.db"


def add_database_argument(parser: argparse.ArgumentParser) -> None:
    """``--db URL``: the database, by default ``$TENDAYS_DB``, else :data:`DEFAULT_DATABASE`."""
    parser.add_argument(
        "--db",
        default=os.environ.get("TENDAYS_DB", DEFAULT_DATABASE),
        metavar="URL",
        help=f"the database (default: TENDAYS_DB, else {DEFAULT_DATABASE})",
    )
