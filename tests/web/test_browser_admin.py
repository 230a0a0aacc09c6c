"""The operator's page (``/admin``) in a real Chromium: a token typed and submitted while the page is still
loading is neither submitted by the browser itself (a reload that loses it) nor lost, and opens the list."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, held_request, new_page, post

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

ADMIN = "br0wser-admin-Kq2Vx8Lm4Zt6Yb1Nc9Rd3Hs7Pf5Gj0"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("admin") / "tendays.db", {"admin_token": ADMIN})
    running.start()
    try:
        yield running
    finally:
        running.kill()


def test_a_token_typed_while_the_page_loads_is_kept(browser: Any, server: Server) -> None:
    post(server.url, "/api/games", {"edition": "usa", "name": "Olga", "seats": [{"kind": "human"}] * 2})
    page = new_page(browser)
    held: list[Any] = []
    holding = True
    page.route("**/static/i18n/*.json", lambda route: held.append(route) if holding else route.continue_())
    page.goto(server.url + "/admin", wait_until="commit")
    page.fill("#token", ADMIN)
    page.press("#token", "Enter")  # before the page's script has wired the form
    held_request(page, held)  # the script has started and asked for its words
    holding = False
    for route in held:
        route.continue_()
    page.wait_for_selector("body[data-ready]", state="attached")
    assert "?" not in page.url, page.url  # the browser did not submit the form by itself
    assert page.input_value("#token") == ADMIN
    page.press("#token", "Enter")
    page.wait_for_function("document.getElementById('games-summary').textContent.startsWith('1 game')")
    assert page.input_value("#token") == ""
    assert not page.js_errors, page.js_errors
