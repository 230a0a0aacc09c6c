"""Every message the table socket sends (docs/protocol.md, "WebSocket"), built here and nowhere
else: one function per :class:`~tendays.server.vocabulary.ServerKind`, each giving the
:class:`Outgoing` text for one connection.

The ``state`` and ``chat`` messages carry parts encoded beforehand (``orjson.Fragment``: the log
and chat lines each connection is sent once, see :mod:`.wire`); the others are small and built
whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from ..vocabulary import RejectionCode, ServerKind

__all__ = [
    "Outgoing",
    "chat_message",
    "dumps",
    "error_message",
    "hint_message",
    "pong_message",
    "seat_message",
    "state_message",
]

Json = dict[str, Any]


def dumps(message: Any) -> bytes:
    """Compact JSON, as sent on the wire: its UTF-8 bytes."""
    return orjson.dumps(message)


@dataclass(frozen=True, slots=True)
class Outgoing:
    """An encoded message for one connection. A newer table replaces an unsent older one."""

    # the text as UTF-8, as orjson writes it and as the WebSocket frame carries it
    data: bytes
    is_table: bool = False
    log_end: int = 0  # a table: the log entries and chat lines its receiver has once it is sent
    chat_end: int = 0

    @property
    def text(self) -> str:
        return self.data.decode()

    @classmethod
    def of(cls, message: Json) -> Outgoing:
        return cls(dumps(message))


def state_message(version: int, game: Json, log_end: int, chat_end: int) -> Outgoing:
    """The table at ``version`` as one connection sees it (``game``: docs/protocol.md); once
    sent, its receiver has the log up to ``log_end`` and the chat up to ``chat_end``."""
    return Outgoing(
        dumps({"type": ServerKind.STATE, "version": version, "game": game}),
        is_table=True,
        log_end=log_end,
        chat_end=chat_end,
    )


def chat_message(chat_from: int, lines: Sequence[orjson.Fragment], chat_end: int) -> Outgoing:
    """The chat ``lines`` from ``chat_from`` on; once sent, its receiver has the chat up to
    ``chat_end``."""
    return Outgoing(
        dumps({"type": ServerKind.CHAT, "chat_from": chat_from, "chat": list(lines)}),
        chat_end=chat_end,
    )


def hint_message(distance: int, days: Sequence[int], message: str) -> Outgoing:
    """How far a rack is from a complete journey (``distance`` tiles), the ``days`` to change,
    and the advice in words."""
    return Outgoing.of(
        {"type": ServerKind.HINT, "distance": distance, "days": list(days), "message": message}
    )


def seat_message(game_id: str, seat: int | None, token: str) -> Outgoing:
    """The seat a rematch keeps for its asker: the new game, the seat, its token and its
    address."""
    return Outgoing.of(
        {
            "type": ServerKind.SEAT,
            "id": game_id,
            "seat": seat,
            "token": token,
            "url": f"/play/{game_id}#token={token}",
        }
    )


def error_message(code: RejectionCode | str, message: str) -> Outgoing:
    """A refused message: the rule it broke (``code``) and why, in words."""
    return Outgoing.of({"type": ServerKind.ERROR, "code": code, "message": message})


def pong_message() -> Outgoing:
    """The answer to a ``ping``."""
    return Outgoing.of({"type": ServerKind.PONG})
