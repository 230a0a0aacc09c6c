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
        return {"valid": self.valid, "problems": [{"day": p.day, "message": str(p)} for p in self.problems]}


class JourneyChecker:
    """Precomputed connection tables for one edition. Get one with :func:`checker_for`."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        tiles = edition.tiles
        n = len(tiles)
        self._n = n
        self.is_region: tuple[bool, ...] = tuple(t.is_region for t in tiles)
        region_ix = [t.index for t in tiles if t.is_region]
        neighbors = [
            frozenset(edition.by_id[r.upper()].index for r in edition.regions[i].neighbors) if self.is_region[i]
            else frozenset()
            for i in range(n)
        ]
        self.neighbors: tuple[frozenset[int], ...] = tuple(neighbors)
        steps: set[int] = set()
        for a in region_ix:
            for b in neighbors[a]:
                steps.add(a * n + b)
        hops: set[int] = set()
        for link in tiles:
            if link.is_region:
                continue
            for a in region_ix:
                for b in region_ix:
                    if a != b and self._transport_connects(a, link.index, b):
                        hops.add((a * n + link.index) * n + b)
        # Membership in these sets is the whole test; encoding a step as one int keeps it fast.
        self._steps = frozenset(steps)
        self._hops = frozenset(hops)

    def _transport_connects(self, a: int, link: int, b: int) -> bool:
        tile = self.edition.tiles[link]
        if tile.role is Role.LINK:
            ca, cb = self.edition.tiles[a].color, self.edition.tiles[b].color
            return (ca is None or ca == tile.color) and (cb is None or cb == tile.color)
        return bool(self.neighbors[a] & self.neighbors[b])

    def connects(self, a: int, b: int, via: int | None = None) -> bool:
        """Whether region ``a`` connects to region ``b`` on foot (``via`` None) or through transport ``via``."""
        n = self._n
        if via is None:
            return a * n + b in self._steps
        return (a * n + via) * n + b in self._hops

    def is_complete(self, rack: Sequence[int | None]) -> bool:
        """Fast check: is this rack (tile indices, day 1 first) a complete journey?"""
        is_region, steps, hops, n = self.is_region, self._steps, self._hops, self._n
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
                if a * n + b not in steps:  # type: ignore[operator]
                    return False
                i += 1
            else:
                if i + 2 > last:
                    return False
                c = rack[i + 2]
                if c is None or (a * n + b) * n + c not in hops:  # type: ignore[operator]
                    return False
                i += 2
        return True

    # -- the full verdict, in words ---------------------------------------------------------

    def check(self, rack: Sequence[int | None]) -> Verdict:
        """Check a rack and explain every broken step, in the game's words."""
        tiles = self.edition.tiles
        noun = self.edition.region_noun
        days = len(rack)
        problems: list[Problem] = []
        links: list[Link] = []
        for day, t in enumerate(rack, 1):
            if t is None:
                problems.append(Problem(day, "this day is still empty"))
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


_CHECKERS: dict[str, JourneyChecker] = {}


def checker_for(edition: Edition) -> JourneyChecker:
    """The (cached) journey checker of an edition."""
    checker = _CHECKERS.get(edition.id)
    if checker is None or checker.edition is not edition:
        checker = _CHECKERS[edition.id] = JourneyChecker(edition)
    return checker
