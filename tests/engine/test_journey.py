"""Journeys, kind of link by kind of link, as the rules describe them."""

from __future__ import annotations

import pytest

from tendays.engine import checker_for, load_edition


def verdict(edition_id: str, journey: str):
    edition = load_edition(edition_id)
    return checker_for(edition).check([edition.tile(t).index for t in journey.split()])


def is_complete(edition_id: str, journey: str) -> bool:
    edition = load_edition(edition_id)
    return checker_for(edition).is_complete([edition.tile(t).index for t in journey.split()])


# (edition, journey, complete?, the problem's words or None)
CASES = [
    # on foot: a shared border along a line
    ("usa", "WA OR CA NV UT CO NM TX OK KS", True, None),
    ("usa", "WA OR", True, None),
    ("usa", "WA CA", False, "day 1 → 2: Washington and California do not share a border"),
    # Four Corners: corner-only contacts are not borders
    ("usa", "UT NM", False, "day 1 → 2: Utah and New Mexico only touch at a corner"),
    ("usa", "AZ CO", False, "day 1 → 2: Arizona and Colorado only touch at a corner"),
    # water-only contacts are not borders
    ("usa", "IL MI", False, "day 1 → 2: Illinois and Michigan only meet across water"),
    ("usa", "MI MN", False, "only meet across water"),
    ("usa", "NY RI", False, "only meet across water"),
    # a region never repeats across one step
    ("usa", "OH OH", False, "day 1 → 2: Ohio on two days in a row"),
    # airplanes: both ends in the plane's colour
    ("usa", "CA plane-blue NY", True, None),
    (
        "usa",
        "OH plane-pink IA",
        False,
        "day 1 → 3: the pink airplane needs both ends pink; Ohio is yellow and Iowa is green",
    ),
    (
        "usa",
        "CA plane-blue OH",
        False,
        "day 1 → 3: the blue airplane needs both ends blue; Ohio is yellow",
    ),
    ("usa", "CA plane-blue CA", False, "California on both sides of the blue airplane"),
    # Alaska and Hawaii: any colour, but the other end must match the plane
    ("usa", "CA plane-blue AK", True, None),
    ("usa", "HI plane-yellow OH", True, None),
    ("usa", "HI plane-blue OH", False, "the blue airplane needs both ends blue; Ohio is yellow"),
    # any plane flies between Alaska and Hawaii
    ("usa", "AK plane-pink HI", True, None),
    ("usa", "HI plane-green AK", True, None),
    # Alaska and Hawaii border nothing: no walking, no car
    ("usa", "AK WA", False, "Alaska and Washington do not share a border"),
    ("usa", "AK car HI", False, "no state borders both Alaska and Hawaii"),
    ("usa", "WA car AK", False, "no state borders both Washington and Alaska"),
    # the car stands for a third state bordering both ends
    ("usa", "AZ car TX", True, None),
    ("usa", "WA car NV", True, None),
    ("usa", "OR car ID", True, None),  # the ends may also border each other
    (
        "usa",
        "WA car TX",
        False,
        "no state borders both Washington and Texas, so the car has nothing to stand for",
    ),
    # transport tiles: never at either end, never two in a row
    ("usa", "car OH IN", False, "day 1: the journey must start in a state, not with the car"),
    (
        "usa",
        "OH IN plane-blue",
        False,
        "day 3: the journey must end in a state, not with the blue airplane",
    ),
    (
        "usa",
        "CA car plane-blue NY",
        False,
        "day 2 → 3: two transport tiles in a row (the car, then the blue airplane)",
    ),
    # Germany: trains by colour, buses as skips, Berlin any colour and twice
    ("germany", "HH SH", True, None),
    ("germany", "HH train-green BB", True, None),
    ("germany", "HH train-blue DD", False, "the blue train needs both ends blue; Hamburg is green"),
    ("germany", "BE train-pink MV", True, None),
    (
        "germany",
        "DD train-orange BE",
        False,
        "the orange train needs both ends orange; Dresden is blue",
    ),
    ("germany", "BE BB BE", True, None),
    ("germany", "BE BE", False, "Berlin on two days in a row"),
    ("germany", "BE train-green BE", False, "Berlin on both sides of the green train"),
    ("germany", "BE bus DD", True, None),  # the bus stands for Brandenburg
    ("germany", "SH bus FR", False, "no region borders both Schleswig-Holstein and Freiburg"),
    ("germany", "bus HH SH", False, "day 1: the journey must start in a region, not with the bus"),
]


@pytest.mark.parametrize(("edition", "journey", "complete", "problem"), CASES)
def test_journey(edition: str, journey: str, complete: bool, problem: str | None) -> None:
    result = verdict(edition, journey)
    assert result.valid is complete
    assert is_complete(edition, journey) is complete
    if problem is not None:
        assert any(problem in str(p) for p in result.problems), [str(p) for p in result.problems]


def test_every_broken_link_is_named() -> None:
    result = verdict("usa", "car UT NM plane-pink OH OH IN KY car plane-blue")
    messages = [str(p) for p in result.problems]
    assert messages == [
        "day 1: the journey must start in a state, not with the car",
        "day 2 → 3: Utah and New Mexico only touch at a corner",
        "day 3 → 5: the pink airplane needs both ends pink; New Mexico is blue and Ohio is yellow",
        "day 5 → 6: Ohio on two days in a row",
        "day 6: there is only one Ohio tile, and this rack already holds it on day 5",
        "day 9 → 10: two transport tiles in a row (the car, then the blue airplane)",
        "day 10: the journey must end in a state, not with the blue airplane",
    ]


def test_links_explain_good_steps_too() -> None:
    result = verdict("usa", "AZ car TX plane-yellow OH")
    assert [(link.from_day, link.to_day, link.via_day, link.ok) for link in result.links] == [
        (1, 3, 2, True),
        (3, 5, 4, True),
    ]
    assert "stands for New Mexico" in result.links[0].message


def test_empty_days_are_reported() -> None:
    edition = load_edition("usa")
    rack = [edition.tile("WA").index, None, edition.tile("CA").index]
    result = checker_for(edition).check(rack)
    assert not result.valid
    assert "day 2: this day is still empty" in [str(p) for p in result.problems]
    assert checker_for(edition).is_complete(rack) is False


def test_verdict_json_shape() -> None:
    assert verdict("usa", "UT NM").to_json() == {
        "valid": False,
        "problems": [
            {
                "day": 1,
                "to_day": 2,
                "message": "day 1 → 2: Utah and New Mexico only touch at a corner",
            }
        ],
        "links": [
            {
                "from_day": 1,
                "to_day": 2,
                "via_day": None,
                "ok": False,
                "message": "Utah and New Mexico only touch at a corner",
            }
        ],
    }


@pytest.mark.parametrize(
    ("edition", "journey", "problems"),
    [
        (
            "usa",
            "OH IN OH",
            ["day 3: there is only one Ohio tile, and this rack already holds it on day 1"],
        ),
        (
            "usa",
            "WA car ID car WA car ID",
            [
                "day 5: there is only one Washington tile, and this rack already holds it on day 1",
                "day 7: there is only one Idaho tile, and this rack already holds it on day 3",
            ],
        ),
        (
            "usa",
            "OH plane-yellow IN plane-yellow KY plane-yellow MI",
            [
                "day 6: there are only 2 yellow airplane tiles, and this rack already holds them "
                "on days 2 and 4",
            ],
        ),
        ("germany", "BE BB BE", []),  # Berlin has two tiles
        (
            "germany",
            "BE BB BE MV BE",
            [
                "day 5: there are only 2 Berlin tiles, and this rack already holds them on "
                "days 1 and 3"
            ],
        ),
    ],
)
def test_the_verdict_knows_how_many_tiles_the_box_holds(
    edition: str, journey: str, problems: list[str]
) -> None:
    result = verdict(edition, journey)
    assert [
        str(p) for p in result.problems if "tile" in p.message and "only" in p.message
    ] == problems
    assert result.valid is (not problems)


def test_a_checker_says_the_same_in_each_language_however_often_asked() -> None:
    """The problems a checker keeps (empty days, transport at an end or twice in a row) and what
    each says are kept by language: a verdict in one never carries another's words."""
    edition = load_edition("usa")
    rack = [edition.tile(t).index for t in ["plane-blue", "car", "plane-pink", "OH"]] + [None]
    seen = {}
    for lang in ("en", "de", "en", "de"):
        said = checker_for(edition).check(rack, lang=lang).to_json()
        assert seen.setdefault(lang, said) == said
    assert seen["en"] != seen["de"]
    assert [p["day"] for p in seen["en"]["problems"]] == [1, 1, 2, 5]
    assert "empty" in seen["en"]["problems"][-1]["message"]
