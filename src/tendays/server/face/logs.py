"""The server's log never holds a secret, at any level.

Seat tokens travel in WebSocket messages (the hello, the ``seat`` message of a rematch) and, from an old or
hostile client, in an address (``?token=``, or ``?tok%65n=`` spelt with escapes). At ``--log-level debug``
uvicorn logs every WebSocket frame: those lines are dropped whole (they are the tables and moves, and may
hold tokens). In every other line a token, in an address (decoded first) or in JSON, is replaced by ``…``.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

__all__ = ["RedactSecrets", "redact"]

# A query string's parameters: "?name=value" or "&name=value", up to white space, a quote or the next one.
_PARAMETER = re.compile(r"(?P<lead>[?&;])(?P<name>[^=&;\s\"'#]*)=(?P<value>[^&;\s\"'#]*)")
# "token": "..." in JSON (perhaps cut short, as a frame's log line is); also escaped quotes.
_JSON_TOKEN = re.compile(r"(\\?\"token\\?\"\s*:\s*\\?\")[^\"\\]*")
_FRAME = re.compile(r"^[<>] ")  # the websockets library's frame lines: "< TEXT '...'", "> TEXT '...'"


def _secret(name: str) -> bool:
    return "token" in unquote_plus(name).strip().lower()


def redact(text: str) -> str:
    """``text`` with every token in it replaced by ``…``."""
    if "=" in text:
        text = _PARAMETER.sub(lambda m: f"{m['lead']}{m['name']}=…" if _secret(m["name"]) else m[0], text)
    if "token" in text:
        text = _JSON_TOKEN.sub(r"\1…", text)
    return text


class RedactSecrets(logging.Filter):
    """A logging filter: drops WebSocket frame lines, and redacts tokens in the others."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and _FRAME.match(record.msg):
            return False
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(a) if isinstance(a, str) else a for k, a in record.args.items()}
        record.msg = redact(str(record.msg))
        return True
