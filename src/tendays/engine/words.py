"""An edition's words in each language: the names of its tiles, colours and regions, from its data
file.

Every language an edition speaks has one block under ``"words"`` in the edition file (written by
tools/build_editions.py), so a new language is a catalogue and a block of data, not code::

    "words": {"de": {"region_noun": "Bundesstaat", "region_noun_plural": "Bundesstaaten",
                     "any_color_name": "lila", "any_color_phrase": "jede Farbe",
                     "colors": {"blue": "blau", ...}, "letters": {"blue": "B", ...},
                     "tiles": {"CA": {"name": "Kalifornien"},
                               "plane-blue": {"name": "blaues Flugzeug",
                                              "the": "das blaue Flugzeug"}, ...}}}

``tiles`` must name every transport tile (with ``the``, the name with its definite article); regions
are listed only where their name differs from the edition's (``"Kalifornien"``) or takes an article.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .i18n import Term

__all__ = ["NamedTile", "Words", "words_from_dict"]


class NamedTile(Protocol):
    """What the words read of a tile (``tendays.engine.Tile`` has it), so
    this module needs no edition."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def is_region(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Words:
    """What an edition's things are called in one language. Get it with ``edition.words(lang)``."""

    lang: str
    region_noun: str  # "state", "Bundesstaat"
    region_noun_plural: str  # "states", "Bundesstaaten"
    any_color_name: str  # what any-colour regions are called: "purple", "lila", "farblos"
    any_color_phrase: str  # what they match: "any colour", "jede Farbe"
    colors: Mapping[str, str]  # colour -> its word: "blue" -> "blau"
    # colour (and "any") -> one letter for screens that cannot rely on colour
    letters: Mapping[str, str]
    terms: tuple[Term, ...]  # each tile's name, by tile index

    def tile(self, index: int) -> Term:
        """A tile's name, in the forms a sentence needs (``f"{term}"``, ``f"{term:the}"``)."""
        return self.terms[index]

    def name(self, index: int | None) -> str:
        """A tile's name as printed on it ("Kalifornien", "blaues
        Flugzeug"); "?" for a hidden tile."""
        return "?" if index is None else self.terms[index].name

    def color(self, color: str | None) -> str:
        """A colour's word ("blau"); ``None`` (an any-colour region) gives the any-colour word."""
        return self.any_color_name if color is None else self.colors[color]

    def letter(self, color: str | None) -> str:
        """A colour's letter ("B"); ``None`` gives the any-colour letter."""
        return self.letters["any" if color is None else color]

    def region_nouns(self, count: int) -> str:
        """The region noun for ``count`` regions: "state" for 1, "states" otherwise."""
        return self.region_noun if count == 1 else self.region_noun_plural

    def to_json(self) -> dict[str, Any]:
        return {
            "region_noun": self.region_noun,
            "region_noun_plural": self.region_noun_plural,
            "any_color_name": self.any_color_name,
            "any_color_phrase": self.any_color_phrase,
            "colors": dict(self.colors),
            "letters": dict(self.letters),
        }


class WordsError(ValueError):
    """A words block of an edition file is incomplete or names unknown things."""


def words_from_dict(
    lang: str,
    data: Mapping[str, Any],
    tiles: Sequence[NamedTile],
    colors: tuple[str, ...],
    any_color_used: bool,
) -> Words:
    """One language's words, checked against the edition: every colour and every transport tile is
    named, letters are single and distinct, and nothing unknown is named. Raises
    :class:`WordsError`."""
    where = f"words {lang!r}"
    for key in (
        "region_noun",
        "region_noun_plural",
        "any_color_name",
        "any_color_phrase",
        "colors",
        "letters",
        "tiles",
    ):
        if key not in data:
            raise WordsError(f"{where}: missing field {key!r}")
    color_words = {str(k): str(v) for k, v in data["colors"].items()}
    if set(color_words) != set(colors):
        raise WordsError(
            f"{where}: colours must name exactly {sorted(colors)}, not {sorted(color_words)}"
        )
    letters = {str(k): str(v) for k, v in data["letters"].items()}
    wanted = {*colors, "any"} if any_color_used else set(colors)
    if not wanted <= set(letters) <= {*colors, "any"}:
        raise WordsError(f"{where}: letters must name {sorted(wanted)}, not {sorted(letters)}")
    if any(len(letter) != 1 for letter in letters.values()) or len(set(letters.values())) != len(
        letters
    ):
        raise WordsError(f"{where}: letters must be single, distinct characters: {letters}")
    by_id = {t.id: t for t in tiles}
    named = data["tiles"]
    unknown = sorted(set(named) - set(by_id))
    if unknown:
        raise WordsError(f"{where}: names unknown tiles {unknown}")
    terms = []
    for tile in tiles:
        entry = named.get(tile.id)
        if entry is None:
            if not tile.is_region:
                raise WordsError(f"{where}: no name for the {tile.id} tile")
            terms.append(Term(tile.name))
            continue
        if not tile.is_region and "the" not in entry:
            raise WordsError(f"{where}: the {tile.id} tile needs its name with the article ('the')")
        name = str(entry.get("name", tile.name))
        terms.append(Term(name, str(entry.get("the", name))))
    return Words(
        lang,
        str(data["region_noun"]),
        str(data["region_noun_plural"]),
        str(data["any_color_name"]),
        str(data["any_color_phrase"]),
        color_words,
        letters,
        tuple(terms),
    )
