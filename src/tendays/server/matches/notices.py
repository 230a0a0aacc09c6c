"""The table's own notices in the chat ("Anna left the game: …"), stored as data and read in each
reader's language.

A notice is stored as a message of the catalogues and its parameters, not as a sentence: two players
at one table may read two languages, and each connection is sent the notice in its own
(docs/i18n.md). The stored text is a small JSON object, ``{"notice": msgid, "args": {...}}`` (with
``"plural"`` and ``"n"`` for a message with a number, ``"sentence": true`` for one shown capitalised
with a full stop), in the chat line's text column. Notices stored before were English sentences;
they read as they are, in every language.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from tendays.engine.i18n import gettext, ngettext

__all__ = ["N_", "Plural", "encode_notice", "mark_plural", "render_notice"]

_PREFIX = '{"notice":'  # no name or sentence of an older notice starts like this


# N_ is the gettext convention's name for a mark that only extracts a message.
def N_(message: str) -> str:  # noqa: N802
    """Mark ``message`` for the catalogues without translating it here: it
    is translated for each reader."""
    return message


class Plural(NamedTuple):
    """A message with a number, marked for the catalogues: its singular and
    plural msgids, and the number."""

    singular: str
    plural: str
    n: int


def mark_plural(singular: str, plural: str, n: int) -> Plural:
    """Mark a message with a number for the catalogues without translating it here. Import it as
    ``ngettext`` (``from .notices import mark_plural as ngettext``): extraction knows messages with
    plurals by that name."""
    return Plural(singular, plural, n)


def encode_notice(message: str | Plural, *, sentence: bool = False, **args: str | int) -> str:
    """The stored form of a notice: ``message`` (a msgid, or a :class:`Plural`)
    and its parameters."""
    data: dict[str, Any] = {"notice": message, "args": args}
    if isinstance(message, Plural):
        data["notice"], data["plural"], data["n"] = message
    if sentence:
        data["sentence"] = True
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def render_notice(stored: str) -> str:
    """A stored notice in the current language; text that is not a stored
    notice (an older one) as it is."""
    if not stored.startswith(_PREFIX):
        return stored
    try:
        data = json.loads(stored)
        message, args = data["notice"], dict(data.get("args") or {})
        plural, n = data.get("plural"), data.get("n", 0)
        english = (message if plural is None or n == 1 else plural).format(n=n, **args)
        try:
            template = gettext(message) if plural is None else ngettext(message, plural, n)
            text = template.format(n=n, **args)
        except (KeyError, IndexError, ValueError):
            text = english  # a broken translation never hides the notice
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        return stored
    if data.get("sentence"):
        text = text[:1].upper() + text[1:] + "."
    return str(text)
