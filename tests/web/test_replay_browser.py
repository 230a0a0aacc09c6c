"""The replay page in Chromium: a short game played to its end at the table, then watched again from the table's
link: ← → and the slider step through it, its record is downloaded (and reads as ``tendays replay`` reads it)
and opened again from the file, a tampered file is refused in words, and axe-core finds no serious or critical
violation in English or German."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM, Page, Server, click_move, new_page, post, wait_for_turn_or_end
from test_accessibility import audit

from tendays.cli.tui.save_file import load_save

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]


def frame(page: Page) -> int:
    return int(page.get_attribute("body", "data-version") or "-1")


def play_to_the_end(browser: Any, server: Server) -> tuple[Page, str]:
    ticket = post(
        server.url,
        "/api/games",
        {
            "edition": "usa",
            "name": "Ann",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "normal"}],
            "options": {"days": 5, "turn_limit": 2},
        },
    )
    page = new_page(browser)
    page.goto(f"{server.url}{ticket['url']}")
    page.wait_for_selector("body[data-ready]", state="attached")
    while (mover := wait_for_turn_or_end([page])) is not None:
        moves = mover.eval_on_selector_all("[data-move]:not([disabled])", "nodes => nodes.map(n => n.dataset.move)")
        click_move(mover, moves[0])
    return page, ticket["id"]


def test_a_finished_game_is_stepped_through_downloaded_and_opened_again(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    page, game_id = play_to_the_end(browser, server)
    page.locator("#replay-link").click()
    page.wait_for_url(f"**/replay/{game_id}")
    page.wait_for_selector("#table:not([hidden])")
    total = int(page.get_attribute("#replay-slider", "max") or "0")
    assert total > 10 and frame(page) == 0
    assert page.locator("#replay-racks .end-rack").count() == 2  # every rack, from the deal on
    # An empty rack at the deal is not judged: it says how far it is filled, not "5 problems".
    assert page.locator("#replay-racks .end-rack:has-text('0 of 5 days filled')").count() == 2
    assert "problem" not in page.inner_text("#replay-racks")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert frame(page) == 2 and page.inner_text("#replay-move").startswith(f"Move 2 of {total}: ")
    page.keyboard.press("ArrowLeft")
    assert frame(page) == 1
    page.locator("#replay-slider").fill(str(total))
    assert frame(page) == total and page.locator("#replay-forward").is_disabled()
    assert page.url.endswith(f"#move={total}")  # the link opens this position again
    assert page.locator("#log li").count() > 0

    page.locator("#replay-analyse").click()  # the bot workers measure every move, one at a time
    page.wait_for_selector("#replay-analyse[disabled]", state="attached")
    # Empty until the first answer comes, then "Analysing..." until it is ready.
    page.wait_for_function(
        "() => { const status = document.querySelector('#analysis-status').textContent; "
        "return status !== '' && !status.startsWith('Analysing'); }",
        timeout=120_000,
    )
    status = page.inner_text("#analysis-status")
    assert re.match(r"No move made a journey longer\.|\d+ moves? made a journey longer: [\d ]+$", status), status
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#analysis-move").startswith("Tiles to change for a complete journey: ")
    assert "The hard bot would have" in page.inner_text("#analysis-move")
    page.locator("#replay-slider").fill(str(total))

    with page.expect_download() as download:
        page.locator("#replay-download").click()
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    record, _seats = load_save(saved)
    assert record.names == ("Ann", "Normal bot") and len(record.moves) == total

    page.goto(f"{server.url}/replay")
    page.wait_for_selector("body[data-ready]", state="attached")
    page.set_input_files("#replay-file", str(saved))
    page.wait_for_selector("#table:not([hidden])")
    assert int(page.get_attribute("#replay-slider", "max") or "0") == total
    page.keyboard.press("End")
    assert frame(page) == total

    tampered = tmp_path / "tampered.json"
    data = json.loads(saved.read_text())
    data["moves"][3] = "draft 1"
    tampered.write_text(json.dumps(data))
    page.set_input_files("#replay-file", str(tampered))
    page.wait_for_selector("#error:not([hidden])")
    assert "move 4 (draft 1) does not replay" in page.inner_text("#error-text")
    assert page.js_errors == []


def test_the_replay_page_passes_axe_in_english_and_german(browser: Any, server: Server) -> None:
    _table, game_id = play_to_the_end(browser, server)
    for locale in ("en-US", "de-DE"):
        page = new_page(browser, locale=locale)
        page.goto(f"{server.url}/replay/{game_id}")
        page.wait_for_selector("#table:not([hidden])")
        page.keyboard.press("ArrowRight")
        assert audit(page) == [], locale
        page.goto(f"{server.url}/replay")  # nothing but the file to open
        page.wait_for_selector("body[data-ready]", state="attached")
        assert audit(page) == [], locale
        assert page.js_errors == []


def test_a_game_being_played_has_no_replay_yet_and_the_page_says_so(browser: Any, server: Server) -> None:
    ticket = post(
        server.url,
        "/api/games",
        {"edition": "usa", "name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "normal"}]},
    )
    page = new_page(browser, locale="de-DE")
    page.goto(f"{server.url}/replay/{ticket['id']}")
    page.wait_for_selector("body[data-ready]", state="attached")
    assert page.inner_text("#replay-wait") == (
        f"Spiel {ticket['id']} wird noch gespielt: sein Spielprotokoll und "
        "seine Wiederholung gibt es, sobald es vorbei ist. Zum Tisch des Spiels"
    )
    assert page.get_attribute("#replay-wait a", "href") == f"/play/{ticket['id']}"  # watch it meanwhile
    assert page.locator("#table").is_hidden() and page.locator("[data-tile]").count() == 0
    assert page.js_errors == []


def test_a_game_ended_early_shows_what_its_watchers_saw(browser: Any, server: Server) -> None:
    ticket = post(
        server.url,
        "/api/games",
        {
            "edition": "usa",
            "name": "Ann",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "normal"}],
            "options": {"days": 5},
        },
    )
    page = new_page(browser)
    page.goto(f"{server.url}{ticket['url']}")
    page.wait_for_selector("body[data-ready]", state="attached")
    for _ in range(2):
        mover = wait_for_turn_or_end([page])
        assert mover is not None
        click_move(mover, mover.eval_on_selector_all("[data-move]:not([disabled])", "nodes => nodes[0].dataset.move"))
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#leave-button")  # nobody is left: the game ends as abandoned, before its end
    page.wait_for_selector(".turn-banner.over")
    said = {
        "en-US": "This game ended before it was played out: as at its table, every rack stays hidden, and the "
        "replay shows what its watchers saw. It has no record to download and no analysis.",
        "de-DE": "Dieses Spiel wurde beendet, bevor es zu Ende gespielt war: wie an seinem Tisch bleiben alle "
        "Reisepläne verdeckt, und die Wiederholung zeigt, was seine Zuschauer sahen. Es gibt kein "
        "Spielprotokoll zum Herunterladen und keine Analyse.",
    }
    for locale, sentence in said.items():
        watcher = new_page(browser, locale=locale)
        watcher.goto(f"{server.url}/replay/{ticket['id']}")
        watcher.wait_for_selector("#table:not([hidden])")
        assert watcher.inner_text("#replay-hidden") == sentence
        assert watcher.locator("#replay-download").is_hidden() and watcher.locator("#replay-analyse").is_hidden()
        watcher.keyboard.press("End")
        assert frame(watcher) >= 2
        assert watcher.locator("#replay-racks .end-rack").count() == 2  # each rack's size, no tile of it
        assert watcher.locator("#replay-racks [data-tile], #replay-racks .mini-rack").count() == 0
        assert audit(watcher) == [], locale
        assert watcher.js_errors == []


def test_an_unknown_replay_is_said_as_a_sentence(browser: Any, server: Server) -> None:
    page = new_page(browser, locale="en-US")
    page.goto(f"{server.url}/replay/nothing-here")
    page.wait_for_selector("body[data-ready]", state="attached")
    page.wait_for_selector("#replay-wait:not(:empty)")
    assert page.inner_text("#replay-wait") == "There is no game 'nothing-here'."
    assert page.locator("#replay-wait a").count() == 0 and page.js_errors == []
