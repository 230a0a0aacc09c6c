"""Names that look alike: the key under which two names a reader cannot tell apart are one name.

The key is built on the confusable *skeleton* of Unicode's UTS #39 (section 4), computed by ICU's
spoof checker (PyICU), which carries Unicode's own confusables data: "Аlice" with a Cyrillic А,
"Alicе" with a Cyrillic е, "Ａlice" in full width and "AIice" with a capital I all have the skeleton
of "Alice". The skeleton keeps case ("alice" is not "Alice"), so the key is, in order:

1. the name's letters (:func:`~tendays.server.matches.text.name_letters`: compatibility forms and
   the characters that draw nothing set aside, one space between words), case kept;
2. their skeleton, case folded, and the skeleton of that: letters of other scripts first become the
   Latin capitals they pass for ("ΝΙΚΕ" in Greek reads as "NIKE"), and only then does case go;
3. capital I and small l are one letter in most fonts, and the skeleton reads I as l but i as i, so
   every i is read as l: "ALICE" and "alice" share one key, at the price that "Ali" and "All"
   do too.

Accounts keep their key in a unique column, and the seats of a game in a unique index per game
(:mod:`tendays.server.storage.schema`, revision 0007), so the database itself refuses a second name
that looks like one already there, however many requests arrive at once.
"""

from __future__ import annotations

import icu

from .text import name_letters

__all__ = ["name_skeleton"]

# The spoof checker's skeleton needs no configuration: the default checker is made once and only
# read after (ICU allows that from several threads).
_CHECKER = icu.SpoofChecker()
# The skeleton's "type": no longer read since ICU 58, when Unicode's confusables became one table.
_ANY_SCRIPT = 0


def _skeleton(text: str) -> str:
    return str(_CHECKER.getSkeleton(_ANY_SCRIPT, text))


def name_skeleton(name: str) -> str:
    """The key two look-alike names share (see the module's text): never shown, only compared."""
    folded = _skeleton(_skeleton(name_letters(name)).casefold())
    return folded.replace("i", "l")
