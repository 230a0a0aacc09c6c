"""What people type: display names and table talk, normalised and checked before anyone else sees
them.

Text is normalised to NFC (so "é" typed two ways is one name), runs of white space become one space,
and characters that hide or disguise text are refused: control characters, unpaired surrogates,
private and unassigned code points, and the bidirectional overrides that make text read backwards.
The joiners and selectors that emoji are built of (a family, a flag) are allowed. A text must show
something: one made only of spaces, joiners or blank letters (the Hangul fillers, the blank Braille
pattern) is refused. Everything stays plain text: the browser shows it as text, never as HTML. The
reasons for refusing are in the language of the one who typed (:func:`tendays.engine.use_language`).

A name also loses the characters that draw nothing (zero-width spaces and joiners, the word joiner,
soft hyphens, the grapheme joiner, variation selectors, tag characters), except where they build an
emoji, so "Al\u200bice" is "Alice". :func:`name_key` is what a name reads as whatever its case (the
same letters once compatibility forms, case and every invisible character are set aside): the key an
account is found by. Names that only look alike ("Аlice" with a Cyrillic А) are told apart by
:mod:`~tendays.server.matches.lookalikes`.
"""

from __future__ import annotations

import unicodedata

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

__all__ = ["MAX_NAME", "clean_chat", "clean_name", "name_key", "name_letters"]

MAX_NAME = 32

# Format characters that turn text around or hide it (bidirectional
# embeddings, overrides and isolates).
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)}
# Letters and symbols that draw nothing, so a name of them alone would look empty.
_BLANK = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u180e", "\u034f", "\u17b4", "\u17b5"}


def _check(text: str, is_name: bool) -> str:
    text = unicodedata.normalize("NFC", text)
    for char in text:
        category = unicodedata.category(char)
        if category == "Cc":
            raise ValueError(
                _("a name cannot contain control characters")
                if is_name
                else _("a chat message cannot contain control characters")
            )
        # format characters other than the invisible ones a name sheds (old shaping controls,
        # interlinear annotations, shorthand controls) can disguise text: refused too
        if category in ("Cs", "Co", "Cn") or (
            category == "Cf" and char not in _INVISIBLE and char not in _BIDI
        ):
            code = f"U+{ord(char):04X}"
            raise ValueError(
                _("a name cannot contain the character {code}").format(code=code)
                if is_name
                else _("a chat message cannot contain the character {code}").format(code=code)
            )
        if char in _BIDI:
            raise ValueError(
                _("a name cannot contain characters that change the direction of text")
                if is_name
                else _("a chat message cannot contain characters that change the direction of text")
            )
    if not any(_visible(char) for char in text):
        raise ValueError(
            _("a name needs at least one visible character")
            if is_name
            else _("a chat message needs at least one visible character")
        )
    return text


# Characters that draw nothing: zero-width space, non-joiner and joiner, word joiner and invisible
# operators, soft hyphen, grapheme joiner, Mongolian vowel separator, byte-order mark, variation
# selectors, tags.
_INVISIBLE = {
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\u2061",
    "\u2062",
    "\u2063",
    "\u2064",
    "\u00ad",
    "\u034f",
    "\u180e",
    "\ufeff",
    *map(chr, range(0xFE00, 0xFE10)),
    *map(chr, range(0xE0100, 0xE01F0)),
    *map(chr, range(0xE0000, 0xE0080)),
}
# a subdivision flag (England, Scotland, Wales) is this and tag characters
_BLACK_FLAG = "\U0001f3f4"


def _emoji(char: str) -> bool:
    return unicodedata.category(char) == "So" or "\U0001f3fb" <= char <= "\U0001f3ff"  # skin tones


def _strip_invisible(name: str) -> str:
    """``name`` without the characters that draw nothing, except those that build an emoji: a joiner
    between two emoji, a variation selector after an emoji or a keycap's
    digit, tags after a black flag."""
    kept: list[str] = []
    for index, char in enumerate(name):
        if char in _INVISIBLE:
            before = kept[-1] if kept else ""
            after = name[index + 1] if index + 1 < len(name) else ""
            if char == "\u200d":
                keep = (
                    bool(before)
                    and (_emoji(before) or before == "\ufe0f")
                    and bool(after)
                    and _emoji(after)
                )
            elif char in ("\ufe0e", "\ufe0f"):
                keep = bool(before) and (_emoji(before) or before in "0123456789#*")
            elif "\U000e0000" <= char <= "\U000e007f":
                keep = bool(before) and (
                    before == _BLACK_FLAG or "\U000e0000" <= before <= "\U000e007f"
                )
            else:
                keep = False
            if not keep:
                continue
        kept.append(char)
    return "".join(kept)


def name_letters(name: str) -> str:
    """What a name shows, case kept: its compatibility forms as the plain letters ("Ａ" is "A"),
    without the characters that draw nothing, one space between words."""
    kept = unicodedata.normalize("NFKC", name)
    return " ".join(
        "".join(c for c in kept if c not in _INVISIBLE and unicodedata.category(c) != "Cf").split()
    )


def name_key(name: str) -> str:
    """What a name reads as, whatever its case: one account's name, however it is typed. Names
    that merely look alike are compared by
    :func:`~tendays.server.matches.lookalikes.name_skeleton`."""
    return name_letters(name).casefold()


def _visible(char: str) -> bool:
    category = unicodedata.category(char)
    return not (category[0] in "ZC" or category in ("Mn", "Me") or char in _BLANK)


def clean_name(name: str) -> str:
    """A display name: 1 to 32 characters after normalising; raises ``ValueError`` in words."""
    name = " ".join(_strip_invisible(_check(name, is_name=True)).split())
    if len(name) > MAX_NAME:
        raise ValueError(
            ngettext(
                "a name has at most {most} character, not {count}",
                "a name has at most {most} characters, not {count}",
                MAX_NAME,
            ).format(most=MAX_NAME, count=len(name))
        )
    return name


def clean_chat(text: str, limit: int) -> str:
    """A line of table talk: one line of at most ``limit`` characters;
    raises ``ValueError`` in words."""
    if not isinstance(text, str):
        raise ValueError(_("a chat message is a text"))
    text = " ".join(text.replace("\t", " ").replace("\r", " ").replace("\n", " ").split(" "))
    text = " ".join(_check(text, is_name=False).split())
    if len(text) > limit:
        raise ValueError(
            ngettext(
                "a chat message has at most {most} character, not {count}",
                "a chat message has at most {most} characters, not {count}",
                limit,
            ).format(most=limit, count=len(text))
        )
    return text
