"""The inbox in Chromium, several browser contexts: Ann has the lobby open when Ben challenges her; the note and
the header's count appear without reloading, the panel lists it, "Mark all read" clears the count. When a
correspondence game with Ann starts, Ben's open lobby is told it is his move and lists the game under "Your
move". The browser's own notifications are asked for only when the toggle is clicked. /inbox passes axe-core in
English and German and fits a phone."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server
from test_accessibility import audit
from test_report_block_browser import Person, opened

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

CORRESPONDENCE = {"kind": "correspondence", "per_move": 86400}


def count(page: Page) -> str:
    """The header's unread count as shown ("" when hidden)."""
    badge = page.locator(".inbox-count")
    return "" if badge.is_hidden() else badge.inner_text()


def test_a_notification_reaches_an_open_lobby_and_is_read_from_the_panel(browser: Any, server: Server) -> None:
    ann, ben = Person(server, "Ann"), Person(server, "Ben")
    lobby = opened(ann.page(browser), f"{server.url}/")
    lobby.locator(".inbox-button").wait_for()
    assert count(lobby) == ""
    asked = lobby.evaluate("() => typeof Notification === 'undefined' ? 'none' : Notification.permission")
    assert asked == "default"  # nothing was asked on load

    ben.post("/api/challenges", {"to": "Ann", "edition": "usa"})
    lobby.locator(".inbox-toast", has_text="Ben challenges you").wait_for()
    lobby.wait_for_function("document.querySelector('.inbox-count')?.textContent === '1'")
    assert lobby.locator(".visually-hidden[aria-live=polite]", has_text="1 unread notification").count() == 1

    lobby.locator(".inbox-button").click()
    panel = lobby.locator("#inbox-panel")
    panel.locator(".inbox-item.unread", has_text="Ben challenges you").wait_for()
    assert lobby.locator(".inbox-button").get_attribute("aria-expanded") == "true"
    panel.get_by_role("button", name="Mark all read").click()
    lobby.wait_for_function("document.querySelector('.inbox-count').hidden")
    panel.locator(".inbox-item.read", has_text="Ben challenges you").wait_for()
    lobby.keyboard.press("Escape")
    assert panel.is_hidden() and lobby.evaluate("document.activeElement.classList.contains('inbox-button')")

    # a correspondence game starts with Ben to move: his open lobby is told and lists it
    ben_lobby = opened(ben.page(browser), f"{server.url}/")
    ben_lobby.locator(".inbox-button").wait_for()
    assert ben_lobby.locator("#your-move").is_hidden()
    game = ben.post(
        "/api/games",
        {"edition": "usa", "name": "Ben", "seats": [{"kind": "human"}, {"kind": "human"}], "pace": CORRESPONDENCE},
    )["id"]
    ann.post(f"/api/games/{game}/join", {"name": "Ann"})
    ben_lobby.locator(".inbox-toast", has_text="Your move against Ann").wait_for()
    ben_lobby.locator(f"#your-move-list a[href='/play/{game}']", has_text="Against Ann").wait_for()
    assert lobby.locator("#your-move").is_hidden()
    for page in (lobby, ben_lobby):
        assert page.js_errors == []


def test_the_browsers_notifications_are_turned_on_only_by_the_toggle(browser: Any, server: Server) -> None:
    cat = Person(server, "Cat")
    page = opened(cat.page(browser, permissions=["notifications"]), f"{server.url}/inbox")
    assert page.evaluate("localStorage.getItem('tendays.notify')") is None
    page.locator(".inbox-button").click()
    toggle = page.get_by_label("Notify me in this browser")
    toggle.check()
    page.wait_for_function("localStorage.getItem('tendays.notify') === 'on'")
    toggle.uncheck()
    page.wait_for_function("localStorage.getItem('tendays.notify') === null")
    assert page.js_errors == []


@pytest.mark.parametrize(
    ("lang", "title", "words"),
    [
        ("en-US", "Notifications", "Dot en challenges you"),
        ("de-DE", "Benachrichtigungen", "Dot de fordert dich heraus"),
    ],
)
def test_the_inbox_page_passes_the_audit_and_fits_a_phone(
    browser: Any, server: Server, lang: str, title: str, words: str
) -> None:
    reader, dot = Person(server, f"Reader {lang[:2]}"), Person(server, f"Dot {lang[:2]}")
    dot.post("/api/challenges", {"to": reader.name, "edition": "usa"})
    page = opened(reader.page(browser, locale=lang, bypass_csp=True, width=390, height=800), f"{server.url}/inbox")
    page.locator("#inbox-title", has_text=title).wait_for()
    page.locator("#inbox-items .inbox-item", has_text=words).wait_for()
    page.locator(".inbox-button").click()
    page.locator("#inbox-panel .inbox-item").first.wait_for()
    assert audit(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.js_errors == []


def test_a_notes_close_button_sits_beside_its_open_button(browser: Any, server: Server) -> None:
    # a German sentence is long enough to wrap the note: Open and close still share a line
    eve, fay = Person(server, "Eve"), Person(server, "Fay with a longer name")
    lobby = opened(eve.page(browser, locale="de-DE", width=1366, height=900), f"{server.url}/")
    lobby.locator(".inbox-button").wait_for()
    fay.post("/api/challenges", {"to": "Eve", "edition": "usa"})
    note = lobby.locator(".inbox-toast", has_text="fordert dich heraus")
    note.wait_for()
    open_box = note.get_by_role("link", name="Öffnen").bounding_box()
    close_box = note.get_by_role("button").bounding_box()
    assert open_box is not None and close_box is not None
    middle = close_box["y"] + close_box["height"] / 2
    assert open_box["y"] <= middle <= open_box["y"] + open_box["height"]
    assert close_box["x"] > open_box["x"]
    assert lobby.js_errors == []
