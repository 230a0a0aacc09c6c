"""The ways between the site's pages in Chromium, as a newcomer finds them: every page that is not a game
offers the same links in its header (puzzles, learning, the leaderboard, TV, tournaments) and says who is
signed in; a tournament game's table names its tournament with a link back to the event, which no other
game has; and a German reader reads a tournament's bots in German, in the standings and in the games."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server
from test_report_block_browser import Person, opened

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

SITE_LINKS = ["/puzzles", "/learn", "/leaderboard", "/tv", "/tournaments"]
# How many lines each link's words take.
LINES = """(links) => links.map((a) => {
  const range = document.createRange();
  range.selectNodeContents(a);
  return range.getClientRects().length;
})"""
PACE = {"kind": "live", "per_move": 60, "bank": 0}  # long enough that the game is still on when the test looks


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("ways") / "tendays.db", {"tournament_min_minutes": 1})
    running.start()
    try:
        yield running
    finally:
        running.kill()


def test_every_page_but_a_game_offers_the_same_links_and_says_who_is_signed_in(browser: Any, server: Server) -> None:
    una = Person(server, "Una")
    page = una.page(browser)
    for path in (
        "/",
        "/tournaments",
        "/following",
        "/inbox",
        "/players/Una",
        "/leaderboard",
        "/puzzles",
        "/account",
        "/account/tokens",
    ):
        opened(page, f"{server.url}{path}")
        links = page.eval_on_selector_all("nav.site-links a", "(links) => links.map((a) => a.getAttribute('href'))")
        assert links == SITE_LINKS, path
        if path != "/account":  # the account page is where one signs in and out
            page.locator("nav.who", has_text="Una").wait_for()
    assert page.js_errors == []


def test_a_tournament_game_leads_back_to_its_event_and_its_bots_read_in_german(browser: Any, server: Server) -> None:
    vic, wes = Person(server, "Vic"), Person(server, "Wes")
    event = vic.post(
        "/api/tournaments",
        {
            "name": "Spätturnier",
            "kind": "arena",
            "minutes": 1,
            "edition": "usa",
            "clock": PACE,
            "options": {"days": 5},
            "rated": False,
            "bots": ["normal"],
            "starts_at": time.time() + 3,
        },
    )["id"]
    vic.post(f"/api/tournaments/{event}/join", {})  # the one person: paired with the bot
    player = opened(vic.page(browser), f"{server.url}/tournaments/{event}")  # only those present are paired
    # Wes watches in German (an entrant's page would take them to their game)
    page = opened(wes.page(browser, locale="de-DE"), f"{server.url}/tournaments/{event}")
    page.locator("#standings tr[data-name='Normal bot'] th", has_text="Bot (normal)").wait_for()
    playing = page.locator("#playing li[data-game]", has_text="Bot (normal)").filter(has_text="Vic")
    playing.wait_for()
    game = playing.get_attribute("data-game")

    opened(page, f"{server.url}/play/{game}")
    link = page.locator("#tournament-link")
    link.wait_for()
    assert link.inner_text() == "Turnier: Spätturnier"
    assert link.get_attribute("href") == f"/tournaments/{event}"
    link.click()
    page.wait_for_url(f"{server.url}/tournaments/{event}")

    other = wes.post(
        "/api/games", {"edition": "usa", "name": "Wes", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]}
    )["id"]
    summary = page.evaluate("(id) => fetch(`/api/games/${id}`).then((r) => r.json())", other)
    assert summary["tournament"] is None
    assert page.js_errors == [] and player.js_errors == []


def test_the_site_links_fit_a_phone_in_german_each_on_one_line(browser: Any, server: Server) -> None:
    xia = Person(server, "Xia")
    page = xia.page(browser, locale="de-DE", width=390, height=844)
    for path in ("/", "/tournaments", "/players/Xia", "/inbox"):
        opened(page, f"{server.url}{path}")
        page.locator("nav.site-links a", has_text="Spielen lernen").wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        lines = page.eval_on_selector_all("nav.site-links a", LINES)
        assert lines == [1] * len(SITE_LINKS), (path, lines)
    assert page.js_errors == []
