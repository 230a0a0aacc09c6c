"""The pages as the server sends them (tendays.web.pages): each page holds one top bar
placeholder, and the bar written in has the site's name, the places its scripts fill, and on the
site's pages the links to its sections, the page's own link marked as the current one. The parts
the table pages share (static/parts/) are written in where a page asks for them, at its indent."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tendays.web.pages import PARTS, SITE_LINKS, fill, page_html

STATIC = Path(__file__).resolve().parents[2] / "src" / "tendays" / "web" / "static"
PAGES = sorted(STATIC.glob("*.html"))
PART_FILES = sorted((STATIC / PARTS).glob("*.html"))
GAME_SCREENS = {"play.html", "replay.html", "learn.html"}
PART = re.compile(r'<div data-part="([\w-]+)"></div>')


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
    assert bar.count('id="game-title"') == (not site)


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
    page = "\n".join(
        [
            "<body>",
            '  <header class="topbar" data-bar="table">',
            '    <span id="clock"></span>',
            "  </header>",
            "</body>",
        ]
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


def test_a_part_is_written_where_the_page_asks_at_its_indent() -> None:
    bar = '<header class="topbar" data-bar="site"></header>'
    page = "\n".join([bar, "<main>", '    <div data-part="box"></div>', "</main>", ""])
    box = "<section>\n  <p>inside</p>\n\n</section>\n"
    written = fill(page, "/", {"box": box}).split("</header>\n")[1]
    assert written == "<main>\n    <section>\n      <p>inside</p>\n\n    </section>\n</main>\n"
    with pytest.raises(ValueError, match="the part 'box', which is not there"):
        fill(page, "/")


def test_every_part_is_shared_and_written_out() -> None:
    written = {page: page.read_text("utf-8") for page in PAGES}
    asked = {name for text in written.values() for name in PART.findall(text)}
    assert asked == {part.stem for part in PART_FILES}, "every part is asked for, and is there"
    for part in PART_FILES:
        users = [page for page, text in written.items() if f'data-part="{part.stem}"' in text]
        assert len(users) >= 2, f"{part.name} is used by one page only: keep it in that page"
    for page in PAGES:
        assert "data-part" not in page_html(page)
