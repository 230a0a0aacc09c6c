"""Build the packaged edition files from the verified map data in ``shared/maps``.

Run once when the map data, an edition's description or its words change:
    python tools/build_editions.py [path/to/shared]
The output (``src/tendays/editions/*.json``) is committed; the package never reads ``shared``.

Each edition is described by data (``EDITIONS``): the fields of the edition file that are not map
facts (names, its language, whether it is the default edition, colours, their screen colours in two
palettes, a symbol and a shape per colour, transport tiles with their icons, counts, credit), and
``source``, which says where its regions are in ``shared/maps`` and how that file names them. One
builder turns any description into an edition file, so a new edition is a new entry here, not code.

The words of each language (tile, colour and region names) are data too: ``tools/words/<lang>.json``
holds one block per edition, and every file there becomes the ``words`` of the editions
(docs/i18n.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
COLORS = ["blue", "green", "orange", "pink", "yellow"]

# Screen colours (CSS) of the tile colours, and a palette for colour-blind players that pushes them
# further apart. Both were chosen so that every pair stays apart under simulated protanopia,
# deuteranopia and tritanopia (tests/i18n/test_colour_blind.py, docs/i18n.md); purple is the USA's
# any-colour regions.
PALETTE = {
    "blue": "#4b8bfa",
    "green": "#17bd6f",
    "orange": "#d47301",
    "pink": "#ea90bf",
    "yellow": "#f4d03e",
}
PALETTE_CB = {
    "blue": "#1178f4",
    "green": "#8fce9d",
    "orange": "#e3621c",
    "pink": "#f6a0d3",
    "yellow": "#efea07",
}
PURPLE, PURPLE_CB = "#975da1", "#703e71"

# A shape for every colour, so that no decision depends on hue alone: a character for text screens
# and the same shape as an SVG path in a 24x24 box. "any" marks any-colour regions (a wildcard).
SYMBOLS = {"blue": "●", "green": "▲", "orange": "■", "pink": "◆", "yellow": "★", "any": "✱"}
SHAPES = {
    "blue": "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18z",
    "green": "M12 2.5 22 20.5H2z",
    "orange": "M3.5 3.5h17v17h-17z",
    "pink": "M12 1.5 22.5 12 12 22.5 1.5 12z",
    "yellow": "M12 1.8l2.9 6.9 7.4.6-5.6 4.9 1.7 7.3L12 17.6l-6.4 3.9 1.7-7.3-5.6-4.9 7.4-.6z",
    "any": "M10.6 2h2.8v7.6l6.6-3.8 1.4 2.4-6.6 3.8 6.6 3.8-1.4 2.4-6.6-3.8V22h-2.8v-7.6L4 "
    "18.2l-1.4-2.4 6.6-3.8-6.6-3.8L4 5.8l6.6 3.8z",
}

# Transport icons: SVG paths drawn in a 24x24 box, so screens need no fonts or images.
ICONS = {
    "plane": "M12 2c.8 0 1.3.8 1.3 1.8V9l8.2 4.6v2.1l-8.2-2.4v4.8l2.2 1.7V21L12 20l-3.5 "
    "1v-1.2l2.2-1.7v-4.8l-8.2 2.4v-2.1L10.7 9V3.8C10.7 2.8 11.2 2 12 2z",
    "train": "M7 2h10a3 3 0 0 1 3 3v10a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3V5a3 3 0 0 1 3-3zm0 "
    "3v5h10V5zm1 8a1.3 1.3 0 1 0 0 2.6A1.3 1.3 0 0 0 8 13zm8 0a1.3 1.3 0 1 0 0 2.6A1.3 1.3 0 0 0 "
    "16 13zM7.5 19h2l-2 3h-2zm7 0h2l2 3h-2z",
    "car": "M5.5 6h13l2.5 6v7h-3v-2H6v2H3v-7zm1.4 2-1.5 4h13.2l-1.5-4zM6.5 13.5a1.3 1.3 0 1 0 0 "
    "2.6 1.3 1.3 0 0 0 0-2.6zm11 0a1.3 1.3 0 1 0 0 2.6 1.3 1.3 0 0 0 0-2.6z",
    "bus": "M5 2h14a2 2 0 0 1 2 2v14h-2v2h-3v-2H8v2H5v-2H3V4a2 2 0 0 1 2-2zm0 3v6h14V5zm1.5 "
    "8.5a1.3 1.3 0 1 0 0 2.6 1.3 1.3 0 0 0 0-2.6zm11 0a1.3 1.3 0 1 0 0 2.6 1.3 1.3 0 0 0 0-2.6z",
}

# ``source``: ``file`` in shared/maps, the ``list`` of regions in it, the field each region is named
# by in neighbour lists (``key``), the field used as the tile id (``id``) and as the geometry id
# (``geo_id``), fields copied as they are (``extra``), and the lists of non-border contacts by kind
# (``contacts``). A region whose suggested colour is not one of ``colors`` is an any-colour region.
EDITIONS: list[dict[str, Any]] = [
    {
        "id": "usa",
        "name": "10 Days in the USA",
        "default": True,  # the edition played when none is named
        "language": "en",  # the language it is played in unless a player chooses another
        "region_noun": "state",
        "any_color_name": "purple",
        "colors": COLORS,
        "palette": {**PALETTE, "any": PURPLE},
        "palette_cb": {**PALETTE_CB, "any": PURPLE_CB},
        "symbols": SYMBOLS,
        "shapes": SHAPES,
        "region_copies": {},
        "transports": [
            {
                "kind": "plane",
                "name": "airplane",
                "role": "link",
                "colors": COLORS,
                "count_per_color": 2,
                "icon": ICONS["plane"],
            },
            {"kind": "car", "name": "car", "role": "skip", "count": 6, "icon": ICONS["car"]},
        ],
        "tile_count": 66,
        "credit": "US Census Bureau cartographic boundaries (public domain) via us-atlas (ISC).",
        "source": {
            "file": "usa.json",
            "list": "states",
            "key": "code",
            "id": "code",
            "geo_id": "fips",
            "extra": [],
            "contacts": {"corner": "corner_only", "water": "water_only"},
        },
    },
    {
        "id": "germany",
        "name": "10 Tage durch Deutschland",
        "default": False,
        "language": "de",
        "region_noun": "region",
        "any_color_name": "colourless",
        "colors": COLORS,
        "palette": PALETTE,
        "palette_cb": PALETTE_CB,
        "symbols": SYMBOLS,
        "shapes": SHAPES,
        "region_copies": {"BE": 2},
        "transports": [
            {
                "kind": "train",
                "name": "train",
                "role": "link",
                "colors": COLORS,
                "count_per_color": 2,
                "icon": ICONS["train"],
            },
            {"kind": "bus", "name": "bus", "role": "skip", "count": 5, "icon": ICONS["bus"]},
        ],
        "tile_count": 54,
        "credit": "© GeoBasis-DE / BKG 2021 (Daten verändert), dl-de/by-2-0.",
        "source": {
            "file": "germany.json",
            "list": "regions",
            "key": "code",
            "id": "short",
            "geo_id": "code",
            "extra": ["land"],
            "contacts": {},
        },
    },
]

# The order of the fields in an edition file.
LAYOUT = [
    "id",
    "name",
    "default",
    "language",
    "region_noun",
    "any_color_name",
    "colors",
    "palette",
    "palette_cb",
    "symbols",
    "shapes",
    "words",
    "regions",
    "region_copies",
    "transports",
    "contacts",
    "tile_count",
    "credit",
]
OUT = ROOT / "src" / "tendays" / "editions"
WORDS = ROOT / "tools" / "words"


def words(edition_id: str) -> dict[str, Any]:
    """The edition's words in every language of ``tools/words``, English first."""
    files = sorted(WORDS.glob("*.json"), key=lambda path: (path.stem != "en", path.stem))
    found = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in files}
    return {lang: blocks[edition_id] for lang, blocks in found.items() if edition_id in blocks}


def build(description: dict[str, Any], maps: Path) -> dict[str, Any]:
    """The edition file described by ``description``, with its regions read from ``maps``."""
    fields = {key: value for key, value in description.items() if key != "source"}
    fields["words"] = words(description["id"])
    source = description["source"]
    data = json.loads((maps / source["file"]).read_text(encoding="utf-8"))
    found = data[source["list"]]
    tile_id = {region[source["key"]]: region[source["id"]] for region in found}
    colors = description["colors"]
    regions = []
    for region in sorted(found, key=lambda r: r[source["id"]]):
        color = region["suggested_color_NOT_FROM_GAME"]
        regions.append(
            {
                "id": region[source["id"]],
                "name": region["name"],
                "color": color if color in colors else None,
                "neighbors": sorted(tile_id[n] for n in region["neighbors"]),
                "geo_id": region[source["geo_id"]],
                **{field: region[field] for field in source["extra"]},
            }
        )
    contacts = [
        {"between": [tile_id[r] for r in pair], "kind": kind}
        for kind, listed in source["contacts"].items()
        for pair in data[listed]
    ]
    edition = {**fields, "regions": regions, "contacts": contacts}
    return {field: edition[field] for field in LAYOUT}


def main() -> None:
    shared = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared"
    for description in EDITIONS:
        edition = build(description, shared / "maps")
        path = OUT / f"{edition['id']}.json"
        path.write_text(json.dumps(edition, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}: {len(edition['regions'])} regions")


if __name__ == "__main__":
    main()
