"""The account mark in Chromium: at the table of a signed-in person, their seat's name carries a small
"account" mark that names them for screen readers and links their profile; a bot's seat has none."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, new_page, open_lobby, sign_up

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


def test_a_signed_in_seat_shows_the_account_mark_linking_the_profile(browser: Any, server: Server) -> None:
    page = new_page(browser)
    sign_up(page, server, "Marka", "walking across the map")
    open_lobby(page)
    page.select_option("#seat-2", "normal")  # a bot in the other seat: the game starts at once
    page.click("#create-button")
    page.wait_for_url(f"{server.url}/play/**")
    mine = page.locator("#players [data-seat='0'] .account-mark")
    mine.wait_for()
    assert mine.get_attribute("href") == "/players/Marka"
    assert mine.get_attribute("aria-label") == "Marka plays signed in to an account: open the profile"
    assert page.locator("#players [data-seat='1'] .account-mark").count() == 0
    assert page.js_errors == []
