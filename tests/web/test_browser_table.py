"""The table for a spectator and on a live clock, in a real Chromium: what a spectator is (not) offered, each
bank counting down in the players' list, and a game ended before its end, which reveals no rack."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, new_page, post

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Moves of a second, so that a bank starts to count down at once.
    running = Server(tmp_path_factory.mktemp("table") / "tendays.db", {"paces": {"live_min": 1}})
    running.start()
    try:
        yield running
    finally:
        running.kill()


def test_a_spectator_a_running_bank_and_a_game_ended_early(browser: Any, server: Server) -> None:
    ticket = post(
        server.url,
        "/api/games",
        {
            "edition": "usa",
            "name": "Alice",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
            "options": {"first_seat": 0},
            "pace": {"kind": "live", "per_move": 1, "bank": 600},
        },
    )
    alice = new_page(browser)
    alice.goto(server.url + ticket["url"])
    alice.wait_for_selector("[data-move^='draft']")
    watcher = new_page(browser)
    watcher.goto(f"{server.url}/play/{ticket['id']}#spectate")
    watcher.wait_for_selector("#players .player:has-text('Alice')")

    # A spectator may not write in the chat: no quick phrase either, and no hand of their own.
    alice.wait_for_selector("#chat-phrases .phrase")
    assert watcher.locator("#chat-phrases .phrase").count() == 0 or watcher.locator("#chat-phrases").is_hidden()
    assert watcher.inner_text(".in-hand .slot-label") == "Tile in hand"
    assert alice.inner_text(".in-hand .slot-label") != "Tile in hand"

    # Alice's bank counts down in the players' list once her second for the move is spent; everyone sees it.
    # (The server's own figure stays 10:00 until the turn ends.)
    bank = "document.querySelector(\"#players .player[data-seat='0'] .bank\").textContent"
    for page in (alice, watcher):
        page.wait_for_function(f"{bank}.startsWith('bank 9:')")
        before = page.evaluate(bank)
        page.wait_for_function(f"([before]) => {bank} !== before", arg=[before])
        assert page.evaluate(bank) < before

    # Alice leaves: nobody is left, so the game ends as abandoned, before its end, and no rack is revealed.
    alice.on("dialog", lambda dialog: dialog.accept())
    alice.click("#leave-button")
    watcher.wait_for_selector(".turn-banner.over")
    assert "abandoned" in watcher.inner_text("#turn")
    assert watcher.locator("#end-racks .end-rack").count() == 0
    text = watcher.inner_text("#rack")
    assert "revealed" not in text and "stays hidden" in text, text
    assert not alice.js_errors and not watcher.js_errors, alice.js_errors + watcher.js_errors
