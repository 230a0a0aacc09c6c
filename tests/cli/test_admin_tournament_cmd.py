"""``tendays admin tournament`` against a running ``tendays serve``: a site tournament created (an
impossible one refused in the server's words), a repeating series whose next event the server makes
an hour ahead, listing, cancelling (twice: refused) and stopping the series, each action in the
audit log."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
from test_admin_moderation_cmd import admin, base  # noqa: E402, F401

pytestmark = pytest.mark.slow  # starts tendays serve, and a tendays admin process per command


def test_site_tournaments_and_series_from_the_command_line(base: str) -> None:  # noqa: F811
    later = str(time.time() + 3600)
    made = admin(
        base,
        "tournament",
        "create",
        "--name",
        "Evening Swiss",
        "--kind",
        "swiss",
        "--rounds",
        "3",
        "--starts-at",
        later,
        "--bot",
        "easy",
        "--clock",
        "live:60+120",
        "--days",
        "5",
    )
    assert made.returncode == 0, made.stderr
    assert made.stdout.strip() == "tournament 1 created: /tournaments/1"
    wrong = admin(
        base, "tournament", "create", "--name", "Too short", "--kind", "arena", "--minutes", "5"
    )
    assert wrong.returncode != 0 and "20 to 180 minutes" in wrong.stderr
    bad_clock = admin(
        base, "tournament", "create", "--name", "X", "--kind", "arena", "--clock", "fast"
    )
    assert bad_clock.returncode != 0 and "--clock is live:SECONDS" in bad_clock.stderr
    series = admin(
        base,
        "tournament",
        "schedule",
        "--every",
        "60",
        "--name",
        "Hourly arena",
        "--kind",
        "arena",
        "--minutes",
        "30",
        "--first",
        str(time.time() + 1800),
        "--bots-allowed",
    )
    assert series.returncode == 0, series.stderr
    assert series.stdout.strip() == "series 1 scheduled: a tournament every 60 minutes"
    deadline = time.monotonic() + 30
    while True:  # the director makes the series' next event (the one after starts beyond the hour)
        listed = json.loads(admin(base, "--json", "tournament", "list").stdout)
        made_by_series = [t for t in listed["tournaments"] if t["series"] == 1]
        if made_by_series or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert [t["name"] for t in made_by_series] == ["Hourly arena"]
    assert made_by_series[0]["bots_allowed"] is True  # bot accounts may enter the series' events
    assert listed["series"][0]["active"] is True and listed["series"][0]["every_minutes"] == 60
    swiss = next(t for t in listed["tournaments"] if t["id"] == 1)
    assert swiss["clock"] == {"kind": "live", "per_move": 60.0, "bank": 120.0} and swiss[
        "bots"
    ] == ["easy"]
    assert swiss["options"]["days"] == 5 and swiss["created_by"] is None
    assert swiss["bots_allowed"] is False
    shown = admin(base, "tournament", "list").stdout
    assert "Evening Swiss" in shown and "series 1 (active): Hourly arena, every 60 minutes" in shown
    assert admin(base, "tournament", "cancel", "1").stdout.strip() == "tournament 1 cancelled"
    again = admin(base, "tournament", "cancel", "1")
    assert again.returncode != 0 and "over already" in again.stderr
    assert admin(base, "tournament", "unschedule", "1").stdout.strip() == "series 1 stopped"
    again = admin(base, "tournament", "unschedule", "1")
    assert again.returncode != 0 and "no active series 1" in again.stderr
    # each action is in the audit log, with who took it (TENDAYS_OPERATOR) and on what; refused
    # ones are not
    log = admin(base, "audit").stdout
    actions = [line.split(": ", 1)[1] for line in log.splitlines() if "Olga (token " in line]
    assert actions == [
        "stop-series #1",
        "cancel-event #1 (Evening Swiss)",
        "schedule-series #1 (Hourly arena)",
        "create-event #1 (Evening Swiss)",
    ], log
