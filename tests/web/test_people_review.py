"""The people pages as a newcomer meets them, in Chromium: a profile reached by its link whatever the name, an
unknown player's page with nothing empty under the refusal, a profile on a phone that does not run off the
screen, the account forms naming an empty field before sending or asking anything, a rated game saying so at
the table and to someone signed out at its join link, the keyboard kept in "Play someone now" after stopping,
and a page opened before signing in elsewhere saying to reload it."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, held_request, new_page
from browser_helpers import sign_up as sign_up_on_page
from test_accessibility import audit

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing")

PASSWORD = "walking across the map"
LOCALES = {"en": "en-US", "de": "de-DE"}


def ready(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached")


def sign_up(page: Page, server: Server, name: str) -> None:
    sign_up_on_page(page, server, name, PASSWORD)
    page.wait_for_selector("body[data-ready]", state="attached")


def create(page: Page, **body: Any) -> dict[str, Any]:
    """A game created through the page's own API helper (it sends the session's CSRF token)."""
    game: dict[str, Any] = page.evaluate(
        "async (body) => (await import('/static/js/shared/rest.js')).api('/api/games', {method: 'POST', body})",
        {"edition": "usa", "name": "x", **body},
    )
    return game


def test_the_top_bar_opens_the_profile_of_a_name_with_a_slash(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    sign_up(page, server, "AC/DC")
    page.click("nav.who >> text=Your profile")
    page.wait_for_selector("#player-since:not(:empty)")
    assert page.inner_text("#player-name") == "AC/DC"
    assert page.inner_text("#player-error") == ""
    assert page.js_errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_an_unknown_player_is_said_once_with_no_empty_chart_or_games(browser: Any, server: Server, lang: str) -> None:
    page = new_page(browser, locale=LOCALES[lang])
    ready(page, f"{server.url}/players/Nobody%20Here")
    page.wait_for_selector("#player-error:not(:empty)")
    assert page.inner_text("#player-name") == "Nobody Here"
    assert (
        page.inner_text("#player-error")
        == {"en": "There is no player called 'Nobody Here'.", "de": "Es gibt niemanden namens 'Nobody Here'."}[lang]
    )
    assert page.locator("#chart-title").is_hidden() and page.locator("#games-next").is_hidden()
    assert audit(page) == []
    assert page.js_errors == []


def test_a_profile_with_games_fits_a_phone_and_offers_its_owner_to_go_on_playing(browser: Any, server: Server) -> None:
    page = new_page(browser, width=390, height=844, locale="de-DE", is_mobile=True, has_touch=True)
    sign_up(page, server, "Fernweh")
    create(page, seats=[{"kind": "human"}, {"kind": "bot", "bot": "normal"}])
    ready(page, f"{server.url}/players/Fernweh")
    page.wait_for_selector("#games tr")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.inner_text("#games tr a") == "Weiterspielen"  # their own game: theirs to go on with
    someone = new_page(browser, locale="de-DE")
    ready(someone, f"{server.url}/players/Fernweh")
    someone.wait_for_selector("#games tr")
    assert someone.inner_text("#games tr a") == "Zuschauen"
    assert page.js_errors == [] and someone.js_errors == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_account_forms_name_an_empty_field_before_sending_or_asking(
    browser: Any, server: Server, lang: str
) -> None:
    page = new_page(browser, locale=LOCALES[lang])
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if request.method != "GET" else None)
    ready(page, f"{server.url}/account")
    page.fill("#sign-in-name", "Someone")
    page.click("#sign-in-form button[type=submit]")
    assert (
        page.inner_text("#sign-in-error")
        == {"en": 'Fill in "Password" first.', "de": "Fülle zuerst „Passwort“ aus."}[lang]
    )
    assert page.evaluate("document.activeElement.id") == "sign-in-password"
    sign_up(page, server, f"Leer {lang}")
    ready(page, f"{server.url}/account")
    sent.clear()  # the sign-up itself
    assert page.inner_text("label:has(#new-password) span") == {"en": "New password", "de": "Neues Passwort"}[lang]
    page.check("#delete-sure")
    page.click("#delete-form button[type=submit]")
    assert (
        page.inner_text("#delete-error")
        == {"en": 'Fill in "Current password" first.', "de": "Fülle zuerst „Aktuelles Passwort“ aus."}[lang]
    )
    assert page.evaluate("document.activeElement.id") == "delete-password"
    page.fill("#new-password", "a new password of mine")
    page.click("#password-form button[type=submit]")
    assert (
        page.inner_text("#password-error")
        == {"en": 'Fill in "Current password" first.', "de": "Fülle zuerst „Aktuelles Passwort“ aus."}[lang]
    )
    assert asked == [] and not [url for url in sent if "/api/account" in url or "/api/session" in url]
    assert page.is_visible("#signed-in") and page.js_errors == []


def test_a_rated_game_says_so_at_the_table_and_at_its_link_signed_out(browser: Any, server: Server) -> None:
    host = new_page(browser, locale="en-US")
    sign_up(host, server, "Rita")
    game = create(host, name="Rita", rated=True, seats=[{"kind": "human"}, {"kind": "human"}])
    host.goto(f"{server.url}{game['url']}")
    host.wait_for_selector("#turn strong")
    assert host.inner_text("#game-title").startswith("10 Days in the USA · rated · 10 days")

    guest = new_page(browser, locale="de-DE")
    guest.goto(f"{server.url}/play/{game['id']}")
    guest.wait_for_selector("#join-error a")
    assert guest.inner_text("#join-error").startswith("Dieses Spiel ist gewertet")
    assert guest.is_disabled("#join-button") and guest.is_enabled("#spectate-button")
    assert audit(guest) == []
    guest.click("#join-error a")
    guest.wait_for_selector("body[data-ready]", state="attached")
    guest.fill("#sign-up-name", "Gustav")
    guest.fill("#sign-up-password", PASSWORD)
    guest.click("#sign-up-form button[type=submit]")
    guest.wait_for_url(f"{server.url}/play/{game['id']}")  # back at the game, signed in: now it may be joined
    guest.wait_for_function("!document.getElementById('join-button').disabled")
    assert guest.input_value("#join-name") == "Gustav" and guest.inner_text("#join-error") == ""
    assert host.js_errors == [] and guest.js_errors == []


def test_the_join_button_waits_for_the_page_to_know_who_asks(browser: Any, server: Server) -> None:
    # The page's script starts after the page has loaded (it first fetches the reader's language): until it
    # has asked who is signed in and whether a seat is free, nothing can be sent.
    host = new_page(browser, locale="en-US")
    sign_up(host, server, "Hanna")
    game = create(host, name="Hanna", seats=[{"kind": "human"}, {"kind": "human"}])
    guest = new_page(browser, locale="en-US")
    held: list[Any] = []
    guest.route("**/static/i18n/languages.json", lambda route: held.append(route))
    guest.goto(f"{server.url}/play/{game['id']}")  # loaded, the script held at its first fetch
    languages = held_request(guest, held)
    assert guest.is_disabled("#join-button") and guest.is_disabled("#spectate-button")
    languages.continue_()
    guest.wait_for_function("!document.getElementById('join-button').disabled")
    assert guest.is_enabled("#spectate-button") and guest.inner_text("#join-error") == ""
    assert host.js_errors == [] and guest.js_errors == []


def test_stopping_the_search_by_keyboard_keeps_the_focus_in_the_panel(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    sign_up(page, server, "Keys")
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


# Keeps every text the search's message line shows, in order.
SAID = """() => {
  window.said = [];
  const error = document.getElementById('pair-error');
  new MutationObserver(() => { if (error.textContent) window.said.push(error.textContent); })
    .observe(error, {childList: true, characterData: true, subtree: true});
}"""


def test_a_look_on_its_way_when_the_search_is_stopped_changes_nothing_it_says(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    sign_up(page, server, "Halt")
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


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_page_opened_before_signing_in_elsewhere_says_to_reload_it(browser: Any, server: Server, lang: str) -> None:
    lobby = new_page(browser, locale=LOCALES[lang])
    ready(lobby, f"{server.url}/")
    other_tab = lobby.context.new_page()
    sign_up(other_tab, server, f"Tabs {lang}")
    lobby.bring_to_front()
    lobby.fill("#player-name", "Someone")
    lobby.click("#create-form button[type=submit]")
    error = lobby.locator("[role=alert]", has_text={"en": "reload the page", "de": "lade die Seite neu"}[lang])
    error.wait_for()
    assert "X-CSRF-Token" not in error.inner_text()
    assert lobby.url == f"{server.url}/" and lobby.js_errors == []


def test_a_rating_that_is_no_number_is_refused_not_dropped(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    sign_up(page, server, "Numbers")
    page.wait_for_selector("#pair-form:not([hidden])")
    page.focus("#pair-form input[name=rating_min]")
    page.keyboard.type("1e")  # a number field holding no number reads as empty to scripts
    page.click("#pair-button")
    page.wait_for_selector("#pair-error:not(:empty)")
    assert page.inner_text("#pair-error") == "A rating is a number, such as 25."
    assert page.is_visible("#pair-form") and page.is_hidden("#pair-waiting")
    assert page.js_errors == []


def test_a_name_taken_puts_the_cursor_in_the_name(browser: Any, server: Server) -> None:
    first = new_page(browser, locale="en-US")
    sign_up(first, server, "Twin")
    page = new_page(browser, locale="en-US")
    ready(page, f"{server.url}/account#sign-up")
    page.fill("#sign-up-name", "twin")
    page.fill("#sign-up-password", PASSWORD)
    page.click("#sign-up-form button[type=submit]")
    page.wait_for_selector("#sign-up-error:not(:empty)")
    assert page.inner_text("#sign-up-error") == "The name twin is taken; choose another."
    assert page.evaluate("document.activeElement.id") == "sign-up-name"
    assert page.js_errors == []


def test_an_unknown_replay_is_said_as_a_sentence(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    ready(page, f"{server.url}/replay/nothing-here")
    page.wait_for_selector("#replay-wait:not(:empty)")
    assert page.inner_text("#replay-wait") == "There is no game 'nothing-here'."
    assert page.locator("#replay-wait a").count() == 0 and page.js_errors == []


def test_a_long_name_with_no_space_fits_a_phone_everywhere_it_is_shown(browser: Any, server: Server) -> None:
    name = "W" * 32  # the longest name, and the widest letter, with nowhere to break
    page = new_page(browser, width=390, height=844, locale="de-DE", is_mobile=True, has_touch=True)
    sign_up(page, server, name)
    game = create(page, seats=[{"kind": "human"}, {"kind": "bot", "bot": "normal"}])
    for path in ("/", "/account", f"/players/{name}"):
        ready(page, f"{server.url}{path}")
        page.wait_for_function("document.querySelector('nav.who, #player-since:not(:empty)') !== null")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
    page.goto(f"{server.url}{game['url']}")
    page.wait_for_selector("#players .player")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.js_errors == []


def test_signing_out_in_another_tab_ends_the_search_in_words(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    sign_up(page, server, "Leaver")
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


def test_sign_out_everywhere_refused_leaves_the_button_usable(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    sign_up(page, server, "Stale")
    ready(page, f"{server.url}/account")
    other_tab = page.context.new_page()
    ready(other_tab, f"{server.url}/account")
    other_tab.click("#sign-out")
    other_tab.wait_for_url(f"{server.url}/")
    page.click("#sign-out-everywhere")  # this page still thinks it is signed in
    page.wait_for_selector("#account-status:not(:empty)")
    assert page.inner_text("#account-status") == "Sign in first: nobody is signed in."
    assert page.is_enabled("#sign-out-everywhere") and page.js_errors == []
