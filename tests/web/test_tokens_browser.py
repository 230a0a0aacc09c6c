"""API tokens in Chromium: from the account page a signed-in person opens /account/tokens, makes a
token with a scope, sees it once in a read-only field and copies it, finds it gone when the page is
opened again (only the list, with no value), and revokes it after confirming, after which the server
refuses it. The page passes axe-core in English and German and fits a phone's width."""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page
from browser_people import Person
from test_accessibility import audit

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


def token_status(server: Server, token: str) -> int:
    """What the server answers a program that shows ``token``."""
    request = urllib.request.Request(f"{server.url}/api/token", headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def opened(page: Page, url: str) -> Page:
    page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached")
    return page


def test_make_copy_once_then_revoke_a_token(browser: Any, server: Server) -> None:
    ann = Person(server, "Ann")
    page = opened(ann.page(browser, permissions=["clipboard-read", "clipboard-write"]), f"{server.url}/account")
    page.get_by_role("link", name="API tokens").click()
    page.wait_for_url(f"{server.url}/account/tokens")
    page.wait_for_selector("body[data-ready]", state="attached")
    page.wait_for_selector("#tokens-empty:not([hidden])")
    page.get_by_label("Name").fill("my bot")
    page.get_by_role("checkbox", name="bot:play").check()
    page.get_by_role("button", name="Make the token").click()
    page.wait_for_selector("#token-made:not([hidden])")
    field = page.locator("#token-value")
    token = field.input_value()
    assert token.startswith("tdb_") and field.get_attribute("readonly") is not None
    assert "you will not see it again" in page.inner_text("#token-made")
    page.get_by_role("button", name="Copy").click()
    page.wait_for_selector("#token-copied:has-text('Copied.')")
    assert page.evaluate("navigator.clipboard.readText()") == token
    row = page.locator("#tokens tr", has_text="my bot")
    assert "bot:play" in row.inner_text() and "never" in row.inner_text()
    assert token_status(server, token) == 200

    again = opened(ann.page(browser), f"{server.url}/account/tokens")  # the token is not shown again
    again.wait_for_selector("#tokens tr")
    assert again.locator("#token-made").is_hidden() and again.input_value("#token-value") == ""
    assert token not in again.content()
    again.on("dialog", lambda dialog: dialog.accept())
    again.get_by_role("button", name="Revoke the token my bot").click()
    again.wait_for_selector("#tokens-status:has-text('The token my bot is revoked.')")
    again.wait_for_selector("#tokens tr td.token-revoked")
    assert token_status(server, token) == 401
    for each in (page, again):
        assert each.js_errors == []


def test_nobody_signed_in_is_asked_to_sign_in(browser: Any, server: Server) -> None:
    page = opened(new_page(browser), f"{server.url}/account/tokens")
    page.get_by_role("link", name="Sign in to make API tokens").wait_for()
    assert page.locator("#token-form").is_hidden()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_tokens_page_passes_the_audit_and_fits_a_phone(browser: Any, server: Server, lang: str) -> None:
    eve = Person(server, f"Eve{lang}")
    made = eve.call("POST", "/api/tokens", {"name": "a bot with a rather long name to wrap", "scopes": ["bot:play"]})
    eve.call("POST", "/api/tokens", {"name": "gone", "scopes": ["board:play", "challenge:write"]})
    eve.call("DELETE", f"/api/tokens/{made['id']}")
    # the audit's script is injected: the page's Content-Security-Policy would refuse it
    page = opened(
        eve.page(browser, locale="de-DE" if lang == "de" else "en-US", bypass_csp=True, width=390),
        f"{server.url}/account/tokens",
    )
    page.wait_for_selector("#tokens tr td.token-revoked")
    page.fill("#token-name", "phone")
    page.check("input[value='board:play']")
    page.click("#token-form button[type=submit]")
    page.wait_for_selector("#token-made:not([hidden])")
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("#tokens-title") == ("API-Schlüssel" if lang == "de" else "API tokens")
    assert audit(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.js_errors == []
