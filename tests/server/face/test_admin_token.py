"""The operator's admin token: a weak one is refused at start, and wrong ones are limited and
recorded for the operator."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_helpers import TestClient, settings

from tendays.server.face.app import Limits, create_app
from tendays.server.face.routers.admin import FAILURES_PER_MINUTE

TOKEN = "Hq3Lx7Vw1Rz5Yb9Nc2Kd6Hs0Pf4Gj8MeTa"
UNLIMITED = {"creates_per_minute": 0, "joins_per_minute": 0, "connections_per_minute": 0, "connections_at_once": 0}


@pytest.fixture
def app_client(tmp_path: Path) -> Any:
    with TestClient(
        create_app(f"sqlite:///{tmp_path / 't.db'}", settings(), Limits(**UNLIMITED), admin_token=TOKEN)
    ) as client:
        yield client


def test_a_weak_admin_token_is_refused_at_start(tmp_path: Path) -> None:
    for weak in ("a", "op3rator", "a" * 40, "abababababababababababababababab"):
        with pytest.raises(ValueError, match="secrets.token_urlsafe"):
            create_app(f"sqlite:///{tmp_path / 't.db'}", admin_token=weak)


def test_wrong_admin_tokens_are_limited_and_recorded(app_client: TestClient) -> None:
    wrong = {"Authorization": "Bearer " + TOKEN[:-1]}
    codes = [app_client.get("/api/admin/games", headers=wrong).status_code for _ in range(FAILURES_PER_MINUTE + 2)]
    assert codes == [401] * FAILURES_PER_MINUTE + [429, 429]
    right = {"Authorization": "Bearer " + TOKEN}
    assert app_client.get("/api/admin/games", headers=right).status_code == 429  # this address waits a minute
    other = TestClient(app_client.app, client=("192.0.2.8", 4000))
    limits = other.get("/api/admin/limits", headers=right).json()
    assert limits["refused"]["admin"] == FAILURES_PER_MINUTE + 3
    assert {"limit": "admin", "address": "testclient"} in [
        {k: r[k] for k in ("limit", "address")} for r in limits["recent"]
    ]
