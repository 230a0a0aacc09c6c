"""A profile reached by its link whatever the name, in Chromium: a name with a slash from the top
bar, an unknown player's page with nothing empty under the refusal, and a profile and a long name
on a phone, never running off the screen."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, new_page
from browser_people import create, ready, sign_up_as
from test_accessibility import audit

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

LOCALES = {"en": "en-US", "de": "de-DE"}


def test_the_top_bar_opens_the_profile_of_a_name_with_a_slash(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    sign_up_as(page, server, "AC/DC")
    page.click("nav.who >> text=Your profile")
    page.wait_for_selector("#player-since:not(:empty)")
    assert page.inner_text("#player-name") == "AC/DC"
    assert page.inner_text("#player-error") == ""
    assert page.js_errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_an_unknown_player_is_said_once_with_no_empty_chart_or_games(browser: Any, server: Server, lang: str) -> None:
    page = new_page(browser, locale=LOCALES[lang])
    ready(page, f"{server.url}/players/Nobody%20Here")
    page.wait_for_selector("#player-error:not(:empty)")
    assert page.inner_text("#player-name") == "Nobody Here"
    assert (
        page.inner_text("#player-error")
        == {"en": "There is no player called 'Nobody Here'.", "de": "Es gibt niemanden namens 'Nobody Here'."}[lang]
    )
    assert page.locator("#chart-title").is_hidden() and page.locator("#games-next").is_hidden()
    assert audit(page) == []
    assert page.js_errors == []


def test_a_profile_with_games_fits_a_phone_and_offers_its_owner_to_go_on_playing(browser: Any, server: Server) -> None:
    page = new_page(browser, width=390, height=844, locale="de-DE", is_mobile=True, has_touch=True)
    sign_up_as(page, server, "Fernweh")
    create(page, seats=[{"kind": "human"}, {"kind": "bot", "bot": "normal"}])
    ready(page, f"{server.url}/players/Fernweh")
    page.wait_for_selector("#games tr")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.inner_text("#games tr a") == "Weiterspielen"  # their own game: theirs to go on with
    someone = new_page(browser, locale="de-DE")
    ready(someone, f"{server.url}/players/Fernweh")
    someone.wait_for_selector("#games tr")
    assert someone.inner_text("#games tr a") == "Zuschauen"
    assert page.js_errors == [] and someone.js_errors == []


# Keeps every text the search's message line shows, in order.


def test_a_long_name_with_no_space_fits_a_phone_everywhere_it_is_shown(browser: Any, server: Server) -> None:
    name = "W" * 32  # the longest name, and the widest letter, with nowhere to break
    page = new_page(browser, width=390, height=844, locale="de-DE", is_mobile=True, has_touch=True)
    sign_up_as(page, server, name)
    game = create(page, seats=[{"kind": "human"}, {"kind": "bot", "bot": "normal"}])
    for path in ("/", "/account", f"/players/{name}"):
        ready(page, f"{server.url}{path}")
        page.wait_for_function("document.querySelector('nav.who, #player-since:not(:empty)') !== null")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
    page.goto(f"{server.url}{game['url']}")
    page.wait_for_selector("#players .player")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.js_errors == []
