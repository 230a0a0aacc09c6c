"""The join page of a game with no seat to take, in Chromium: a full game and a finished one say so as
information (not as an error), offer watching as the way on and no name field or join button, and a finished game
is headed as one, in English and German."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page, post, wait_for_turn_or_end

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


def against_a_bot(server: Server) -> dict[str, Any]:
    return post(
        server.url,
        "/api/games",
        {
            "edition": "usa",
            "name": "Ann",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "normal"}],
            "options": {"days": 5},
        },
    )


def open_join(browser: Any, server: Server, game_id: str, locale: str) -> Page:
    page = new_page(browser, locale=locale)
    page.goto(f"{server.url}/play/{game_id}")
    page.wait_for_selector("#join-note:not(:empty)")
    return page


def assert_only_watching_is_offered(page: Page) -> None:
    assert page.inner_text("#join-error") == "" and page.is_hidden("#join-error")
    assert page.is_hidden("#join-name") and page.is_hidden("#join-button")
    assert page.is_enabled("#spectate-button")
    note_colour = page.eval_on_selector("#join-note", "n => getComputedStyle(n).color")
    error_colour = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bad').trim()")
    assert note_colour != "rgb(200, 54, 46)" and error_colour == "#c8362e"  # not the error's red


def test_a_full_game_offers_watching_as_information(browser: Any, server: Server) -> None:
    game = against_a_bot(server)
    page = open_join(browser, server, game["id"], "en-US")
    assert page.inner_text("#join-note") == "Every seat is taken; you can watch."
    assert page.inner_text("#join-title") == "Watch this game"
    assert_only_watching_is_offered(page)
    page.click("#spectate-button")
    page.wait_for_selector("#table:not([hidden])")
    assert page.js_errors == []


@pytest.mark.parametrize(
    ("locale", "title", "note"),
    [
        ("en-US", "A finished game", "This game is over; you can still look at it."),
        ("de-DE", "Ein beendetes Spiel", "Dieses Spiel ist vorbei; du kannst es dir noch ansehen."),
    ],
)
def test_a_finished_game_is_headed_as_one(browser: Any, server: Server, locale: str, title: str, note: str) -> None:
    game = against_a_bot(server)
    player = new_page(browser)
    player.goto(f"{server.url}{game['url']}")
    assert wait_for_turn_or_end([player]) is not None
    player.on("dialog", lambda dialog: dialog.accept())
    player.click("#leave-button")  # nobody is left: the game is over
    player.wait_for_selector(".turn-banner.over")
    page = open_join(browser, server, game["id"], locale)
    assert page.inner_text("#join-title") == title and page.inner_text("#join-note") == note
    assert_only_watching_is_offered(page)
    assert page.js_errors == [] and player.js_errors == []
