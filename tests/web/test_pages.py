"""The pages as the server sends them (tendays.web.pages): each page holds one top bar placeholder,
and the bar written in has the site's name, the places its scripts fill, and on the site's pages the
links to its parts, the page's own link marked as the current one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tendays.web.pages import SITE_LINKS, fill, page_html

STATIC = Path(__file__).resolve().parents[2] / "src" / "tendays" / "web" / "static"
PAGES = sorted(STATIC.glob("*.html"))
GAME_SCREENS = {"play.html", "replay.html", "learn.html"}


def _bar(html: str) -> str:
    found = re.findall(r'<header class="topbar">\n.*?\n  </header>', html, re.S)
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_a_page_gets_the_one_top_bar(page: Path) -> None:
    written = page.read_text("utf-8")
    assert written.count("data-bar=") == 1, "the page holds one placeholder"
    bar = _bar(page_html(page))
    assert "data-bar" not in page_html(page)
    assert bar.count('class="brand" href="/"') == 1
    for place in ("preferences", "inbox"):
        assert bar.count(f'id="{place}"') == 1
    site = page.name not in GAME_SCREENS
    assert ('class="site-links"' in bar) == site
    assert ('id="who"' in bar) == site
    assert ("table.back_to_lobby" in bar) == (not site)


def test_the_link_to_the_page_itself_is_the_current_one() -> None:
    assert [href for href, _key, _words in SITE_LINKS] == [
        "/puzzles",
        "/learn",
        "/leaderboard",
        "/tv",
        "/tournaments",
    ]
    puzzles = _bar(page_html(STATIC / "puzzles.html"))
    assert re.findall(r'href="(/\w+)" aria-current="page"', puzzles) == ["/puzzles"]
    assert "aria-current" not in _bar(page_html(STATIC / "index.html"))


def test_what_the_placeholder_holds_goes_into_the_bar_in_its_order() -> None:
    page = (
        "<body>\n"
        '  <header class="topbar" data-bar="table">\n'
        '    <span id="game-title"></span>\n'
        '    <span id="clock"></span>\n'
        "  </header>\n"
        "</body>\n"
    )
    bar = _bar(fill(page, "/play"))
    assert bar.index('class="brand"') < bar.index("game-title") < bar.index("clock")
    assert bar.index("clock") < bar.index('id="preferences"') < bar.index('id="inbox"')
    assert '\n    <span id="clock"></span>\n' in bar  # the page's own lines keep the bar's indent


def test_a_page_without_one_placeholder_is_refused() -> None:
    with pytest.raises(ValueError, match="one top bar placeholder"):
        fill("<body></body>", "/")
    twice = '<header class="topbar" data-bar="site"></header>\n' * 2
    with pytest.raises(ValueError, match="not 2"):
        fill(twice, "/")
