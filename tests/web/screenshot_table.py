"""The screenshots of the table in docs/: a game against the hard bot, sixteen moves in, at 1280×900.

    python tests/web/screenshot_table.py de-DE germany docs/web-table-de.png
    python tests/web/screenshot_table.py en-US usa docs/web-table.png

The browser's language (``de-DE``) chooses the page's language, as a visitor's browser would. The server runs
as in the browser tests (a fresh database, games dealt from fixed seeds), so a run gives the same picture.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from browser_helpers import CHROMIUM, CHROMIUM_ARGS, Server, legal_buttons, new_page, open_lobby
from playwright.sync_api import sync_playwright

MOVES = 16


def main(locale: str, edition: str, out: str) -> None:
    server = Server(Path(tempfile.mkdtemp()) / "tendays.db")
    server.start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = new_page(browser, locale=locale)
            open_lobby(page, server.url + "/")
            page.fill("#player-name", "Alice")
            page.check(f"input[name=edition][value={edition}]")
            page.select_option("#seat-2", "hard")
            page.click("#create-button")
            page.wait_for_url("**/play/**")
            page.wait_for_selector("#turn strong")
            played = 0
            while played < MOVES:
                moves = sorted(set(legal_buttons(page)))
                if not moves:
                    page.wait_for_timeout(50)
                    continue
                move = (
                    next((m for m in moves if m.startswith("draft")), None)
                    or next((m for m in moves if m == "draw"), None)
                    or next((m for m in moves if m.startswith("replace")), moves[0])
                )
                before = page.get_attribute("body", "data-version")
                page.locator(f"[data-move='{move}']").first.click()
                page.wait_for_function("([b]) => document.body.dataset.version !== b", arg=[before])
                played += 1
            page.wait_for_function("document.querySelectorAll('[data-move]:not([disabled])').length > 0")  # one's turn
            page.wait_for_timeout(300)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=out)
            assert not page.js_errors, page.js_errors
            browser.close()
    finally:
        server.kill()


if __name__ == "__main__":
    main(*sys.argv[1:4])
