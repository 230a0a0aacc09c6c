"""How hard a secret is to guess: zxcvbn's estimate for what people type, and the Shannon entropy of
its characters for what should be random.

zxcvbn (Dropbox's estimator, the ``zxcvbn`` package) counts the guesses an attacker who knows
common passwords, words, names, keyboard rows, repeats, sequences and dates would need. Its words
for why a secret is weak are English; :func:`weakness` gives ours, in the reader's language. It
reads the first ``length`` characters (at most :data:`ESTIMATED_LENGTH`): more only add strength,
and its work grows with the length (a password's 40 take up to 12 ms, 72 up to 65 ms).
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from zxcvbn import zxcvbn

from tendays.engine.i18n import gettext as _

from ..matches.notices import N_

__all__ = ["ESTIMATED_LENGTH", "Guesses", "estimate", "shannon_bits", "weakness"]

ESTIMATED_LENGTH = 72  # zxcvbn's own bound
# zxcvbn keeps the hints of a call in a module-wide table: one call at a time
_ONE_AT_A_TIME = threading.Lock()

# zxcvbn's warnings, and ours for the catalogues
_WARNINGS = {
    "Straight rows of keys are easy to guess.": N_("straight rows of keys are easy to guess"),
    "Short keyboard patterns are easy to guess.": N_("short keyboard patterns are easy to guess"),
    'Repeats like "aaa" are easy to guess.': N_('repeats like "aaa" are easy to guess'),
    'Repeats like "abcabcabc" are only slightly harder to guess than "abc".': N_(
        'repeats like "abcabcabc" are hardly harder to guess than "abc"'
    ),
    'Sequences like "abc" or "6543" are easy to guess.': N_(
        'sequences like "abc" or "6543" are easy to guess'
    ),
    "Recent years are easy to guess.": N_("recent years are easy to guess"),
    "Dates are often easy to guess.": N_("dates are easy to guess"),
    "This is a top-10 common password.": N_("it is one of the 10 most common passwords"),
    "This is a top-100 common password.": N_("it is one of the 100 most common passwords"),
    "This is a very common password.": N_("it is a very common password"),
    "This is similar to a commonly used password.": N_("it is close to a common password"),
    "A word by itself is easy to guess.": N_("a word by itself is easy to guess"),
    "Names and surnames by themselves are easy to guess.": N_(
        "names and surnames by themselves are easy to guess"
    ),
    "Common names and surnames are easy to guess.": N_(
        "common names and surnames are easy to guess"
    ),
}


@dataclass(frozen=True, slots=True)
class Guesses:
    """zxcvbn's estimate: its score (0 to 4), the guesses as bits, and its warning (English, or
    empty)."""

    score: int
    bits: float
    warning: str


def estimate(secret: str, hints: Sequence[str] = (), length: int = ESTIMATED_LENGTH) -> Guesses:
    """zxcvbn's estimate of ``secret``'s first ``length`` characters; ``hints`` are words an
    attacker would try first (the account's name)."""
    with _ONE_AT_A_TIME:
        result = zxcvbn(secret[: min(length, ESTIMATED_LENGTH)], user_inputs=list(hints))
    return Guesses(
        int(result["score"]),
        float(result["guesses_log10"]) * math.log2(10),
        str(result["feedback"]["warning"] or ""),
    )


def shannon_bits(secret: str) -> float:
    """The Shannon entropy of ``secret``'s characters times its length: what it would hold if each
    character were drawn at random with the frequencies it shows."""
    counts = Counter(secret)
    total = len(secret)
    return -sum(n * math.log2(n / total) for n in counts.values())


def weakness(guesses: Guesses) -> str:
    """Why a password with these ``guesses`` is refused, in words."""
    why = _WARNINGS.get(guesses.warning)
    if why is None:
        return _("this password is too easy to guess; add a few uncommon words")
    return _("this password is too easy to guess ({why}); add a few uncommon words").format(
        why=_(why)
    )
