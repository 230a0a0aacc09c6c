"""The account forms in Chromium: an empty field named before sending or asking anything, a
name taken putting the cursor in the name, a page opened before signing in elsewhere saying to
reload it, and "sign out everywhere" refused leaving its button usable."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, new_page
from browser_people import PASSWORD, ready, sign_up_as

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


LOCALES = {"en": "en-US", "de": "de-DE"}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_account_forms_name_an_empty_field_before_sending_or_asking(
    browser: Any, server: Server, lang: str
) -> None:
    page = new_page(browser, locale=LOCALES[lang])
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if request.method != "GET" else None)
    ready(page, f"{server.url}/account")
    page.fill("#sign-in-name", "Someone")
    page.click("#sign-in-form button[type=submit]")
    assert (
        page.inner_text("#sign-in-error")
        == {"en": 'Fill in "Password" first.', "de": "Fülle zuerst „Passwort“ aus."}[lang]
    )
    assert page.evaluate("document.activeElement.id") == "sign-in-password"
    sign_up_as(page, server, f"Leer {lang}")
    ready(page, f"{server.url}/account")
    sent.clear()  # the sign-up itself
    assert page.inner_text("label:has(#new-password) span") == {"en": "New password", "de": "Neues Passwort"}[lang]
    page.check("#delete-sure")
    page.click("#delete-form button[type=submit]")
    assert (
        page.inner_text("#delete-error")
        == {"en": 'Fill in "Current password" first.', "de": "Fülle zuerst „Aktuelles Passwort“ aus."}[lang]
    )
    assert page.evaluate("document.activeElement.id") == "delete-password"
    page.fill("#new-password", "a new password of mine")
    page.click("#password-form button[type=submit]")
    assert (
        page.inner_text("#password-error")
        == {"en": 'Fill in "Current password" first.', "de": "Fülle zuerst „Aktuelles Passwort“ aus."}[lang]
    )
    assert asked == [] and not [url for url in sent if "/api/account" in url or "/api/session" in url]
    assert page.is_visible("#signed-in") and page.js_errors == []


def test_a_name_taken_puts_the_cursor_in_the_name(browser: Any, server: Server) -> None:
    first = new_page(browser, locale="en-US")
    sign_up_as(first, server, "Twin")
    page = new_page(browser, locale="en-US")
    ready(page, f"{server.url}/account#sign-up")
    page.fill("#sign-up-name", "twin")
    page.fill("#sign-up-password", PASSWORD)
    page.click("#sign-up-form button[type=submit]")
    page.wait_for_selector("#sign-up-error:not(:empty)")
    assert page.inner_text("#sign-up-error") == "The name twin is taken; choose another."
    assert page.evaluate("document.activeElement.id") == "sign-up-name"
    assert page.js_errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_page_opened_before_signing_in_elsewhere_says_to_reload_it(browser: Any, server: Server, lang: str) -> None:
    lobby = new_page(browser, locale=LOCALES[lang])
    ready(lobby, f"{server.url}/")
    other_tab = lobby.context.new_page()
    sign_up_as(other_tab, server, f"Tabs {lang}")
    lobby.bring_to_front()
    lobby.fill("#player-name", "Someone")
    lobby.click("#create-form button[type=submit]")
    error = lobby.locator("[role=alert]", has_text={"en": "reload the page", "de": "lade die Seite neu"}[lang])
    error.wait_for()
    assert "X-CSRF-Token" not in error.inner_text()
    assert lobby.url == f"{server.url}/" and lobby.js_errors == []


def test_sign_out_everywhere_refused_leaves_the_button_usable(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    sign_up_as(page, server, "Stale")
    ready(page, f"{server.url}/account")
    other_tab = page.context.new_page()
    ready(other_tab, f"{server.url}/account")
    other_tab.click("#sign-out")
    other_tab.wait_for_url(f"{server.url}/")
    page.click("#sign-out-everywhere")  # this page still thinks it is signed in
    page.wait_for_selector("#account-status:not(:empty)")
    assert page.inner_text("#account-status") == "Sign in first: nobody is signed in."
    assert page.is_enabled("#sign-out-everywhere") and page.js_errors == []
