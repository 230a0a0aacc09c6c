"""Play someone now, as heard and read: the rating scale beside the range, a range off the scale refused in
words, and the bot offer read out from a polite live region, in English and German."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CHROMIUM, Server, new_page, open_lobby, sign_up

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve (and Chromium)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

PASSWORD = "walking across the map"
WORDS = {
    "en-GB": (
        "Ratings start at 25; almost all lie between 0 and 50.",
        "is not on the scale",
        "Nobody yet. Play a bot instead",
    ),
    "de-DE": (
        "Wertungen beginnen bei 25; fast alle liegen zwischen 0 und 50.",
        "liegt nicht auf der Skala",
        "Noch niemand da. Stattdessen gegen einen Bot spielen",
    ),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    running = Server(tmp_path_factory.mktemp("pairing") / "tendays.db", settings={"bot_offer_after": 1.0})
    running.start()
    try:
        yield running
    finally:
        running.kill()


@pytest.mark.parametrize("locale", list(WORDS))
def test_the_scale_the_refusal_and_the_bot_offer_are_read_in_words(browser: Any, server: Server, locale: str) -> None:
    scale, refused, offer = WORDS[locale]
    page = new_page(browser, locale=locale)
    sign_up(page, server, f"Dora {locale}", PASSWORD)
    open_lobby(page)
    page.wait_for_selector("#pair-form:not([hidden])")
    page.wait_for_selector(f"#pair-scale:has-text('{scale}')")
    assert page.get_attribute("input[name=rating_min]", "aria-describedby") == "pair-scale"

    page.fill("input[name=rating_min]", "-5000")
    page.click("#pair-button")
    page.wait_for_selector(f"#pair-error:has-text('{refused}')")
    assert "rating_range" not in (page.text_content("#pair-error") or "")

    page.fill("input[name=rating_min]", "")
    page.click("#pair-button")
    page.wait_for_selector("#pair-bot-offer:not([hidden])")
    region = page.locator("#pair-bot-said")
    assert region.get_attribute("role") == "status"  # polite: read out when the screen reader is free
    assert offer in (region.text_content() or "")
    page.click("#pair-cancel")
    page.wait_for_selector("#pair-form:not([hidden])")
    assert region.text_content() == ""
    assert page.js_errors == []
