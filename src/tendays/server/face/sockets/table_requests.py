"""What the table socket does with a message a client sends (docs/protocol.md, "WebSocket"): the
frame read as a JSON object, the language a message asks for, and one handler per
:class:`~tendays.server.vocabulary.ClientKind` after the hello, found in one table.

Spectators may move, hint, chat, sync and ping (the table refuses what they cannot do in words);
leaving, coming back, ending a game and asking for a rematch need a seat.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, NamedTuple

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import match_language, ngettext, use_language
from tendays.engine.json_text import loads as json_loads

from ...matches.lobby import Lobby
from ...matches.master import Match
from ...matches.messages import Outgoing, pong_message, seat_message
from ...matches.seats import LobbyError, Rejected, Subscriber
from ...people.blocks import table_refusal
from ...vocabulary import ClientKind, RejectionCode
from ..door.limits import Limits

__all__ = ["HELLO", "answer", "asked_language", "handled_kinds", "parse_request"]

# how a hello looks, for the sentences that ask for one
HELLO = f'{{"type": "{ClientKind.HELLO}", "token": ..., "lang": "en"}}'

Request = dict[str, Any]
Replies = list[Outgoing]


def parse_request(message: Mapping[str, Any], limits: Limits) -> Request | Rejected:
    """The JSON object a WebSocket frame holds, or why it is refused (binary, too large, not an
    object, a bare ``NaN``)."""
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        if len(data) > limits.max_message_bytes:
            return _too_large(limits)
        return Rejected(RejectionCode.MALFORMED, _("messages are JSON text, not binary"))
    # a character is at most 4 bytes of UTF-8: a short text is not encoded to be measured
    if len(text) > limits.max_message_bytes or (
        4 * len(text) > limits.max_message_bytes
        and len(text.encode("utf-8", "replace")) > limits.max_message_bytes
    ):
        return _too_large(limits)
    try:
        request = json_loads(text, parse_constant=_no_constant)
    except ValueError:
        request = None
    if not isinstance(request, dict):
        return Rejected(RejectionCode.MALFORMED, _("a message must be a JSON object"))
    return request


def _too_large(limits: Limits) -> Rejected:
    most = limits.max_message_bytes
    return Rejected(
        RejectionCode.TOO_LARGE,
        ngettext(
            "messages are limited to {n} byte", "messages are limited to {n} bytes", most
        ).format(n=most),
    )


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def asked_language(request: Mapping[str, Any]) -> str | None:
    """The language a message asks for (``"lang": "de"``, or tags in order:
    ``["de-AT", "en"]``), or None."""
    asked = request.get("lang")
    if isinstance(asked, str) and 0 < len(asked) <= 200:
        return match_language(asked)
    if (
        isinstance(asked, list)
        and 0 < len(asked) <= 20
        and all(isinstance(tag, str) for tag in asked)
    ):
        return match_language(tag[:35] for tag in asked)
    return None


async def answer(
    lobby: Lobby, match: Match, subscriber: Subscriber, message: Mapping[str, Any], limits: Limits
) -> list[Outgoing]:
    """Handle one client message after the hello; the replies for this connection only (the new
    table goes to everyone)."""
    request = parse_request(message, limits)
    if isinstance(request, Rejected):
        return [request.to_message()]
    kind = request.get("type")
    handling = _HANDLERS.get(kind) if isinstance(kind, str) else None
    try:
        if subscriber.seat is None and (handling is None or handling.seated):
            raise Rejected(
                RejectionCode.FORBIDDEN,
                _("spectators cannot do that; join the game or open your seat link"),
            )
        if handling is None:
            raise Rejected(
                RejectionCode.MALFORMED,
                _("unknown message type; send {kinds}").format(kinds=_KINDS_SAID),
            )
        return await handling.handler(lobby, match, subscriber, request)
    except Rejected as rejected:
        if rejected.code == RejectionCode.STALE:
            # The current table follows, so a client that missed it can choose again at once.
            return [rejected.to_message(), match.state_message(subscriber)]
        return [rejected.to_message()]
    except LobbyError as error:
        return [Rejected(RejectionCode.UNAVAILABLE, error.message).to_message()]


Handler = Callable[[Lobby, Match, Subscriber, Request], Awaitable[Replies]]


class _Handling(NamedTuple):
    handler: Handler
    seated: bool  # only a seat may send it, not a spectator


async def _move(lobby: Lobby, match: Match, subscriber: Subscriber, request: Request) -> Replies:
    await match.submit(subscriber.seat, request.get("move"), request.get("version"))
    return []


async def _ping(lobby: Lobby, match: Match, subscriber: Subscriber, request: Request) -> Replies:
    return [pong_message()]


async def _hint(lobby: Lobby, match: Match, subscriber: Subscriber, request: Request) -> Replies:
    return [await match.hint(subscriber.seat)]


async def _chat(lobby: Lobby, match: Match, subscriber: Subscriber, request: Request) -> Replies:
    await match.say(subscriber.seat, request.get("text"))
    return []


async def _sync(lobby: Lobby, match: Match, subscriber: Subscriber, request: Request) -> Replies:
    subscriber.resync()
    return [match.state_message(subscriber)]


async def _language(
    lobby: Lobby, match: Match, subscriber: Subscriber, request: Request
) -> Replies:
    lang = asked_language(request)
    if lang is None:
        raise Rejected(
            RejectionCode.MALFORMED,
            _("say which language: {example}").format(
                example=f'{{"type": "{ClientKind.LANGUAGE}", "lang": "de"}}'
            ),
        )
    subscriber.lang = lang
    subscriber.resync()  # the log and the notices again, in the new language
    with use_language(lang):
        return [match.state_message(subscriber)]


def _seat(subscriber: Subscriber) -> int:
    """The connection's seat: the table lets only a seat send what asks for it."""
    assert subscriber.seat is not None
    return subscriber.seat


async def _leave(lobby: Lobby, match: Match, subscriber: Subscriber, request: Request) -> Replies:
    await match.leave(_seat(subscriber))
    return []


async def _back(lobby: Lobby, match: Match, subscriber: Subscriber, request: Request) -> Replies:
    await match.come_back(_seat(subscriber))
    return []


async def _end(lobby: Lobby, match: Match, subscriber: Subscriber, request: Request) -> Replies:
    await match.vote_end(_seat(subscriber))
    return []


async def _rematch(lobby: Lobby, match: Match, subscriber: Subscriber, request: Request) -> Replies:
    """An invitation to the same people: none where one blocks another."""
    seat = _seat(subscriber)
    account = match.seats[seat].account_id
    if account is not None:
        journal = lobby.journal
        refusal = await journal.run(table_refusal, journal.store.engine, match.id, account)
        if refusal is not None:
            raise Rejected(RejectionCode.FORBIDDEN, refusal)
    again, token = await lobby.rematch(match, seat)
    return [seat_message(again.id, again.seat_for(token), token)]


# every message after the hello, by its kind (the hello opens the connection: table.py)
_HANDLERS: dict[str, _Handling] = {
    ClientKind.MOVE: _Handling(_move, seated=False),
    ClientKind.HINT: _Handling(_hint, seated=False),
    ClientKind.CHAT: _Handling(_chat, seated=False),
    ClientKind.LEAVE: _Handling(_leave, seated=True),
    ClientKind.BACK: _Handling(_back, seated=True),
    ClientKind.END: _Handling(_end, seated=True),
    ClientKind.REMATCH: _Handling(_rematch, seated=True),
    ClientKind.SYNC: _Handling(_sync, seated=False),
    ClientKind.LANGUAGE: _Handling(_language, seated=False),
    ClientKind.PING: _Handling(_ping, seated=False),
}


def handled_kinds() -> list[ClientKind]:
    """The kinds a connection may send after its hello, in the protocol's order."""
    return [kind for kind in ClientKind if kind in _HANDLERS]


def _said(kinds: list[ClientKind]) -> str:
    """``'move', 'hint' or 'ping'``: the kinds as the refusal of an unknown one lists them."""
    quoted = [f"'{kind}'" for kind in kinds]
    return f"{', '.join(quoted[:-1])} or {quoted[-1]}"


_KINDS_SAID = _said(handled_kinds())
