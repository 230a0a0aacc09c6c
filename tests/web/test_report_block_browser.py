"""Reporting and blocking from a profile in Chromium: a signed-in visitor reports a player (a reason, one of
the player's games, a few words) in a dialog and blocks them; the block then hides the player's chat at the
table from the blocker alone. The profile with its new buttons, and the dialog, pass axe-core in English and
German."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page, wait_for_chat
from browser_people import Person
from sqlalchemy import select
from test_accessibility import audit

from tendays.server.people.moderation_types import ReportReason
from tendays.server.storage.schema import BlockTable, ReportTable
from tendays.server.storage.store import Store

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

HIDDEN = "(hidden: you blocked this player)"


def opened(page: Page, url: str) -> Page:
    page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached")
    return page


def rows(server: Server, table: Any) -> list[Any]:
    store = Store(server.database)
    try:
        with store.engine.connect() as db:
            return list(db.execute(select(table)).all())
    finally:
        store.close()


def test_a_report_and_a_block_from_a_profile_then_the_chat_of_the_blocked_is_hidden(
    browser: Any, server: Server
) -> None:
    ann, ben = Person(server, "Ann"), Person(server, "Ben")
    game = ann.call("POST", "/api/games", {"edition": "usa", "name": "x", "seats": [{"kind": "human"}] * 2})["id"]
    ben.call("POST", f"/api/games/{game}/join", {"name": "x"})
    page = opened(ann.page(browser), f"{server.url}/players/Ben")
    page.wait_for_selector("#moderation:not([hidden])")

    page.get_by_role("button", name="Report").click()
    dialog = page.get_by_role("dialog", name="Report Ben")
    dialog.wait_for()
    dialog.get_by_label("Reason").select_option("abuse")
    dialog.get_by_label("Game").select_option(game)
    dialog.get_by_label("What happened").fill("Rude words at the table.")
    dialog.get_by_role("button", name="Send the report").click()
    page.get_by_text("Thank you: the report was sent to the operator.").wait_for()
    assert page.locator("#report-dialog").is_hidden()
    [report] = rows(server, ReportTable)
    assert (report.reporter_id, report.reported_id, report.game_id, report.reason, report.text) == (
        ann.id,
        ben.id,
        game,
        "abuse",
        "Rude words at the table.",
    )

    page.get_by_role("button", name="Block", exact=True).click()
    page.get_by_role("button", name="Unblock").wait_for()
    assert "You block Ben" in page.inner_text("#moderation-said")
    assert [(b.blocker_id, b.blocked_id) for b in rows(server, BlockTable)] == [(ann.id, ben.id)]
    opened(page, f"{server.url}/players/Ben")  # a new visit knows the block
    page.get_by_role("button", name="Unblock").wait_for()

    # the block takes effect: Ben's words reach everyone at the table but Ann
    table_ann, table_ben = ann.page(browser), ben.page(browser)
    for table in (table_ann, table_ben):
        table.goto(f"{server.url}/play/{game}")
        table.wait_for_selector("#chat-form:not([hidden])")
    table_ben.fill("#chat-input", "Ben says hello")
    table_ben.click("#chat-send")
    wait_for_chat(table_ben, "Ben says hello")
    wait_for_chat(table_ann, HIDDEN)
    assert not any("Ben says hello" in line for line in table_ann.locator("#chat .chat-line").all_inner_texts())
    for each in (page, table_ann, table_ben):
        assert each.js_errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_profile_with_its_report_and_block_buttons_passes_the_audit(
    browser: Any, server: Server, lang: str
) -> None:
    cid, dan = Person(server, f"Cid{lang}"), Person(server, f"Dan{lang}")
    # the audit's script is injected: the page's Content-Security-Policy would refuse it
    page = opened(
        cid.page(browser, locale="de-DE" if lang == "de" else "en-US", bypass_csp=True),
        f"{server.url}/players/{dan.name}",
    )
    page.wait_for_selector("#moderation:not([hidden])")
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("#report-open") == ("Melden" if lang == "de" else "Report")
    assert audit(page) == []
    page.click("#report-open")
    page.wait_for_selector("#report-dialog[open]")
    assert page.locator("#report-reason option").count() == len(ReportReason)
    assert audit(page) == []
    page.click("#report-cancel")
    page.wait_for_selector("#report-dialog:not([open])", state="attached")
    assert page.js_errors == []


def test_nobody_signed_in_sees_no_report_or_block(browser: Any, server: Server) -> None:
    Person(server, "Eve")
    page = opened(new_page(browser), f"{server.url}/players/Eve")
    page.wait_for_selector("#player-name:has-text('Eve')")
    assert page.locator("#moderation").is_hidden()
