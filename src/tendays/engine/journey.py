"""Checking a rack as a journey: a fast yes/no for simulations and a full verdict for players.

A journey of N days is complete when day 1 and day N are regions, no two transport tiles are
adjacent, no region repeats across one step, and every step connects: on foot (shared border),
by a colour link (both ends in its colour, or "any colour"), or by a skip (a third region
borders both ends).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .edition import Edition, Role
from .i18n import DEFAULT_LANGUAGE, current_language, join_list, ngettext, use_language
from .i18n import gettext as _

__all__ = ["JourneyChecker", "Link", "Problem", "Verdict", "checker_for"]


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a journey is not complete, at a day or across a step between two days.

    ``message`` is in the language ``lang`` it was checked in, and ``str(problem)`` says where in
    the same one.
    """

    day: int
    message: str
    to_day: int | None = None
    lang: str = field(default=DEFAULT_LANGUAGE, compare=False)

    def __str__(self) -> str:
        if self.to_day is None:
            return _where(self.lang, False).format(day=self.day, message=self.message)
        return _where(self.lang, True).format(
            day=self.day, to_day=self.to_day, message=self.message
        )


# the sentence that says where a problem is, by language and whether it is a step's: a verdict is
# written again whenever a rack's day changes, each of its problems with it
_WHERE: dict[tuple[str, bool], str] = {}


def _where(lang: str, across: bool) -> str:
    where = _WHERE.get((lang, across))
    if where is None:
        with use_language(lang):
            where = _WHERE[lang, across] = (
                _("day {day} → {to_day}: {message}") if across else _("day {day}: {message}")
            )
    return where


@dataclass(frozen=True, slots=True)
class Link:
    """One step of the journey between two region days, possibly through a transport day."""

    from_day: int
    to_day: int
    ok: bool
    message: str
    via_day: int | None = None  # the day of the transport tile, if any


@dataclass(frozen=True, slots=True)
class Verdict:
    """The result of checking a rack: every problem, and every step (good or broken)."""

    problems: tuple[Problem, ...]
    links: tuple[Link, ...]

    @property
    def valid(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        """The one JSON form of a verdict (``tendays check --json``, the
        server, the engine protocol)."""
        problems = self.problems
        said = [str(p) for p in problems]
        return {
            "valid": self.valid,
            "problems": [
                {"day": p.day, "to_day": p.to_day, "message": message}
                for p, message in zip(problems, said, strict=True)
            ],
            "links": [
                {
                    "from_day": link.from_day,
                    "to_day": link.to_day,
                    "via_day": link.via_day,
                    "ok": link.ok,
                    "message": link.message,
                }
                for link in self.links
            ],
        }


def _place_of(problem: Problem) -> tuple[int, int]:
    """Where a verdict lists a problem: by its day, then the day its step reaches."""
    return problem.day, problem.to_day or 0


class JourneyChecker:
    """Checks racks of one edition against its connection tables. Get one with
    :func:`checker_for`."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        tables = edition.tables
        self.tables = tables
        self._n = tables.n
        self.is_region: tuple[bool, ...] = tables.is_region
        self.neighbors: tuple[frozenset[int], ...] = tables.neighbors
        # each step's link and problem, by (language, day, a, via or -1, b): a rack changes a day
        # at a time, so most of a verdict's steps were explained before
        self._steps: dict[tuple[str, int, int, int, int], tuple[Link, Problem | None]] = {}
        self._empty: dict[tuple[str, int], Problem] = {}  # an empty day's problem, by language
        # the problems of a transport tile at an end and of two in a row, by language and place
        self._said: dict[tuple[str, int, int, Any], Problem] = {}

    def connects(self, a: int, b: int, via: int | None = None) -> bool:
        """Whether region ``a`` connects to region ``b`` on foot (``via`` None)
        or through transport ``via``."""
        return self.tables.connects(a, b, via)

    def is_complete(self, rack: Sequence[int | None]) -> bool:
        """Fast check: is this rack (tile indices, day 1 first) a complete journey?

        Only the journey is checked; a rack built in play never holds more copies of a tile than
        exist.
        """
        is_region, n = self.is_region, self._n
        steps, hops = self.tables.step, self.tables.hop
        last = len(rack) - 1
        first = rack[0]
        if first is None or not is_region[first] or rack[last] is None:
            return False
        i = 0
        while i < last:
            a = rack[i]
            b = rack[i + 1]
            if b is None:
                return False
            if is_region[b]:
                if not steps[a * n + b]:  # type: ignore[operator]
                    return False
                i += 1
            else:
                if i + 2 > last:
                    return False
                c = rack[i + 2]
                if c is None or not hops[(a * n + b) * n + c]:  # type: ignore[operator]
                    return False
                i += 2
        return True

    # -- the full verdict, in words ---------------------------------------------------------

    def check(self, rack: Sequence[int | None], *, lang: str | None = None) -> Verdict:
        """Check a rack and explain every broken step, in the game's words, in the current language
        or ``lang``.

        The verdict also knows the box: a rack that holds a tile more often than the edition has
        copies of it cannot be built, and each surplus copy is a problem.
        """
        with use_language(lang):
            return self._check(rack)

    def _check(self, rack: Sequence[int | None]) -> Verdict:
        lang = current_language()
        words = self.edition.words(lang)
        tiles = self.edition.tiles
        days = len(rack)
        problems: list[Problem] = []
        links: list[Link] = []
        seen: dict[int, list[int]] = {}
        empty = self._empty
        for day, t in enumerate(rack, 1):
            if t is None:
                problem = empty.get((lang, day))
                if problem is not None:
                    problems.append(problem)
                    continue
                # TRANSLATORS: a verdict names what breaks a journey, after "day 3: " or
                # "day 3 → 5: ". A rack is a player's row of days. In these sentences {tile}, {a},
                # {b}, {region}, {link}, {skip} and {transport} are tile names ("Ohio",
                # "pink airplane"); "{tile:the}" is the name with its article ("the car",
                # "das Auto") and "{tile:The}" the same at the start of a sentence. {noun} is the
                # edition's word for a region ("state"); a translation
                # may leave out any placeholder.
                problem = empty[lang, day] = Problem(day, _("this day is still empty"), lang=lang)
                problems.append(problem)
            else:
                seen.setdefault(t, []).append(day)
        if len(seen) + len(problems) == days:
            seen = {}  # no tile twice: every tile's box holds at least one
        for t, on_days in seen.items():
            count = tiles[t].count
            for day in on_days[count:]:
                message = ngettext(
                    "there is only one {tile} tile, and this rack already holds it on day {days}",
                    "there are only {count} {tile} tiles, and this rack already holds them on days "
                    "{days}",
                    count,
                )
                problems.append(
                    Problem(
                        day,
                        message.format(
                            tile=words.tile(t), count=count, days=join_list(on_days[:count])
                        ),
                        lang=lang,
                    )
                )
        said = self._said
        for day, at_start in ((1, True), (days, False)):
            t = rack[day - 1]
            if t is not None and not self.is_region[t]:
                problem = said.get((lang, day, t, at_start))
                if problem is None:
                    message = (
                        _("the journey must start in a {noun}, not with {tile:the}")
                        if at_start
                        else _("the journey must end in a {noun}, not with {tile:the}")
                    )
                    problem = said[lang, day, t, at_start] = Problem(
                        day, message.format(noun=words.region_noun, tile=words.tile(t)), lang=lang
                    )
                problems.append(problem)
        for i in range(days - 1):
            a, b = rack[i], rack[i + 1]
            if a is None or b is None:
                continue
            if not self.is_region[a]:
                if not self.is_region[b]:
                    problem = said.get((lang, i + 1, a, b))
                    if problem is None:
                        message = _(
                            "two transport tiles in a row ({first:the}, then {second:the})"
                        ).format(first=words.tile(a), second=words.tile(b))
                        problem = said[lang, i + 1, a, b] = Problem(
                            i + 1, message, i + 2, lang=lang
                        )
                    problems.append(problem)
                continue
            if self.is_region[b]:
                link, problem = self._step(lang, i + 1, a, -1, b)
            elif i + 2 < days and (c := rack[i + 2]) is not None and self.is_region[c]:
                link, problem = self._step(lang, i + 1, a, b, c)
            else:
                continue
            links.append(link)
            if problem is not None:
                problems.append(problem)
        problems.sort(key=_place_of)
        return Verdict(tuple(problems), tuple(links))

    def _step(self, lang: str, day: int, a: int, via: int, b: int) -> tuple[Link, Problem | None]:
        """The link from region ``a`` on ``day`` to region ``b`` (through ``via``; -1: on foot),
        and its problem if it does not connect, in ``lang`` (the current language): worked out
        once."""
        key = (lang, day, a, via, b)
        step = self._steps.get(key)
        if step is None:
            if len(self._steps) > 100_000:
                self._steps.clear()
            if via < 0:
                ok, message = self._explain_step(a, b)
                link = Link(day, day + 1, ok, message)
            else:
                ok, message = self._explain_hop(a, via, b)
                link = Link(day, day + 2, ok, message, via_day=day + 1)
            problem = None if ok else Problem(day, message, link.to_day, lang=lang)
            step = self._steps[key] = (link, problem)
        return step

    def _explain_step(self, a: int, b: int) -> tuple[bool, str]:
        words = self.edition.words()
        ta, tb = words.tile(a), words.tile(b)
        if a == b:
            return False, _("{region} on two days in a row").format(region=ta)
        if self.connects(a, b):
            return True, _("{a} borders {b}").format(a=ta, b=tb)
        tiles = self.edition.tiles
        contact = self.edition.contacts.get(frozenset((tiles[a].id, tiles[b].id)))
        if contact == "corner":
            return False, _("{a} and {b} only touch at a corner").format(a=ta, b=tb)
        if contact == "water":
            return False, _("{a} and {b} only meet across water").format(a=ta, b=tb)
        return False, _("{a} and {b} do not share a border").format(a=ta, b=tb)

    def _explain_hop(self, a: int, via: int, b: int) -> tuple[bool, str]:
        edition = self.edition
        words = edition.words()
        ta, tv, tb = words.tile(a), words.tile(via), words.tile(b)
        if a == b:
            return False, _("{region} on both sides of {transport:the}").format(
                region=ta, transport=tv
            )
        if edition.tiles[via].role is Role.LINK:
            color = edition.tiles[via].color
            wrong = [i for i in (a, b) if edition.tiles[i].color not in (None, color)]
            if wrong:
                facts = {
                    "link": tv,
                    "color": words.color(color),
                    "region": words.tile(wrong[0]),
                    "region_color": words.color(edition.tiles[wrong[0]].color),
                }
                if len(wrong) == 1:
                    return False, _(
                        "{link:the} needs both ends {color}; {region} is {region_color}"
                    ).format(**facts)
                return False, _(
                    "{link:the} needs both ends {color}; {region} is {region_color} and {other} is "
                    "{other_color}"
                ).format(
                    other=words.tile(wrong[1]),
                    other_color=words.color(edition.tiles[wrong[1]].color),
                    **facts,
                )
            return True, _("{link:the} joins {a} and {b}").format(link=tv, a=ta, b=tb)
        # The region a skip stands for is the first by its edition name, so every
        # language names the same one.
        common = sorted(self.neighbors[a] & self.neighbors[b], key=lambda i: edition.tiles[i].name)
        if common:
            return True, _("{skip:the} stands for {region}, which borders {a} and {b}").format(
                skip=tv, region=words.tile(common[0]), a=ta, b=tb
            )
        return False, _(
            "no {noun} borders both {a} and {b}, so {skip:the} has nothing to stand for"
        ).format(noun=words.region_noun, a=ta, b=tb, skip=tv)


_CHECKERS: dict[str, JourneyChecker] = {}


def checker_for(edition: Edition) -> JourneyChecker:
    """The (cached) journey checker of an edition."""
    checker = _CHECKERS.get(edition.id)
    if checker is None or checker.edition is not edition:
        checker = _CHECKERS[edition.id] = JourneyChecker(edition)
    return checker
