"""The browser client's pages as the server sends them: each ``.html`` file of ``static/`` with its
top bar written in.

The top bar is written here once. A page holds one placeholder,
``<header class="topbar" data-bar="site">…</header>`` (or ``data-bar="table"``), and what it holds
(a tagline; a table's title, clock and links) goes into the bar between the site's name and the
places its scripts fill (who is signed in, the preferences, the inbox). A ``site`` bar also links to
the site's parts, the link to the page itself marked as the current one; a ``table`` bar's name
says it leads back to the lobby. The page arrives whole, so nothing moves once its scripts run.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

__all__ = ["SITE_LINKS", "fill", "page_html"]

# (path, i18n key, English words) of the site's parts, in the order the bar shows them
SITE_LINKS = (
    ("/puzzles", "lobby.puzzles_link", "Puzzles"),
    ("/learn", "lobby.learn_nav", "Learn to play"),
    ("/leaderboard", "lobby.leaderboard_link", "Leaderboard"),
    ("/tv", "tv.link", "TV"),
    ("/tournaments", "tournaments.link", "Tournaments"),
)

_PLACEHOLDER = re.compile(
    r'^(?P<indent> *)<header class="topbar" data-bar="(?P<bar>site|table)">(?P<own>.*?)</header>',
    re.S | re.M,
)

_SITE_NAME = '<a class="brand" href="/" data-i18n="brand">10 Days</a>'
_BACK_TO_LOBBY = (
    '<a class="brand" href="/" aria-label="10 Days: back to the lobby" data-i18n="brand"\n'
    '   data-i18n-attr="aria-label:table.back_to_lobby">10 Days</a>'
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


def fill(html: str, path: str) -> str:
    """``html`` with its top bar placeholder written out, for the page at ``path`` (e.g.
    ``/puzzles``); ``ValueError`` if it has not exactly one placeholder."""
    found = list(_PLACEHOLDER.finditer(html))
    if len(found) != 1:
        raise ValueError(f"a page holds one top bar placeholder, not {len(found)}")
    match = found[0]
    bar = _bar(match["bar"], match["own"], path, match["indent"])
    return html[: match.start()] + bar + html[match.end() :]


@lru_cache(maxsize=64)
def _filled(file: Path, changed: int) -> str:
    return fill(file.read_text("utf-8"), "/" + file.stem)


def page_html(file: Path) -> str:
    """The page of ``file`` (an ``.html`` file of ``static/``) as the server sends it: written out
    once, and again when the file changes. The link to ``/`` + the file's stem is the current
    page (``puzzles.html``: ``/puzzles``)."""
    return _filled(file, file.stat().st_mtime_ns)
