"""Passwords: which ones are accepted, and how they are kept (Argon2id hashes; the password itself
never is).

Argon2id through argon2-cffi with RFC 9106's second recommended setting: 64 MiB of memory, 3 passes,
4 lanes, a 16-byte random salt and a 32-byte hash. That is stronger than OWASP's least (19 MiB, 2
passes, 1 lane) and takes about 50-100 ms on one core. A hash made with weaker parameters (an older
server) is still read, and replaced at the next sign-in (:func:`needs_rehash`).

A password is refused when it is shorter than :data:`MIN_LENGTH` characters, longer than
:data:`MAX_LENGTH`, the same as the account's name, or one of the 30,000 most common passwords
(shipped as ``people/data/common_passwords.txt.gz``; compared without regard to case).
"""

from __future__ import annotations

import gzip
from functools import cache
from importlib import resources

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from tendays.engine.i18n import gettext as _

from ..matches.text import name_key

__all__ = [
    "HASHER",
    "MAX_LENGTH",
    "MIN_LENGTH",
    "common_passwords",
    "dummy_hash",
    "hash_password",
    "needs_rehash",
    "password_problem",
    "verify",
]

MIN_LENGTH = 10
# Argon2 reads any length; a bound keeps a request from making the server hash megabytes
MAX_LENGTH = 256

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


def password_problem(password: str, name: str) -> str | None:
    """Why ``password`` is refused for the account ``name``, in words; None if it is accepted."""
    if len(password) < MIN_LENGTH:
        return _("a password needs at least {least} characters").format(least=MIN_LENGTH)
    if len(password) > MAX_LENGTH:
        return _("a password has at most {most} characters").format(most=MAX_LENGTH)
    if password.casefold() in common_passwords():
        return _("this password is one of the most common ones; choose another")
    if name_key(password) == name_key(name):
        return _("a password cannot be the account's name")
    return None


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` as a PHC string (salt and parameters inside). Slow on
    purpose: call it off the event loop."""
    return HASHER.hash(password)


def verify(password_hash: str, password: str) -> bool:
    """Whether ``password`` is the one ``password_hash`` was made from
    (slow on purpose, like hashing)."""
    try:
        return HASHER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """The hash was made with other parameters than today's: hash the
    password again when it is at hand."""
    try:
        return HASHER.check_needs_rehash(password_hash)
    except InvalidHashError:
        return True


@cache
def dummy_hash() -> str:
    """A hash to verify against when the name is unknown, so that a wrong name takes as long as a
    wrong password."""
    return HASHER.hash("tendays: no account has this password")
