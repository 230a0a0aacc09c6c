"""Editions as data: regions, colours, borders and the tile manifest of one game.

An edition is loaded from a JSON file and validated on load, so a broken data file fails loudly
with a message naming the problem instead of producing a subtly wrong game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from importlib import resources
from typing import Any

from .connections import EditionTables, build_tables
from .i18n import DEFAULT_LANGUAGE, Term, current_language
from .words import Words, WordsError, words_from_dict

__all__ = [
    "Edition",
    "EditionError",
    "Region",
    "Role",
    "Tile",
    "available_editions",
    "default_edition",
    "load_edition",
]


class EditionError(ValueError):
    """An edition data file is malformed or inconsistent."""


class Role(StrEnum):
    """What a tile does in a journey."""

    REGION = "region"
    LINK = "link"  # a colour link (airplane, train): joins two regions of its colour
    SKIP = "skip"  # a skip (car, bus): stands for a region bordering both ends


@dataclass(frozen=True, slots=True)
class Region:
    """A region of the map (a US state, a German NUTS-2 region)."""

    id: str
    name: str
    color: str | None  # None means "any colour" (Alaska, Hawaii, Berlin)
    neighbors: frozenset[str]
    geo_id: str = ""


@dataclass(frozen=True, slots=True)
class Tile:
    """A kind of tile. ``index`` is its position in ``Edition.tiles``;
    the engine works with indices."""

    index: int
    id: str
    kind: str  # "region", or the transport kind: "plane", "car", "train", "bus"
    role: Role
    name: str  # in words: "Ohio", "pink airplane", "car"
    color: str | None
    count: int
    icon: str = ""  # transport tiles: an SVG path drawn in a 24x24 box, for screens that draw icons
    # its name per language
    terms: Mapping[str, Term] = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_region(self) -> bool:
        return self.role is Role.REGION

    def term(self, lang: str | None = None) -> Term:
        """The tile's name in ``lang`` (default: the current language), in
        every form a sentence needs."""
        terms = self.terms
        return (
            terms.get(lang or current_language()) or terms.get(DEFAULT_LANGUAGE) or Term(self.name)
        )

    def name_in(self, lang: str | None = None) -> str:
        """The tile's name in ``lang`` (default: the current language):
        "Kalifornien", "blaues Flugzeug"."""
        return self.term(lang).name


@dataclass(frozen=True)
class Edition:
    """One game of the family: its map and its tiles. Build it with :func:`load_edition`."""

    id: str
    name: str
    region_noun: str
    any_color_name: str
    colors: tuple[str, ...]
    regions: tuple[Region, ...]
    tiles: tuple[Tile, ...]
    contacts: dict[frozenset[str], str]  # non-border contacts: pair -> "corner" | "water"
    credit: str  # where the borders come from, and their licence
    # screen colour (CSS) of each colour, and of "any" for any-colour regions
    palette: dict[str, str]
    default: bool  # the edition played when none is named (exactly one shipped edition says so)
    by_id: dict[str, Tile] = field(repr=False)  # keyed by upper-case id
    # the language the edition is played in unless a player chooses another
    language: str = DEFAULT_LANGUAGE
    vocabulary: dict[str, Words] = field(default_factory=dict, repr=False)  # its words, by language
    # a palette whose colours colour-blind players tell apart
    palette_cb: dict[str, str] = field(default_factory=dict)
    # a shape per colour ("blue": "●"), "any" included
    symbols: dict[str, str] = field(default_factory=dict)
    # the same shapes as SVG paths, 24x24 box
    shapes: dict[str, str] = field(default_factory=dict, repr=False)

    @cached_property
    def tables(self) -> EditionTables:
        """The edition's connection tables (:mod:`tendays.engine.connections`),
        built on first use."""
        neighbors = [
            frozenset(self.by_id[r.upper()].index for r in self.regions[t.index].neighbors)
            if t.is_region
            else frozenset()
            for t in self.tiles
        ]
        return build_tables(self.tiles, self.colors, neighbors)

    @cached_property
    def tile_ids(self) -> tuple[str, ...]:
        """Each tile's id, by index: what the wire writes for a tile."""
        return tuple(t.id for t in self.tiles)

    @property
    def tile_count(self) -> int:
        """Number of physical tiles (Berlin counts twice)."""
        return sum(t.count for t in self.tiles)

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages the edition's data names its tiles, colours and regions in."""
        return tuple(self.vocabulary)

    def words(self, lang: str | None = None) -> Words:
        """The edition's words in ``lang`` (default: the current language),
        or English where it has none."""
        vocabulary = self.vocabulary
        return vocabulary.get(lang or current_language()) or vocabulary[DEFAULT_LANGUAGE]

    def tile(self, tile_id: str) -> Tile:
        """The tile with this id, case-insensitive; raises ``KeyError`` naming the edition."""
        try:
            return self.by_id[tile_id.strip().upper()]
        except KeyError:
            raise KeyError(f"{self.name} has no tile {tile_id!r}") from None

    def region(self, tile: Tile) -> Region:
        return self.regions[tile.index]

    def all_tiles(self) -> list[int]:
        """Every physical tile as a tile index, in manifest order (the unshuffled box)."""
        return [t.index for t in self.tiles for _ in range(t.count)]

    def to_json(self) -> dict[str, Any]:
        """The public description printed by ``tendays map --json``."""
        languages = self.languages
        return {
            "edition": self.id,
            "name": self.name,
            "default": self.default,
            "language": self.language,
            "region_noun": self.region_noun,
            "any_color_name": self.any_color_name,
            "colors": list(self.colors),
            "palette": dict(self.palette),
            "palette_cb": dict(self.palette_cb),
            "symbols": dict(self.symbols),
            "shapes": dict(self.shapes),
            "words": {lang: self.vocabulary[lang].to_json() for lang in languages},
            "regions": [
                {"id": r.id, "name": r.name, "color": r.color, "neighbors": sorted(r.neighbors)}
                for r in self.regions
            ],
            "tiles": [
                {
                    "id": t.id,
                    "name": t.name,
                    "kind": t.kind,
                    "role": t.role.value,
                    "color": t.color,
                    "count": t.count,
                    "icon": t.icon or None,
                    "names": {lang: t.term(lang).name for lang in languages},
                    "definite": {lang: t.term(lang).definite for lang in languages},
                }
                for t in self.tiles
            ],
        }


def available_editions() -> list[str]:
    """Ids of the editions shipped with the package."""
    files = resources.files("tendays.editions")
    return sorted(p.name.removesuffix(".json") for p in files.iterdir() if p.name.endswith(".json"))


_CACHE: dict[str, Edition] = {}


def default_edition() -> str:
    """The id of the edition played when none is named: the one whose data
    file says ``"default": true``."""
    chosen = [e for e in available_editions() if load_edition(e).default]
    if len(chosen) != 1:
        raise EditionError(
            f"exactly one edition must be the default, not {len(chosen)} ({', '.join(chosen)})"
        )
    return chosen[0]


def load_edition(edition_id: str) -> Edition:
    """Load and validate a shipped edition by id (``usa``, ``germany``); cached."""
    if edition_id not in _CACHE:
        if edition_id not in available_editions():
            known = ", ".join(available_editions())
            raise EditionError(f"unknown edition {edition_id!r}; known editions: {known}")
        text = resources.files("tendays.editions").joinpath(f"{edition_id}.json").read_text("utf-8")
        _CACHE[edition_id] = edition_from_dict(json.loads(text))
    return _CACHE[edition_id]


def _require(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise EditionError(f"{where}: missing field {key!r}")
    return data[key]


def edition_from_dict(data: dict[str, Any]) -> Edition:
    """Build an edition from its data-file form, checking every cross-reference."""
    edition_id = _require(data, "id", "edition")
    where = f"edition {edition_id!r}"
    colors = tuple(_require(data, "colors", where))
    raw_regions = _require(data, "regions", where)
    ids = [r["id"] for r in raw_regions]
    if len(set(ids)) != len(ids):
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        raise EditionError(f"{where}: duplicate region ids {dupes}")
    known = set(ids)
    regions = []
    for raw in raw_regions:
        rid = raw["id"]
        color = raw.get("color")
        if color is not None and color not in colors:
            raise EditionError(f"{where}: region {rid} has unknown colour {color!r}")
        neighbors = frozenset(raw.get("neighbors", []))
        unknown = sorted(neighbors - known)
        if unknown:
            raise EditionError(f"{where}: region {rid} borders unknown regions {unknown}")
        if rid in neighbors:
            raise EditionError(f"{where}: region {rid} borders itself")
        regions.append(Region(rid, raw["name"], color, neighbors, str(raw.get("geo_id", ""))))
    by_region = {r.id: r for r in regions}
    for r in regions:
        for n in r.neighbors:
            if r.id not in by_region[n].neighbors:
                raise EditionError(
                    f"{where}: asymmetric border: {r.id} lists {n}, but {n} does not list {r.id}"
                )

    copies = data.get("region_copies", {})
    for rid in copies:
        if rid not in known:
            raise EditionError(f"{where}: region_copies names unknown region {rid!r}")
    tiles: list[Tile] = []
    for r in regions:
        tiles.append(
            Tile(len(tiles), r.id, "region", Role.REGION, r.name, r.color, int(copies.get(r.id, 1)))
        )
    for transport in _require(data, "transports", where):
        kind, name, role = transport["kind"], transport["name"], Role(transport["role"])
        icon = str(transport.get("icon", ""))
        if role is Role.LINK:
            for color in transport["colors"]:
                if color not in colors:
                    raise EditionError(f"{where}: {name} in unknown colour {color!r}")
                tile_id = f"{kind}-{color}"
                tiles.append(
                    Tile(
                        len(tiles),
                        tile_id,
                        kind,
                        role,
                        f"{color} {name}",
                        color,
                        int(transport["count_per_color"]),
                        icon,
                    )
                )
        elif role is Role.SKIP:
            tiles.append(
                Tile(len(tiles), kind, kind, role, name, None, int(transport["count"]), icon)
            )
        else:
            raise EditionError(f"{where}: transport {name!r} cannot have role {role.value!r}")

    contacts: dict[frozenset[str], str] = {}
    for contact in data.get("contacts", []):
        pair = frozenset(contact["between"])
        if len(pair) != 2 or not pair <= known:
            raise EditionError(f"{where}: contact between unknown regions {contact['between']}")
        a, b = sorted(pair)
        if b in by_region[a].neighbors:
            raise EditionError(
                f"{where}: {a} and {b} are listed both as a border and as a {contact['kind']} "
                f"contact"
            )
        contacts[pair] = contact["kind"]

    palette = _colour_table(data, "palette", colors, where)
    palette_cb = _colour_table(data, "palette_cb", colors, where)
    if palette_cb and set(palette_cb) != set(palette):
        raise EditionError(
            f"{where}: palette_cb must give the colours of palette, {sorted(palette)}"
        )
    any_used = any(r.color is None for r in regions)
    symbols = _colour_table(data, "symbols", colors, where)
    shapes = _colour_table(data, "shapes", colors, where)
    for key, table in (("symbols", symbols), ("shapes", shapes)):
        if table and set(table) != set(colors) | ({"any"} if any_used else set()):
            raise EditionError(
                f"{where}: {key} must give every colour{' and any' if any_used else ''}"
            )
    if len(set(symbols.values())) != len(symbols):
        raise EditionError(f"{where}: two colours share a symbol: {symbols}")

    region_noun = str(data.get("region_noun", "region"))
    any_color_name = str(data.get("any_color_name", "any colour"))
    raw_words = data.get("words") or {
        DEFAULT_LANGUAGE: _english_words(tiles, colors, region_noun, any_color_name)
    }
    if DEFAULT_LANGUAGE not in raw_words:
        raise EditionError(
            f"{where}: words must include {DEFAULT_LANGUAGE!r}, the language of the engine's source"
        )
    try:
        vocabulary = {
            str(lang): words_from_dict(str(lang), block, tuple(tiles), colors, any_used)
            for lang, block in raw_words.items()
        }
    except WordsError as error:
        raise EditionError(f"{where}: {error}") from None
    english = vocabulary[DEFAULT_LANGUAGE]
    if (english.region_noun, english.any_color_name) != (region_noun, any_color_name) or [
        term.name for term in english.terms
    ] != [t.name for t in tiles]:
        raise EditionError(f"{where}: the English words differ from the edition's own names")
    language = str(data.get("language", DEFAULT_LANGUAGE))
    if language not in vocabulary:
        raise EditionError(f"{where}: the edition's language {language!r} has no words")
    tiles = [
        replace(t, terms={lang: words.terms[t.index] for lang, words in vocabulary.items()})
        for t in tiles
    ]

    edition = Edition(
        id=edition_id,
        name=_require(data, "name", where),
        region_noun=region_noun,
        any_color_name=any_color_name,
        colors=colors,
        regions=tuple(regions),
        tiles=tuple(tiles),
        contacts=contacts,
        credit=data.get("credit", ""),
        palette=palette,
        default=bool(data.get("default", False)),
        by_id={t.id.upper(): t for t in tiles},
        language=language,
        vocabulary=vocabulary,
        palette_cb=palette_cb,
        symbols=symbols,
        shapes=shapes,
    )
    expected = data.get("tile_count")
    if expected is not None and edition.tile_count != expected:
        raise EditionError(
            f"{where}: the tiles add up to {edition.tile_count}, but the edition declares "
            f"{expected}"
        )
    return edition


def _colour_table(
    data: dict[str, Any], key: str, colors: tuple[str, ...], where: str
) -> dict[str, str]:
    """A table keyed by colour (and "any"), such as the palette: empty when
    absent, complete when present."""
    table = {str(k): str(v) for k, v in data.get(key, {}).items()}
    strange = sorted(set(table) - set(colors) - {"any"})
    if strange:
        raise EditionError(f"{where}: {key} names unknown colours {strange}")
    if table and set(colors) - set(table):
        raise EditionError(f"{where}: {key} lacks colours {sorted(set(colors) - set(table))}")
    return table


def _english_words(
    tiles: list[Tile], colors: tuple[str, ...], region_noun: str, any_color_name: str
) -> dict[str, Any]:
    """The English words of an edition file that gives none: its own names,
    "the" before transport tiles."""
    return {
        "region_noun": region_noun,
        "region_noun_plural": f"{region_noun}s",
        "any_color_name": any_color_name,
        "any_color_phrase": "any colour",
        "colors": {c: c for c in colors},
        "letters": {**{c: c[0].upper() for c in colors}, "any": "*"},
        "tiles": {t.id: {"name": t.name, "the": f"the {t.name}"} for t in tiles if not t.is_region},
    }
