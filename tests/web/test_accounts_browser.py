"""Accounts in Chromium: a person signs up (a weak password refused in words first), creates a game from the
lobby while signed in, resumes the seat on a second device by signing in there (no seat link), changes the
password, downloads their data, signs out everywhere and deletes the account after confirming; the account
page works by keyboard and on a phone, in English and German, with no serious axe-core violation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page
from browser_helpers import sign_up as sign_up_on_page
from test_accessibility import audit

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

PASSWORD = "seven blue herons fly"


def open_account(page: Page, server: Server, query: str = "") -> None:
    page.goto(f"{server.url}/account{query}")
    page.wait_for_selector("body[data-ready=true]")


def sign_up(page: Page, server: Server, name: str) -> None:
    sign_up_on_page(page, server, name, PASSWORD)
    page.wait_for_selector(f"nav.who >> text=Signed in as {name}")


def test_an_account_from_sign_up_to_deletion(browser: Any, server: Server, tmp_path: Path) -> None:
    page = new_page(browser, locale="en-US")
    open_account(page, server, "#sign-up")
    assert page.evaluate("document.activeElement.id") == "sign-up-name"
    page.fill("#sign-up-name", "Ada")
    page.fill("#sign-up-password", "password123")
    page.click("#sign-up-form button[type=submit]")
    page.wait_for_selector("#sign-up-error:has-text('most common')")
    page.fill("#sign-up-password", PASSWORD)
    page.click("#sign-up-form button[type=submit]")
    page.wait_for_url(f"{server.url}/")
    page.wait_for_selector("nav.who >> text=Signed in as Ada")
    page.wait_for_function("document.getElementById('player-name').value === 'Ada'")

    # A game created from the lobby: its request carries the session's CSRF token without the page asking.
    game = page.evaluate("""async () => (await import('/static/js/shared/rest.js')).api('/api/games', {method: 'POST',
        body: {edition: 'usa', name: 'Ada', seats: [{kind: 'human'}, {kind: 'bot', bot: 'normal'}]}})""")
    assert game["seat"] == 0

    phone = new_page(browser, width=390, height=844, locale="en-US", has_touch=True, is_mobile=True)
    open_account(phone, server, f"?next=/play/{game['id']}")
    phone.fill("#sign-in-name", "ada")
    phone.fill("#sign-in-password", "not the password")
    phone.press("#sign-in-password", "Enter")
    phone.wait_for_selector("#sign-in-error:has-text('Wrong name or password')")
    phone.fill("#sign-in-password", PASSWORD)
    phone.press("#sign-in-password", "Enter")
    phone.wait_for_url(f"{server.url}/play/{game['id']}")
    phone.wait_for_selector("#turn strong")  # seated: the account's seat, without its link
    assert phone.locator("#join").is_hidden() and "token" not in phone.url
    assert "[object Object]" not in phone.evaluate("JSON.stringify(localStorage)")

    open_account(page, server)
    page.fill("#current-password", "not the password")
    page.fill("#new-password", "eight grey herons fly")
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#password-error:has-text('current password is wrong')")
    page.fill("#current-password", PASSWORD)
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#account-status:has-text('password is changed')")
    open_account(phone, server)  # the phone was signed out by the new password
    assert phone.is_visible("#sign-in-form")

    with page.expect_download() as download:
        page.click("text=Download my data")
    saved = tmp_path / "mine.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["account"]["name"] == "Ada" and [g["id"] for g in data["games"]] == [game["id"]]

    page.fill("#delete-password", "eight grey herons fly")
    page.click("#delete-form button[type=submit]")
    page.wait_for_selector("#delete-error:has-text('Tick the box')")
    page.check("#delete-sure")
    page.once("dialog", lambda dialog: dialog.dismiss())  # changed their mind: nothing happens
    page.click("#delete-form button[type=submit]")
    assert page.is_visible("#signed-in")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#delete-form button[type=submit]")
    page.wait_for_url(f"{server.url}/account")
    page.wait_for_selector("nav.who >> text=Sign in or sign up")
    page.wait_for_selector("#account-notice:has-text('The account Ada is deleted.')")
    page.reload()  # said once: not again on the next visit
    page.wait_for_selector("body[data-ready=true]")
    assert page.is_hidden("#account-notice")
    seats = page.evaluate(f"async () => (await (await fetch('/api/games/{game['id']}')).json()).seats")
    assert seats[0]["name"] == "deleted player"
    assert page.js_errors == [] and phone.js_errors == []


def test_sign_out_here_and_everywhere(browser: Any, server: Server) -> None:
    laptop, tablet = new_page(browser), new_page(browser)
    sign_up(laptop, server, "Bea")
    open_account(tablet, server)
    tablet.fill("#sign-in-name", "Bea")
    tablet.fill("#sign-in-password", PASSWORD)
    tablet.press("#sign-in-password", "Enter")
    tablet.wait_for_selector("nav.who >> text=Signed in as Bea")
    open_account(laptop, server)
    laptop.click("#sign-out-everywhere")
    laptop.wait_for_url(f"{server.url}/account")
    laptop.wait_for_selector("#sign-in-form")
    laptop.wait_for_selector("#account-notice:has-text('You are signed out on every device, this one too.')")
    tablet.reload()
    tablet.wait_for_selector("nav.who >> text=Sign in or sign up")
    sign_up(laptop, server, "Cleo")
    laptop.click("nav.who button")  # sign out, from the top bar
    laptop.wait_for_selector("nav.who >> text=Sign in or sign up")
    assert laptop.evaluate("async () => (await fetch('/api/session')).status") == 204


def test_a_name_too_long_is_refused_in_words_not_cut_short(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    open_account(page, server, "#sign-up")
    long_name = "Abcdefghij" * 6  # pasted: 60 characters
    page.fill("#sign-up-name", long_name)
    page.wait_for_selector("#sign-up-error:has-text('A name has at most 32 characters, not 60')")
    assert page.input_value("#sign-up-name") == long_name  # kept whole, to be shortened by its owner
    assert page.get_attribute("#sign-up-name", "aria-invalid") == "true"
    page.fill("#sign-up-password", PASSWORD)
    page.click("#sign-up-form button[type=submit]")
    page.wait_for_selector("#sign-up-error:has-text('A name has at most 32 characters, not 60')")
    assert page.evaluate("async () => (await fetch('/api/session')).status") == 204  # no account made
    page.fill("#sign-up-name", long_name[:32])
    page.wait_for_selector("#sign-up-error", state="hidden")
    page.click("#sign-up-form button[type=submit]")
    page.wait_for_url(f"{server.url}/")
    page.wait_for_selector(f"nav.who >> text=Signed in as {long_name[:32]}")
    assert page.js_errors == []


def test_one_forms_error_goes_when_another_form_is_used(browser: Any, server: Server) -> None:
    sign_up(new_page(browser), server, "Gil")
    page = new_page(browser, locale="de-DE")
    open_account(page, server)
    page.fill("#sign-in-name", "Gil")
    page.fill("#sign-in-password", "not the password")
    page.press("#sign-in-password", "Enter")
    page.wait_for_selector("#sign-in-error:has-text('Falscher Name oder falsches Passwort')")
    page.fill("#sign-up-name", "Gil")
    page.wait_for_selector("#sign-in-error", state="hidden")  # the sign-in form's error went with it
    page.fill("#sign-up-password", PASSWORD)
    page.press("#sign-up-password", "Enter")
    page.wait_for_selector("#sign-up-error:not(:empty)")
    assert page.inner_text("#sign-in-error") == ""
    page.fill("#sign-in-password", "still not it")
    page.wait_for_selector("#sign-up-error", state="hidden")
    assert page.js_errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_account_page_is_accessible_in_both_languages(browser: Any, server: Server, lang: str) -> None:
    page = new_page(browser, locale={"en": "en-US", "de": "de-DE"}[lang])
    open_account(page, server)
    assert page.inner_text("#sign-in-title") == {"en": "Sign in", "de": "Anmelden"}[lang]
    assert audit(page) == []
    page.keyboard.type(f"Dora {lang}")  # the name field has the focus
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_selector("#sign-in-error:not(:empty)")
    page.fill("#sign-up-name", f"Dora {lang}")
    page.fill("#sign-up-password", PASSWORD)
    page.press("#sign-up-password", "Enter")
    page.wait_for_url(f"{server.url}/")
    open_account(page, server)
    assert page.is_visible("#signed-in")
    assert audit(page) == []
    phone = new_page(browser, width=360, height=740, locale={"en": "en-US", "de": "de-DE"}[lang])
    open_account(phone, server)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
