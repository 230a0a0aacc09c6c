"""JSON read from outside (a table's message, a request's body, a save file, an engine command),
bounded.

Python's parser recurses once per bracket, so a few kilobytes of ``[[[[...`` end in
``RecursionError`` (a traceback, a dropped connection). Every JSON that tendays reads from outside
goes through :func:`loads`, or is checked by :func:`check_depth` first: nesting deeper than
:data:`MAX_DEPTH` is refused as invalid JSON (``json.JSONDecodeError``, a ``ValueError``) before any
parser sees it. No tendays JSON nests deeper than 6.

A whole number of more than :data:`MAX_DIGITS` digits is refused too (:class:`NumberTooLongError`,
a ``json.JSONDecodeError``): every number tendays reads fits in 64 bits, and Python refuses to read
one of over 4,300 digits with words of its own (a traceback in a command that expects only
``JSONDecodeError``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .i18n import gettext as _
from .i18n import ngettext

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "NumberTooLongError", "check_depth", "loads"]

MAX_DEPTH = 64
MAX_DIGITS = 20  # 2**64 has 20 digits: every 64-bit number, signed or not, fits


class NumberTooLongError(json.JSONDecodeError):
    """A whole number of more digits than :data:`MAX_DIGITS`; the message names the limit."""

    def __init__(self, digits: int) -> None:
        message = ngettext(
            "a whole number of {digits} digits: tendays reads numbers of at most {most} digit",
            "a whole number of {digits} digits: tendays reads numbers of at most {most} digits",
            MAX_DIGITS,
        ).format(digits=digits, most=MAX_DIGITS)
        # not JSONDecodeError's own message, which would point at a position it does not know
        ValueError.__init__(self, message)
        self.msg, self.doc, self.pos, self.lineno, self.colno = message, "", 0, 1, 1
        self.digits = digits

    def __reduce__(self) -> tuple[type[NumberTooLongError], tuple[int]]:
        return type(self), (self.digits,)


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise NumberTooLongError(digits)
    return int(text)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_STRING_BYTES = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET_BYTES = re.compile(rb"[\[\]{}]")
_OPENING = {"[", "{", ord("["), ord("{")}


def check_depth(text: str | bytes, most: int = MAX_DEPTH) -> None:
    """Raise ``json.JSONDecodeError`` if ``text``'s arrays and objects nest deeper than ``most``."""
    if isinstance(text, bytes):
        openings = text.count(b"[") + text.count(b"{")
    else:
        openings = text.count("[") + text.count("{")
    if openings <= most:
        return  # too few openings to nest deeper, whatever the strings hold (most messages)
    if isinstance(text, bytes):
        kinds: list[str | int] = [
            found[0][0] for found in _BRACKET_BYTES.finditer(_STRING_BYTES.sub(b'""', text))
        ]
    else:
        kinds = [found[0] for found in _BRACKET.finditer(_STRING.sub('""', text))]
    level = 0
    for kind in kinds:
        level += 1 if kind in _OPENING else -1
        if level > most:
            raise json.JSONDecodeError(
                _("arrays and objects nested deeper than {most} levels").format(most=most), "", 0
            )


# json.loads builds a decoder for each call given a parse_int; these are kept, by the options given
# beside it (a table's message, several a second on each connection, is read with the same ones),
# as json.loads keeps its own default decoder
_DECODERS: dict[tuple[tuple[str, Any], ...], json.JSONDecoder] = {}


def loads(text: str | bytes, **options: Any) -> Any:
    """``json.loads`` of ``text``, refusing nesting deeper than :data:`MAX_DEPTH` and whole numbers
    longer than :data:`MAX_DIGITS` digits (``json.JSONDecodeError``)."""
    check_depth(text)
    options = {"parse_int": _bounded_int, **options}
    if "cls" in options or not isinstance(text, str) or text.startswith("\ufeff"):
        return json.loads(text, **options)
    key = tuple(options.items())
    try:
        decoder = _DECODERS.get(key)
    except TypeError:  # an option that is no key (none of tendays' own)
        return json.loads(text, **options)
    if decoder is None:
        if len(_DECODERS) > 32:  # options made afresh for each call: keep none for long
            _DECODERS.clear()
        decoder = _DECODERS[key] = json.JSONDecoder(**options)
    return decoder.decode(text)
