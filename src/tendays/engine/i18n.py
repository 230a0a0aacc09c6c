"""Languages: every sentence the engine writes, in the reader's language.

The sentences are gettext messages. Their catalogues are
``tendays/locale/<lang>/LC_MESSAGES/tendays.mo``, compiled from the ``.po`` files beside them
(docs/i18n.md says how to extract, update and compile them). English is the language of the source,
so English needs no catalogue and its sentences are the source's.

The language is chosen per context, not per process: :func:`use_language` sets it for the code that
runs inside the ``with`` block, in this thread or asyncio task only. A server that renders one table
for two seats in two languages renders each seat inside its own ``use_language`` block, and the two
never mix::

    with use_language("de"):
        game.play(move)              # an illegal move is refused in German
        verdict = checker.check(rack)  # "Oberfranken und Niederbayern grenzen nicht aneinander"

Functions that write sentences also take ``lang=`` for a single call (``describe_event(...,
lang="de")``).
"""

from __future__ import annotations

import gettext as _gettext
import re
from collections.abc import Iterable, Sequence
from contextvars import ContextVar
from functools import cache
from importlib import resources

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "FORMS",
    "LanguageBlock",
    "Term",
    "available_languages",
    "current_language",
    "gettext",
    "join_list",
    "match_language",
    "ngettext",
    "pgettext",
    "set_language",
    "translation",
    "use_language",
]

DEFAULT_LANGUAGE = "en"
DOMAIN = "tendays"

_LANGUAGE: ContextVar[str] = ContextVar("tendays_language", default=DEFAULT_LANGUAGE)


@cache
def available_languages() -> tuple[str, ...]:
    """The languages with a catalogue, English first: ``("en", "de")``."""
    root = resources.files("tendays").joinpath("locale")
    found = (
        sorted(
            entry.name
            for entry in root.iterdir()
            if entry.joinpath("LC_MESSAGES", f"{DOMAIN}.mo").is_file()
        )
        if root.is_dir()
        else []
    )
    return (DEFAULT_LANGUAGE, *(lang for lang in found if lang != DEFAULT_LANGUAGE))


def match_language(preferred: str | Iterable[str] | None) -> str:
    """The best language with a catalogue for what a person asked for; English when none fits.

    ``preferred`` is a language tag (``"de"``, ``"de-AT"``), a POSIX locale (``"de_DE.UTF-8"``,
    ``$LANG``) or list of them (``"fr:de"``, ``$LANGUAGE``), an HTTP ``Accept-Language`` value
    (``"fr-CH, de;q=0.9, en;q=0.8"``), or tags in order of preference (a browser's
    ``navigator.languages``).
    """
    if preferred is None:
        return DEFAULT_LANGUAGE
    known = available_languages()
    # The server asks this for every sentence it words, mostly with a code it matched before.
    if isinstance(preferred, str) and preferred in known:
        return preferred
    tags = _ranked(preferred) if isinstance(preferred, str) else list(preferred)
    for tag in tags:
        primary = re.split(r"[-_.@]", tag.strip(), maxsplit=1)[0].lower()
        if primary in known:
            return primary
    return DEFAULT_LANGUAGE


def _ranked(header: str) -> list[str]:
    ranked: list[tuple[float, int, str]] = []
    # ":" separates the tags of $LANGUAGE
    for position, part in enumerate(re.split(r"[,:]", header)):
        tag, _sep, params = part.partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0
        if tag.strip() and quality > 0:
            ranked.append((-quality, position, tag.strip()))
    return [tag for _q, _p, tag in sorted(ranked)]


@cache
def translation(lang: str) -> _gettext.NullTranslations:
    """The catalogue of a language (English: the source's own sentences).
    Unknown languages read as English."""
    if lang == DEFAULT_LANGUAGE or lang not in available_languages():
        return _gettext.NullTranslations()
    path = resources.files("tendays").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.mo")
    with path.open("rb") as file:
        return _gettext.GNUTranslations(file)


def current_language() -> str:
    """The language of sentences written here and now (``"en"`` unless
    :func:`use_language` says otherwise)."""
    return _LANGUAGE.get()


class LanguageBlock:
    """The ``with`` block of :func:`use_language`: a plain class, not a generator, since the
    server enters one for nearly every sentence it words."""

    __slots__ = ("_lang", "_token")

    def __init__(self, lang: str | None) -> None:
        self._lang = lang

    def __enter__(self) -> str:
        lang = self._lang
        chosen = _LANGUAGE.get() if lang is None else match_language(lang)
        self._token = _LANGUAGE.set(chosen)
        return chosen

    def __exit__(self, *exc: object) -> None:
        _LANGUAGE.reset(self._token)


def use_language(lang: str | None) -> LanguageBlock:
    """Write the engine's sentences in ``lang`` inside the block (this thread or task only).

    ``lang`` is matched like :func:`match_language` (``"de_DE.UTF-8"`` gives German); ``None`` keeps
    the current language. The block's value (``as``) is the language chosen.
    """
    return LanguageBlock(lang)


def set_language(lang: str) -> str:
    """Write the engine's sentences in ``lang`` from now on in this thread or task (and in the
    tasks it starts from now on), for a program whose language changes once, such as a terminal
    app whose player chose another edition; :func:`use_language` is for a block. Returns the
    language chosen."""
    chosen = match_language(lang)
    _LANGUAGE.set(chosen)
    return chosen


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translation(_LANGUAGE.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the number ``n`` in the current
    language ("1 Karte", "2 Karten")."""
    return translation(_LANGUAGE.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English
    words in another ``context``."""
    return translation(_LANGUAGE.get()).pgettext(context, message)


def join_list(items: Sequence[object]) -> str:
    """Items as a list in words: "3", "3 and 5", "3, 5 and 8" (in the current language)."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    # TRANSLATORS: the end of a list: "3, 5 and 8" is {head} = "3, 5" and {last} = "8".
    return gettext("{head} and {last}").format(head=", ".join(words[:-1]), last=words[-1])


# the forms of a name a sentence may ask for: "{tile}", "{tile:the}", ...
FORMS = ("", "the", "The", "Name")


class Term:
    """A name that a sentence can put in the form it needs: ``"{tile}"`` is the name as printed on
    the tile ("blaue Bahn", "pink airplane"), ``"{tile:the}"`` the name with its definite article
    ("die blaue Bahn", "the pink airplane") and ``"{tile:The}"`` the same at the start of a
    sentence. Each language's forms come from the edition data, so translations choose the form
    their grammar needs."""

    __slots__ = ("definite", "name")

    def __init__(self, name: str, definite: str | None = None) -> None:
        self.name = name
        self.definite = name if definite is None else definite

    def __format__(self, spec: str) -> str:
        if spec == "":
            return self.name
        if spec == "the":
            return self.definite
        if spec == "The":
            return self.definite[:1].upper() + self.definite[1:]
        if spec == "Name":
            return self.name[:1].upper() + self.name[1:]
        raise ValueError(f"unknown form {spec!r} of a name (forms: {', '.join(map(repr, FORMS))})")

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Term({self.name!r}, {self.definite!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Term) and (self.name, self.definite) == (
            other.name,
            other.definite,
        )

    def __hash__(self) -> int:
        return hash((self.name, self.definite))
