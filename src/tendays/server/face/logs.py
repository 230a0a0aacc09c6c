"""The server's log never holds a secret, at any level.

Seat tokens travel in WebSocket messages (the hello, the ``seat`` message of a rematch) and, from an
old or hostile client, in an address (``?token=``, or ``?tok%65n=`` spelt with escapes). At
``--log-level debug`` uvicorn logs every WebSocket frame: those lines are dropped whole (they are
the tables and moves, and may hold tokens). In every other line a secret in an address (decoded
first) or in JSON is replaced by ``…``: a token, a password, a CSRF token, a session id
(``tendays_session=`` as a cookie is written too), and an Argon2 password hash wherever it stands.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

__all__ = ["RedactSecrets", "redact"]

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


def _secret(name: str) -> bool:
    name = unquote_plus(name).strip().lower()
    return any(secret in name for secret in _SECRETS)


def redact(text: str) -> str:
    """``text`` with every secret in it replaced by ``…``."""
    if "=" in text:
        text = _PARAMETER.sub(
            lambda m: f"{m['lead']}{m['name']}=…" if _secret(m["name"]) else m[0], text
        )
        text = _COOKIE.sub(r"\1…", text)
    lowered = text.lower()
    if any(secret in lowered for secret in _SECRETS):
        text = _JSON_TOKEN.sub(r"\1…", text)
    if "$argon2" in text:
        text = _HASH.sub("$argon2…", text)
    return text


class RedactSecrets(logging.Filter):
    """A logging filter: drops WebSocket frame lines, and redacts tokens in the others."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and _FRAME.match(record.msg):
            return False
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                k: redact(a) if isinstance(a, str) else a for k, a in record.args.items()
            }
        record.msg = redact(str(record.msg))
        return True
