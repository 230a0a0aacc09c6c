"""The server's front door: size limits, strict JSON, and per-client limits, before any request is
handled.

:class:`RequestGuard` is an ASGI middleware around the whole app. It refuses

- an address (path and query) longer than ``max_url_bytes``: ``414``;
- a body longer than ``max_body_bytes``, whatever the method (``DELETE`` and ``GET`` too): ``413``,
  at once when the declared length says so, so a 60 MB name is refused before it is read (a body
  without a declared length is cut off as it arrives);
- a body that has not all arrived ``body_seconds`` after the headers (a client that trickles it, to
  hold the server's attention for nothing): ``408``, and the connection is closed;
- a JSON body (any ``Content-Type`` with ``json`` in it, in any letter case, or none) that is not
  strict UTF-8 JSON (``NaN``, ``Infinity``, numbers too large for a double, broken escapes, unpaired
  surrogates, nesting deeper than :data:`~tendays.engine.json_text.MAX_DEPTH`): ``422`` with the
  reason;
- a client that creates games, joins games or opens table connections faster than the operator
  allows: ``429`` with ``Retry-After`` (a table connection is refused with the same status before it
  opens). Games created and joined are counted in the database, in one statement that counts and
  judges (:class:`~tendays.server.people.limits.Attempts`, in fixed one-minute windows), so that a
  burst and several server processes cannot pass the limit; table connections are counted by each
  process;
- a client that opens records from files (``POST /api/replays``, each replayed in the bot workers)
  more than ``replays_per_minute`` times a minute, or while one of its own is still being replayed:
  ``429``, so that one client cannot keep the workers from everyone else's tables.

A client is its address (:func:`client_address`), an IPv6 client its /64 network (one household or
machine gets a /64, and all its addresses count as one). Behind a reverse proxy every request comes
from the proxy, so the address is taken from ``X-Forwarded-For`` only when the connection comes from
one of ``trusted_proxies``: the rightmost address, over every such header line, that is not itself a
trusted proxy; a hop that is not an address is refused (``400``). Anyone else's forwarded headers
are ignored. The client's address is also what the server's access log shows. Every refusal of a
per-client limit is counted in the :class:`LimitBook` for the operator (admin view).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl

import orjson

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import match_language, set_language, use_language
from tendays.engine.json_text import check_depth

from ...people.limits import Attempts
from .addresses import ForwardedError, client_address, over_tls
from .limits import LimitBook, Limits

__all__ = ["RequestGuard", "RequestLanguage", "request_language"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class RequestLanguage:
    """ASGI middleware: every request is answered in its sender's language, the address's ``?lang=``
    or else the ``Accept-Language`` header (:func:`~tendays.engine.i18n.match_language`); English
    when neither fits. The refusals of :class:`RequestGuard` and every error ``detail`` of the app
    are written inside it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] == "websocket":
            # The socket's own task, for its whole life: its language is set there, with no frame
            # held open around the connection (about 1 KiB of each of thousands of open sockets).
            set_language(request_language(scope))
            return self.app(scope, receive, send)
        if scope["type"] == "http":
            return self._http(scope, receive, send)
        return self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        with use_language(request_language(scope)):
            await self.app(scope, receive, send)


def request_language(scope: Scope) -> str:
    """The language a request asks for: ``?lang=`` first, then ``Accept-Language``."""
    for name, value in parse_qsl(scope.get("query_string", b"").decode("latin-1")):
        if name == "lang" and value:
            return match_language(value[:200])
    asked = _header(scope, b"accept-language")
    return match_language(asked[:200] if asked else None)


def _too_many(what: str, per_minute: int, wait: float) -> str:
    """The refusal of a per-client limit, in words."""
    seconds = round(wait)
    if what == "create":
        return _(
            "too many games created from your address (at most {most} a minute); try again in "
            "{seconds} s"
        ).format(most=per_minute, seconds=seconds)
    if what == "join":
        return _(
            "too many games joined from your address (at most {most} a minute); try again in "
            "{seconds} s"
        ).format(most=per_minute, seconds=seconds)
    return _(
        "too many table connections opened from your address (at most {most} a minute); try again "
        "in {seconds} s"
    ).format(most=per_minute, seconds=seconds)


class RequestGuard:
    """ASGI middleware: see the module's text."""

    def __init__(self, app: ASGIApp, limits: Limits, book: LimitBook) -> None:
        self.app = app
        self.limits = limits
        self.book = book
        self.trusted = limits.networks()

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # the handler's own coroutine, not one more frame held around each open socket
        if scope["type"] == "http":
            return self._http(scope, receive, send)
        if scope["type"] == "websocket":
            return self._websocket(scope, receive, send)
        return self.app(scope, receive, send)

    def _client(self, scope: Scope) -> str:
        """The client's address as the limits count it, also put where the access log reads it; and
        whether the request came over TLS (``tendays.tls``: what a session
        cookie's ``Secure`` follows)."""
        scope["tendays.tls"] = over_tls(scope, self.trusted)
        address = scope["tendays.client"] = client_address(scope, self.trusted)
        if scope.get("client"):
            scope["client"] = (address, scope["client"][1])
        return address

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        limits = self.limits
        try:
            address = self._client(scope)
        except ForwardedError as error:
            await _answer(send, 400, str(error))
            return
        url = len(scope.get("raw_path") or scope["path"].encode()) + len(
            scope.get("query_string", b"")
        )
        if url > limits.max_url_bytes:
            await _answer(
                send,
                414,
                _("the address is too long ({size} bytes; at most {most})").format(
                    size=url, most=limits.max_url_bytes
                ),
            )
            return
        method, path = scope["method"], scope["path"]
        # a DELETE or GET that brings a body is bounded like any other
        if method not in ("POST", "PUT", "PATCH") and not _brings_body(scope):
            await self.app(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None and (
            not declared.isdigit() or int(declared) > limits.max_body_bytes
        ):
            await _answer(
                send,
                413,
                _("the request is too large ({size} bytes; at most {most})").format(
                    size=declared[:20], most=limits.max_body_bytes
                ),
            )
            return
        try:
            async with asyncio.timeout(limits.body_seconds):
                body = await _read_body(receive, limits.max_body_bytes)
        except TimeoutError:
            await _answer(
                send,
                408,
                _("the request's body came too slowly (it must arrive within {seconds} s)").format(
                    seconds=f"{limits.body_seconds:g}"
                ),
            )
            return
        if body is None:  # the client went away
            return
        if len(body) > limits.max_body_bytes:
            await _answer(
                send,
                413,
                _("the request is too large (more than {most} bytes)").format(
                    most=limits.max_body_bytes
                ),
            )
            return
        kind = _header(scope, b"content-type")
        # what the app would read as JSON: strict JSON
        if body and (kind is None or "json" in kind.lower()):
            try:
                check_depth(bytes(body))
                orjson.loads(bytes(body))
            # orjson.JSONDecodeError and json.JSONDecodeError are ValueErrors
            except ValueError as error:
                await _answer(
                    send,
                    422,
                    _(
                        "the request is not valid JSON (NaN, Infinity, numbers beyond a double, "
                        "broken escapes and unpaired surrogates are not allowed): {error}"
                    ).format(error=error),
                )
                return
        what = "create" if path == "/api/games" else "join" if path.endswith("/join") else None
        if what is not None:
            per_minute = limits.creates_per_minute if what == "create" else limits.joins_per_minute
            # counted in the database: every server process counts together, and a burst cannot
            # pass the limit (people/limits.py)
            attempts: Attempts = scope["app"].state.attempts
            wait = await attempts.allow(f"{what}:{address}", per_minute, 60.0)
            if wait:
                self.book.note_refusal(what, address)
                await _answer(send, 429, _too_many(what, per_minute, wait), retry_after=wait)
                return
        if method == "POST" and path == "/api/replays":
            await self._replay_record(scope, _replay(bytes(body), receive), send, address)
            return
        await self.app(scope, _replay(bytes(body), receive), send)

    async def _replay_record(
        self, scope: Scope, receive: Receive, send: Send, address: str
    ) -> None:
        """A record opened from a file: within the client's share of the bot workers."""
        most = self.limits.replays_per_minute
        if most and self.book.replaying[address]:
            self.book.note_refusal("replay", address)
            await _answer(
                send,
                429,
                _("a record from your address is still being opened; wait for it, then try again"),
                retry_after=1.0,
            )
            return
        wait = self.book.allow("replay", address, most)
        if wait:
            self.book.note_refusal("replay", address)
            await _answer(
                send,
                429,
                _(
                    "too many records opened from your address (at most {most} a minute); try "
                    "again in {seconds} s"
                ).format(most=most, seconds=round(wait)),
                retry_after=wait,
            )
            return
        self.book.replaying[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.book.replaying[address] -= 1
            if not self.book.replaying[address]:
                del self.book.replaying[address]

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        limits = self.limits
        status, wait, reason = 429, 0.0, None
        try:
            address = self._client(scope)
        except ForwardedError as error:
            address, status, reason = "", 400, str(error)
        if reason is None:
            wait = self.book.allow("connect", address, limits.connections_per_minute)
            reason = _too_many("connect", limits.connections_per_minute, wait) if wait else None
        if (
            reason is None
            and limits.connections_at_once
            and self.book.open[address] >= limits.connections_at_once
        ):
            wait, reason = (
                30.0,
                _(
                    "too many table connections open from your address (at most {most}); close "
                    "some first"
                ).format(most=limits.connections_at_once),
            )
        if reason is not None:
            if status == 429:
                self.book.note_refusal("connect", address)
            await receive()  # websocket.connect
            if "websocket.http.response" in scope.get("extensions", {}):
                body = orjson.dumps({"detail": reason})
                headers = [(b"content-type", b"application/json")]
                if status == 429:
                    headers.append((b"retry-after", str(round(wait)).encode()))
                await send(
                    {"type": "websocket.http.response.start", "status": status, "headers": headers}
                )
                await send({"type": "websocket.http.response.body", "body": body})
            else:
                # a reason is at most 123 bytes of UTF-8
                await send(
                    {
                        "type": "websocket.close",
                        "code": 1013,
                        "reason": reason.encode()[:120].decode("utf-8", "ignore"),
                    }
                )
            return
        self.book.open[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.book.open[address] -= 1
            if not self.book.open[address]:
                del self.book.open[address]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _brings_body(scope: Scope) -> bool:
    """Whether the request says a body follows (a length, or chunks)."""
    declared = _header(scope, b"content-length")
    return _header(scope, b"transfer-encoding") is not None or declared not in (None, "0")


async def _read_body(receive: Receive, most: int) -> bytearray | None:
    """The request's body, read no further than one message past ``most`` bytes; None if the
    client went away."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body += message.get("body", b"")
        if len(body) > most or not message.get("more_body"):
            return body


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _answer(send: Send, status: int, detail: str, retry_after: float | None = None) -> None:
    body = orjson.dumps({"detail": detail})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    # the rest of the request is not read: this connection cannot be reused
    if status in (408, 413, 414):
        headers.append((b"connection", b"close"))
    if retry_after is not None:
        headers.append((b"retry-after", str(max(1, round(retry_after))).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
