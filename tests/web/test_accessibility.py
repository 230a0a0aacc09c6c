"""The browser for everyone: German pages, a whole game by keyboard alone, and an axe-core audit.

Chromium plays against the real server (``tendays serve`` in a subprocess, as in test_browser.py). The
keyboard test presses only keys: digits for days, ``d`` to draw, ``q``/``w``/``e`` for the discard piles.
The audit injects axe-core from ``node_modules`` (``npm install``) and refuses serious and critical
violations. The screenshots in docs/ come from screenshot_table.py beside this file.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, is_over, legal_buttons, new_page, open_lobby, post

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
PILE_KEYS = "qwe"


def audit(page: Page) -> list[str]:
    """The serious and critical axe-core violations of the page, one line each."""
    if not AXE.is_file():
        pytest.skip("axe-core is not installed (npm install)")
    # evaluated by the browser's debugger, which the page's policy (no script but its own) does not see
    page.evaluate(AXE.read_text() + "\n;undefined")
    violations: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))"
    )
    return [f"{v['id']} ({v['impact']}): {v['nodes']}" for v in violations if v["impact"] in ("serious", "critical")]


def key_for_day(day: int) -> str:
    return str(day % 10)


def keys_for(move: str) -> list[str]:
    """The keys that play ``move`` (in the notation) at the table."""
    kind, *numbers = move.split()
    n = [int(x) for x in numbers]
    if kind == "draft":
        return [key_for_day(n[0])]
    if kind == "draw":
        return ["d"]
    if kind in ("take", "discard"):
        return [PILE_KEYS[n[0] - 1]]
    if kind == "replace":
        return [key_for_day(n[0]), PILE_KEYS[n[1] - 1]]
    raise AssertionError(f"no keys for {move}")


def choose(moves: list[str], turn: int) -> str:
    """A varied choice among the legal moves: draft, draw or take, replace or discard in turn."""
    for kind in (
        "draft",
        "draw" if turn % 3 else "take",
        "draw",
        "replace" if turn % 2 else "discard",
        "replace",
        "discard",
        "take",
    ):
        found = sorted(m for m in moves if m.split()[0] == kind)
        if found:
            return found[turn % len(found)]
    raise AssertionError(f"nothing to choose among {moves}")


def press(page: Page, keys: list[str]) -> None:
    """Press ``keys`` and wait until the server has answered with a new table."""
    before = page.get_attribute("body", "data-version")
    for key in keys:
        page.keyboard.press(key)
        # Whatever has the focus shows it (a button a move disabled gives it up until the next table).
        assert page.evaluate(
            "(a => !a || a === document.body || a.matches(':focus-visible'))(document.activeElement)"
        ), key
    page.wait_for_function(
        "([before]) => document.body.dataset.version !== before || !document.querySelector('#error').hidden",
        arg=[before],
    )
    assert page.locator("#error").is_hidden(), page.inner_text("#error-text")


def test_the_lobby_follows_the_browser_language_and_passes_the_audit(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="de-DE")
    open_lobby(page, server.url + "/")
    assert page.inner_text("#create-title") == "Neues Spiel"
    assert page.get_attribute("html", "lang") == "de"
    assert page.is_checked("input[name=edition][value=germany]")  # the edition follows the language
    assert audit(page) == []
    # The switch: English, remembered on this device.
    page.select_option("#language", "en")
    page.wait_for_function("document.getElementById('create-title').textContent === 'New game'")
    assert page.is_checked("input[name=edition][value=usa]")
    page.reload()
    page.wait_for_selector("input[name=edition]")
    assert page.inner_text("#create-title") == "New game"
    assert page.js_errors == []
    phone = new_page(browser, 390, 844, is_mobile=True, has_touch=True, locale="de-DE")
    open_lobby(phone, server.url + "/")
    assert audit(phone) == []
    # The table at phone size: a seat of a German game in its draft.
    ticket = post(
        server.url,
        "/api/games",
        {"edition": "germany", "name": "Carla", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]},
    )
    phone.goto(server.url + ticket["url"])
    phone.wait_for_selector("#rack .day")
    assert phone.inner_text("#hand-title") == "Dein Zug"
    assert audit(phone) == []
    assert phone.js_errors == []


def test_a_german_game_by_keyboard_alone(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="de-DE")
    open_lobby(page, server.url + "/")
    page.check("#palette-cb")  # the colour-blind palette: the page shows itself again with it, and remembers it
    page.wait_for_function("localStorage.getItem('tendays.palette') === 'cb'")
    page.wait_for_selector("#palette-cb:checked")
    open_lobby(page)  # the page shown again
    page.fill("#player-name", "Anna")
    page.select_option("#seat-2", "easy")
    page.check("input[name=days][value='5']")
    page.fill("input[name=turn_limit]", "8")
    page.focus("#create-button")
    page.keyboard.press("Enter")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#turn strong")
    assert page.get_attribute("html", "lang") == "de"
    assert page.inner_text("#rack-title") == "Deine Reise"
    edition = json.load(urllib.request.urlopen(f"{server.url}/api/editions/germany"))
    page.wait_for_selector("#map svg .region-shape")  # every region's colour has its shape on the map
    fills = page.eval_on_selector_all("#map svg path.region[fill^='#']", "ps => ps.map(p => p.getAttribute('fill'))")
    assert fills and set(fills) <= set(edition["palette_cb"].values())
    seen_turn = False
    turn = 0
    while not is_over(page):
        moves = legal_buttons(page)
        if not moves:
            page.wait_for_timeout(50)
            continue
        seen_turn = seen_turn or "Du bist am Zug" in page.inner_text("#turn")
        if turn == 3:
            assert audit(page) == []
            # A broken link on the map explains itself on keyboard focus, not only under the mouse.
            broken = page.locator(".journey .link.broken")
            if broken.count():
                broken.first.focus()
                assert page.inner_text("#map-explain").startswith("Unterbrochen: Tag")
        press(page, keys_for(choose(sorted(set(moves)), turn)))
        turn += 1
    assert seen_turn and turn >= 5
    banner = page.inner_text("#turn")
    assert "Spiel vorbei" in banner or "gewinnt" in banner or "Du gewinnst" in banner, banner
    log = page.inner_text("#log")
    assert "Ablagestapel" in log or "Nachziehstapel" in log, log  # the server's sentences, in German
    ends = page.inner_text("#end-racks")
    assert "Problem" in ends or "vollständige Reise" in ends, ends  # each rack's verdict, in German
    # What a screen reader hears: the live region said what the bot did.
    assert page.inner_text("#announcer").strip()
    page.wait_for_selector("#end:not([hidden])")
    assert audit(page) == []  # the end screen
    assert page.js_errors == []


def test_a_whole_rack_and_its_problems_fit_a_laptop_screen(browser: Any, server: Server) -> None:
    page = new_page(browser)  # 1280x900
    open_lobby(page, server.url + "/")
    page.fill("#player-name", "Alice")
    page.select_option("#seat-2", "easy")
    page.click("#create-button")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#turn strong")
    while True:  # the draft of a 10-day game, by clicks
        moves = sorted(set(legal_buttons(page)))
        if not moves:
            page.wait_for_timeout(50)
            continue
        draft = [m for m in moves if m.startswith("draft")]
        if not draft:
            break
        before = page.get_attribute("body", "data-version")
        page.locator(f"[data-move='{draft[0]}']").first.click()
        page.wait_for_function("([b]) => document.body.dataset.version !== b", arg=[before])
    page.evaluate("window.scrollTo(0, 0)")
    assert page.locator("#rack .day").count() == 10
    bottom = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#rack .day, #problems')]"
        ".map(e => e.getBoundingClientRect().bottom))"
    )
    assert bottom <= 900, f"the rack or its problems end {bottom:.0f} px down, below a 900 px screen"
    assert page.js_errors == []


def test_the_guided_game_passes_the_audit_with_a_wrong_move_explained_and_on_a_phone(
    browser: Any, server: Server
) -> None:
    page = new_page(browser, locale="de-DE")
    page.goto(server.url + "/learn?edition=germany")
    page.wait_for_selector("#lesson-do:not(:empty)")
    assert page.get_attribute("html", "lang") == "de"
    assert audit(page) == []
    # A wrong move's explanation on screen (the lesson's first tile goes elsewhere than the last day).
    page.click("#rack .day:not([disabled]) >> nth=-1")
    page.wait_for_selector("#lesson-wrong:not(:empty)")
    assert audit(page) == []
    phone = new_page(browser, 390, 844, is_mobile=True, has_touch=True, locale="en-US")
    phone.goto(server.url + "/learn?edition=usa")
    phone.wait_for_selector("#lesson-do:not(:empty)")
    assert audit(phone) == []
    assert page.js_errors == [] and phone.js_errors == []
