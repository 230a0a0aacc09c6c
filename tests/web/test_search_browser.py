"""The search for an opponent ("Play someone now") in Chromium: the keyboard kept in the panel
after stopping, a look on its way when the search stops changing nothing, a sign-out in another tab
ending the search in words, and a rating that is no number refused rather than dropped."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, held_request, new_page
from browser_people import ready, sign_up_as

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


SAID = """() => {
  window.said = [];
  const error = document.getElementById('pair-error');
  new MutationObserver(() => { if (error.textContent) window.said.push(error.textContent); })
    .observe(error, {childList: true, characterData: true, subtree: true});
}"""


def test_stopping_the_search_by_keyboard_keeps_the_focus_in_the_panel(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    sign_up_as(page, server, "Keys")
    page.wait_for_selector("#pair-form:not([hidden])")
    page.focus("#pair-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#pair-waiting:not([hidden])")
    assert page.evaluate("document.activeElement.id") == "pair-cancel"
    page.keyboard.press("Enter")
    page.wait_for_selector("#pair-form:not([hidden])")
    assert page.evaluate("document.activeElement.id") == "pair-button"
    assert page.inner_text("#pair-error") == "You stopped looking."
    assert page.js_errors == []


def test_a_look_on_its_way_when_the_search_is_stopped_changes_nothing_it_says(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    sign_up_as(page, server, "Halt")
    page.wait_for_selector("#pair-form:not([hidden])")
    page.evaluate(SAID)
    held: list[Any] = []
    holding = False
    page.route("**/api/seeks/*", lambda route: held.append(route) if holding else route.continue_())
    page.click("#pair-button")
    page.wait_for_selector("#pair-waiting:not([hidden])")
    holding = True
    look = held_request(page, held)  # the page asks how the search goes, and is stopped before the answer comes
    page.click("#pair-cancel")
    stop = held_request(page, held, "DELETE")
    stopped = stop.fetch()  # the server ends the search now
    with page.expect_event("requestfinished", lambda request: request.method == "GET"):
        look.continue_()  # so the look hears that it has ended, before the stop hears its answer
    stop.fulfill(response=stopped)
    page.wait_for_selector("#pair-form:not([hidden])")
    assert page.evaluate("window.said") == ["You stopped looking."]
    assert page.js_errors == []


def test_signing_out_in_another_tab_ends_the_search_in_words(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    sign_up_as(page, server, "Leaver")
    page.wait_for_selector("#pair-form:not([hidden])")
    page.click("#pair-button")
    page.wait_for_selector("#pair-waiting:not([hidden])")
    other_tab = page.context.new_page()
    ready(other_tab, f"{server.url}/account")
    other_tab.click("#sign-out")
    other_tab.wait_for_url(f"{server.url}/")
    page.wait_for_selector("#pair-form:not([hidden])")  # not "still looking" for ever
    assert page.inner_text("#pair-error") == "That did not work: sign in first: nobody is signed in"
    assert page.js_errors == []


def test_a_rating_that_is_no_number_is_refused_not_dropped(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    sign_up_as(page, server, "Numbers")
    page.wait_for_selector("#pair-form:not([hidden])")
    page.focus("#pair-form input[name=rating_min]")
    page.keyboard.type("1e")  # a number field holding no number reads as empty to scripts
    page.click("#pair-button")
    page.wait_for_selector("#pair-error:not(:empty)")
    assert page.inner_text("#pair-error") == "A rating is a number, such as 25."
    assert page.is_visible("#pair-form") and page.is_hidden("#pair-waiting")
    assert page.js_errors == []
