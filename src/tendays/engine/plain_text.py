"""Text from outside (a name in a save file or record, a seat, a line from a program), checked and
made safe to show.

A terminal obeys the control characters in what it prints: ESC begins a sequence that can retitle
the window, move the cursor or rewrite the screen, and the C1 controls (U+0080 to U+009F) do the
same on some terminals. Format characters disguise text without being control codes: a
bidirectional override makes a name read backwards, a zero-width space hides inside one. A front
end refuses such text where it is read (:func:`text_problem`, in words naming the field), and every
display passes what it shows through :func:`shown` as the last line of defence.

Unsafe are: the C0 and C1 controls and DEL (category Cc), the format characters (Cf), unpaired
surrogates (Cs) and the line and paragraph separators (Zl, Zp). The format characters that emoji
and scripts are built of stay allowed, as the server's names allow them: the zero-width joiner
(a family emoji), the zero-width non-joiner (Persian and Indic spelling) and the tag characters of
a subdivision flag.
"""

from __future__ import annotations

import unicodedata

from .i18n import gettext as _

__all__ = ["REPLACEMENT", "code_point", "shown", "text_problem", "unsafe_character"]

_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
# zero-width non-joiner and joiner, and the tag characters (a black flag and tags: Scotland)
_BUILDING_FORMATS = frozenset({"\u200c", "\u200d", *map(chr, range(0xE0020, 0xE0080))})
# what :func:`shown` puts in place of an unsafe character
REPLACEMENT = "\ufffd"


def _unsafe(char: str) -> bool:
    return (
        # printable ASCII, by far the most common, is safe without a table look-up
        not " " <= char <= "~"
        and unicodedata.category(char) in _UNSAFE_CATEGORIES
        and char not in _BUILDING_FORMATS
    )


def unsafe_character(text: str) -> str | None:
    """The first character of ``text`` that could take over a terminal or disguise the text, or
    None when there is none."""
    return next((char for char in text if _unsafe(char)), None)


def code_point(char: str) -> str:
    """A character as a reader can look it up: ``U+001B``, ``U+202E RIGHT-TO-LEFT OVERRIDE``."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {name}" if name else f"U+{ord(char):04X}"


def text_problem(text: str, field: str) -> str | None:
    """Why ``text``, read from outside as ``field`` ("name 1", "seat 2"), is refused, in words; None
    when it holds no unsafe character."""
    char = unsafe_character(text)
    if char is None:
        return None
    return _(
        "{field} holds the character {code}: a control or formatting character that could take "
        "over the terminal or disguise the text"
    ).format(field=field, code=code_point(char))


def shown(text: str) -> str:
    """``text`` with every unsafe character replaced by U+FFFD, fit to print anywhere."""
    if unsafe_character(text) is None:
        return text
    return "".join(REPLACEMENT if _unsafe(char) else char for char in text)
