"""The API page (``/docs``) in a real Chromium: it renders the server's OpenAPI 3.1 definition, with every
script and style served by this server (nothing fetched from another site)."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, new_page

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


def test_the_api_page_renders_the_definition_from_this_server_alone(browser: Any, server: Server) -> None:
    with urllib.request.urlopen(f"{server.url}/openapi.json") as answer:
        definition = json.load(answer)
    assert definition["openapi"].startswith("3.1")
    page = new_page(browser)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{server.url}/docs")
    assert page.get_attribute("html", "lang") == "en"
    # Every operation of the definition is listed, each under its path.
    page.wait_for_selector(".opblock-summary-path")
    paths = set(page.eval_on_selector_all(".opblock-summary-path", "nodes => nodes.map(n => n.dataset.path)"))
    assert paths == set(definition["paths"]), paths ^ set(definition["paths"])
    assert page.locator("text=Unable to render").count() == 0
    assert "tendays" in page.inner_text(".info .title")
    # Opening an operation shows its parameters and responses.
    page.click(".opblock-summary-path[data-path='/api/games/{game_id}']")
    page.wait_for_selector(".opblock.is-open .responses-wrapper")
    ours = urllib.parse.urlsplit(server.url).netloc
    elsewhere = [url for url in requested if urllib.parse.urlsplit(url).netloc not in (ours, "")]
    assert elsewhere == [], elsewhere
    assert not page.js_errors, page.js_errors
