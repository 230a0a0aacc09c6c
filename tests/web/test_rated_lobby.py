"""Rated games from the lobby page in Chromium: a signed-in person creates one from the form (every seat a
person), another signed-in person sees it marked "rated" in the list and joins it; a signed-out visitor is not
offered the choice, is told that rated games need an account, and reads why joining one is refused, in English
and German. The lobby passes axe-core (no serious or critical violation) signed in and signed out."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page, open_lobby, post, sign_up
from test_accessibility import audit

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

PASSWORD = "walking across the map"


def signed_up(browser: Any, server: Server, name: str, locale: str = "en-US") -> Page:
    """A new browser where ``name`` has just signed up on the account page (which then opens the lobby)."""
    page = new_page(browser, locale=locale)
    sign_up(page, server, name, PASSWORD)
    open_lobby(page)
    return page


def create_rated(page: Page, server: Server) -> str:
    """Create a rated two-person game from the lobby's form; the id of the game the page then sits at."""
    page.wait_for_selector("#rated-offer:not([hidden])")
    page.check("#rated")
    page.click("#create-button")
    page.wait_for_url(f"{server.url}/play/**")
    return page.url.split("/play/")[1].split("#")[0]


def summary(server: Server, game_id: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/games/{game_id}", timeout=10) as answer:
        result: dict[str, Any] = json.load(answer)
        return result


def test_a_rated_game_is_created_from_the_form_and_joined_by_another_person(browser: Any, server: Server) -> None:
    ada = signed_up(browser, server, "Ada")
    assert ada.is_hidden("#rated-signed-out")
    assert ada.input_value("#player-name") == "Ada"
    ada.check("#rated")
    other = ada.locator("#seat-2")
    assert other.is_disabled() and other.input_value() == "human"  # every seat a person
    assert ada.is_disabled("#seat-count input[value='1']")
    ada.uncheck("#rated")
    assert other.is_enabled()
    game_id = create_rated(ada, server)
    created = summary(server, game_id)
    assert created["rated"] is True and [s["kind"] for s in created["seats"]] == ["human", "human"]

    bob = signed_up(browser, server, "Bob")
    listed = bob.locator(f"#game-list [data-game='{game_id}']")
    listed.locator(".chip.rated").wait_for()
    assert listed.get_attribute("data-rated") == "true" and "rated" in listed.inner_text()
    listed.locator(f"[data-join='{game_id}']").click()
    bob.wait_for_url(f"{server.url}/play/{game_id}**")
    joined = summary(server, game_id)
    assert joined["status"] == "playing" and [s["name"] for s in joined["seats"]] == ["Ada", "Bob"]
    assert ada.js_errors == [] and bob.js_errors == []


@pytest.mark.parametrize(
    ("locale", "needs_account", "refusal"),
    [
        ("en-US", "Rated games need an account.", "only people with an account can join it"),
        ("de-DE", "Gewertete Spiele brauchen ein Konto.", "nur Leute mit Konto können ihm beitreten"),
    ],
)
def test_signed_out_the_choice_is_not_offered_and_joining_is_refused_in_words(
    browser: Any, server: Server, locale: str, needs_account: str, refusal: str
) -> None:
    host = signed_up(browser, server, f"Cleo{locale[:2]}")
    game_id = create_rated(host, server)

    visitor = new_page(browser, locale=locale)
    open_lobby(visitor, f"{server.url}/")
    assert visitor.is_hidden("#rated-offer") and visitor.is_hidden("#rated")
    assert visitor.inner_text("#rated-signed-out") == f"{needs_account} {visitor.inner_text('#rated-signed-out a')}"
    assert visitor.get_attribute("#rated-signed-out a", "href") == "/account"
    listed = visitor.locator(f"#game-list [data-game='{game_id}']")
    listed.locator(".chip.rated").wait_for()
    listed.locator(f"[data-join='{game_id}']").click()
    visitor.wait_for_selector("#games-error a[href='/account']")
    assert refusal in visitor.inner_text("#games-error")
    shown = listed.element_handle()
    visitor.wait_for_function("item => !item.isConnected", arg=shown)  # the list refreshed: the refusal stays
    assert refusal in visitor.inner_text("#games-error")
    assert summary(server, game_id)["status"] == "waiting"  # nobody took the seat
    assert visitor.js_errors == [] and host.js_errors == []


def test_the_server_refuses_an_anonymous_join_of_a_rated_game_in_words(browser: Any, server: Server) -> None:
    host = signed_up(browser, server, "Dora")
    game_id = create_rated(host, server)
    with pytest.raises(urllib.error.HTTPError) as refused:
        post(server.url, f"/api/games/{game_id}/join", {"name": "Eve"})
    assert refused.value.code == 401
    assert "only signed-in players may create or join a rated game" in json.load(refused.value)["detail"]


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_lobby_with_rated_games_passes_axe(browser: Any, server: Server, locale: str) -> None:
    create_rated(signed_up(browser, server, f"Gus{locale[:2]}", locale), server)  # a rated game listed
    signed_in = signed_up(browser, server, f"Finn{locale[:2]}", locale)
    signed_in.check("#rated")
    visitor = new_page(browser, locale=locale)
    open_lobby(visitor, f"{server.url}/")
    for page in (signed_in, visitor):
        page.locator("#game-list .chip.rated").first.wait_for()
        assert audit(page) == [], locale
        assert page.js_errors == []
