"""Rack progress: the count of satisfied journey conditions agrees
with the engine's journey check."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tendays.engine import available_editions, checker_for, load_edition
from tendays.rl import RackProgress


def _rack(edition_id: str, texts: str) -> tuple[int | None, ...]:
    edition = load_edition(edition_id)
    return tuple(None if t == "-" else edition.tile(t).index for t in texts.split())


# (edition, rack, score): days 1..D, "-" is an empty day. A score of D + 1 means complete.
CASES = [
    ("usa", "WA OR CA NV AZ", 6),  # all on foot
    ("usa", "WA OR ID MT WY", 6),
    ("usa", "WA car CA NV AZ", 6),  # the car stands for Oregon
    ("usa", "WA OR CA NV car", 4),  # ends with a transport: the last gap and the end condition fail
    ("usa", "WA car car NV AZ", 3),  # two transports in a row
    ("usa", "WA FL CA NV AZ", 4),  # WA-FL and FL-CA are not borders
    ("usa", "WA OR - NV AZ", 4),  # an empty day breaks both of its gaps
    ("usa", "UT NM AZ CA OR", 5),  # Utah and New Mexico only touch at a corner
]


@pytest.mark.parametrize(("edition_id", "texts", "score"), CASES)
def test_score(edition_id: str, texts: str, score: int) -> None:
    rack = _rack(edition_id, texts)
    progress = RackProgress(load_edition(edition_id))
    assert progress.score(rack) == score
    assert (score == len(rack) + 1) == checker_for(load_edition(edition_id)).is_complete(rack)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(available_editions()), st.integers(2, 10), st.integers(0, 2**32))
def test_complete_exactly_when_every_condition_holds(edition_id: str, days: int, seed: int) -> None:
    edition = load_edition(edition_id)
    checker, progress = checker_for(edition), RackProgress(edition)
    rng = random.Random(seed)
    # Random racks are almost never complete, so also build walks along borders, which often are.
    rack: list[int | None] = [rng.randrange(len(edition.tiles)) for _ in range(days)]
    if seed % 2:
        start = rng.choice(
            [t.index for t in edition.tiles if t.is_region and checker.neighbors[t.index]]
        )
        rack = [start]
        while len(rack) < days:
            rack.append(rng.choice(sorted(checker.neighbors[rack[-1]])))
    assert (progress.score(rack) == days + 1) == checker.is_complete(rack)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(available_editions()), st.integers(2, 10), st.integers(0, 2**32))
def test_gains_are_score_differences(edition_id: str, days: int, seed: int) -> None:
    edition = load_edition(edition_id)
    progress = RackProgress(edition)
    rng = random.Random(seed)
    tiles = len(edition.tiles)
    rack = [rng.randrange(tiles) if rng.random() > 0.2 else None for _ in range(days)]
    tile = rng.randrange(tiles)
    before = progress.score(rack)
    expected = [progress.score(rack[:d] + [tile] + rack[d + 1 :]) - before for d in range(days)]
    gains = progress.gains(rack, tile)
    assert list(gains) == expected
    assert all(-4 <= g <= 4 for g in gains)


@pytest.mark.slow  # over a second of CPU
@settings(max_examples=100, deadline=None)
@given(st.sampled_from(available_editions()), st.integers(2, 20), st.integers(0, 2**32))
def test_gain_table_and_sound_gaps_agree_with_the_gap_by_gap_definitions(
    edition_id: str, days: int, seed: int
) -> None:
    edition = load_edition(edition_id)
    progress = RackProgress(edition)
    rng = random.Random(seed)
    tiles = len(edition.tiles)
    regions = [t.index for t in edition.tiles if t.is_region]
    # Mostly regions, so that steps and hops over transport tiles are common.
    rack = [
        None
        if rng.random() < 0.15
        else rng.choice(regions)
        if rng.random() < 0.6
        else rng.randrange(tiles)
        for _ in range(days)
    ]
    assert progress.sound_gaps(rack) == [progress.gap_sound(rack, i) for i in range(days - 1)]
    before = progress.score(rack)
    table = progress.gain_table(rack)
    assert table.shape == (days, tiles)
    for tile in range(tiles):
        assert table[:, tile].tolist() == [
            progress.score(rack[:d] + [tile] + rack[d + 1 :]) - before for d in range(days)
        ]
