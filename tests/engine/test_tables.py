"""The edition's connection tables: the link table the array engines walk a rack with says what the
journey checker says."""

from __future__ import annotations

import random

import pytest

from tendays.engine import checker_for, load_edition


def _racks(edition_id: str, days: int, count: int, seed: int) -> list[list[int | None]]:
    """Random racks, some days empty, and complete journeys with one day changed (near misses)."""
    edition = load_edition(edition_id)
    rng = random.Random(seed)
    n = edition.tables.n
    racks: list[list[int | None]] = []
    tables = edition.tables
    regions = list(tables.regions)
    # Where a journey may go from each region: a border, or a transport
    # tile and the region it reaches.
    ways = {
        a: [(b,) for b in tables.neighbors[a]]
        + [(via, b) for via in tables.transports for b in regions if tables.connects(a, b, via)]
        for a in regions
    }
    for index in range(count):
        rack: list[int | None] = [
            rng.randrange(n) if rng.random() < 0.9 else None for _ in range(days)
        ]
        # a walk, cut to the rack's length, with a day perhaps changed: mostly sound days
        if index % 2:
            walk = [rng.choice(regions)]
            while len(walk) < days:
                walk += rng.choice(ways[walk[-1]])
            rack = list(walk[:days])
            if rng.random() < 0.5:
                rack[rng.randrange(days)] = rng.randrange(n)
        racks.append(rack)
    return racks


@pytest.mark.parametrize("edition_id", ["usa", "germany"])
def test_a_rack_is_a_journey_exactly_when_day_1_is_a_region_and_every_day_links(
    edition_id: str,
) -> None:
    edition = load_edition(edition_id)
    tables, checker = edition.tables, checker_for(edition)
    n, m = tables.n, tables.n + 1
    assert len(tables.link) == m**3
    found = 0
    for days in (2, 3, 5, 10):
        for rack in _racks(edition_id, days, 400, seed=days):
            tiles = [n if t is None else t for t in rack] + [n, n]
            links = all(
                tables.link[(tiles[i] * m + tiles[i + 1]) * m + tiles[i + 2]]
                for i in range(days - 1)
            )
            first = rack[0] is not None and tables.is_region[rack[0]]
            complete = checker.is_complete(rack)
            found += complete
            assert complete == (first and links), rack
    assert found > 20  # the near misses include complete journeys


def test_no_day_links_with_an_empty_day() -> None:
    tables = load_edition("usa").tables
    n, m = tables.n, tables.n + 1
    for a in range(m):
        assert not tables.link[(n * m + a) * m + n] and not tables.link[(a * m + n) * m + n]
