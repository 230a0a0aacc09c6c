"""The server's log never holds a secret, at any level.

Seat tokens travel in WebSocket messages (the hello, the ``seat`` message of a rematch) and, from an
old or hostile client, in an address (``?token=``, or ``?tok%65n=`` spelt with escapes). At
``--log-level debug`` uvicorn logs every WebSocket frame: those lines are dropped whole (they are
the tables and moves, and may hold tokens). Every other line is redacted twice, each secret replaced
by ``…``:

- by name: a parameter of an address whose name (decoded, however many times it was escaped) says
  token, password, CSRF or session; the same keys in JSON; the session cookie
  (``tendays_session=``); an Argon2 password hash wherever it stands;
- by value: a secret the server was told of (the admin token, :class:`RedactSecrets`), and anything
  that looks like one of the secrets the server makes (:func:`looks_random`: seat tokens, session
  ids and CSRF tokens are 32 or 43 random URL-safe characters), under any name or none, in an
  address (its values decoded first), in JSON or in plain words.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from urllib.parse import unquote_plus

__all__ = ["RedactSecrets", "looks_random", "redact"]

# A query string's parameters: "?name=value" or "&name=value", up to white
# space, a quote or the next one.
_PARAMETER = re.compile(r"(?P<lead>[?&;])(?P<name>[^=&;\s\"'#]*)=(?P<value>[^&;\s\"'#]*)")
# "token": "..." in JSON (perhaps cut short, as a frame's log line is); also escaped quotes; and the
# other secrets' names.
_SECRETS = ("token", "password", "csrf", "session")
_JSON_TOKEN = re.compile(
    r"(\\?\"[a-z_]*(?:token|password|csrf|session)[a-z_]*\\?\"\s*:\s*\\?\")[^\"\\]*", re.IGNORECASE
)
_COOKIE = re.compile(r"(tendays_session=)[^;\s\"',]*")  # a Cookie or Set-Cookie header's session id
# a password hash (PHC string), should one ever be logged
_HASH = re.compile(r"\$argon2(?:id|i|d)\$[^\s\"']*")
# the websockets library's frame lines: "< TEXT '...'", "> TEXT '...'"
_FRAME = re.compile(r"^[<>] ")
# A run of URL-safe characters as long as a random secret of 15 bytes or more. The server's own
# are longer (32 and 43); game ids (8) and seek ids (16) are shorter.
_RUN = re.compile(r"[A-Za-z0-9_-]{20,}")
# Random characters change between lower case, upper case and digit at about 6 in 10 of their
# neighbours (hex: 5 in 10); words and names of code (RequestValidationError, Title-Case-Words) at
# under 1 in 3, and they hold no digit and a third or more vowels (random letters: a fifth). So a
# run is random with 1 change in 5 and a digit or few vowels, or with 7 changes in 20. Of 200,000
# session ids none is missed, of seat tokens about 1 in 50,000 (found by their names all the same).
_CHANGES = 0.2
_CHANGES_OF_WORDS = 0.35
_VOWELS = frozenset("aeiouAEIOU")
_VOWELS_OF_WORDS = 0.3
_UNESCAPE = 3  # escapes undone, at most, to read a name or value spelt with escapes of escapes


def looks_random(run: str) -> bool:
    """Whether ``run`` (letters, digits, ``-`` and ``_``) looks like a random secret."""
    kinds = ["l" if c.islower() else "u" if c.isupper() else "d" for c in run if c not in "-_"]
    changes = sum(a != b for a, b in zip(kinds, kinds[1:], strict=False))
    letters = [c for c in run if c.isalpha()]
    vowels = sum(c in _VOWELS for c in letters)
    wordlike = "d" not in kinds and vowels >= _VOWELS_OF_WORDS * len(letters)
    least = _CHANGES_OF_WORDS if wordlike else _CHANGES
    return len(run) >= 20 and changes >= least * (len(kinds) - 1)


def _unescaped(text: str) -> str:
    for _time in range(_UNESCAPE):
        decoded = unquote_plus(text)
        if decoded == text:
            break
        text = decoded
    return text


def _secret_name(name: str) -> bool:
    name = _unescaped(name).strip().lower()
    return any(secret in name for secret in _SECRETS)


def _secret_value(value: str, known: Iterable[str]) -> bool:
    value = _unescaped(value)
    return any(looks_random(run) for run in _RUN.findall(value)) or any(
        secret in value for secret in known
    )


def redact(text: str, known: Iterable[str] = ()) -> str:
    """``text`` with every secret in it replaced by ``…``; ``known``: secrets to find by value."""
    known = [secret for secret in known if secret]
    if "=" in text:
        text = _PARAMETER.sub(
            lambda m: (
                f"{m['lead']}{m['name']}=…"
                if _secret_name(m["name"]) or _secret_value(m["value"], known)
                else m[0]
            ),
            text,
        )
        text = _COOKIE.sub(r"\1…", text)
    lowered = text.lower()
    if any(secret in lowered for secret in _SECRETS):
        text = _JSON_TOKEN.sub(r"\1…", text)
    if "$argon2" in text:
        text = _HASH.sub("$argon2…", text)
    for secret in known:
        text = text.replace(secret, "…")
    return _RUN.sub(lambda m: "…" if looks_random(m[0]) else m[0], text)


class RedactSecrets(logging.Filter):
    """A logging filter: drops WebSocket frame lines, and redacts secrets in the others; ``known``:
    the secrets the server was given (the admin token), found by value wherever they stand."""

    def __init__(self, known: Iterable[str] = ()) -> None:
        super().__init__()
        self.known = tuple(secret for secret in known if secret)

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and _FRAME.match(record.msg):
            return False
        if isinstance(record.args, tuple):
            record.args = tuple(
                redact(a, self.known) if isinstance(a, str) else a for a in record.args
            )
        elif isinstance(record.args, dict):
            record.args = {
                k: redact(a, self.known) if isinstance(a, str) else a
                for k, a in record.args.items()
            }
        record.msg = redact(str(record.msg), self.known)
        return True
