"""Editions are data, validated on load."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from tendays.engine import EditionError, available_editions, load_edition
from tendays.engine.edition import edition_from_dict


def raw(edition_id: str) -> dict:
    return json.loads(
        resources.files("tendays.editions").joinpath(f"{edition_id}.json").read_text("utf-8")
    )


def test_shipped_editions() -> None:
    assert available_editions() == ["germany", "usa"]
    usa = load_edition("usa")
    assert sum(len(r.neighbors) for r in usa.regions) == 2 * 105
    germany = load_edition("germany")
    assert sum(len(r.neighbors) for r in germany.regions) == 2 * 87
    assert {r.id for r in usa.regions if r.color is None} == {"AK", "HI"}
    assert {r.id for r in germany.regions if r.color is None} == {"BE"}
    assert not usa.regions[0].neighbors  # Alaska borders nothing


def test_unknown_edition() -> None:
    with pytest.raises(EditionError, match="unknown edition 'mars'; known editions: germany, usa"):
        load_edition("mars")


def test_a_new_edition_is_just_data() -> None:
    data = raw("germany")
    data["id"] = "germany-5"
    data["transports"][1]["count"] = 4
    data["tile_count"] = 53
    edition = edition_from_dict(data)
    assert edition.tile_count == 53 and edition.tile("bus").count == 4


def broken(mutate) -> dict:
    data = copy.deepcopy(raw("usa"))
    mutate(data)
    return data


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["regions"][1]["neighbors"].append("XX"),
            "region AL borders unknown regions \\['XX'\\]",
        ),
        (
            lambda d: d["regions"][1]["neighbors"].remove("FL"),
            "asymmetric border: FL lists AL, but AL does not",
        ),
        (lambda d: d["regions"][1].update(color="purple"), "region AL has unknown colour 'purple'"),
        (lambda d: d.update(tile_count=67), "the tiles add up to 66, but the edition declares 67"),
        (lambda d: d["regions"].append(dict(d["regions"][0])), "duplicate region ids \\['AK'\\]"),
        (lambda d: d["regions"][1]["neighbors"].append("AL"), "region AL borders itself"),
        (
            lambda d: d["contacts"].append({"between": ["AL", "FL"], "kind": "corner"}),
            "both as a border",
        ),
        (lambda d: d.pop("transports"), "missing field 'transports'"),
        (lambda d: d.update(region_copies={"ZZ": 2}), "region_copies names unknown region 'ZZ'"),
        (lambda d: d["words"]["de"]["tiles"].pop("car"), "words 'de': no name for the car tile"),
        (
            lambda d: d["words"]["de"]["tiles"].update(XX={"name": "X"}),
            "words 'de': names unknown tiles \\['XX'\\]",
        ),
        (
            lambda d: d["words"]["de"]["letters"].update(pink="B"),
            "words 'de': letters must be single, distinct",
        ),
        (lambda d: d["words"]["de"]["colors"].pop("pink"), "words 'de': colours must name exactly"),
        (
            lambda d: d["words"]["de"].pop("region_noun_plural"),
            "words 'de': missing field 'region_noun_plural'",
        ),
        (
            lambda d: d["words"]["en"].update(region_noun="land"),
            "the English words differ from the edition's own",
        ),
        (lambda d: d["words"].pop("en"), "words must include 'en'"),
        (lambda d: d.update(language="fr"), "the edition's language 'fr' has no words"),
        (lambda d: d["palette_cb"].pop("any"), "palette_cb must give the colours of palette"),
        (lambda d: d["symbols"].update(pink="●"), "two colours share a symbol"),
        (lambda d: d["shapes"].pop("any"), "shapes must give every colour and any"),
    ],
)
def test_broken_data_fails_loudly(mutate, message: str) -> None:
    with pytest.raises(EditionError, match=message):
        edition_from_dict(broken(mutate))


def test_map_json_contract() -> None:
    data = load_edition("usa").to_json()
    assert data["edition"] == "usa" and data["name"] == "10 Days in the USA"
    wa = next(r for r in data["regions"] if r["id"] == "WA")
    assert wa == {"id": "WA", "name": "Washington", "color": "green", "neighbors": ["ID", "OR"]}
    tiles = {t["id"]: t for t in data["tiles"]}
    assert (
        tiles["plane-blue"].items()
        >= {"kind": "plane", "role": "link", "color": "blue", "count": 2}.items()
    )
    assert (
        tiles["car"].items() >= {"kind": "car", "role": "skip", "color": None, "count": 6}.items()
    )
    assert sum(t["count"] for t in data["tiles"]) == 66
    germany = load_edition("germany").to_json()
    tiles = {t["id"]: t for t in germany["tiles"]}
    assert (
        tiles["BE"].items()
        >= {"kind": "region", "role": "region", "color": None, "count": 2}.items()
    )
    assert (
        tiles["bus"].items() >= {"kind": "bus", "role": "skip", "color": None, "count": 5}.items()
    )


def test_languages_and_names() -> None:
    usa, germany = load_edition("usa"), load_edition("germany")
    assert (usa.language, germany.language) == ("en", "de")
    assert usa.languages == germany.languages == ("en", "de")
    california, car, train = usa.tile("CA"), usa.tile("car"), germany.tile("train-orange")
    assert (california.name, california.name_in("de"), car.name_in("de"), train.name_in("de")) == (
        "California",
        "Kalifornien",
        "Auto",
        "orangefarbene Bahn",
    )
    assert germany.tile("OBB").name_in("de") == germany.tile("OBB").name == "Oberbayern"
    assert f"{germany.tile('SL').term('de'):The} grenzt an Rheinhessen-Pfalz".startswith(
        "Das Saarland"
    )
    de = usa.words("de")
    assert (
        de.region_noun,
        de.region_nouns(2),
        de.color("pink"),
        de.color(None),
        de.any_color_phrase,
        de.letter("yellow"),
    ) == ("Bundesstaat", "Bundesstaaten", "rosa", "lila", "jede Farbe", "L")
    # a language the edition does not speak: its English words
    assert usa.words("fr") is usa.words("en")
    data = usa.to_json()
    assert data["language"] == "en" and data["words"]["de"]["colors"]["green"] == "grün"
    tiles = {t["id"]: t for t in data["tiles"]}
    assert tiles["plane-blue"]["names"] == {"en": "blue airplane", "de": "blaues Flugzeug"}
    assert tiles["plane-blue"]["definite"] == {
        "en": "the blue airplane",
        "de": "das blaue Flugzeug",
    }
    assert tiles["CA"]["names"] == {"en": "California", "de": "Kalifornien"}
    assert (
        set(data["symbols"])
        == set(data["shapes"])
        == set(data["palette_cb"])
        == {*usa.colors, "any"}
    )


def test_an_edition_file_without_words_speaks_english() -> None:
    data = raw("germany")
    for key in ("words", "language", "palette_cb", "symbols", "shapes"):
        data.pop(key)
    edition = edition_from_dict(data)
    assert edition.languages == ("en",) and edition.language == "en"
    assert edition.words("de").tile(edition.tile("bus").index).definite == "the bus"
