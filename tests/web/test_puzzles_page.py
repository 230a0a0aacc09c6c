"""The puzzles page (/puzzles) in Chromium: a person solves three puzzles, one wrong answer first (explained in
words, then the solution shown), in English and in German; the rating moves; axe-core finds no serious or
critical violation. The test knows each puzzle's solution from the shipped data, by the id the page shows."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page
from test_accessibility import audit

from tendays.puzzles import Answer, Kind, puzzle_by_id, shipped

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

WORDS = {
    "en": {
        "edition": "usa",
        "wrong": "Not this one:",
        "right": "Right:",
        "answer": "The answer:",
        "rating": "Your puzzle rating:",
        "daily": "Daily puzzle of",
    },
    "de": {
        "edition": "germany",
        "wrong": "Leider nicht:",
        "right": "Richtig:",
        "answer": "Die Lösung:",
        "rating": "Deine Rätselwertung:",
        "daily": "Rätsel des Tages vom",
    },
}


def shown(page: Page) -> Any:
    """The puzzle on the page, from the shipped data."""
    edition = page.eval_on_selector("input[name=edition]:checked", "n => n.value")
    puzzle = puzzle_by_id(edition, page.get_attribute("#puzzles", "data-puzzle"))
    assert puzzle is not None
    return puzzle


def answer(page: Page, puzzle: Any, choice: Answer) -> str:
    """Choose a pile (and day), check, and return the explanation the server gave."""
    before = page.inner_text("#explanation") if page.is_visible("#result") else ""
    page.click(f"[data-choose-pile='{choice.pile}']")
    if puzzle.kind is Kind.FINISH:
        page.click(f"[data-choose-day='{choice.day}']")
    page.click("#check")
    page.wait_for_function(
        "([before]) => !document.getElementById('result').hidden && "
        "document.getElementById('explanation').textContent !== before",
        arg=[before],
    )
    return page.inner_text("#explanation")


def wrong_answer(puzzle: Any) -> Answer:
    if puzzle.kind is Kind.BLOCK:
        return Answer(puzzle.solution.pile % 3 + 1)
    return Answer(puzzle.solution.pile, puzzle.solution.day % puzzle.days + 1)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_person_solves_three_puzzles(browser: Any, server: Server, lang: str) -> None:
    words = WORDS[lang]
    page = new_page(browser, locale={"en": "en-US", "de": "de-DE"}[lang])
    page.goto(server.url + "/puzzles")
    page.wait_for_selector("body[data-ready=true]")
    assert page.get_attribute("html", "lang") == lang
    assert page.is_checked(f"input[name=edition][value={words['edition']}]")  # the edition of the reader's language
    assert page.inner_text("#task-title").startswith(words["daily"])
    assert words["rating"] in page.inner_text("#rating") and "1200" in page.inner_text("#rating")
    assert audit(page) == []
    seen = []
    for number in range(3):
        puzzle = shown(page)
        seen.append(puzzle.id)
        if number == 0:
            explanation = answer(page, puzzle, wrong_answer(puzzle))
            assert explanation.startswith(words["wrong"]), explanation
            assert page.locator("#result.wrong").count() == 1
            assert "1200" not in page.inner_text("#rating")  # a missed puzzle moves the rating down
            page.click("#show-solution")
            page.wait_for_function(
                "(words) => document.getElementById('solution').textContent.includes(words)", arg=words["answer"]
            )
            assert audit(page) == []
        explanation = answer(page, puzzle, puzzle.solution)
        assert explanation.startswith(words["right"]), explanation
        assert page.locator("#result.right").count() == 1
        page.wait_for_selector("#map .journey .link")  # the journey of the answer, drawn on the map
        if number < 2:
            page.click("#next")
            page.wait_for_function(
                "([id]) => document.getElementById('puzzles').dataset.puzzle !== id", arg=[puzzle.id]
            )
    assert len(set(seen)) == 3
    record = page.evaluate("JSON.parse(localStorage.getItem('tendays.puzzle_rating'))")
    assert record["solved"] == 2 and record["failed"] == 1  # only the first answer to a puzzle counts
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert str(record["rating"]) in page.inner_text("#rating")  # kept on this device
    assert page.js_errors == []


def test_a_block_puzzle_on_a_phone(browser: Any, server: Server) -> None:
    block = next(p for p in shipped("usa") if p.kind is Kind.BLOCK)
    page = new_page(browser, 390, 844, is_mobile=True, has_touch=True, locale="en-US")
    page.goto(f"{server.url}/puzzles?id={block.id}")  # a link to one puzzle opens it
    page.wait_for_selector("body[data-ready=true]")
    puzzle = shown(page)
    assert puzzle.kind is Kind.BLOCK
    assert page.is_visible("#opponent") and page.is_visible("#held")
    assert page.locator("[data-choose-day]").count() == 0  # a block asks for a pile only
    assert answer(page, puzzle, puzzle.solution).startswith("Right:")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    assert audit(page) == []
    assert page.js_errors == []


def test_the_address_names_the_puzzle_and_a_bad_link_says_so(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    page.goto(server.url + "/puzzles?id=usa-x9999")
    page.wait_for_selector("body[data-ready=true]")
    assert "there is no puzzle 'usa-x9999'" in page.inner_text("#puzzle-error")
    assert page.inner_text("#task-title").startswith("Daily puzzle of")  # today's puzzle instead
    assert "id=" not in page.url
    page.click("#next")
    page.wait_for_function(
        "() => new URL(location.href).searchParams.get('id') === document.getElementById('puzzles').dataset.puzzle"
    )
    linked = page.url
    shown_id = page.get_attribute("#puzzles", "data-puzzle")
    other = new_page(browser, locale="de-DE")  # the link opens the same puzzle, in any language
    other.goto(linked)
    other.wait_for_selector("body[data-ready=true]")
    assert other.get_attribute("#puzzles", "data-puzzle") == shown_id
    assert other.inner_text("#puzzle-error") == ""
    assert page.js_errors == [] and other.js_errors == []
