"""The WebSocket table ``/ws/games/{id}``: say hello (with the seat token, or none to watch), then
play.

The seat token travels in the first message, never in the address: proxies and servers log
addresses. A connection that opens a seat handed to a bot (its person was away) gives the seat back
to the person.

Each connection reads the table in its own language: the ``lang`` of its hello (or of a later
``language`` message), else the address's ``?lang=``, else the browser's ``Accept-Language``, else
English. Its tables (log, verdicts, notices) and every refusal it gets are written in that language.

A connection signed in to a session, or at an account's seat opened with its seat link, holds on
that session or link: it is closed (code 4401, the reason in words) when the session ends or the
link is revoked (:mod:`~tendays.server.people.session_ends`), told at once in this process or
through the cluster, and checked before each message it acts on.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from fastapi import WebSocket, WebSocketDisconnect

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import match_language, ngettext, use_language
from tendays.engine.json_text import loads as json_loads

from ..matches.lobby import Lobby
from ..matches.master import Match
from ..matches.seats import LobbyError, Rejected, Subscriber, hash_token
from ..matches.wire import Outgoing
from ..people.blocks import blocked_by, table_refusal
from ..people.bot_accounts import bot_only_refusal
from ..people.session_ends import Ending, HeldTable, SessionEnds, close_once
from .guard import Limits

__all__ = ["SESSION_ENDED_CLOSE", "RateLimiter", "SignedIn", "serve_table"]

# The close code of a connection whose session ended or whose seat link was revoked: the browser
# stops reconnecting and asks its reader to sign in.
SESSION_ENDED_CLOSE = 4401


class SignedIn(NamedTuple):
    """The session a connection is signed in to: its account and its hash."""

    account_id: int
    session_hash: str


class RateLimiter:
    """A sliding one-second window of accepted messages."""

    def __init__(self, per_second: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_second
        self.clock = clock
        self._accepted: deque[float] = deque()
        self.refused = 0  # refused in a row; a flood of them closes the connection

    def allow(self) -> bool:
        now = self.clock()
        while self._accepted and now - self._accepted[0] >= 1.0:
            self._accepted.popleft()
        if len(self._accepted) >= self.per_second:
            self.refused += 1
            return False
        self._accepted.append(now)
        self.refused = 0
        return True


async def serve_table(
    websocket: WebSocket,
    lobby: Lobby,
    limits: Limits,
    game_id: str,
    signed_in: SignedIn | None = None,
    ends: SessionEnds | None = None,
) -> None:
    """One connection to one table, from hello to goodbye; ``signed_in``: the session the
    connection is signed in to; ``ends``: the process's watch over sessions and seat links
    (None: nothing is held on them)."""
    await websocket.accept()
    with use_language(_language_asked(websocket)):
        await _serve(websocket, lobby, limits, game_id, signed_in, ends)


def _language_asked(websocket: WebSocket) -> str:
    """The language the address or the browser asks for, until the hello says."""
    asked = websocket.query_params.get("lang") or websocket.headers.get("accept-language")
    return match_language(asked[:200] if asked else None)


async def _serve(
    websocket: WebSocket,
    lobby: Lobby,
    limits: Limits,
    game_id: str,
    signed_in: SignedIn | None,
    ends: SessionEnds | None,
) -> None:
    if "token" in websocket.query_params:
        await _refuse(
            websocket,
            "malformed",
            _("the seat token goes in the first message ({hello}), never in the address").format(
                hello=HELLO
            ),
            4400,
        )
        return
    try:
        match = await lobby.get(game_id) if len(game_id) <= 32 else None
    except LobbyError as error:
        await _refuse(websocket, "unavailable", error.message, 4409)
        return
    if match is None:
        await _refuse(
            websocket, "not_found", _("there is no game '{game}'").format(game=game_id[:32]), 4404
        )
        return
    try:
        seat, lang, link = await _hello(
            websocket, match, limits, signed_in.account_id if signed_in else None
        )
        if seat is not None and match.seats[seat].bot_account:  # its program plays the seat
            with use_language(lang):
                raise Rejected("forbidden", bot_only_refusal().message)
        held = _holding(match, seat, signed_in, link)
        why = None if ends is None or held is None else await ends.check(held)
        with use_language(lang):
            if why is Ending.LINK_REVOKED:
                # revoked where this process did not hear of it (the operator's reset): follow it
                lobby.changed(match.id, "seat")
                raise Rejected("forbidden", _("this seat link is not valid for this game"))
            if why is Ending.SIGNED_OUT:
                raise Rejected(why.value, _ending_words(why))
    except Rejected as refusal:
        close_code = _CLOSE_CODES.get(refusal.code, 4400)
        await _refuse(websocket, refusal.code, refusal.message, close_code)
        lobby.release(match)
        return
    except (WebSocketDisconnect, RuntimeError):
        lobby.release(match)
        return
    with use_language(lang):
        await _play(websocket, lobby, limits, match, seat, held, ends)


def _holding(
    match: Match, seat: int | None, signed_in: SignedIn | None, link: str | None
) -> HeldTable | None:
    """What the connection holds on: its session, and the seat link (token hash ``link``) it
    opened an account's seat with, unless it is signed in to that account; None: neither."""
    seat_account = None if seat is None else match.seats[seat].account_id
    session_account = None if signed_in is None else signed_in.account_id
    link_account = (
        seat_account
        if link is not None and seat_account is not None and seat_account != session_account
        else None
    )
    if signed_in is None and link_account is None:
        return None
    return HeldTable(
        match.id,
        seat,
        _not_closable,
        session_hash=None if signed_in is None else signed_in.session_hash,
        session_account=session_account,
        link_account=link_account,
        token_hash=link if link_account is not None else None,
    )


async def _hidden(lobby: Lobby, reader: int | None) -> frozenset[int]:
    """The accounts whose chat the signed-in ``reader`` does not read: those they blocked."""
    if reader is None:
        return frozenset()
    return await lobby.journal.run(blocked_by, lobby.journal.store.engine, reader)


# the close code of a refused hello, by the refusal's code (4400 for any other)
_CLOSE_CODES = {"forbidden": 4403, Ending.SIGNED_OUT.value: SESSION_ENDED_CLOSE}


async def _refuse_if_blocked(lobby: Lobby, match: Match, seat: int) -> None:
    """:class:`Rejected` in words if the seat's account and another at the table block each
    other."""
    account = match.seats[seat].account_id
    if account is None:
        return
    journal = lobby.journal
    refusal = await journal.run(table_refusal, journal.store.engine, match.id, account)
    if refusal is not None:
        raise Rejected("forbidden", refusal)


async def _not_closable(why: Ending) -> None:
    """A held connection's ``close`` until it sits at the table."""


def _ending_words(why: Ending) -> str:
    if why is Ending.SIGNED_OUT:
        return _(
            "your session has ended (you signed out, the password changed or the account was "
            "closed); sign in again to play"
        )
    return _(
        "this seat link no longer opens the seat: the sessions of its account ended; sign in to "
        "that account to play"
    )


async def _play(
    websocket: WebSocket,
    lobby: Lobby,
    limits: Limits,
    match: Match,
    seat: int | None,
    held: HeldTable | None = None,
    ends: SessionEnds | None = None,
) -> None:
    """The connection's life at the table once it said hello, in the language it asked for."""
    if seat is not None and match.seats[seat].away:
        await match.come_back(seat)
    reader = None if held is None else held.session_account
    subscriber = match.subscribe(seat, reader, await _hidden(lobby, reader))
    sender = asyncio.create_task(_send_all(websocket, subscriber))
    limiter = RateLimiter(limits.messages_per_second, limits.clock)

    async def close(why: Ending) -> None:
        sender.cancel()
        with use_language(subscriber.lang):
            words = _ending_words(why)
        await _refuse(websocket, why.value, words, SESSION_ENDED_CLOSE)

    if held is not None and ends is not None:
        held.close = close
        ends.tables.add(held)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect" or (held is not None and held.closing):
                break
            if not limiter.allow():
                if limiter.refused > 2 * limits.messages_per_second:
                    await websocket.close(1008, "too many messages")
                    break
                most = limits.messages_per_second
                with use_language(subscriber.lang):
                    subscriber.put(
                        Rejected(
                            "rate_limited",
                            ngettext(
                                "more than {n} message a second; slow down",
                                "more than {n} messages a second; slow down",
                                most,
                            ).format(n=most),
                        ).to_message()
                    )
                continue
            if held is not None and ends is not None:
                why = await ends.check(held)  # one primary-key read
                if why is not None:
                    if why is Ending.LINK_REVOKED:
                        lobby.changed(match.id, "seat")  # this process may not have heard
                    await close_once(held, why)
                    break
            with use_language(subscriber.lang):  # a ``language`` message changes it
                replies = await _answer(lobby, match, subscriber, message, limits)
            for reply in replies:
                subscriber.put(reply)
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        if held is not None and ends is not None:
            ends.tables.discard(held)
        match.unsubscribe(subscriber)
        lobby.release(match)


HELLO = '{"type": "hello", "token": ..., "lang": "en"}'


async def _hello(
    websocket: WebSocket, match: Match, limits: Limits, account_id: int | None
) -> tuple[int | None, str | None, str | None]:
    """The seat the first message opens (None: a spectator), the language it asks for (None: as
    the address or browser asked) and the hash of the seat link's token that opened the seat (None:
    none did); :class:`Rejected` for anything else. ``"account": true`` instead of a token opens
    the seat of the account the connection is signed in to."""
    try:
        message = await asyncio.wait_for(websocket.receive(), limits.hello_seconds)
    except TimeoutError:
        raise Rejected("malformed", _("say hello first: {hello}").format(hello=HELLO)) from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    request = _parse(message, limits)
    if isinstance(request, Rejected):
        raise request
    if request.get("type") != "hello":
        raise Rejected(
            "malformed",
            _("the first message says hello: {hello} (no token to watch)").format(hello=HELLO),
        )
    lang = _language(request)
    token = request.get("token")
    if token is None and request.get("account") is True:
        seat = match.seat_of_account(account_id) if account_id is not None else None
        if seat is None:
            with use_language(lang):
                raise Rejected(
                    "forbidden",
                    _("you have no seat at this game in the account you are signed in to"),
                )
        return seat, lang, None
    if token is None:
        return None, lang, None
    with use_language(lang):
        if not isinstance(token, str) or not 0 < len(token) <= 128:
            raise Rejected("forbidden", _("this seat link is not valid for this game"))
        seat = match.seat_for(token)
        if seat is None:
            raise Rejected("forbidden", _("this seat link is not valid for this game"))
    if match.seats[seat].left:
        return None, lang, None
    return seat, lang, hash_token(token)


def _language(request: Mapping[str, Any]) -> str | None:
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


def _parse(message: Mapping[str, Any], limits: Limits) -> dict[str, Any] | Rejected:
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        if len(data) > limits.max_message_bytes:
            return _too_large(limits)
        return Rejected("malformed", _("messages are JSON text, not binary"))
    if (
        len(text) > limits.max_message_bytes
        or len(text.encode("utf-8", "replace")) > limits.max_message_bytes
    ):
        return _too_large(limits)
    try:
        request = json_loads(text, parse_constant=_no_constant)
    except ValueError:
        request = None
    if not isinstance(request, dict):
        return Rejected("malformed", _("a message must be a JSON object"))
    return request


def _too_large(limits: Limits) -> Rejected:
    most = limits.max_message_bytes
    return Rejected(
        "too_large",
        ngettext(
            "messages are limited to {n} byte", "messages are limited to {n} bytes", most
        ).format(n=most),
    )


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(Rejected(code, message).to_message().text)
        # A close reason is at most 123 bytes of UTF-8 (a German sentence
        # has more bytes than letters).
        await websocket.close(close_code, message.encode()[:120].decode("utf-8", "ignore"))


async def _send_all(websocket: WebSocket, subscriber: Subscriber) -> None:
    with contextlib.suppress(Exception):  # the connection went away; the receiving side cleans up
        while True:
            await websocket.send_text(await subscriber.get())


KINDS = "'move', 'hint', 'chat', 'leave', 'back', 'end', 'rematch', 'sync', 'language' or 'ping'"


async def _answer(
    lobby: Lobby, match: Match, subscriber: Subscriber, message: Mapping[str, Any], limits: Limits
) -> list[Outgoing]:
    """Handle one client message; the replies for this connection only (the
    new table goes to everyone)."""
    request = _parse(message, limits)
    if isinstance(request, Rejected):
        return [request.to_message()]
    kind, seat = request.get("type"), subscriber.seat
    try:
        if kind == "move":
            await match.submit(seat, request.get("move"), request.get("version"))
            return []
        if kind == "ping":
            return [Outgoing.of({"type": "pong"})]
        if kind == "hint":
            return [await match.hint(seat)]
        if kind == "chat":
            await match.say(seat, request.get("text"))
            return []
        if kind == "sync":
            subscriber.resync()
            return [match.state_message(subscriber)]
        if kind == "language":
            lang = _language(request)
            if lang is None:
                raise Rejected(
                    "malformed",
                    _("say which language: {example}").format(
                        example='{"type": "language", "lang": "de"}'
                    ),
                )
            subscriber.lang = lang
            subscriber.resync()  # the log and the notices again, in the new language
            with use_language(lang):
                return [match.state_message(subscriber)]
        if seat is None:
            raise Rejected(
                "forbidden", _("spectators cannot do that; join the game or open your seat link")
            )
        if kind == "leave":
            await match.leave(seat)
            return []
        if kind == "back":
            await match.come_back(seat)
            return []
        if kind == "end":
            await match.vote_end(seat)
            return []
        if kind == "rematch":  # an invitation to the same people: none where one blocks another
            await _refuse_if_blocked(lobby, match, seat)
            again, token = await lobby.rematch(match, seat)
            seat_again = again.seat_for(token)
            return [
                Outgoing.of(
                    {
                        "type": "seat",
                        "id": again.id,
                        "seat": seat_again,
                        "token": token,
                        "url": f"/play/{again.id}#token={token}",
                    }
                )
            ]
        raise Rejected("malformed", _("unknown message type; send {kinds}").format(kinds=KINDS))
    except Rejected as rejected:
        if rejected.code == "stale":
            # The current table follows, so a client that missed it can choose again at once.
            return [rejected.to_message(), match.state_message(subscriber)]
        return [rejected.to_message()]
    except LobbyError as error:
        return [Rejected("unavailable", error.message).to_message()]
