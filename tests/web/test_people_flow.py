"""People in Chromium, end to end: two people sign up in two browsers, press "Play someone now", are paired
into a rated game and play it to its end (each by the normal bot's choice from their own table, clicked as a
person clicks), see their ratings move and the game on their profiles, step through its replay and download
its record. Someone left waiting is offered a bot instead; an anonymous player plays as before. Every new
page passes axe-core (no serious or critical violation) in English and German."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM, TIMEOUT_MS, Page, Server, click_move, is_over, legal_buttons, new_page, open_lobby
from browser_helpers import sign_up as sign_up_on_page
from test_accessibility import audit

from tendays.bots.registry import make_bot
from tendays.cli.tui.save_file import load_save
from tendays.engine.wire import view_from_json

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

PASSWORD = "walking across the map"
BOT_OFFER = 2.0  # seconds of waiting before the lobby offers a bot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    running = Server(tmp_path_factory.mktemp("people") / "tendays.db", settings={"bot_offer_after": BOT_OFFER})
    running.start()
    try:
        yield running
    finally:
        running.kill()


class Table:
    """A person's browser at the table: the last table the server sent it (read from its WebSocket)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.latest: dict[str, Any] = {"version": -1}
        page.on("websocket", lambda socket: socket.on("framereceived", self._heard))

    def _heard(self, payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "state" and message.get("version", -1) >= self.latest["version"]:
            self.latest = message

    def bot_move(self, rng: random.Random) -> str:
        """The move the normal bot would make from this person's own view (what their table shows)."""
        game = self.latest["game"]
        view = view_from_json({**game, "player": game["you"], "events": []})
        return str(make_bot("greedy").choose(view, rng))


def sign_up(page: Page, server: Server, name: str) -> None:
    """Sign up on the account page, which then opens the lobby, signed in."""
    sign_up_on_page(page, server, name, PASSWORD)


def seek(page: Page, server: Server, edition: str = "usa") -> None:
    """Open the lobby and press "Play someone now" (live, a minute a move)."""
    open_lobby(page, f"{server.url}/")
    page.wait_for_selector("#pair-form:not([hidden])")
    page.select_option("#pair-form select[name=edition]", edition)
    page.click("#pair-button")  # then it waits, or (paired at once) goes to the table: the caller waits for which


def play(page: Page, move: str) -> None:
    """Make ``move`` by clicking, as a person does (a replacement: the day first, then the pile)."""
    kind, *numbers = move.split()
    if kind == "replace":
        page.locator(f"#rack [data-day='{numbers[0]}']").click()
    click_move(page, move)


def play_to_the_end(tables: list[Table]) -> None:
    rng = random.Random(7)
    for _ in range(400):
        if any(is_over(t.page) for t in tables):
            return
        for table in tables:
            if legal_buttons(table.page) and table.latest.get("game", {}).get("legal_moves"):
                play(table.page, table.bot_move(rng))
                break
        else:
            tables[0].page.wait_for_timeout(50)
    raise AssertionError("the game did not end in 400 looks")


def rating_of(page: Page, name: str) -> float:
    """The player's USA rating once the profile shows one (a game is rated just after it ends).
    Asked again until it does: a waiting predicate that returns a promise counts as true at once."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        rating = page.evaluate(
            """async (name) => {
                const answer = await (await fetch(`/api/players/${name}`)).json();
                return answer.ratings && answer.ratings.usa ? answer.ratings.usa.rating : null;
            }""",
            name,
        )
        if rating is not None:
            return float(rating)
        assert time.monotonic() < deadline, f"{name}'s profile never showed a USA rating"
        page.wait_for_timeout(100)


@pytest.fixture(scope="module")
def paired(browser: Any, server: Server) -> tuple[Page, Page, str]:
    """Ann and Ben sign up in two browsers (Ben's German), press "Play someone now", and play the game they are
    paired into to its end: their pages and the game's id."""
    ann, ben = new_page(browser), new_page(browser, locale="de-DE")
    sign_up(ann, server, "Ann")
    sign_up(ben, server, "Ben")
    tables = [Table(ann), Table(ben)]
    seek(ann, server)
    seek(ben, server)
    for page in (ann, ben):
        page.wait_for_url("**/play/**")
        page.wait_for_selector("#turn strong")
    game_id = ann.url.split("/play/")[1].split("#")[0]
    assert ben.url.split("/play/")[1].split("#")[0] == game_id
    assert ann.locator("#players .player").count() == 2
    play_to_the_end(tables)
    for page in (ann, ben):
        page.wait_for_selector(".turn-banner.over")
    return ann, ben, game_id


def test_two_people_pair_play_a_rated_game_and_find_it_again(
    paired: tuple[Page, Page, str], server: Server, tmp_path: Path
) -> None:
    ann, ben, game_id = paired
    # The ratings moved, one up and one down; the game is on both profiles, linked to its replay.
    ratings = sorted(rating_of(ann, name) for name in ("Ann", "Ben"))
    assert ratings[0] < 25.0 < ratings[1], ratings
    for page, name in ((ann, "Ann"), (ben, "Ben")):
        page.goto(f"{server.url}/players/{name}")
        page.wait_for_selector("body[data-ready]", state="attached")
        page.wait_for_selector("#games tr")
        row = page.locator("#games tr").first
        assert row.locator(f"a[href='/replay/{game_id}']").count() == 1
        assert page.locator("#chart svg.rating-chart").get_attribute("data-points") == "1"

    # The replay: step through it, and download its record.
    ann.goto(f"{server.url}/replay/{game_id}")
    ann.wait_for_selector("#table:not([hidden])")
    total = int(ann.get_attribute("#replay-slider", "max") or "0")
    ann.keyboard.press("ArrowRight")
    ann.keyboard.press("ArrowRight")
    assert ann.get_attribute("body", "data-version") == "2"
    with ann.expect_download() as download:
        ann.locator("#replay-download").click()
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    record, _seats = load_save(saved)
    assert record.names == ("Ann", "Ben") and len(record.moves) == total
    assert ann.js_errors == [] and ben.js_errors == []


def test_someone_left_waiting_is_offered_a_bot_instead(browser: Any, server: Server) -> None:
    cleo = new_page(browser)
    sign_up(cleo, server, "Cleo")
    seek(cleo, server, "germany")
    cleo.wait_for_selector("#pair-bot-offer:not([hidden])")
    cleo.select_option("#pair-bot", "easy")
    cleo.click("#pair-bot-play")
    cleo.wait_for_url("**/play/**")
    cleo.wait_for_selector("#players .player:has-text('Cleo')")
    assert cleo.locator("#players .player").count() == 2
    assert cleo.js_errors == []


def test_waiting_can_be_stopped_on_a_phone(browser: Any, server: Server) -> None:
    dora = new_page(browser, 360, 740, is_mobile=True, has_touch=True, locale="de-DE")
    sign_up(dora, server, "Dora")
    seek(dora, server)
    dora.wait_for_selector("#pair-waiting:not([hidden])")
    wide = "[...document.querySelectorAll('#quick-pair *')].filter(n => n.getBoundingClientRect().right > innerWidth)"
    dora.click("#pair-cancel")
    dora.wait_for_selector("#pair-form:not([hidden])")
    assert dora.evaluate(f"{wide}.length") == 0  # nothing of the panel runs off the screen
    assert dora.inner_text("#pair-error") == "Du hast die Suche beendet."
    seek(dora, server)  # and a second time: the first seek is over, the new one waits
    dora.wait_for_selector("#pair-waiting:not([hidden])")
    dora.click("#pair-cancel")  # (else the next person to seek would be paired with Dora)
    dora.wait_for_selector("#pair-form:not([hidden])")
    assert dora.js_errors == []


def test_an_anonymous_player_plays_as_before(browser: Any, server: Server) -> None:
    page = new_page(browser)
    open_lobby(page, f"{server.url}/")
    page.wait_for_selector("#pair-signed-out:not([hidden])")  # asked to sign in for rated games, nothing more
    page.fill("#player-name", "Eve")
    page.click("#create-button")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("[data-move^='draft']:not([disabled])")  # the bot may draft first
    version = page.get_attribute("body", "data-version")
    move = next(m for m in legal_buttons(page) if m.startswith("draft"))
    click_move(page, move)
    assert page.get_attribute("body", "data-version") != version
    assert page.js_errors == []


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_new_pages_pass_axe(browser: Any, server: Server, paired: tuple[Page, Page, str], locale: str) -> None:
    page = new_page(browser, locale=locale)

    def check(path: str | None, ready: str, what: str) -> None:
        if path is not None:
            page.goto(f"{server.url}{path}")
        page.wait_for_selector(ready, state="attached")
        assert page.get_attribute("html", "lang") == locale[:2], what
        assert audit(page) == [], what

    check("/", "#pair-signed-out:not([hidden])", "lobby, signed out")
    check("/account", "#signed-out:not([hidden])", "sign up or in")
    sign_up(page, server, f"Axe {locale}")
    check(None, "#pair-form:not([hidden])", "lobby, signed in")
    page.click("#pair-button")
    check(None, "#pair-bot-offer:not([hidden])", "lobby, waiting, a bot offered")
    page.click("#pair-cancel")
    check("/account", "#signed-in:not([hidden])", "account")
    check("/players/Ann", "#games tr", "profile")
    check("/leaderboard", "body[data-ready]", "leaderboard")
    check(f"/replay/{paired[2]}", "#table:not([hidden])", "replay")
    assert page.js_errors == []
