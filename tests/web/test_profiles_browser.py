"""The players' pages in Chromium: a profile with its ratings, the rating chart drawn by the page and its games
linked to their replays; the leaderboard with the bots' ratings among people's; both in English and German,
with no serious or critical axe-core violation."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page, post
from sqlalchemy import insert, update
from test_accessibility import audit

from tendays.server.matches.text import name_key
from tendays.server.people.ratings import rate_game
from tendays.server.storage.schema import AccountTable, GameTable, RatingTable, SeatTable
from tendays.server.storage.store import Store

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


@pytest.fixture(scope="module")
def seeded(server: Server) -> Server:
    """Ada beats Bob in five rated games (Bob's rating settled), and sits at one unrated game being played."""
    store = Store(server.database)
    try:
        with store.engine.begin() as db:
            ada, bob = (
                db.execute(
                    insert(AccountTable).values(name=n, name_key=name_key(n), password_hash="-", created=time.time())
                ).inserted_primary_key[0]
                for n in ("Ada", "Bob")
            )
        for number in range(6):
            game_id = f"g{number}"
            with store.engine.begin() as db:
                db.execute(
                    insert(GameTable).values(
                        id=game_id,
                        edition="usa",
                        options="{}",
                        seed=1,
                        rated=number < 5,
                        finished=number < 5,
                        created=datetime.fromtimestamp(1_700_000_000 + number * 3600, UTC),
                        finished_at=time.time(),
                    )
                )
                db.execute(
                    insert(SeatTable),
                    [
                        {"game_id": game_id, "seat": i, "kind": "human", "name": n, "account_id": a}
                        for i, (n, a) in enumerate((("Ada", ada), ("Bob", bob)))
                    ],
                )
            if number < 5:
                rate_game(store.engine, game_id, [1, 2], at=1_700_000_000 + number * 90_000)  # a day apart: each counts
        with store.engine.begin() as db:
            db.execute(update(RatingTable).where(RatingTable.account_id == bob).values(sigma=4.0))
    finally:
        store.close()
    return server


def opened(browser: Any, url: str, locale: str = "en-US") -> Page:
    page = new_page(browser, locale=locale)
    page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached")
    return page


def test_a_profile_shows_ratings_a_drawn_chart_and_games_linked_to_replays(browser: Any, seeded: Server) -> None:
    page = opened(browser, f"{seeded.url}/players/ada")
    assert page.inner_text("#player-name") == "Ada"
    assert "5 rated games" in page.inner_text("#ratings") and "provisional" in page.inner_text("#ratings")
    chart = page.locator("#chart svg.rating-chart")
    assert chart.get_attribute("data-points") == "5"
    line = page.locator("#chart polyline.line").get_attribute("points") or ""
    assert len(line.split()) == 6  # where Ada started, and after each of her five games
    heights = [float(p.split(",")[1]) for p in line.split()]
    assert heights == sorted(heights, reverse=True)  # five wins: ever higher (smaller y)
    assert page.locator("#chart circle.point.up").count() == 5
    assert page.locator("#chart line.bot-line").count() == 4  # the four levels' published ratings
    rows = page.locator("#games tr")
    assert rows.count() == 6
    assert "being played" in rows.nth(0).inner_text()
    assert rows.nth(0).locator("a").last.get_attribute("href") == "/play/g5"
    newest_rated = rows.nth(1)
    assert "won" in newest_rated.inner_text() and "Bob" in newest_rated.inner_text()
    assert newest_rated.locator("a").last.get_attribute("href") == "/replay/g4"
    assert newest_rated.locator("a").first.get_attribute("href") == "/players/Bob"
    assert page.js_errors == []


def test_the_leaderboard_lists_settled_players_beside_the_bots(browser: Any, seeded: Server) -> None:
    page = opened(browser, f"{seeded.url}/leaderboard?edition=usa")
    people = page.locator("#board tr:not(.bot-row)")
    assert people.count() == 1 and "Bob" in people.nth(0).inner_text()  # Ada is still provisional
    assert people.nth(0).locator("a").get_attribute("href") == "/players/Bob"
    bots = page.locator("#board tr.bot-row")
    assert bots.count() == 4 and "normal bot" in page.inner_text("#board")
    ratings = [float(r.split()[0].rstrip("?")) for r in page.locator("#board td:nth-child(3)").all_inner_texts()]
    assert ratings == sorted(ratings, reverse=True)  # bots and people on one scale, best first
    page.select_option("#board-edition", "germany")
    page.wait_for_selector("#board-empty:not([hidden])")
    assert page.locator("#board tr:not(.bot-row)").count() == 0
    assert page.js_errors == []


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_players_pages_pass_axe_in_both_languages(browser: Any, seeded: Server, locale: str) -> None:
    for path in ("/players/Ada", "/leaderboard"):
        page = opened(browser, f"{seeded.url}{path}", locale)
        assert audit(page) == [], (path, locale)
        if locale == "de-DE":
            assert page.get_attribute("html", "lang") == "de"
            assert "Wertung" in page.inner_text("main")
        assert page.js_errors == []


# The boxes under 24 px tall among the visible links and summaries a selector picks (WCAG 2.5.8's minimum).
SMALL_TARGETS = """(selector) => [...document.querySelectorAll(selector)]
  .filter(target => target.getClientRects().length && target.getBoundingClientRect().height < 24)
  .map(target => `${target.textContent.trim()}: ${target.getBoundingClientRect().height.toFixed(1)} px`)"""


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_on_a_phone_the_profile_fits_and_its_targets_are_24_px(browser: Any, seeded: Server, locale: str) -> None:
    phone = new_page(browser, 390, 844, is_mobile=True, has_touch=True, locale=locale)
    phone.goto(f"{seeded.url}/players/Bob")
    phone.wait_for_selector("body[data-ready]", state="attached")
    phone.wait_for_selector("#games tr")
    boxes = phone.evaluate("""() => ({
      page: document.documentElement.scrollWidth,
      table: document.querySelector('.players-table').getBoundingClientRect().right,
      cells: Math.max(...[...document.querySelectorAll('#games td')].map(td => td.getBoundingClientRect().right)),
      links: [...document.querySelectorAll('#games tr')].map(tr => tr.querySelector('a[href^="/replay/"], '
        + 'a[href^="/play/"]').getBoundingClientRect().right),
      ratings: [...document.querySelectorAll('#games td[data-label]')].filter(td => td.textContent.includes('('))
        .map(td => td.getBoundingClientRect().right),
    })""")
    assert boxes["page"] <= 390 and boxes["table"] <= 390 and boxes["cells"] <= 390, boxes
    assert len(boxes["links"]) == 6 and max(boxes["links"]) <= 390, boxes  # every Replay link on screen
    assert len(boxes["ratings"]) == 5 and max(boxes["ratings"]) <= 390, boxes  # every rating whole
    assert phone.evaluate(SMALL_TARGETS, ".topbar a, main a") == []
    assert phone.js_errors == []


def test_on_a_phone_the_tables_summaries_and_links_are_24_px(browser: Any, seeded: Server) -> None:
    ticket = post(
        seeded.url,
        "/api/games",
        {"edition": "usa", "name": "Eve", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]},
    )
    phone = new_page(browser, 390, 844, is_mobile=True, has_touch=True)
    phone.goto(f"{seeded.url}{ticket['url']}")
    phone.wait_for_selector("#turn strong")
    phone.wait_for_selector("details summary >> text=on the map")
    assert phone.locator("#keys-title").count() == 1
    summaries = phone.evaluate("() => [...document.querySelectorAll('summary')].map(s => s.textContent.trim())")
    assert any("on the map" in text for text in summaries) and "Keys" in summaries, summaries
    assert phone.evaluate(SMALL_TARGETS, "summary, .topbar a") == []
    assert phone.js_errors == []
