"""The pages under their security headers, in a real Chromium: no other site can frame them (a "Leave the
game" button cannot be clickjacked), and every page loads and runs with the Content-Security-Policy
without one refusal."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, new_page, open_lobby

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

PAGES = [
    "/",
    "/account",
    "/account/tokens",
    "/admin",
    "/learn",
    "/players",
    "/leaderboard",
    "/puzzles",
    "/replay",
    "/docs",
    "/challenge/abc123",
    "/tournaments",
    "/tournaments/1",
]


def new_game(server: Server) -> str:
    body = json.dumps({"edition": "usa", "name": "Alice", "seats": [{"kind": "human"}, {"kind": "human"}]})
    request = urllib.request.Request(
        f"{server.url}/api/games", data=body.encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        game_id: str = json.load(answer)["id"]
        return game_id


def test_another_site_cannot_frame_a_table(browser: Any, server: Server) -> None:
    """The homemade clickjacking check: a page of another origin frames the table under a decoy button; the
    browser refuses to show the table in the frame."""
    table = f"{server.url}/play/{new_game(server)}"
    page = new_page(browser)
    refusals: list[str] = []
    page.on("console", lambda message: refusals.append(message.text))
    with page.expect_console_message(lambda message: "frame-ancestors" in message.text):
        page.set_content(f'<button>Win a prize</button><iframe id="victim" src="{table}"></iframe>')
    frame = page.frame_locator("#victim")
    assert frame.locator("#connection").count() == 0  # nothing of the table was drawn
    assert any("frame-ancestors 'none'" in said for said in refusals)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_runs_under_its_policy(browser: Any, server: Server, path: str) -> None:
    page = new_page(browser)
    refusals: list[str] = []
    page.on("console", lambda message: refusals.append(message.text))
    answer = page.goto(f"{server.url}{path}")
    assert answer is not None and "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    page.wait_for_load_state("networkidle")
    assert [said for said in refusals if "Content Security Policy" in said] == []
    assert not page.js_errors, page.js_errors


def test_a_table_runs_under_its_policy(browser: Any, server: Server) -> None:
    page = new_page(browser)
    refusals: list[str] = []
    page.on("console", lambda message: refusals.append(message.text))
    open_lobby(page, server.url + "/")
    page.fill("#player-name", "Alice")
    page.check("input[name=edition][value=usa]")
    page.check("input[name=seats][value='2']")
    page.select_option("#seat-2", "easy")
    page.click("#create-button")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#connection.open")  # the WebSocket ('self') is allowed
    page.wait_for_selector(".tile.big[data-tile]")  # the rack's tiles, their colours set through the CSSOM
    page.wait_for_selector("svg")  # the map is drawn
    assert [said for said in refusals if "Content Security Policy" in said] == []
    assert not page.js_errors, page.js_errors
