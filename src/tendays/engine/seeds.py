"""Seeds: the range a game's seed may take (a signed 64-bit whole number) and reading one a person
typed, refused in words naming the range."""

from __future__ import annotations

import re

from .i18n import gettext as _

# A seed is a signed 64-bit whole number: what the server's database stores, and more shuffles than
# could ever be dealt. A longer one is refused, never turned into text (Python refuses to turn an
# integer of over 4,300 digits into text, and the shuffle reads the seed as text).
MIN_SEED = -(2**63)
MAX_SEED = 2**63 - 1
_SEED_TEXT = re.compile(r"-?[0-9]+")
_SEED_DIGITS = 19  # of MIN_SEED and MAX_SEED


def seed_problem(seed: int) -> str | None:
    """Why ``seed`` cannot deal a game, in words; None for a seed from :data:`MIN_SEED` to
    :data:`MAX_SEED`."""
    if MIN_SEED <= seed <= MAX_SEED:
        return None
    digits = _digits(seed)
    return _seed_range(
        seed if digits <= 40 else _("a number of {digits} digits").format(digits=digits)
    )


def _seed_range(given: object) -> str:
    return _("a seed is a whole number from {least} to {most}, not {seed}").format(
        least=MIN_SEED, most=MAX_SEED, seed=given
    )


def parse_seed(text: str) -> int:
    """The seed a person typed (``--seed``, the setup screen); ``ValueError`` in words naming the
    range for anything else, never Python's words for an integer too long to read."""
    typed = text.strip()
    if not _SEED_TEXT.fullmatch(typed):
        shown = typed if len(typed) <= 40 else f"{typed[:40]}…"
        raise ValueError(_("the seed must be a whole number, not {seed!r}").format(seed=shown))
    if len(typed.lstrip("-")) > _SEED_DIGITS:
        raise ValueError(
            _seed_range(_("a number of {digits} digits").format(digits=len(typed.lstrip("-"))))
        )
    seed = int(typed)
    problem = seed_problem(seed)
    if problem is not None:
        raise ValueError(problem)
    return seed


def _digits(number: int) -> int:
    """How many decimal digits ``number`` has, without turning it into text (which Python refuses
    beyond 4,300 digits)."""
    digits = max(1, int(abs(number).bit_length() * 0.30103))  # log10(2)
    while 10**digits <= abs(number):
        digits += 1
    return digits
