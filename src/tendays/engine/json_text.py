"""JSON read from outside (a table's message, a request's body, a save file, an engine command),
bounded.

Python's parser recurses once per bracket, so a few kilobytes of ``[[[[...`` end in
``RecursionError`` (a traceback, a dropped connection). Every JSON that tendays reads from outside
goes through :func:`loads`, or is checked by :func:`check_depth` first: nesting deeper than
:data:`MAX_DEPTH` is refused as invalid JSON (``json.JSONDecodeError``, a ``ValueError``) before any
parser sees it. No tendays JSON nests deeper than 6.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .i18n import gettext as _

__all__ = ["MAX_DEPTH", "check_depth", "loads"]

MAX_DEPTH = 64

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_STRING_BYTES = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET_BYTES = re.compile(rb"[\[\]{}]")
_OPENING = {"[", "{", ord("["), ord("{")}


def check_depth(text: str | bytes, most: int = MAX_DEPTH) -> None:
    """Raise ``json.JSONDecodeError`` if ``text``'s arrays and objects nest deeper than ``most``."""
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


def loads(text: str | bytes, **options: Any) -> Any:
    """``json.loads`` of ``text``, refusing nesting deeper than :data:`MAX_DEPTH`
    (``json.JSONDecodeError``)."""
    check_depth(text)
    return json.loads(text, **options)
