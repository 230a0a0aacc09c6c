"""The BOT mark in Chromium: a bot account's name carries a small "BOT" mark (read as "bot account" by screen
readers) on the leaderboard, its profile, the table's seat list and a tournament's standings; the leaderboard's
"Hide bots" box, worked by keyboard, leaves it off and stays in the address; a tournament that allows bots says
so. The pages pass axe-core and fit a phone."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page
from sqlalchemy import insert, update
from test_accessibility import audit
from test_report_block_browser import Person, opened

from tendays.server.storage.schema import AccountTable, RatingTable
from tendays.server.storage.store import Store

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

PHONE = {"width": 390, "height": 844}


def made_bot(server: Server, person: Person, rating: float) -> None:
    """The account becomes a bot account (the upgrade itself is tested in tests/server) with a settled rating."""
    store = Store(server.database)
    try:
        with store.engine.begin() as db:
            db.execute(update(AccountTable).where(AccountTable.id == person.id).values(bot=True))
            settle(db, person, rating)
    finally:
        store.close()


def settle(db: Any, person: Person, rating: float) -> None:
    db.execute(
        insert(RatingTable).values(
            account_id=person.id,
            edition="usa",
            mu=rating,
            sigma=3.0,
            rating=rating - 9.0,
            games=30,
            updated=time.time(),
        )
    )


def settled(server: Server, person: Person, rating: float) -> None:
    store = Store(server.database)
    try:
        with store.engine.begin() as db:
            settle(db, person, rating)
    finally:
        store.close()


def no_overflow(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "wider than the phone"


def name_cell(page: Page, name: str) -> Any:
    return page.locator("#board tr", has=page.get_by_role("link", name=name, exact=True))


def test_the_bot_mark_shows_wherever_a_bot_accounts_name_shows(browser: Any, server: Server) -> None:
    robo, ann = Person(server, "Robo"), Person(server, "Ann")
    made_bot(server, robo, 40.0)
    settled(server, ann, 30.0)

    page = new_page(browser, width=PHONE["width"], height=PHONE["height"])
    opened(page, f"{server.url}/leaderboard?edition=usa")
    marked = name_cell(page, "Robo").locator(".bot-account-mark")
    marked.wait_for()
    assert marked.locator("[aria-hidden=true]").inner_text() == "BOT"  # to the eye; read aloud:
    assert marked.locator(".visually-hidden").text_content() == "bot account"
    assert name_cell(page, "Ann").locator(".bot-account-mark").count() == 0
    no_overflow(page)
    assert audit(page) == []
    # "Hide bots", by keyboard: the bot account leaves the board, and the address keeps the choice
    page.focus("#board-hide-bots")
    page.keyboard.press("Space")
    name_cell(page, "Robo").wait_for(state="detached")
    assert name_cell(page, "Ann").count() == 1
    assert page.url.endswith("/leaderboard?edition=usa&bots=false")
    page.reload()
    page.wait_for_selector("body[data-ready]", state="attached")
    name_cell(page, "Ann").wait_for()
    assert page.is_checked("#board-hide-bots") and name_cell(page, "Robo").count() == 0

    opened(page, f"{server.url}/players/Robo")
    page.locator("#player-name .bot-account-mark").wait_for()
    assert page.get_by_role("heading", level=1).inner_text().startswith("Robo")
    no_overflow(page)
    assert audit(page) == []

    challenge = ann.post("/api/challenges", {"to": "Robo", "edition": "usa", "rated": True})
    game = robo.post(f"/api/challenges/{challenge['id']}/accept", {})["game"]
    opened(page, f"{server.url}/play/{game}#spectate")  # watched: the seat list marks the bot account's seat
    # (on a phone the seat list is one of the table's panels: there, not necessarily in view)
    page.locator("#players [data-seat='1'] .bot-account-mark").wait_for(state="attached")
    assert page.locator("#players [data-seat='0'] .bot-account-mark").count() == 0

    event = ann.post(
        "/api/tournaments",
        {
            "name": "Open to bots",
            "kind": "arena",
            "edition": "usa",
            "minutes": 30,
            "starts_at": time.time() + 3600,
            "bots_allowed": True,
        },
    )
    joined = urllib.request.Request(
        f"{server.url}/api/tournaments/{event['id']}/join",
        method="POST",
        headers={"Cookie": f"tendays_session={robo.session}", "X-CSRF-Token": robo.csrf},
    )
    with urllib.request.urlopen(joined, timeout=10) as answer:
        assert json.load(answer) == {"ok": True}
    opened(page, f"{server.url}/tournaments/{event['id']}")
    page.get_by_text("Bots may enter").wait_for()
    page.locator(".bot-account-mark", has_text="BOT").first.wait_for()
    no_overflow(page)
    assert audit(page) == []
    assert page.js_errors == []


def test_the_mark_is_said_in_german(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="de-DE")
    opened(page, f"{server.url}/leaderboard?edition=usa")
    page.get_by_text("Bots ausblenden").wait_for()
    robo = Person(server, "Roboter")
    made_bot(server, robo, 45.0)
    opened(page, f"{server.url}/players/Roboter")
    mark = page.locator("#player-name .bot-account-mark")
    mark.wait_for()
    assert mark.locator(".visually-hidden").text_content() == "Bot-Konto"
    assert page.js_errors == []
