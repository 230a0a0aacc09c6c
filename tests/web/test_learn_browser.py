"""The guided first game in the browser (/learn): a newcomer who does what the lesson's instruction says, word for
word, finishes it, in English and in German; a wrong move is explained first; the place reached survives a
reload; and the lobby offers the guided game until it is finished or skipped.

The test reads only the instruction on screen (``#lesson-do``) and clicks what it names: a day of the rack, the
draw pile, a discard pile. It never asks the server for the lesson's moves.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page, open_lobby

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

# What each instruction says, per language: (kind, pattern with the day and/or the pile).
SAYS = {
    "en": [
        ("replace", r"^Put .+ on day (?P<day>\d+), and .+ onto discard pile (?P<pile>\d)\.$"),
        ("day", r"^Put .+ on day (?P<day>\d+)\.$"),
        ("draw", r"^Draw a tile from the draw pile\.$"),
        ("pile", r"^Take .+ from discard pile (?P<pile>\d)\.$"),
        ("pile", r"^Discard .+ onto discard pile (?P<pile>\d)\.$"),
    ],
    "de": [
        ("replace", r"^Lege das Plättchen auf Tag (?P<day>\d+): .+; .+ kommt auf Ablagestapel (?P<pile>\d)\.$"),
        ("day", r"^Lege das Plättchen auf Tag (?P<day>\d+): [^;]+\.$"),
        ("draw", r"^Ziehe ein Plättchen vom Nachziehstapel\.$"),
        ("pile", r"^Nimm das oberste Plättchen von Ablagestapel (?P<pile>\d): .+\.$"),
        ("pile", r"^Lege das Plättchen auf Ablagestapel (?P<pile>\d) ab: .+\.$"),
    ],
}


def instruction(page: Page) -> str:
    return page.inner_text("#lesson-do").strip()


def read(lang: str, text: str) -> tuple[str, dict[str, int]]:
    """What the instruction asks for: its kind, and the day and pile it names."""
    for kind, pattern in SAYS[lang]:
        found = re.match(pattern, text)
        if found:
            return kind, {k: int(v) for k, v in found.groupdict().items()}
    raise AssertionError(f"an instruction nobody could follow: {text!r}")


def click_and_wait(page: Page, selector: str) -> None:
    before = page.get_attribute("body", "data-version")
    wrong = page.inner_text("#lesson-wrong")
    page.click(selector)
    page.wait_for_function(
        "([before, wrong]) => document.body.dataset.version !== before || "
        "document.getElementById('lesson-wrong').textContent !== wrong",
        arg=[before, wrong],
    )


def follow(page: Page, lang: str) -> None:
    """Do what the instruction on screen says."""
    kind, said = read(lang, instruction(page))
    pointed = page.locator(".learn-point")
    assert pointed.count() == 1, "the lesson points at one part of the table"
    if kind == "day":
        click_and_wait(page, f"#rack .day[data-day='{said['day']}']")
    elif kind == "draw":
        click_and_wait(page, ".draw-pile button")
    elif kind == "pile":
        click_and_wait(page, f".discard-pile[data-pile='{said['pile']}'] button")
    else:
        page.click(f"#rack .day[data-day='{said['day']}']")
        page.wait_for_selector(f".discard-pile[data-pile='{said['pile']}'].learn-point")
        click_and_wait(page, f".discard-pile[data-pile='{said['pile']}'] button")
    assert page.inner_text("#lesson-wrong") == "", page.inner_text("#lesson-wrong")


def open_lesson(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached")
    page.wait_for_selector("#lesson-do:not(:empty)")


def play_through(page: Page, lang: str, try_wrong: str) -> int:
    """Follow every instruction to the end; the first is answered wrongly once (``try_wrong``: its words)."""
    kind, said = read(lang, instruction(page))
    assert kind == "day"
    other = 1 if said["day"] != 1 else 2
    click_and_wait(page, f"#rack .day[data-day='{other}']")
    assert try_wrong in page.inner_text("#lesson-wrong")
    assert page.get_attribute(f"#rack .day[data-day='{other}']", "disabled") is None, "the wrong move was not played"
    steps = 0
    while page.locator("#lesson-play").is_hidden():
        follow(page, lang)
        steps += 1
        assert steps < 60
    return steps


def test_a_newcomer_completes_the_guided_game_by_the_instructions_in_english(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    open_lesson(page, server.url + "/learn?edition=usa")
    assert page.inner_text("#lesson-title") == "Guided first game"
    assert page.inner_text("#lesson-explain").startswith("Welcome!")
    for _step in range(3):
        follow(page, "en")
    progress = page.inner_text("#lesson-progress")
    page.reload()
    page.wait_for_selector("#lesson-do:not(:empty)")
    assert page.inner_text("#lesson-progress") == progress, "the place reached is remembered"
    page.click("#lesson-restart")
    page.wait_for_function("document.getElementById('lesson-progress').textContent.startsWith('Step 1 of')")
    steps = play_through(page, "en", "Try this: ")
    assert steps == int(progress.split()[-1])
    assert "won the guided game" in instruction(page)
    assert page.locator(".turn-banner.over").count() == 1
    # Finished: the lobby no longer offers it.
    open_lobby(page, server.url + "/")
    assert page.locator("#learn-offer").is_hidden()
    assert page.js_errors == []


def test_a_newcomer_completes_the_guided_game_in_german(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="de-DE")
    open_lobby(page, server.url + "/")
    assert page.locator("#learn-offer").is_visible()
    page.click("#learn-offer a")
    page.wait_for_selector("#lesson-do:not(:empty)")
    assert page.inner_text("#lesson-title") == "Geführtes erstes Spiel"
    assert page.input_value("#lesson-edition") == "germany"  # the edition of the reader's language
    assert page.inner_text("#lesson-explain").startswith("Willkommen!")
    play_through(page, "de", "Versuch es so: ")
    assert page.inner_text("#lesson-play") == "Ein echtes Spiel spielen"
    assert page.js_errors == []


def test_skipping_the_lesson_ends_the_offer(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    open_lobby(page, server.url + "/")
    assert page.locator("#learn-offer").is_visible()
    open_lesson(page, server.url + "/learn")
    page.click("#lesson-skip")
    page.wait_for_url(server.url + "/")
    open_lobby(page)
    assert page.locator("#learn-offer").is_hidden()
    assert page.js_errors == []
