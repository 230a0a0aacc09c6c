"""Checking a rack as a journey: a fast yes/no for simulations and a full verdict for players.

A journey of N days is complete when day 1 and day N are regions, no two transport tiles are
adjacent, no region repeats across one step, and every step connects: on foot (shared border),
by a colour link (both ends in its colour, or "any colour"), or by a skip (a third region
borders both ends).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .edition import Edition, Role

__all__ = ["JourneyChecker", "Link", "Problem", "Verdict", "checker_for"]


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a journey is not complete, at a day or across a step between two days."""

    day: int
    message: str
    to_day: int | None = None

    def __str__(self) -> str:
        where = f"day {self.day}" if self.to_day is None else f"day {self.day} → {self.to_day}"
        return f"{where}: {self.message}"


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
        """The one JSON form of a verdict (``tendays check --json``, the server, the engine protocol)."""
        return {
            "valid": self.valid,
            "problems": [{"day": p.day, "to_day": p.to_day, "message": str(p)} for p in self.problems],
            "links": [{"from_day": link.from_day, "to_day": link.to_day, "via_day": link.via_day, "ok": link.ok,
                       "message": link.message} for link in self.links],
        }


class JourneyChecker:
    """Checks racks of one edition against its connection tables. Get one with :func:`checker_for`."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        tables = edition.tables
        self.tables = tables
        self._n = tables.n
        self.is_region: tuple[bool, ...] = tables.is_region
        self.neighbors: tuple[frozenset[int], ...] = tables.neighbors

    def connects(self, a: int, b: int, via: int | None = None) -> bool:
        """Whether region ``a`` connects to region ``b`` on foot (``via`` None) or through transport ``via``."""
        return self.tables.connects(a, b, via)

    def is_complete(self, rack: Sequence[int | None]) -> bool:
        """Fast check: is this rack (tile indices, day 1 first) a complete journey?

        Only the journey is checked; a rack built in play never holds more copies of a tile than exist.
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

    def check(self, rack: Sequence[int | None]) -> Verdict:
        """Check a rack and explain every broken step, in the game's words.

        The verdict also knows the box: a rack that holds a tile more often than the edition has copies
        of it cannot be built, and each surplus copy is a problem.
        """
        tiles = self.edition.tiles
        noun = self.edition.region_noun
        days = len(rack)
        problems: list[Problem] = []
        links: list[Link] = []
        seen: dict[int, list[int]] = {}
        for day, t in enumerate(rack, 1):
            if t is None:
                problems.append(Problem(day, "this day is still empty"))
            else:
                seen.setdefault(t, []).append(day)
        for t, on_days in seen.items():
            count = tiles[t].count
            for day in on_days[count:]:
                box = f"there is only one {tiles[t].name} tile" if count == 1 else \
                    f"there are only {count} {tiles[t].name} tiles"
                problems.append(Problem(day, f"{box}, and this rack already holds "
                                             f"{'it' if count == 1 else 'them'} on {_days(on_days[:count])}"))
        for day, article in ((1, "start"), (days, "end")):
            t = rack[day - 1]
            if t is not None and not self.is_region[t]:
                problems.append(Problem(day, f"the journey must {article} in a {noun}, not with the {tiles[t].name}"))
        for i in range(days - 1):
            a, b = rack[i], rack[i + 1]
            if a is None or b is None:
                continue
            if not self.is_region[a]:
                if not self.is_region[b]:
                    problems.append(Problem(i + 1, f"two transport tiles in a row (the {tiles[a].name}, then the "
                                                   f"{tiles[b].name})", i + 2))
                continue
            if self.is_region[b]:
                ok, message = self._explain_step(a, b)
                links.append(Link(i + 1, i + 2, ok, message))
                if not ok:
                    problems.append(Problem(i + 1, message, i + 2))
            elif i + 2 < days and rack[i + 2] is not None and self.is_region[rack[i + 2]]:  # type: ignore[index]
                c = rack[i + 2]
                assert c is not None
                ok, message = self._explain_hop(a, b, c)
                links.append(Link(i + 1, i + 3, ok, message, via_day=i + 2))
                if not ok:
                    problems.append(Problem(i + 1, message, i + 3))
        problems.sort(key=lambda p: (p.day, p.to_day or 0))
        return Verdict(tuple(problems), tuple(links))

    def _explain_step(self, a: int, b: int) -> tuple[bool, str]:
        ta, tb = self.edition.tiles[a], self.edition.tiles[b]
        if a == b:
            return False, f"{ta.name} on two days in a row"
        if self.connects(a, b):
            return True, f"{ta.name} borders {tb.name}"
        contact = self.edition.contacts.get(frozenset((ta.id, tb.id)))
        if contact == "corner":
            return False, f"{ta.name} and {tb.name} only touch at a corner"
        if contact == "water":
            return False, f"{ta.name} and {tb.name} only meet across water"
        return False, f"{ta.name} and {tb.name} do not share a border"

    def _explain_hop(self, a: int, via: int, b: int) -> tuple[bool, str]:
        edition = self.edition
        ta, tv, tb = edition.tiles[a], edition.tiles[via], edition.tiles[b]
        if a == b:
            return False, f"{ta.name} on both sides of the {tv.name}"
        if tv.role is Role.LINK:
            wrong = [t for t in (ta, tb) if t.color is not None and t.color != tv.color]
            if wrong:
                facts = " and ".join(f"{t.name} is {t.color}" for t in wrong)
                return False, f"the {tv.name} needs both ends {tv.color}; {facts}"
            return True, f"the {tv.name} joins {ta.name} and {tb.name}"
        common = sorted(edition.tiles[i].name for i in self.neighbors[a] & self.neighbors[b])
        if common:
            return True, f"the {tv.name} stands for {common[0]}, which borders {ta.name} and {tb.name}"
        noun = edition.region_noun
        return False, f"no {noun} borders both {ta.name} and {tb.name}, so the {tv.name} has nothing to stand for"


def _days(days: Sequence[int]) -> str:
    return "day " + str(days[0]) if len(days) == 1 else "days " + ", ".join(map(str, days[:-1])) + f" and {days[-1]}"


_CHECKERS: dict[str, JourneyChecker] = {}


def checker_for(edition: Edition) -> JourneyChecker:
    """The (cached) journey checker of an edition."""
    checker = _CHECKERS.get(edition.id)
    if checker is None or checker.edition is not edition:
        checker = _CHECKERS[edition.id] = JourneyChecker(edition)
    return checker
