"""The browser client's pages as the server sends them: each ``.html`` file of ``static/`` with its
top bar and its shared parts written in.

The top bar is written here once. A page holds one placeholder,
``<header class="topbar" data-bar="site">…</header>`` (or ``data-bar="table"``), and what it
holds (a tagline; a table's clock and links) goes into the bar between the site's name and the
places its scripts fill (who is signed in, the preferences, the inbox). A ``site`` bar also links
to the site's sections, the link to the page itself marked as the current one; a ``table`` bar's
name says it leads back to the lobby, and the game's title follows it. The page arrives whole, so
nothing moves once its scripts run.

Markup that several pages share (the table's error banner, rack, map, log) lives once, in
``static/parts/<name>.html``; a page holds ``<div data-part="<name>"></div>`` on a line of its own
where the part goes, and the part is written there at the placeholder's indent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

__all__ = ["PARTS", "SITE_LINKS", "fill", "page_html"]

# (path, i18n key, English words) of the site's sections, in the order the bar shows them
SITE_LINKS = (
    ("/puzzles", "lobby.puzzles_link", "Puzzles"),
    ("/learn", "lobby.learn_nav", "Learn to play"),
    ("/leaderboard", "lobby.leaderboard_link", "Leaderboard"),
    ("/tv", "tv.link", "TV"),
    ("/tournaments", "tournaments.link", "Tournaments"),
)

PARTS = "parts"  # the folder beside the pages that holds the parts they share

_PLACEHOLDER = re.compile(
    r'^(?P<indent> *)<header class="topbar" data-bar="(?P<bar>site|table)">(?P<own>.*?)</header>',
    re.S | re.M,
)
_PART = re.compile(r'^(?P<indent> *)<div data-part="(?P<name>[\w-]+)"></div>$', re.M)

_SITE_NAME = '<a class="brand" href="/" data-i18n="brand">10 Days</a>'
_BACK_TO_LOBBY = (
    '<a class="brand" href="/" aria-label="10 Days: back to the lobby" data-i18n="brand"\n'
    '   data-i18n-attr="aria-label:table.back_to_lobby">10 Days</a>\n'
    '<span id="game-title" class="game-title"></span>'
)
_FILLED = ('<span id="preferences"></span>', '<span id="inbox"></span>')


def _links(path: str) -> list[str]:
    """The site's links as the lines of a ``nav``; the one to ``path`` is the current page."""
    lines = ['<nav class="site-links" aria-label="More to do"']
    lines[0] += ' data-i18n-attr="aria-label:lobby.site_links">'
    for href, key, words in SITE_LINKS:
        current = ' aria-current="page"' if href == path else ""
        lines.append(f'  <a href="{href}"{current} data-i18n="{key}">{words}</a>')
    lines.append("</nav>")
    return lines


def _own_lines(own: str) -> list[str]:
    """The placeholder's content as lines without their common indent."""
    lines = [line.rstrip() for line in own.strip("\n").splitlines() if line.strip()]
    indent = min((len(line) - len(line.lstrip()) for line in lines), default=0)
    return [line[indent:] for line in lines]


def _bar(bar: str, own: str, path: str, indent: str) -> str:
    own_lines = _own_lines(own)
    if bar == "site":
        lines = [_SITE_NAME, *own_lines, *_links(path), '<span id="who"></span>', *_FILLED]
    else:
        lines = [*_BACK_TO_LOBBY.splitlines(), *own_lines, *_FILLED]
    inner = "\n".join(f"{indent}  {line}" for line in lines)
    return f'{indent}<header class="topbar">\n{inner}\n{indent}</header>'


def _part(match: re.Match[str], parts: Mapping[str, str]) -> str:
    name, indent = match["name"], match["indent"]
    if name not in parts:
        raise ValueError(f"a page asks for the part {name!r}, which is not there")
    lines = parts[name].rstrip("\n").splitlines()
    return "\n".join(f"{indent}{line}" if line.strip() else "" for line in lines)


def fill(html: str, path: str, parts: Mapping[str, str] | None = None) -> str:
    """``html`` with its top bar placeholder written out, for the page at ``path`` (e.g.
    ``/puzzles``), and each part placeholder replaced by its part of ``parts`` (name: markup);
    ``ValueError`` if it has not exactly one top bar placeholder or asks for a missing part."""
    found = list(_PLACEHOLDER.finditer(html))
    if len(found) != 1:
        raise ValueError(f"a page holds one top bar placeholder, not {len(found)}")
    match = found[0]
    bar = _bar(match["bar"], match["own"], path, match["indent"])
    html = html[: match.start()] + bar + html[match.end() :]
    return _PART.sub(lambda part: _part(part, parts or {}), html)


def _part_files(file: Path) -> list[Path]:
    return sorted((file.parent / PARTS).glob("*.html"))


@lru_cache(maxsize=64)
def _filled(file: Path, changed: tuple[int, ...]) -> str:
    parts = {part.stem: part.read_text("utf-8") for part in _part_files(file)}
    return fill(file.read_text("utf-8"), "/" + file.stem, parts)


def page_html(file: Path) -> str:
    """The page of ``file`` (an ``.html`` file of ``static/``) as the server sends it: written out
    once, and again when the file or one of the parts changes. The link to ``/`` + the file's stem
    is the current page (``puzzles.html``: ``/puzzles``)."""
    changed = tuple(each.stat().st_mtime_ns for each in (file, *_part_files(file)))
    return _filled(file, changed)
