"""The lobby's "Your games on this device": each game says whom it is against, its state or result and
when it began, so that several games of one edition can be told apart, in English and in German."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, new_page, open_lobby, post

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("tendays.server.face.app", reason="the server (tendays serve) is not available")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

# A finished game the lists no longer show: its summary is read from GET /api/games/{id}, here as the
# server gives a game won by forfeit.
FINISHED = {
    "id": "done4242",
    "edition": "usa",
    "status": "over",
    "ended": "forfeit",
    "winner": 0,
    "places": [1, 2],
    "seats": [
        {
            "seat": 0,
            "kind": "human",
            "name": "Alice",
            "bot": None,
            "taken": True,
            "reserved": False,
            "left": False,
            "account": True,
        },
        {
            "seat": 1,
            "kind": "human",
            "name": "Dora",
            "bot": None,
            "taken": True,
            "reserved": False,
            "left": True,
            "account": True,
        },
    ],
    "options": {"days": 10, "swap": False, "open_hands": False, "turn_limit": None},
    "pace": None,
    "created": "2020-01-01T10:00:00+00:00",
    "rematch": None,
    "rated": True,
    "rated_outcome": "counted",
}


def _lines(page: Page, server: Server, games: dict[str, Any]) -> dict[str, dict[str, str]]:
    page.route(
        f"**/api/games/{FINISHED['id']}",
        lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(FINISHED)),
    )
    open_lobby(page, server.url)
    page.evaluate("(games) => localStorage.setItem('tendays.games', JSON.stringify(games))", games)
    open_lobby(page, server.url)
    page.wait_for_function(f"document.querySelectorAll('#my-games [data-state]').length === {len(games)}")
    result: dict[str, dict[str, str]] = page.evaluate("""() => Object.fromEntries(
      [...document.querySelectorAll('#my-games [data-mine]')].map(item => [item.dataset.mine, {
        state: item.querySelector('[data-state]')?.textContent || '',
        against: item.querySelector('[data-against]')?.textContent || '',
        when: item.querySelector('[data-when]')?.textContent || '',
      }]))""")
    return result


def test_my_games_say_whom_they_are_against_their_state_and_when(browser: Any, server: Server) -> None:
    playing = post(
        server.url, "/api/games", {"edition": "usa", "name": "Alice", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    post(server.url, f"/api/games/{playing['id']}/join", {"name": "Bob"})
    waiting = post(
        server.url,
        "/api/games",
        {"edition": "usa", "name": "Alice", "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]},
    )
    post(server.url, f"/api/games/{waiting['id']}/join", {"name": "Carl"})
    games = {
        playing["id"]: {"token": playing["token"], "seat": playing["seat"], "edition": "usa", "joined": 3},
        waiting["id"]: {"token": waiting["token"], "seat": waiting["seat"], "edition": "usa", "joined": 2},
        FINISHED["id"]: {"token": "x" * 20, "seat": 0, "edition": "usa", "joined": 1},
    }

    english = new_page(browser, locale="en-US")
    lines = _lines(english, server, games)
    assert lines[playing["id"]]["state"] == "playing"
    assert lines[playing["id"]]["against"] == "against Bob"
    assert lines[waiting["id"]]["state"] == "waiting for 1 player"
    assert lines[waiting["id"]]["against"] == "against Carl"
    assert lines[FINISHED["id"]]["state"] == "over: you won"
    assert lines[FINISHED["id"]]["against"] == "against Dora"
    assert lines[playing["id"]]["when"]  # how long ago it began
    assert lines[FINISHED["id"]]["when"].endswith("days ago")
    assert not english.js_errors, english.js_errors

    german = new_page(browser, locale="de-DE")
    lines = _lines(german, server, games)
    assert lines[playing["id"]]["state"] == "läuft"
    assert lines[playing["id"]]["against"] == "gegen Bob"
    assert lines[waiting["id"]]["state"] == "wartet auf 1 Spieler"
    assert lines[FINISHED["id"]]["state"] == "beendet: du hast gewonnen"
    assert lines[FINISHED["id"]]["when"].startswith("vor ")
    assert not german.js_errors, german.js_errors
