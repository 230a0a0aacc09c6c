"""Seats a bot plays, in Chromium: a person whose turns ran out on a live clock is away, not gone (the bot
plays on and the seat can be taken back), and a person who left is offered nothing and told why."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import browser_helpers
import pytest
from browser_helpers import CHROMIUM, Page, Server, chat_lines, click_move, is_over, legal_buttons, post, sit

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

HUMAN = {"kind": "human"}
GAME_SECONDS = 90_000  # a whole game, in milliseconds: generous for a loaded machine


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Live clocks of a second a move, so a game left idle takes seconds, not minutes; bots pause a little
    # between moves, so the table can be read while a bot plays a person's seat.
    running = Server(
        tmp_path_factory.mktemp("away") / "tendays.db",
        {"paces": {"live_min": 1}, "bot_delay": 0.2, "draft_delay": 0.05},
    )
    running.start()
    try:
        yield running
    finally:
        running.kill()


def wait_for_chat(page: Page, words: str, times: int = 1) -> None:
    browser_helpers.wait_for_chat(page, words, times, timeout=GAME_SECONDS)


def test_a_solo_game_on_a_live_clock_left_idle_is_played_to_the_end_by_the_bot(browser: Any, server: Server) -> None:
    ticket = post(
        server.url,
        "/api/games",
        {
            "edition": "usa",
            "name": "Alice",
            "seats": [HUMAN, {"kind": "bot", "bot": "normal"}],
            "options": {"first_seat": 0, "turn_limit": 8},
            "pace": {"kind": "live", "per_move": 1, "bank": 1},
        },
    )
    alice = sit(browser, server, ticket)
    # Alice leaves her tab open and does nothing: three turns run out, and the bot takes the seat.
    wait_for_chat(alice, "Alice missed 3 turns in a row: a bot plays the seat until Alice opens the seat link again")
    assert sum("Alice ran out of time: the normal bot played the turn" in line for line in chat_lines(alice)) == 3
    # The bot plays on for her (a bot's move takes 0.2 s, and most of the draft of ten days is still to come):
    # she is offered no move, and may take the seat back.
    alice.wait_for_selector("#back-button:has-text('Take my seat back')")
    assert not is_over(alice) and legal_buttons(alice) == []
    assert alice.inner_text("#prompt") == (
        "A bot plays your seat while you are away. Press “Take my seat back” to play again."
    )
    # She takes it back, as the table says, and is offered her moves again.
    alice.click("#back-button")
    wait_for_chat(alice, "Alice is back and plays the seat again")
    alice.wait_for_selector("#back-button", state="detached")
    alice.wait_for_function(
        "document.querySelector('[data-move]:not([disabled])') || document.querySelector('.turn-banner.over')",
        timeout=GAME_SECONDS,
    )
    # Idle again until the end: the bot played the seat to the last turn, and the game was not abandoned.
    alice.wait_for_selector(".turn-banner.over", timeout=GAME_SECONDS)
    banner, lines = alice.inner_text("#turn"), chat_lines(alice)
    played_out = ("You win!", "wins!", "nobody completed a journey")  # the bot may well win for her
    assert "abandoned" not in banner and any(words in banner for words in played_out), banner
    assert not any("Nobody is left" in line for line in lines), lines
    assert alice.inner_text("#prompt") == "The game is over."
    assert legal_buttons(alice) == []
    assert not alice.js_errors


# Records, every 10 ms, whether the page offers its player a move or says it is their turn, and what the
# turn banner said while a bot played the player's seat.
WATCH = """() => {
  window.offered = [];
  window.bannerWhileBotPlays = [];
  setInterval(() => {
    if (document.querySelector('[data-move]:not([disabled])')) window.offered.push('a move button');
    if (document.querySelector('.turn-banner.mine')) window.offered.push('your turn');
    const banner = document.getElementById('turn').textContent;
    if (banner.includes('A bot plays your seat')) window.bannerWhileBotPlays.push(banner);
  }, 10);
}"""


def test_a_player_who_left_is_offered_nothing_and_told_why(browser: Any, server: Server) -> None:
    alice_ticket = post(
        server.url,
        "/api/games",
        {"edition": "usa", "name": "Alice", "seats": [HUMAN, HUMAN], "options": {"days": 5, "turn_limit": 4}},
    )
    bob_ticket = post(server.url, f"/api/games/{alice_ticket['id']}/join", {"name": "Bob"})
    alice, bob = sit(browser, server, alice_ticket), sit(browser, server, bob_ticket)
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.click("#leave-button")
    bob.wait_for_selector("#players .player[data-seat='1']:has-text('left the game')")
    bob.evaluate(WATCH)
    assert bob.inner_text("#prompt") == "You left this game: a bot plays your seat until the game ends."
    # Alice plays the game to its end; the bot plays Bob's old seat, and Bob's tab stays open.
    deadline = time.monotonic() + GAME_SECONDS / 1000
    while not is_over(alice):
        assert time.monotonic() < deadline, "the game did not end"
        moves = legal_buttons(alice)
        if moves:
            click_move(alice, moves[0])
        alice.wait_for_timeout(30)
    bob.wait_for_selector(".turn-banner.over")
    assert bob.evaluate("window.offered") == []
    assert bob.evaluate("window.bannerWhileBotPlays.length") > 0  # his seat's turns came, and he read why
    # The others do not see him online.
    assert alice.locator("#players .player[data-seat='1'] .presence.on").count() == 0
    assert "left the game" in alice.inner_text("#players .player[data-seat='1']")
    assert not alice.js_errors and not bob.js_errors
