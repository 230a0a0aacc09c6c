"""The journey distance: exact on small racks (checked by brute force), sound on full racks."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from tendays.bots import analyze, journey_distance
from tendays.engine import available_editions, checker_for, load_edition


@cache
def _journeys(edition_id: str, days: int) -> list[tuple[int, ...]]:
    """Every complete journey of ``days`` days in an edition, respecting
    tile counts (brute force)."""
    edition = load_edition(edition_id)
    checker = checker_for(edition)
    tiles = edition.tiles
    regions = [t.index for t in tiles if t.is_region]
    transports = [t.index for t in tiles if not t.is_region]
    found: list[tuple[int, ...]] = []

    def extend(path: list[int]) -> None:
        if len(path) == days:
            if tiles[path[-1]].is_region:
                found.append(tuple(path))
            return
        last = path[-1]
        if tiles[last].is_region:
            for r in regions:
                if checker.connects(last, r):
                    path.append(r)
                    extend(path)
                    path.pop()
            if len(path) + 2 <= days:
                for t in transports:
                    for r in regions:
                        if checker.connects(last, r, t):
                            path.extend((t, r))
                            extend(path)
                            del path[-2:]

    for r in regions:
        extend([r])
    counts = [t.count for t in tiles]
    return [j for j in found if all(n <= counts[t] for t, n in Counter(j).items())]


def _brute_distance(edition_id: str, rack: tuple[int, ...]) -> int:
    edition = load_edition(edition_id)
    spare = Counter({t.index: t.count for t in edition.tiles})
    spare.subtract(rack)
    best = len(rack)
    r0, r1, r2, r3 = rack
    for journey in _journeys(edition_id, 4):
        j0, j1, j2, j3 = journey
        changes = (j0 != r0) + (j1 != r1) + (j2 != r2) + (j3 != r3)
        if changes < best:
            fills = Counter(j for j, r in zip(journey, rack, strict=True) if j != r)
            if all(n <= spare[t] for t, n in fills.items()):
                best = changes
    return best


@pytest.mark.parametrize("edition_id", available_editions())
def test_distance_matches_brute_force_on_short_racks(edition_id: str) -> None:
    edition = load_edition(edition_id)
    rng = random.Random(11)
    tiles = edition.all_tiles()
    journeys = _journeys(edition_id, 4)
    racks = []
    for _ in range(10):
        rng.shuffle(tiles)
        racks.append(tuple(tiles[:4]))
    for _ in range(10):  # near-complete racks, where the tile counts bite most often
        rack = list(rng.choice(journeys))
        rack[rng.randrange(4)] = rng.choice(tiles)
        racks.append(tuple(rack))
    for rack in racks:
        assert journey_distance(edition, rack) == _brute_distance(edition_id, rack), rack


@pytest.mark.parametrize("edition_id", available_editions())
def test_completions_are_complete_journeys_that_respect_tile_counts(edition_id: str) -> None:
    edition = load_edition(edition_id)
    checker = checker_for(edition)
    rng = random.Random(5)
    tiles = edition.all_tiles()
    for _ in range(60):
        rng.shuffle(tiles)
        rack = tuple(tiles[:10])
        analysis = analyze(edition, rack)
        assert checker.is_complete(analysis.completion)
        assert len(analysis.days_to_change) == analysis.distance
        assert analysis.relaxed <= analysis.distance
        kept = Counter(t for t, c in zip(rack, analysis.completion, strict=True) if t == c)
        used = Counter(analysis.completion)
        for tile, n in used.items():
            assert n <= edition.tiles[tile].count
        # Filled-in tiles come from outside the rack: a tile cannot be in two places at once.
        fills = Counter(c for t, c in zip(rack, analysis.completion, strict=True) if t != c)
        for tile, n in fills.items():
            assert n + Counter(rack)[tile] <= edition.tiles[tile].count, (tile, kept)


def test_complete_journey_has_distance_zero_and_no_outs() -> None:
    edition = load_edition("usa")
    rack = tuple(
        edition.tile(t).index for t in ["WA", "OR", "CA", "AZ", "NM", "TX", "OK", "KS", "NE", "SD"]
    )
    analysis = analyze(edition, rack)
    assert analysis.distance == 0
    assert analysis.days_to_change == ()
    assert all(not outs for outs in analysis.outs)


def test_one_wrong_day_is_distance_one_and_the_out_fixes_it() -> None:
    edition = load_edition("usa")
    names = ["WA", "OR", "CA", "AZ", "NM", "TX", "OK", "KS", "NE", "SD"]
    rack = tuple(edition.tile(t).index for t in names)
    broken = rack[:4] + (edition.tile("ME").index,) + rack[5:]
    analysis = analyze(edition, broken)
    assert analysis.distance == 1
    assert edition.tile("NM").index in analysis.outs[4]
    assert journey_distance(edition, rack) == 0


def test_outs_lower_the_relaxed_distance_by_one() -> None:
    edition = load_edition("germany")
    rng = random.Random(3)
    tiles = edition.all_tiles()
    for _ in range(10):
        rng.shuffle(tiles)
        rack = tuple(tiles[:10])
        analysis = analyze(edition, rack)
        for day, outs in enumerate(analysis.outs):
            for tile in outs[:3]:
                better = rack[:day] + (tile,) + rack[day + 1 :]
                assert analyze(edition, better).relaxed == analysis.relaxed - 1


def test_empty_days_count_as_days_to_fill() -> None:
    edition = load_edition("usa")
    assert journey_distance(edition, (None,) * 10) == 10
    ohio = edition.tile("OH").index
    assert journey_distance(edition, (ohio,) + (None,) * 9) == 9
