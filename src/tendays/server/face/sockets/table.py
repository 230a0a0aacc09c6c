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

Behind a proxy that sends every connection of a game to one process and says so (the header
``X-Tendays-Route: game``, as deploy/nginx/tendays.conf does), the process a table connection comes
to takes the game's lease (:meth:`~tendays.server.matches.lobby.Lobby.serve_here`): one process then
stores, views and sends the game's moves. Without it (a proxy that spreads connections at random)
games stay where they are held, rather than move at every connection.

This module is the connection's life (hello, the rate limit, the held session, goodbye); what each
message after the hello does is :mod:`.table_requests`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from fastapi import WebSocket, WebSocketDisconnect

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import match_language, ngettext, use_language

from ...matches.lobby import Lobby
from ...matches.master import Match
from ...matches.seats import LobbyError, Rejected, Subscriber, hash_token
from ...people.blocks import blocked_by
from ...people.bot_accounts import bot_only_refusal
from ...people.session_ends import Ending, HeldTable, SessionEnds, close_once
from ...vocabulary import ClientKind, RejectionCode
from ..door.keepalive import UTF8_TEXT, SendUtf8, WriteUtf8
from ..door.limits import Limits
from .table_requests import HELLO, answer, asked_language, parse_request

__all__ = [
    "ROUTED_BY_GAME",
    "ROUTE_HEADER",
    "SESSION_ENDED_CLOSE",
    "RateLimiter",
    "SignedIn",
    "serve_table",
]

# The close code of a connection whose session ended or whose seat link was revoked: the browser
# stops reconnecting and asks its reader to sign in.
SESSION_ENDED_CLOSE = 4401

# The header, and its value, of a proxy that routes every connection of a game to one process.
ROUTE_HEADER, ROUTED_BY_GAME = "x-tendays-route", "game"


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
            RejectionCode.MALFORMED,
            _("the seat token goes in the first message ({hello}), never in the address").format(
                hello=HELLO
            ),
            4400,
        )
        return
    try:
        match = await lobby.get(game_id) if len(game_id) <= 32 else None
    except LobbyError as error:
        await _refuse(websocket, RejectionCode.UNAVAILABLE, error.message, 4409)
        return
    if match is None:
        await _refuse(
            websocket,
            RejectionCode.NOT_FOUND,
            _("there is no game '{game}'").format(game=game_id[:32]),
            4404,
        )
        return
    try:
        seat, lang, link = await _hello(
            websocket, match, limits, signed_in.account_id if signed_in else None
        )
        if seat is not None and match.seats[seat].bot_account:  # its program plays the seat
            with use_language(lang):
                raise Rejected(RejectionCode.FORBIDDEN, bot_only_refusal().message)
        held = _holding(match, seat, signed_in, link)
        why = None if ends is None or held is None else await ends.check(held)
        with use_language(lang):
            if why is Ending.LINK_REVOKED:
                # revoked where this process did not hear of it (the operator's reset): follow it
                lobby.changed(match.id, "seat")
                raise Rejected(
                    RejectionCode.FORBIDDEN, _("this seat link is not valid for this game")
                )
            if why is Ending.SIGNED_OUT:
                raise Rejected(RejectionCode(why.value), _ending_words(why))
        if websocket.headers.get(ROUTE_HEADER) == ROUTED_BY_GAME:
            await lobby.serve_here(match)  # the proxy sends every connection of this game here
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
_CLOSE_CODES = {RejectionCode.FORBIDDEN: 4403, RejectionCode.SIGNED_OUT: SESSION_ENDED_CLOSE}


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
        _stop_sending(sender, subscriber)
        with use_language(subscriber.lang):
            words = _ending_words(why)
        await _refuse(websocket, RejectionCode(why.value), words, SESSION_ENDED_CLOSE)

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
                            RejectionCode.RATE_LIMITED,
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
                replies = await answer(lobby, match, subscriber, message, limits)
            for reply in replies:
                subscriber.put(reply)
    except WebSocketDisconnect:
        pass
    finally:
        _stop_sending(sender, subscriber)
        if held is not None and ends is not None:
            ends.tables.discard(held)
        match.unsubscribe(subscriber)
        lobby.release(match)


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
        raise Rejected(
            RejectionCode.MALFORMED, _("say hello first: {hello}").format(hello=HELLO)
        ) from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    request = parse_request(message, limits)
    if isinstance(request, Rejected):
        raise request
    if request.get("type") != ClientKind.HELLO:
        raise Rejected(
            RejectionCode.MALFORMED,
            _("the first message says hello: {hello} (no token to watch)").format(hello=HELLO),
        )
    lang = asked_language(request)
    token = request.get("token")
    if token is None and request.get("account") is True:
        seat = match.seat_of_account(account_id) if account_id is not None else None
        if seat is None:
            with use_language(lang):
                raise Rejected(
                    RejectionCode.FORBIDDEN,
                    _("you have no seat at this game in the account you are signed in to"),
                )
        return seat, lang, None
    if token is None:
        return None, lang, None
    with use_language(lang):
        if not isinstance(token, str) or not 0 < len(token) <= 128:
            raise Rejected(RejectionCode.FORBIDDEN, _("this seat link is not valid for this game"))
        seat = match.seat_for(token)
        if seat is None:
            raise Rejected(RejectionCode.FORBIDDEN, _("this seat link is not valid for this game"))
    if match.seats[seat].left:
        return None, lang, None
    return seat, lang, hash_token(token)


async def _refuse(websocket: WebSocket, code: RejectionCode, message: str, close_code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(Rejected(code, message).to_message().text)
        # A close reason is at most 123 bytes of UTF-8 (a German sentence
        # has more bytes than letters).
        await websocket.close(close_code, message.encode()[:120].decode("utf-8", "ignore"))


def _stop_sending(sender: asyncio.Task[None], subscriber: Subscriber) -> None:
    subscriber.write_now = None  # nothing more goes out, not even from where it is made
    sender.cancel()


async def _send_all(websocket: WebSocket, subscriber: Subscriber) -> None:
    utf8 = (websocket.scope.get("extensions") or {}).get(UTF8_TEXT)
    with contextlib.suppress(Exception):  # the connection went away; the receiving side cleans up
        if utf8 is not None:
            # tendays serve: each text frame straight from orjson's bytes, and written at once
            # where the socket can take it
            write: WriteUtf8 = utf8["write"]
            send: SendUtf8 = utf8["send"]
            subscriber.write_now = write
            await subscriber.send_each(send)
        while True:
            await websocket.send_text(await subscriber.get())
