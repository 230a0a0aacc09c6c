"""/tv in Chromium: the page shows the best-rated game being played, as a spectator sees it; when the operator
closes it the banner says it is over and counts down, then the page follows the next game; with none left it
says so and counts down to asking again. /tv passes axe-core in English and German and fits a phone."""

from __future__ import annotations

import json
import secrets
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page, post
from test_accessibility import audit

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

ADMIN = secrets.token_urlsafe(32)


@pytest.fixture
def server(tmp_path: Any) -> Iterator[Server]:
    """A server of its own for each test: /tv shows the best of all the games being played."""
    running = Server(tmp_path / "tendays.db", {"admin_token": ADMIN})
    running.start()
    try:
        yield running
    finally:
        running.kill()


def close(server: Server, game: str) -> None:
    """The operator closes the game (it ends, with no winner)."""
    request = urllib.request.Request(
        f"{server.url}/api/admin/games/{game}/close",
        data=b"",
        method="POST",
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert json.load(answer)["status"] == "over"


def shown(page: Page, game: str) -> None:
    """Wait until /tv shows ``game``, its table drawn for a spectator."""
    page.wait_for_function(f"document.body.dataset.tvGame === {json.dumps(game)}")
    page.wait_for_selector("#table:not([hidden])")
    page.wait_for_selector("#chat-spectator:not([hidden])")


def test_tv_follows_the_best_game_then_the_next_when_it_ends(browser: Any, server: Server) -> None:
    guests = post(server.url, "/api/games", {"edition": "usa", "name": "Ada", "seats": [{"kind": "human"}] * 2})
    post(server.url, f"/api/games/{guests['id']}/join", {"name": "Bea"})
    best = post(
        server.url,
        "/api/games",
        {"edition": "usa", "name": "Cyd", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "hard"}]},
    )
    page = new_page(browser)
    page.goto(f"{server.url}/tv")
    shown(page, best["id"])  # a hard bot's rating beats two guests without one
    assert "Now showing: Cyd · Hard bot (33.9)" in page.inner_text("#tv-said")
    assert page.locator("#join").is_hidden()

    close(server, best["id"])
    page.get_by_text("The game is over: here is how it ended.").wait_for()
    page.wait_for_function("/The next game in \\d+ s/.test(document.getElementById('tv-countdown').textContent)")
    shown(page, guests["id"])  # after the countdown, the next one
    assert "Now showing: Ada · Bea" in page.inner_text("#tv-said")

    close(server, guests["id"])
    page.get_by_text("No game is being played right now.").wait_for()
    page.wait_for_function("/Looking again in \\d+ s/.test(document.getElementById('tv-countdown').textContent)")
    again = post(
        server.url,
        "/api/games",
        {"edition": "usa", "name": "Dot", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]},
    )
    shown(page, again["id"])  # found when the page asks again
    assert page.js_errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_tv_passes_the_audit_and_fits_a_phone(browser: Any, server: Server, lang: str) -> None:
    game = post(
        server.url,
        "/api/games",
        {"edition": "usa", "name": "Eli", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "normal"}]},
    )
    # the audit's script is injected: the page's Content-Security-Policy would refuse it
    page = new_page(browser, width=390, height=844, locale="de-DE" if lang == "de" else "en-US", bypass_csp=True)
    page.goto(f"{server.url}/tv")
    shown(page, game["id"])
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("#tv-title") == (
        "TV: die beste Partie, die gerade läuft" if lang == "de" else "TV: the best game being played now"
    )
    assert audit(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    empty = new_page(browser, width=390, locale="de-DE" if lang == "de" else "en-US", bypass_csp=True)
    close(server, game["id"])
    empty.goto(f"{server.url}/tv")
    empty.wait_for_selector("#tv-countdown:not(:empty)")
    assert audit(empty) == []
    assert page.js_errors == [] and empty.js_errors == []
