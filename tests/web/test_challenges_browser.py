"""Challenges in Chromium, several browser contexts: Ann challenges Ben from his profile while Ben has the lobby
open; the challenge appears on Ben's lobby without reloading, Ben opens it and accepts, and both end at the game
(Ann's challenge page follows the answer). A second challenge is declined with a reason that Ann reads; a player
who blocked Ann refuses her challenge, with the reason shown. The challenge page passes axe-core in English and
German and fits a phone."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page
from sqlalchemy import insert
from test_accessibility import audit
from test_report_block_browser import Person, opened

from tendays.server.storage.schema import BlockTable
from tendays.server.storage.store import Store

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

CHALLENGE_URL = re.compile(r"/challenge/([A-Za-z0-9_-]+)$")
GAME_URL = re.compile(r"/play/([A-Za-z0-9_-]+)")


def block(server: Server, blocker: Person, blocked: Person) -> None:
    store = Store(server.database)
    try:
        with store.engine.begin() as db:
            db.execute(insert(BlockTable).values(blocker_id=blocker.id, blocked_id=blocked.id, created=time.time()))
    finally:
        store.close()


def challenge_from_profile(page: Page, server: Server, name: str, clock: str | None = None) -> None:
    """Open ``name``'s profile and send them a challenge from its dialog (the clock by its option's value)."""
    opened(page, f"{server.url}/players/{name}")
    page.get_by_role("button", name="Challenge", exact=True).click()
    dialog = page.get_by_role("dialog", name=f"Challenge {name}")
    dialog.wait_for()
    dialog.get_by_label("Edition").select_option("usa")
    if clock is not None:
        dialog.get_by_label("Clock").select_option(clock)
    dialog.get_by_role("button", name="Send the challenge").click()


def with_inbox(page: Page, url: str) -> Page:
    """Open ``url`` and wait until the page's inbox line (/ws/me) said hello: from then on the server tells this
    page of each new notification of its account."""
    heard: list[Any] = []

    def follow(socket: Any) -> None:
        if "/ws/me" in socket.url:
            socket.on("framereceived", lambda frame: heard.append(frame))

    page.on("websocket", follow)
    opened(page, url)
    deadline = time.monotonic() + 30
    while not heard:
        assert time.monotonic() < deadline, "the inbox's line never said hello"
        page.wait_for_timeout(50)  # lets Playwright deliver the socket's frames
    return page


def state(page: Page, words: str) -> None:
    """Wait until the challenge page says ``words`` of where the challenge stands."""
    page.locator("#challenge-state", has_text=words).wait_for()


def challenge_id(page: Page) -> str:
    page.wait_for_url(CHALLENGE_URL)
    found = CHALLENGE_URL.search(page.url)
    assert found is not None
    return found.group(1)


def test_a_challenge_from_a_profile_is_seen_in_the_lobby_accepted_declined_and_refused_by_a_block(
    browser: Any, server: Server
) -> None:
    ann, ben, cat = Person(server, "Ann"), Person(server, "Ben"), Person(server, "Cat")
    lobby = with_inbox(ben.page(browser), f"{server.url}/")
    page = ann.page(browser)

    challenge_from_profile(page, server, "Ben")
    first = challenge_id(page)
    state(page, "Waiting for Ben's answer")
    # Ben's open lobby hears of it without reloading, and opens it from there
    told = lobby.locator(f".inbox-toast a[href='/challenge/{first}']")
    told.wait_for()
    told.click()
    lobby.wait_for_url(f"**/challenge/{first}")
    state(lobby, "Ann challenges you")
    lobby.get_by_role("button", name="Accept").click()
    lobby.wait_for_url(GAME_URL)
    page.wait_for_url(GAME_URL)  # the challenger's page follows the answer
    games = {GAME_URL.search(p.url).group(1) for p in (page, lobby)}  # type: ignore[union-attr]
    assert len(games) == 1
    for table in (page, lobby):
        table.wait_for_selector("#chat-form:not([hidden])")  # each in their own seat

    challenge_from_profile(page, server, "Ben", clock="")
    second = challenge_id(page)
    answerer = opened(ben.page(browser), f"{server.url}/challenge/{second}")
    answerer.get_by_label("Reason").select_option("clock")
    answerer.get_by_role("button", name="Decline").click()
    state(page, "Ben declined: This clock does not suit me, please ask with another one.")
    assert page.locator("#challenge-cancel").is_hidden()

    block(server, cat, ann)
    challenge_from_profile(page, server, "Cat")
    page.get_by_role("alert").filter(has_text="Cat does not take challenges from you.").wait_for()
    assert CHALLENGE_URL.search(page.url) is None
    for each in (page, lobby, answerer):
        assert each.js_errors == []


def test_the_challenger_cancels_and_an_open_link_goes_to_its_taker(browser: Any, server: Server) -> None:
    dan, eve = Person(server, "Dan"), Person(server, "Eve")
    named = dan.post("/api/challenges", {"to": "Eve", "edition": "usa"})
    page = opened(dan.page(browser), f"{server.url}{named['url']}")
    page.get_by_role("button", name="Cancel the challenge").click()
    state(page, "The challenge was cancelled.")
    # an open link, made on one's own profile: a visitor is asked to sign in, a signed-in taker accepts
    opened(page, f"{server.url}/players/Dan")
    page.get_by_role("button", name="Make an open challenge link").click()
    page.get_by_role("dialog", name="An open challenge").get_by_role("button", name="Send the challenge").click()
    link = challenge_id(page)
    state(page, "Waiting for someone to accept")
    assert page.input_value("#challenge-link").endswith(f"/challenge/{link}")
    stranger = opened(new_page(browser), f"{server.url}/challenge/{link}")
    stranger.get_by_role("link", name="Sign in to accept").wait_for()
    taker = opened(eve.page(browser), f"{server.url}/challenge/{link}")
    state(taker, "Accept to play Dan")
    taker.get_by_role("button", name="Accept").click()
    taker.wait_for_url(GAME_URL)
    page.wait_for_url(GAME_URL)
    for each in (page, stranger, taker):
        assert each.js_errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_challenge_page_passes_the_audit_and_fits_a_phone(browser: Any, server: Server, lang: str) -> None:
    fay, gus = Person(server, f"Fay{lang}"), Person(server, f"Gus{lang}")
    made = fay.post("/api/challenges", {"to": gus.name, "edition": "usa", "clock": {"kind": "live", "per_move": 60}})
    # the audit's script is injected: the page's Content-Security-Policy would refuse it
    page = opened(
        gus.page(browser, locale="de-DE" if lang == "de" else "en-US", bypass_csp=True, width=390),
        f"{server.url}{made['url']}",
    )
    page.wait_for_selector("#challenge-accept:not([hidden])")
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("#challenge-accept") == ("Annehmen" if lang == "de" else "Accept")
    assert audit(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    profile = opened(
        fay.page(browser, locale="de-DE" if lang == "de" else "en-US", bypass_csp=True),
        f"{server.url}/players/{gus.name}",
    )
    profile.click("#challenge-open")
    profile.wait_for_selector("#challenge-dialog[open]")
    # the edition of the reader's language comes first, as in the lobby
    assert profile.input_value("#challenge-edition") == ("germany" if lang == "de" else "usa")
    assert audit(profile) == []
    for each in (page, profile):
        assert each.js_errors == []
