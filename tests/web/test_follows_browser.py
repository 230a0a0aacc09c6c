"""Following in Chromium: a signed-in visitor follows a player from their profile, finds them "playing" on
/following with a Watch link, and the link opens their game as a spectator sees it; unfollowing empties the
list. /following passes axe-core in English and German and fits a phone's width."""

from __future__ import annotations

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


def opened(page: Page, url: str) -> Page:
    page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached")
    return page


def test_follow_from_a_profile_then_watch_their_game_from_the_list(browser: Any, server: Server) -> None:
    ann, ben, cid = Person(server, "Ann"), Person(server, "Ben"), Person(server, "Cid")
    game = ben.call("POST", "/api/games", {"edition": "usa", "name": "x", "seats": [{"kind": "human"}] * 2})["id"]
    cid.call("POST", f"/api/games/{game}/join", {"name": "x"})

    page = opened(ann.page(browser), f"{server.url}/players/Ben")
    follow = page.get_by_role("button", name="Follow", exact=True)
    follow.focus()
    page.keyboard.press("Enter")  # keyboard: the button is reached and pressed like any other
    page.get_by_role("button", name="Unfollow").wait_for()
    assert page.get_attribute("#follow-toggle", "aria-pressed") == "true"
    assert "You follow Ben" in page.inner_text("#follow-said")
    assert ann.call("GET", "/api/following")["following"][0]["playing"] == game

    page.get_by_role("link", name="Players you follow").first.click()
    page.wait_for_url(f"{server.url}/following")
    row = page.locator("#following tr[data-name='Ben']")
    row.wait_for()
    assert "playing" in row.inner_text()
    watch = row.get_by_role("link", name="Watch Ben's game")
    assert watch.get_attribute("href") == f"/play/{game}#spectate"
    watch.click()
    page.wait_for_url(f"{server.url}/play/{game}#spectate")
    page.wait_for_selector("#table:not([hidden])")
    page.wait_for_selector("#chat-spectator:not([hidden])")  # watching: no seat, no chat box
    assert page.locator("#chat-form").is_hidden()

    profile = opened(ann.page(browser), f"{server.url}/players/Ben")  # a new visit knows the follow
    profile.get_by_role("button", name="Unfollow").click()
    profile.get_by_role("button", name="Follow", exact=True).wait_for()
    listed = opened(ann.page(browser), f"{server.url}/following")
    listed.wait_for_selector("#following-empty:not([hidden])")
    for each in (page, profile, listed):
        assert each.js_errors == []


def test_nobody_signed_in_sees_no_follow_button_and_is_asked_to_sign_in(browser: Any, server: Server) -> None:
    Person(server, "Dee")
    page = opened(new_page(browser), f"{server.url}/players/Dee")
    page.wait_for_selector("#player-name:has-text('Dee')")
    assert page.locator("#follow").is_hidden()
    listed = opened(new_page(browser), f"{server.url}/following")
    listed.get_by_role("link", name="Sign in to follow players").wait_for()
    assert listed.locator("#following-table").is_hidden()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_following_page_passes_the_audit_and_fits_a_phone(browser: Any, server: Server, lang: str) -> None:
    eve, fay, gus = Person(server, f"Eve{lang}"), Person(server, f"Fay{lang}"), Person(server, f"Gus{lang}")
    game = fay.call("POST", "/api/games", {"edition": "usa", "name": "x", "seats": [{"kind": "human"}] * 2})["id"]
    gus.call("POST", f"/api/games/{game}/join", {"name": "x"})
    for name in (fay.name, gus.name):
        eve.call("PUT", f"/api/following/{name}")
    # the audit's script is injected: the page's Content-Security-Policy would refuse it
    page = opened(
        eve.page(browser, locale="de-DE" if lang == "de" else "en-US", bypass_csp=True, width=390),
        f"{server.url}/following",
    )
    page.wait_for_selector(f"#following tr[data-name='{gus.name}']")
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("#following-title") == ("Spieler, denen du folgst" if lang == "de" else "Players you follow")
    assert page.locator(".watch-link").count() == 2
    assert audit(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.js_errors == []
