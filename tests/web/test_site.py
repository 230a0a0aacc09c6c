"""A public site in Chromium: an absent player's turns played on the clock and the seat handed to a bot,
a player leaving while the game goes on, a rematch, and table chat between two browsers."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import (
    CHROMIUM,
    Page,
    Server,
    chat_lines,
    click_move,
    is_over,
    legal_buttons,
    new_page,
    post,
    sit,
    wait_for_chat,
)

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Clocks of a few seconds, and two timeouts in a row hand a seat to the bot, so the tests stay short.
    running = Server(tmp_path_factory.mktemp("site") / "tendays.db", {"paces": {"live_min": 1}, "timeouts_to_bot": 2})
    running.start()
    try:
        yield running
    finally:
        running.kill()


def game(server: Server, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    return post(server.url, "/api/games", {"edition": "usa", "name": "Alice", "seats": seats, **body})


HUMAN = {"kind": "human"}


def play_while(pages: list[Page], keep_going: Any, seconds: float = 30) -> None:
    """Each page makes its first legal move whenever it has one, until ``keep_going()`` is false."""
    deadline = time.monotonic() + seconds
    while keep_going():
        assert time.monotonic() < deadline, "the game did not get there in time"
        for page in pages:
            moves = legal_buttons(page)
            if moves and not is_over(page):
                click_move(page, moves[0])
        pages[0].wait_for_timeout(30)


def test_an_absent_players_turns_are_played_on_the_clock_then_a_bot_takes_the_seat(
    browser: Any, server: Server
) -> None:
    alice_ticket = game(server, [HUMAN, HUMAN], options={"days": 5}, pace={"kind": "live", "per_move": 3, "bank": 0})
    bob_ticket = post(server.url, f"/api/games/{alice_ticket['id']}/join", {"name": "Bob"})  # and never moves
    alice = sit(browser, server, alice_ticket)
    alice.wait_for_selector("#clock .clock-time")
    assert ":" in alice.inner_text("#clock .clock-time")
    play_while(
        [alice], lambda: alice.locator("#players .player[data-seat='1']:has-text('away: a bot plays')").count() == 0
    )
    # The chat tells of each turn once the bot has played it.
    wait_for_chat(alice, "Bob missed 2 turns in a row: a bot plays the seat until Bob opens the seat link again")
    texts = chat_lines(alice)
    assert sum("Bob ran out of time: the normal bot played the turn" in t for t in texts) == 2
    assert "Bob is gone; a bot plays that seat. Play on, or" in alice.inner_text("#seat-actions")
    assert alice.locator("#end-button").count() == 1  # the others may end the game now
    # The game goes on: Alice moves, and the bot answers for Bob at once.
    version = int(alice.get_attribute("body", "data-version") or 0)
    play_while([alice], lambda: int(alice.get_attribute("body", "data-version") or 0) < version + 4)
    # Bob opens his seat link: the seat is his again.
    bob = sit(browser, server, bob_ticket)
    wait_for_chat(alice, "Bob is back and plays the seat again")
    alice.wait_for_selector("#players .player[data-seat='1']:has-text('online')")
    assert bob.locator("#rack .day").count() == 5
    assert not alice.js_errors and not bob.js_errors


def test_a_player_leaves_and_the_game_goes_on(browser: Any, server: Server) -> None:
    alice_ticket = game(server, [HUMAN, HUMAN, HUMAN], options={"days": 5})
    bob_ticket = post(server.url, f"/api/games/{alice_ticket['id']}/join", {"name": "Bob"})
    carol_ticket = post(server.url, f"/api/games/{alice_ticket['id']}/join", {"name": "Carol"})
    alice, bob = sit(browser, server, alice_ticket), sit(browser, server, bob_ticket)
    carol = sit(browser, server, carol_ticket)
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.click("#leave-button")
    for page in (alice, carol):
        wait_for_chat(page, "Bob left the game: a bot plays the seat from now on")
        page.wait_for_selector("#players .player[data-seat='1']:has-text('left the game')")
        page.wait_for_selector("#end-button")
    # The game goes on with a bot in Bob's seat: Alice and Carol draft, the bot drafts for Bob.
    play_while([alice, carol], lambda: alice.locator("#rack .day [data-tile]").count() < 2)
    assert "Game over" not in alice.inner_text("#turn")
    alice.click("#end-button")
    alice.wait_for_selector("#end-button[disabled]")
    wait_for_chat(carol, "Alice would like to end the game")
    carol.click("#end-button")
    for page in (alice, carol):
        page.wait_for_selector(".turn-banner.over:has-text('the game was abandoned')")
    assert not alice.js_errors and not carol.js_errors


def test_a_rematch_offers_the_same_seats_again(browser: Any, server: Server) -> None:
    alice_ticket = game(server, [HUMAN, HUMAN], options={"days": 2, "turn_limit": 1})
    bob_ticket = post(server.url, f"/api/games/{alice_ticket['id']}/join", {"name": "Bob"})
    alice, bob = sit(browser, server, alice_ticket), sit(browser, server, bob_ticket)
    play_while([alice, bob], lambda: not (is_over(alice) and is_over(bob)))
    alice.click("#rematch-button")
    alice.wait_for_url(lambda url: alice_ticket["id"] not in url)
    alice.wait_for_selector(".turn-banner.waiting")
    new_id = alice.url.split("/play/")[1].split("#")[0]
    bob.wait_for_selector("#rematch-button:has-text('Join the rematch')")
    wait_for_chat(bob, "Alice offers a rematch: the same seats and options again")
    bob.click("#rematch-button")
    bob.wait_for_url(f"**/play/{new_id}#token=*")
    for page in (alice, bob):
        page.wait_for_selector("#players .player[data-seat='1']:has-text('Bob')")
        page.wait_for_function("document.querySelector('#game-title').textContent.includes('2 days')")
    alice.wait_for_function("!document.querySelector('.turn-banner').classList.contains('waiting')")
    assert not alice.js_errors and not bob.js_errors


HTML = '<img src=x onerror="window.pwned = 1"><b>bold?</b> & <script>window.pwned = 2</script>'


def test_chat_between_two_browsers_shows_html_as_text(browser: Any, server: Server) -> None:
    alice_ticket = game(server, [HUMAN, HUMAN])
    bob_ticket = post(server.url, f"/api/games/{alice_ticket['id']}/join", {"name": "Bob"})
    alice, bob = sit(browser, server, alice_ticket), sit(browser, server, bob_ticket)
    alice.fill("#chat-input", HTML)
    alice.press("#chat-input", "Enter")
    wait_for_chat(bob, "bold?")
    line = bob.locator("#chat .chat-line[data-seat='0'] .chat-text")
    assert line.inner_text() == HTML  # the markup shown as the characters typed
    assert bob.locator("#chat b, #chat img, #chat script").count() == 0
    assert bob.evaluate("window.pwned") is None and alice.evaluate("window.pwned") is None
    bob.click("#chat-phrases button:has-text('Good luck!')")  # a quick phrase, for phones
    wait_for_chat(alice, "Good luck!")
    assert alice.input_value("#chat-input") == ""
    # Alice mutes Bob: his lines disappear for her only.
    alice.click("#chat-mutes [data-mute='1']")
    alice.wait_for_selector("#chat-hidden:has-text('1 message from muted players hidden')")
    assert not any("Good luck!" in text for text in chat_lines(alice))
    assert any("Good luck!" in text for text in chat_lines(bob))
    # A spectator reads but cannot write.
    watcher = new_page(browser)
    watcher.goto(f"{server.url}/play/{alice_ticket['id']}#spectate")
    wait_for_chat(watcher, "Good luck!")
    assert watcher.locator("#chat-form").is_hidden() and watcher.locator("#chat-spectator").is_visible()
    assert not alice.js_errors and not bob.js_errors and not watcher.js_errors
