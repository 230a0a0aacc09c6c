"""Passwords: which ones are accepted, and how they are kept (Argon2id hashes; the password itself
never is).

Argon2id through argon2-cffi with RFC 9106's second recommended setting: 64 MiB of memory, 3 passes,
4 lanes, a 16-byte random salt and a 32-byte hash. That is stronger than OWASP's least (19 MiB, 2
passes, 1 lane) and takes about 50-100 ms on one core. A hash made with weaker parameters (an older
server) is still read, and replaced at the next sign-in (:func:`needs_rehash`).

A password is read in Unicode's NFKC form (:func:`normalised`), so one typed in full-width digits or
with a ligature is the same password as its plain form, and hashed and checked in that form. A hash
made before passwords were normalised still opens with the password as it was typed
(:func:`verify` tries the normalised form, then the typed one, and says when the hash must be made
again).

A password is refused when it is shorter than :data:`MIN_LENGTH` characters or longer than
:data:`MAX_LENGTH` (once normalised), holds a control or an invisible formatting character (a NUL, a
zero-width space: nobody can see what they typed), is the same as the account's name, one of the
30,000 most common passwords (shipped as ``people/data/common_passwords.txt.gz``; compared without
regard to case), or scored below :data:`MIN_SCORE` by zxcvbn on its first :data:`ESTIMATED`
characters (:mod:`~tendays.server.people.strength`).
"""

from __future__ import annotations

import enum
import gzip
import unicodedata
from functools import cache
from importlib import resources

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from tendays.engine.i18n import gettext as _

from ..matches.text import name_key
from .strength import estimate, weakness

__all__ = [
    "HASHER",
    "MAX_LENGTH",
    "MIN_LENGTH",
    "MIN_SCORE",
    "Verified",
    "common_passwords",
    "dummy_hash",
    "hash_password",
    "needs_rehash",
    "normalised",
    "password_problem",
    "verify",
]

MIN_LENGTH = 10
# Argon2 reads any length; a bound keeps a request from making the server hash megabytes
MAX_LENGTH = 256
# zxcvbn's score 3: at least 10^8 guesses. At Argon2id's 50-100 ms a guess on one core, a stolen
# database costs 60-115 core-days per such password (the memory-hard hash leaves GPUs little edge);
# score 2 (10^6) would fall in about a core-day. Online guessing is limited apart.
MIN_SCORE = 3
ESTIMATED = 40  # the characters zxcvbn reads: the first 40 of a longer password decide
# control, formatting (zero-width), and lone surrogate characters: invisible or untypeable
_INVISIBLE = frozenset({"Cc", "Cf", "Cs"})

HASHER = PasswordHasher(
    time_cost=3, memory_cost=64 * 1024, parallelism=4, hash_len=32, salt_len=16, type=Type.ID
)


@cache
def common_passwords() -> frozenset[str]:
    """The shipped list of common passwords, lower case."""
    data = (
        resources.files("tendays.server.people")
        .joinpath("data/common_passwords.txt.gz")
        .read_bytes()
    )
    lines = gzip.decompress(data).decode("utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


class Verified(enum.Enum):
    """What checking a password against a hash found; false only for :attr:`WRONG`."""

    WRONG = "wrong"
    RIGHT = "right"
    RIGHT_AS_TYPED = "right as typed"  # an older hash, of the password before it was normalised

    def __bool__(self) -> bool:
        return self is not Verified.WRONG


def normalised(password: str) -> str:
    """``password`` in Unicode's NFKC form: the form it is judged, hashed and checked in."""
    return unicodedata.normalize("NFKC", password)


def password_problem(password: str, name: str) -> str | None:
    """Why ``password`` is refused for the account ``name``, in words; None if it is accepted."""
    if len(password) > 4 * MAX_LENGTH:  # NFKC may lengthen a text; an absurd one is not read
        return _("a password has at most {most} characters").format(most=MAX_LENGTH)
    password = normalised(password)
    if len(password) < MIN_LENGTH:
        return _("a password needs at least {least} characters").format(least=MIN_LENGTH)
    if len(password) > MAX_LENGTH:
        return _("a password has at most {most} characters").format(most=MAX_LENGTH)
    if password.casefold() in common_passwords():
        return _("this password is one of the most common ones; choose another")
    if any(unicodedata.category(c) in _INVISIBLE for c in password):
        return _(
            "a password cannot hold control or invisible characters (such as a zero-width space)"
        )
    if name_key(password) == name_key(name):
        return _("a password cannot be the account's name")
    guesses = estimate(password, hints=[name], length=ESTIMATED)
    if guesses.score < MIN_SCORE:
        return weakness(guesses)
    return None


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` as a PHC string (salt and parameters inside). Slow on
    purpose: call it off the event loop."""
    return HASHER.hash(normalised(password))


def verify(password_hash: str, password: str) -> Verified:
    """Whether ``password`` is the one ``password_hash`` was made from, normalised or (an older
    hash) as typed. Slow on purpose, like hashing: twice as slow for a wrong password that NFKC
    changes."""
    forms = [(normalised(password), Verified.RIGHT)]
    if forms[0][0] != password:
        forms.append((password, Verified.RIGHT_AS_TYPED))
    for form, verdict in forms:
        try:
            if HASHER.verify(password_hash, form):
                return verdict
        except (VerificationError, InvalidHashError):
            pass
    return Verified.WRONG


def needs_rehash(password_hash: str, verified: Verified = Verified.RIGHT) -> bool:
    """The hash was made with other parameters than today's, or of the password before it was
    normalised: hash the password again when it is at hand."""
    if verified is Verified.RIGHT_AS_TYPED:
        return True
    try:
        return HASHER.check_needs_rehash(password_hash)
    except InvalidHashError:
        return True


@cache
def dummy_hash() -> str:
    """A hash to verify against when the name is unknown, so that a wrong name takes as long as a
    wrong password."""
    return HASHER.hash("tendays: no account has this password")
