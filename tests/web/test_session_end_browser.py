"""A table whose session ends, in Chromium, in English and German: signing out (here, from the page's own
script, as another tab would) closes the open table; the page says why in the reader's words, offers the
table again and does not reconnect."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, new_page, sign_up

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

PASSWORD = "seven blue herons fly"


@pytest.mark.parametrize(
    ("locale", "status", "words"),
    [
        ("en-US", "session ended: sign in to play", "sign in again to play"),
        ("de-DE", "Sitzung beendet: melde dich an, um zu spielen", "melde dich wieder an"),
    ],
)
def test_a_table_whose_session_ended_says_so_and_stops(
    browser: Any, server: Server, locale: str, status: str, words: str
) -> None:
    page = new_page(browser, locale=locale)
    name = f"Ended {locale[:2]}"
    sign_up(page, server, name, PASSWORD)
    game = page.evaluate(
        """async (name) => (await import('/static/js/shared/rest.js')).api(
        '/api/games', {method: 'POST',
        body: {edition: 'usa', name, seats: [{kind: 'human'}, {kind: 'bot', bot: 'normal'}]}})""",
        name,
    )
    page.goto(f"{server.url}/play/{game['id']}")  # no seat link: the account's seat opens
    page.wait_for_selector("#turn strong")
    assert "token" not in page.url

    page.evaluate("async () => (await import('/static/js/shared/rest.js')).api('/api/session', {method: 'DELETE'})")
    page.wait_for_selector(f"#connection:has-text('{status}')")
    assert words in page.text_content("#error-text")
    assert page.is_visible("#join") and page.is_hidden("#table")
    assert "token" not in page.url and page.js_errors == []
