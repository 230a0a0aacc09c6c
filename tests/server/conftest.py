"""Fixtures for the server tests: an app on a temporary database, with bots that do not wait."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from server_helpers import TestClient, Ticker, settings  # noqa: E402

from tendays.server.app import Limits, create_app  # noqa: E402


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tendays.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    # 0.1 s between messages: well inside the limit of 20 a second, however slow the test machine. The
    # per-client limits are tested on their own (test_limits.py).
    unlimited = Limits(clock=Ticker(0.1), creates_per_minute=0, joins_per_minute=0, connections_per_minute=0,
                       connections_at_once=0)
    with TestClient(create_app(db_url, settings(), unlimited)) as test_client:
        yield test_client
