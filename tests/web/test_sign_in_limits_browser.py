"""Sign-in limits in Chromium: a stranger who guesses a name's password is told in words to wait, while
the owner, in the browser the account signed in on before (its device cookie), signs in all the same."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, new_page
from browser_helpers import sign_up as sign_up_on_page

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

PASSWORD = "nine amber otters swim"


def test_a_stranger_is_told_to_wait_and_the_owners_browser_still_signs_in(browser: Any, server: Server) -> None:
    owner = new_page(browser, locale="en-US")
    sign_up_on_page(owner, server, "Dora", PASSWORD)
    owner.wait_for_selector("nav.who >> text=Signed in as Dora")
    owner.click("nav.who button")  # sign out; the browser stays a known device
    owner.wait_for_selector("nav.who >> text=Sign in or sign up")

    stranger = new_page(browser, locale="en-US")  # a browser of its own: no device cookie
    stranger.goto(f"{server.url}/account")
    stranger.wait_for_selector("body[data-ready=true]")
    for attempt in range(6):
        stranger.fill("#sign-in-name", "DORA")
        stranger.fill("#sign-in-password", f"guess number {attempt}")
        stranger.press("#sign-in-password", "Enter")
        words = "Wrong name or password" if attempt < 5 else "Too many failed sign-ins; try again in 15 min"
        stranger.wait_for_selector(f"#sign-in-error:has-text('{words}')")
        stranger.wait_for_selector("#sign-in-form button[type=submit]:enabled")

    owner.goto(f"{server.url}/account")
    owner.wait_for_selector("body[data-ready=true]")
    owner.fill("#sign-in-name", "dora")
    owner.fill("#sign-in-password", PASSWORD)
    owner.press("#sign-in-password", "Enter")
    owner.wait_for_selector("nav.who >> text=Signed in as Dora")
    assert owner.js_errors == [] and stranger.js_errors == []
