"""The WebSocket table ``/ws/games/{id}``: say hello (with the seat token, or none to watch), then play.

The seat token travels in the first message, never in the address: proxies and servers log addresses.
A connection that opens a seat handed to a bot (its person was away) gives the seat back to the person.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from .guard import Limits
from .lobby import Lobby
from .master import Match
from .seats import LobbyError, Rejected, Subscriber
from .wire import Outgoing

__all__ = ["RateLimiter", "serve_table"]


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


async def serve_table(websocket: WebSocket, lobby: Lobby, limits: Limits, game_id: str) -> None:
    """One connection to one table, from hello to goodbye."""
    await websocket.accept()
    if "token" in websocket.query_params:
        await _refuse(websocket, "malformed", "the seat token goes in the first message "
                                              "({\"type\": \"hello\", \"token\": ...}), never in the address", 4400)
        return
    try:
        match = await lobby.get(game_id) if len(game_id) <= 32 else None
    except LobbyError as error:
        await _refuse(websocket, "unavailable", error.message, 4409)
        return
    if match is None:
        await _refuse(websocket, "not_found", f"there is no game {game_id[:32]!r}", 4404)
        return
    try:
        seat = await _hello(websocket, match, limits)
    except Rejected as refusal:
        await _refuse(websocket, refusal.code, refusal.message, 4403 if refusal.code == "forbidden" else 4400)
        lobby.release(match)
        return
    except (WebSocketDisconnect, RuntimeError):
        lobby.release(match)
        return
    if seat is not None and match.seats[seat].away:
        await match.come_back(seat)
    subscriber = match.subscribe(seat)
    sender = asyncio.create_task(_send_all(websocket, subscriber))
    limiter = RateLimiter(limits.messages_per_second, limits.clock)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not limiter.allow():
                if limiter.refused > 2 * limits.messages_per_second:
                    await websocket.close(1008, "too many messages")
                    break
                subscriber.put(Rejected("rate_limited", f"more than {limits.messages_per_second} messages "
                                                        "a second; slow down").to_message())
                continue
            for reply in await _answer(lobby, match, subscriber, message, limits):
                subscriber.put(reply)
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        match.unsubscribe(subscriber)
        lobby.release(match)


async def _hello(websocket: WebSocket, match: Match, limits: Limits) -> int | None:
    """The seat the first message opens (None: a spectator); :class:`Rejected` for anything else."""
    try:
        message = await asyncio.wait_for(websocket.receive(), limits.hello_seconds)
    except TimeoutError:
        raise Rejected("malformed", "say hello first: {\"type\": \"hello\", \"token\": ...}") from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    request = _parse(message, limits)
    if isinstance(request, Rejected):
        raise request
    if request.get("type") != "hello":
        raise Rejected("malformed", "the first message says hello: {\"type\": \"hello\", \"token\": ...} (no token "
                                    "to watch)")
    token = request.get("token")
    if token is None:
        return None
    if not isinstance(token, str) or not 0 < len(token) <= 128:
        raise Rejected("forbidden", "this seat link is not valid for this game")
    seat = match.seat_for(token)
    if seat is None:
        raise Rejected("forbidden", "this seat link is not valid for this game")
    return None if match.seats[seat].left else seat


def _parse(message: Mapping[str, Any], limits: Limits) -> dict[str, Any] | Rejected:
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        if len(data) > limits.max_message_bytes:
            return Rejected("too_large", f"messages are limited to {limits.max_message_bytes} bytes")
        return Rejected("malformed", "messages are JSON text, not binary")
    if len(text) > limits.max_message_bytes or len(text.encode("utf-8", "replace")) > limits.max_message_bytes:
        return Rejected("too_large", f"messages are limited to {limits.max_message_bytes} bytes")
    try:
        request = json.loads(text, parse_constant=_no_constant)
    except ValueError:
        request = None
    if not isinstance(request, dict):
        return Rejected("malformed", "a message must be a JSON object")
    return request


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(Rejected(code, message).to_message().text)
        await websocket.close(close_code, message[:120])


async def _send_all(websocket: WebSocket, subscriber: Subscriber) -> None:
    with contextlib.suppress(Exception):  # the connection went away; the receiving side cleans up
        while True:
            await websocket.send_text(await subscriber.get())


KINDS = "'move', 'hint', 'chat', 'leave', 'back', 'end', 'rematch', 'sync' or 'ping'"


async def _answer(lobby: Lobby, match: Match, subscriber: Subscriber, message: Mapping[str, Any],
                  limits: Limits) -> list[Outgoing]:
    """Handle one client message; the replies for this connection only (the new table goes to everyone)."""
    request = _parse(message, limits)
    if isinstance(request, Rejected):
        return [request.to_message()]
    kind, seat = request.get("type"), subscriber.seat
    try:
        if kind == "move":
            await match.play(seat, request.get("move"), request.get("version"))
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
        if seat is None:
            raise Rejected("forbidden", "spectators cannot do that; join the game or open your seat link")
        if kind == "leave":
            await match.leave(seat)
            return []
        if kind == "back":
            await match.come_back(seat)
            return []
        if kind == "end":
            await match.vote_end(seat)
            return []
        if kind == "rematch":
            again, token = await lobby.rematch(match, seat)
            seat_again = again.seat_for(token)
            return [Outgoing.of({"type": "seat", "id": again.id, "seat": seat_again, "token": token,
                                 "url": f"/play/{again.id}#token={token}"})]
        raise Rejected("malformed", f"unknown message type; send {KINDS}")
    except Rejected as rejected:
        if rejected.code == "stale":
            # The current table follows, so a client that missed it can choose again at once.
            return [rejected.to_message(), match.state_message(subscriber)]
        return [rejected.to_message()]
    except LobbyError as error:
        return [Rejected("unavailable", error.message).to_message()]
