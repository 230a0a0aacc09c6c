"""A rated game in Chromium: it says so at the table and to someone signed out at its join link,
and the join button waits for the page to know who asks."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, held_request, new_page
from browser_people import PASSWORD, create, sign_up_as
from test_accessibility import audit

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


def test_a_rated_game_says_so_at_the_table_and_at_its_link_signed_out(browser: Any, server: Server) -> None:
    host = new_page(browser, locale="en-US")
    sign_up_as(host, server, "Rita")
    game = create(host, name="Rita", rated=True, seats=[{"kind": "human"}, {"kind": "human"}])
    host.goto(f"{server.url}{game['url']}")
    host.wait_for_selector("#turn strong")
    assert host.inner_text("#game-title").startswith("10 Days in the USA · rated · 10 days")

    guest = new_page(browser, locale="de-DE")
    guest.goto(f"{server.url}/play/{game['id']}")
    guest.wait_for_selector("#join-error a")
    assert guest.inner_text("#join-error").startswith("Dieses Spiel ist gewertet")
    assert guest.is_disabled("#join-button") and guest.is_enabled("#spectate-button")
    assert audit(guest) == []
    guest.click("#join-error a")
    guest.wait_for_selector("body[data-ready]", state="attached")
    guest.fill("#sign-up-name", "Gustav")
    guest.fill("#sign-up-password", PASSWORD)
    guest.click("#sign-up-form button[type=submit]")
    guest.wait_for_url(f"{server.url}/play/{game['id']}")  # back at the game, signed in: now it may be joined
    guest.wait_for_function("!document.getElementById('join-button').disabled")
    assert guest.input_value("#join-name") == "Gustav" and guest.inner_text("#join-error") == ""
    assert host.js_errors == [] and guest.js_errors == []


def test_the_join_button_waits_for_the_page_to_know_who_asks(browser: Any, server: Server) -> None:
    # The page's script starts after the page has loaded (it first fetches the reader's language): until it
    # has asked who is signed in and whether a seat is free, nothing can be sent.
    host = new_page(browser, locale="en-US")
    sign_up_as(host, server, "Hanna")
    game = create(host, name="Hanna", seats=[{"kind": "human"}, {"kind": "human"}])
    guest = new_page(browser, locale="en-US")
    held: list[Any] = []
    guest.route("**/static/i18n/languages.json", lambda route: held.append(route))
    guest.goto(f"{server.url}/play/{game['id']}")  # loaded, the script held at its first fetch
    languages = held_request(guest, held)
    assert guest.is_disabled("#join-button") and guest.is_disabled("#spectate-button")
    languages.continue_()
    guest.wait_for_function("!document.getElementById('join-button').disabled")
    assert guest.is_enabled("#spectate-button") and guest.inner_text("#join-error") == ""
    assert host.js_errors == [] and guest.js_errors == []
