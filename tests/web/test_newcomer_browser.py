"""What a newcomer meets first, in a real Chromium: the end of the guided game (every rack, and the learner
spoken to), the lesson beside the turn banner on a phone, a map as large as its panel allows, no console
error for a visitor who is not signed in, the bots a seat offers, and the API page's accessibility.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page, open_lobby, post
from test_accessibility import audit

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


def open_step(page: Page, server: Server, edition: str, step: int) -> None:
    """Open the guided game at ``step``, as a browser that reached it before (the step is remembered)."""
    page.goto(server.url + "/learn")
    # The page remembers the step it shows: let it do so before the step is set under it.
    page.wait_for_selector("#lesson-do:not(:empty)")
    page.evaluate(
        "([edition, step]) => localStorage.setItem('tendays.learn', "
        "JSON.stringify({edition, steps: {[edition]: step}}))",
        [edition, step],
    )
    page.goto(f"{server.url}/learn?edition={edition}")
    page.wait_for_selector("body[data-ready]", state="attached")
    page.wait_for_selector("#lesson-do:not(:empty)")


def steps_of(server: Server, edition: str) -> int:
    with urllib.request.urlopen(f"{server.url}/api/learn") as answer:
        lessons = json.load(answer)["lessons"]
    return next(int(lesson["steps"]) for lesson in lessons if lesson["edition"] == edition)


def test_the_guided_games_end_shows_every_rack_and_speaks_to_the_learner(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    open_step(page, server, "usa", steps_of(server, "usa"))
    assert page.inner_text("#lesson-progress") == "Finished"
    # The banner says the racks are revealed below: they are, each with its verdict.
    assert "All racks are revealed below." in page.inner_text("#turn")
    page.wait_for_selector("#end:not([hidden])")
    seats = page.eval_on_selector_all("#end-racks .end-rack", "racks => racks.map(r => r.dataset.seat)")
    assert seats == ["0", "1", "2", "3"], seats
    assert page.locator("#end-racks .end-rack .tile").count() == 40
    assert page.inner_text("#end-title") == "The end: you win"
    assert page.inner_text("#end-racks .end-rack[data-seat='0'] strong") == "You"
    news = page.inner_text("#lesson-news")
    assert "You complete the journey and win" in news and "Player 1" not in news, news
    # Another seat's journey can be put on the map.
    page.click("#end-racks .end-rack[data-seat='2'] button")
    page.wait_for_function("document.getElementById('map-caption').textContent.includes('Bot 3')")
    assert page.js_errors == []


def test_on_a_phone_the_lesson_never_covers_the_turn_banner(browser: Any, server: Server) -> None:
    phone = new_page(browser, 390, 844, is_mobile=True, has_touch=True, locale="en-US")
    open_step(phone, server, "usa", 12)
    for scrolled in (0, 150, 400, 900):
        phone.evaluate("y => window.scrollTo(0, y)", scrolled)
        phone.wait_for_function(
            "y => Math.abs(window.scrollY - y) < 2 || "
            "window.scrollY >= document.documentElement.scrollHeight - innerHeight - 1",
            arg=scrolled,
        )
        banner, lesson = (
            phone.eval_on_selector(s, "n => { const b = n.getBoundingClientRect(); return [b.top, b.bottom]; }")
            for s in ("#turn", "#lesson")
        )
        on_screen = banner[1] > 0 and banner[0] < 844
        overlap = min(banner[1], lesson[1]) - max(banner[0], lesson[0])
        assert not (on_screen and overlap > 1), f"scrolled {scrolled}: banner {banner}, lesson {lesson}"
    assert phone.js_errors == []


# What the map's labels measure on screen, in pixels, and how large the map is drawn inside its box.
MAP_MEASURE = """() => {
  const map = document.querySelector('#map svg');
  const box = map.getBoundingClientRect();
  const [, , width, height] = map.getAttribute('viewBox').split(' ').map(Number);
  const scale = Math.min(box.width / width, box.height / height);
  const px = (nodes) => Math.min(...[...nodes].map((n) => Number(n.getAttribute('font-size')) * scale));
  return { drawnWidth: width * scale, drawnHeight: height * scale, boxWidth: box.width,
           names: px(map.querySelectorAll('.region-name')),
           codes: px(map.querySelectorAll('.region-label:not(.region-name)')) };
}"""


@pytest.mark.parametrize(("edition", "least_name_px"), [("germany", 7.5), ("usa", 6.8)])
def test_a_laptops_map_fills_its_panel_and_its_names_can_be_read(
    browser: Any, server: Server, edition: str, least_name_px: float, tmp_path: Path
) -> None:
    ticket = post(
        server.url,
        "/api/games",
        {"edition": edition, "name": "Carla", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]},
    )
    page = new_page(browser, 1366, 900)
    page.goto(server.url + ticket["url"])
    page.wait_for_selector("#map svg .region-name")
    size = page.evaluate(MAP_MEASURE)
    page.locator("#map svg").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / f"map-{edition}-1366.png"))  # to look at: pytest --basetemp
    # As wide as the panel, or (a tall map) nearly as tall as the screen.
    fills = size["drawnWidth"] >= size["boxWidth"] - 2 or size["drawnHeight"] >= 0.85 * 900
    assert fills, size
    assert size["names"] >= least_name_px and size["codes"] >= 7.5, size
    assert page.js_errors == []


def test_a_visitor_who_is_not_signed_in_sees_no_console_error(browser: Any, server: Server) -> None:
    ticket = post(
        server.url,
        "/api/games",
        {"edition": "usa", "name": "Dora", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]},
    )
    page = new_page(browser, locale="en-US")
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(f"{page.url}: {message.text}") if message.type == "error" else None
    )
    for path in ("/", "/account", "/learn", "/leaderboard", "/puzzles", ticket["url"]):
        page.goto(server.url + path)
        page.wait_for_selector("body[data-ready]", state="attached")
        page.wait_for_load_state("networkidle")
    assert errors == []
    assert page.evaluate("async () => (await fetch('/api/session')).status") == 204
    assert page.js_errors == []


def seat_choices(page: Page) -> tuple[list[str], str, list[str]]:
    """The second seat's choices before its "more bots" group, that group's label, and its bots."""
    first = page.eval_on_selector_all("#seat-2 > option", "options => options.map(o => o.textContent)")
    label = page.get_attribute("#seat-2 optgroup", "label") or ""
    more = page.eval_on_selector_all("#seat-2 optgroup option", "options => options.map(o => o.value)")
    return first, label, more


@pytest.mark.parametrize(
    ("locale", "rated", "more_bots"), [("en-US", "rated", "More bots"), ("de-DE", "Wertung", "Weitere Bots")]
)
def test_a_seat_offers_the_ladders_levels_first_and_more_bots_with_a_line_each(
    browser: Any, server: Server, locale: str, rated: str, more_bots: str
) -> None:
    with urllib.request.urlopen(f"{server.url}/api/bots") as answer:
        registry = json.load(answer)
    levels = [level["name"] for level in registry["levels"]]
    others = [bot["name"] for bot in registry["bots"] if bot["name"] not in levels]
    page = new_page(browser, locale=locale)
    open_lobby(page, server.url + "/")
    page.wait_for_selector("#seat-2 optgroup", state="attached")
    first, label, more = seat_choices(page)
    # A person, then each level of the ladder with its rating.
    assert len(first) == 1 + len(levels), first
    assert all(rated in text for text in first[1:]), first
    assert label == more_bots and more == others
    # Behind "more bots": a line for each, saying what it is.
    assert page.locator("#more-bots").is_visible()
    assert page.inner_text("#more-bots summary").startswith(more_bots)
    page.click("#more-bots summary")
    lines = page.eval_on_selector_all("#more-bots li", "lines => lines.map(l => [l.dataset.bot, l.textContent])")
    assert [bot for bot, _ in lines] == others
    english = {bot["name"]: bot["description"] for bot in registry["bots"]}
    for bot, text in lines:
        assert len(text) > len(bot) + 10, text
        assert (english[bot] in text) == (locale == "en-US"), text  # the German page says it in German
    assert page.js_errors == []


def test_the_api_page_has_no_serious_accessibility_violation(browser: Any, server: Server) -> None:
    page = new_page(browser)
    page.goto(f"{server.url}/docs")
    page.wait_for_selector(".opblock-summary-path")
    # An operation open, tried out (its parameters editable), and one answer's example shown.
    page.click(".opblock-summary-path[data-path='/api/games']")
    page.wait_for_selector(".opblock.is-open .responses-wrapper")
    page.click(".opblock.is-open .try-out__btn")
    page.wait_for_selector(".opblock.is-open tr[data-param-name] select")
    page.click(".opblock-summary-path[data-path='/api/games/{game_id}']")
    page.wait_for_selector(".opblock.is-open .highlight-code pre")
    assert audit(page) == []
    assert not page.js_errors, page.js_errors
