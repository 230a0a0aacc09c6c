"""The operator's actions on site tournaments are in the audit log, on SQLite and PostgreSQL: creating an
event, cancelling it, scheduling a series and stopping it through the admin API each write one row in the
action's transaction, naming who acted (the token's fingerprint and the operator's name) and which event or
series; an action refused (a cancelled event cancelled again, a series stopped twice, a start in the past)
writes none."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import TestClient, Ticker, settings
from sqlalchemy import func, select
from test_moderation_admin import ADMIN, BEARER, FINGERPRINT, audit

from tendays.server.face.app import Limits, create_app
from tendays.server.people.audit import Operator
from tendays.server.people.tournament_rules import TournamentKind
from tendays.server.people.tournament_spec import EventSpec, TournamentError, check_spec
from tendays.server.people.tournaments import cancel, create
from tendays.server.storage.schema import AuditTable, TournamentTable
from tendays.server.storage.store import Store

OLGA = {**BEARER, "X-Tendays-Operator": "Olga"}


@pytest.fixture
def admin(db_url: str) -> Iterator[TestClient]:
    unlimited = Limits(
        clock=Ticker(0.1), creates_per_minute=0, joins_per_minute=0, connections_per_minute=0, connections_at_once=0
    )
    with TestClient(create_app(db_url, settings(), unlimited, admin_token=ADMIN)) as client:
        yield client


def event(name: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "kind": "swiss", "edition": "usa", "rounds": 3, "starts_at": time.time() + 3600, **more}


def test_operator_actions_on_tournaments_are_audited(admin: TestClient) -> None:
    made = admin.post("/api/admin/tournaments", json=event("Evening Swiss"), headers=OLGA)
    assert made.status_code == 201, made.text
    tournament = made.json()["id"]
    past = admin.post("/api/admin/tournaments", json=event("Too late", starts_at=time.time() - 3600), headers=OLGA)
    assert past.status_code == 422
    series = admin.post("/api/admin/tournament-series", json=event("Hourly", every=60), headers=BEARER)
    assert series.status_code == 201, series.text
    series_id = series.json()["id"]
    assert admin.post(f"/api/admin/tournaments/{tournament}/cancel", headers=OLGA).status_code == 200
    assert admin.post(f"/api/admin/tournaments/{tournament}/cancel", headers=OLGA).status_code == 409
    assert admin.delete(f"/api/admin/tournament-series/{series_id}", headers=OLGA).status_code == 200
    assert admin.delete(f"/api/admin/tournament-series/{series_id}", headers=OLGA).status_code == 404
    olga, token = f"Olga (token {FINGERPRINT})", f"token {FINGERPRINT}"
    assert [(e["operator"], e["action"], e["outcome"], e["account"]) for e in reversed(audit(admin))] == [
        (olga, "create-event", {"tournament": tournament, "name": "Evening Swiss"}, None),
        (token, "schedule-series", {"series": series_id, "name": "Hourly"}, None),
        (olga, "cancel-event", {"tournament": tournament, "name": "Evening Swiss"}, None),
        (olga, "stop-series", {"series": series_id}, None),
    ]


def test_an_action_and_its_audit_row_commit_together(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The row is written in the action's transaction: should the transaction fail after the row was written,
    neither the action nor the row stays."""
    import tendays.server.people.tournaments as tournaments

    store = Store(db_url)
    try:
        spec = check_spec(EventSpec("Rolled back", TournamentKind.SWISS, "usa", {}, rounds=3), settings())
        now = time.time()
        tournament = create(store.engine, spec, now + 3600, now, None)  # a person's way: no operator, no row
        written = tournaments.record

        def then_fail(db: Any, *args: Any, **kwargs: Any) -> None:
            written(db, *args, **kwargs)
            assert db.scalar(select(func.count()).select_from(AuditTable)) == 1  # in this transaction
            raise RuntimeError("the database went away")

        monkeypatch.setattr(tournaments, "record", then_fail)
        with pytest.raises(RuntimeError):
            cancel(store.engine, tournament, Operator("abc123def456", "Olga"), now)
        with pytest.raises(TournamentError):  # refused before anything is written
            create(store.engine, spec, now - 3600, now, None, operator=Operator("abc123def456"))
        with store.engine.connect() as db:
            assert db.scalar(select(func.count()).select_from(AuditTable)) == 0
            assert db.scalar(select(TournamentTable.status).where(TournamentTable.id == tournament)) == "upcoming"
    finally:
        store.close()
