"""An aborted rated game in Chromium: Ada (English) creates a rated game, Bob (German) joins it from the lobby and
leaves it at once, before anyone's first move after the draft. Both tables say the game was aborted and is not
rated, in their languages, not that someone won; so do both profiles (not "lost" or "won") and the replay."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server
from test_rated_lobby import create_rated, signed_up, summary

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


def test_a_rated_game_left_at_move_0_reads_as_aborted_in_english_and_german(browser: Any, server: Server) -> None:
    ada = signed_up(browser, server, "Ada")
    game_id = create_rated(ada, server)
    bob = signed_up(browser, server, "Bob", "de-DE")
    listed = bob.locator(f"#game-list [data-game='{game_id}']")
    listed.locator(f"[data-join='{game_id}']").click()
    bob.wait_for_url(f"{server.url}/play/{game_id}**")
    bob.once("dialog", lambda dialog: dialog.accept())  # "leaving a rated game loses it": yes
    bob.click("#leave-button")

    ada.wait_for_function("() => document.getElementById('turn').textContent.includes('aborted')")
    assert ada.inner_text("#turn").startswith("Game over: aborted, so not rated.")
    assert "no rating moved" in ada.inner_text("#turn") and "wins" not in ada.inner_text("#turn")
    bob.wait_for_function("() => document.getElementById('turn').textContent.includes('nicht gewertet')")
    assert bob.inner_text("#turn").startswith("Spiel vorbei: vor dem ersten Spielzug beendet, also nicht gewertet.")
    assert summary(server, game_id)["rated_outcome"] == "aborted"

    ada.goto(f"{server.url}/players/Ada")
    ada.wait_for_selector("body[data-ready]", state="attached")
    row = ada.locator(f"#games tr:has(a[href='/replay/{game_id}'])")
    assert "aborted before every player's first move after the draft: not rated" in row.inner_text()
    assert "won" not in row.inner_text()
    bob.goto(f"{server.url}/players/Bob")
    bob.wait_for_selector("body[data-ready]", state="attached")
    row = bob.locator(f"#games tr:has(a[href='/replay/{game_id}'])")
    assert "vor dem ersten Spielzug nach dem Auslegen beendet: nicht gewertet" in row.inner_text()

    ada.goto(f"{server.url}/replay/{game_id}")
    ada.wait_for_function("() => document.getElementById('replay-result').textContent !== ''")
    assert ada.inner_text("#replay-result") == "Aborted before every player's first move after the draft: not rated."
    assert ada.js_errors == [] and bob.js_errors == []
