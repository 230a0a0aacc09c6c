"""The operator's moderation in a real Chromium: on ``/admin`` the operator closes a report with a note,
annuls the rated games of an account that fed another and closes the account; the leaderboard then leaves it
off and shows the other ratings recomputed, its profile says it is closed, and the audit log lists each step.
The page passes axe-core in English and German with every moderation panel filled."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, new_page
from playwright.sync_api import Page
from test_accessibility import audit

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

from sqlalchemy import insert, update  # noqa: E402

from tendays.server.matches.text import name_key  # noqa: E402
from tendays.server.people.ratings import rate_game  # noqa: E402
from tendays.server.storage.schema import (  # noqa: E402
    AccountTable,
    GameTable,
    MoveTable,
    RatingTable,
    ReportTable,
    SeatTable,
)
from tendays.server.storage.store import Store  # noqa: E402

ADMIN = "br0wser-m0d-Kq2Vx8Lm4Zt6Yb1Nc9Rd3Hs7Pf5Gj0"
DAY = 86400.0


def seed(database: Path) -> None:
    """Bob and Cy play twelve honest rated games, nine hours apart (both settle); in the middle Cheat feeds
    Bob three, leaving each before a move (Cheat is made settled too, to be on the leaderboard). Cy reports
    Cheat."""
    store = Store(f"sqlite:///{database}")
    now = time.time()
    try:
        with store.engine.begin() as db:
            cheat, bob, cy = (
                db.execute(
                    insert(AccountTable).values(name=n, name_key=name_key(n), password_hash="-", created=now)
                ).inserted_primary_key[0]
                for n in ("Cheat", "Bob", "Cy")
            )
        honest = [(f"h{n}", [bob, cy], [1, 2] if n % 2 else [2, 1]) for n in range(12)]
        fed = [(f"f{n}", [cheat, bob], [2, 1]) for n in range(1, 4)]
        games = honest[:6] + fed + honest[6:]
        for number, (game_id, people, places) in enumerate(games):
            at = now - (len(games) - number) * 9 * 3600
            with store.engine.begin() as db:
                db.execute(
                    insert(GameTable).values(
                        id=game_id,
                        edition="usa",
                        options="{}",
                        seed=1,
                        rated=True,
                        created=datetime.fromtimestamp(at - 600, UTC),
                        finished=True,
                        finished_at=at,
                    )
                )
                db.execute(
                    insert(SeatTable),
                    [
                        {
                            "game_id": game_id,
                            "seat": i,
                            "kind": "human",
                            "name": f"P{a}",
                            "account_id": a,
                            "left": game_id[0] == "f" and i == 0,
                        }
                        for i, a in enumerate(people)
                    ],
                )
                db.execute(insert(MoveTable), [{"game_id": game_id, "number": 1, "seat": 0, "move": "draft 3"}])
            assert rate_game(store.engine, game_id, places, at=at)
        with store.engine.begin() as db:
            db.execute(update(RatingTable).where(RatingTable.account_id == cheat).values(sigma=3.0))
            db.execute(
                insert(ReportTable).values(
                    reporter_id=cy,
                    reported_id=cheat,
                    game_id="f3",
                    reason="farming",
                    text="Cheat leaves every game against Bob",
                    created=now,
                    status="open",
                )
            )
    finally:
        store.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    database = tmp_path_factory.mktemp("moderation") / "tendays.db"
    seed(database)
    running = Server(database, {"admin_token": ADMIN})
    running.start()
    try:
        yield running
    finally:
        running.kill()


def board(page: Page, server: Server) -> list[tuple[str, str]]:
    """The people on the USA leaderboard: (name, rating as shown)."""
    page.goto(server.url + "/leaderboard?edition=usa")
    page.wait_for_selector("#board tr:not(.bot-row)")
    rows: list[tuple[str, str]] = page.evaluate(
        "[...document.querySelectorAll('#board tr:not(.bot-row)')]"
        ".map(r => [r.cells[1].textContent, r.cells[2].textContent])"
    )
    return rows


def open_admin(page: Page, server: Server) -> None:
    page.goto(server.url + "/admin")
    page.wait_for_selector("body[data-ready]", state="attached")
    page.fill("#token", ADMIN)
    page.press("#token", "Enter")
    page.wait_for_selector("#admin-audit li")  # the last panel the page fills


def test_the_operator_closes_a_report_annuls_the_games_and_closes_the_account(browser: Any, server: Server) -> None:
    page = new_page(browser)
    page.on("dialog", lambda dialog: dialog.accept())
    before = dict(board(page, server))
    assert set(before) == {"Cheat", "Bob", "Cy"}

    open_admin(page, server)
    report = page.locator("#admin-reports li[data-report]")
    assert "Cy reports Cheat" in report.inner_text() and "Cheat leaves every game" in report.inner_text()
    assert page.inner_text("#admin-flags li[data-flag=Cheat]").count("left after 0 moves") == 3
    page.fill("#admin-reports input", "Cheat closed, games annulled")
    page.click("#admin-reports button[data-close-report]")
    page.wait_for_selector("#admin-reports li[data-report] >> text=Closed: Cheat closed, games annulled")

    page.fill("#moderate-name", "Cheat")
    page.fill("#moderate-note", "fed Bob three games")
    page.click("#moderate-actions button[data-action=annul]")
    page.wait_for_selector("#moderate-result >> text=3 games of Cheat annulled; ratings recomputed in usa.")
    page.fill("#moderate-name", "Cheat")
    page.click("#moderate-actions button[data-action=close]")
    page.wait_for_selector("#moderate-result >> text=Cheat is closed.")
    page.wait_for_selector("#admin-audit li[data-audit=close]")
    assert [page.get_attribute(f"#admin-audit li:nth-child({n})", "data-audit") for n in (1, 2, 3)] == [
        "close",
        "annul",
        "close-report",
    ]
    assert "fed Bob three games" in page.inner_text("#admin-audit li[data-audit=annul]")

    after = dict(board(page, server))
    assert set(after) == {"Bob", "Cy"}  # Cheat is off the leaderboard
    assert after["Bob"] != before["Bob"] and after["Cy"] != before["Cy"]  # recomputed without the fed games
    page.goto(server.url + "/players/Cheat")
    page.wait_for_selector("#player-status:not([hidden])")
    assert page.inner_text("#player-status") == "This account was closed by the server's operator."
    assert not page.js_errors, page.js_errors


@pytest.mark.parametrize(("locale", "title"), [("en-GB", "Reports"), ("de-DE", "Meldungen")])
def test_the_operators_page_passes_the_audit(browser: Any, server: Server, locale: str, title: str) -> None:
    # axe-core is injected as a script of the test's own, which the page's policy would refuse
    page = new_page(browser, locale=locale, bypass_csp=True)
    open_admin(page, server)
    page.wait_for_selector("#admin-reports li[data-report]")
    assert page.inner_text("#reports-title") == title
    assert audit(page) == []
    assert not page.js_errors, page.js_errors
