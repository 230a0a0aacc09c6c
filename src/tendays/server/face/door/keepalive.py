"""WebSocket keep-alive that stays cheap with thousands of connections: pings spread over time, and
only to connections that fell silent.

uvicorn pings every WebSocket on a fixed interval from the moment it opened, so connections opened
together (a server restart, a crowd arriving for an event) are pinged together, in one burst that
holds up every table. :class:`SpreadPings` (given as ``uvicorn.Config(ws=...)``) is its websockets
sans-I/O protocol, which

- pings a connection only once it has been silent (nothing received) for between ``interval`` and
  twice ``interval``, at a moment drawn at random each time: the pings of many connections spread
  evenly, and a connection that speaks on its own (a player making moves) costs none;
- closes a connection whose pong has not come ``timeout`` after the ping (code 1011), so a peer that
  vanished without closing is closed within ``2 * interval + timeout`` of its last word.

``tendays serve --websocket-ping`` sets both (docs/deploy.md).

It also offers the application an ASGI extension in each connection's scope, :data:`UTF8_TEXT`,
to send a text frame whose text is UTF-8 already (as orjson writes it): the same frame as a
``websocket.send`` of that text, without decoding it to send and encoding it again. Its ``send``
waits while the socket's buffer is full, as ``websocket.send`` does; its ``write`` writes only if
it can at once (the connection open, its buffer not full) and says whether it did, so a message
can go out from where it is made, without waking a sending task.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

__all__ = ["UTF8_TEXT", "SendUtf8", "SpreadPings", "WriteUtf8"]

# The scope's extension that sends text frames of UTF-8 bytes (absent under other servers): its
# "send" is a SendUtf8, its "write" a WriteUtf8.
UTF8_TEXT = "tendays.websocket.utf8_text"
SendUtf8 = Callable[[bytes], Awaitable[None]]
WriteUtf8 = Callable[[bytes], bool]

# Jitter for a keep-alive is not a game's chance: no seed is wanted.
_jitter = random.Random()


class SpreadPings(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, pinging silent connections at spread moments
    (``ws_ping_interval`` and ``ws_ping_timeout`` of its config)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.heard = self.loop.time()  # when the peer last sent anything

    def start_keepalive(self) -> None:
        """At the handshake's end: let go of its answer, which nothing reads again (its headers
        are about 1 KiB of each open socket), and look for silence from now."""
        del self.request, self.response
        super().start_keepalive()

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.handshake_initiated and not self.close_sent:  # the application's task starts next
            self.scope["extensions"][UTF8_TEXT] = {"send": self.send_utf8, "write": self.write_utf8}

    def _shut(self) -> bool:
        """Whether no more text may be sent: not accepted, closing or closed."""
        return (
            self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or self.conn.state is not State.OPEN
            or self.transport.is_closing()
        )

    def write_utf8(self, data: bytes) -> bool:
        """Write ``data``, UTF-8 text, in one text frame now if the connection can take it (open,
        its buffer not full); False: nothing was written."""
        if not self.writable.is_set() or self._shut():
            return False
        self.conn.send_text(data)  # websockets frames it (its data is UTF-8 bytes already)
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True

    async def send_utf8(self, data: bytes) -> None:
        """Send ``data``, UTF-8 text, in one text frame: :meth:`send` of a ``websocket.send`` with
        that text, less the text's decoding and encoding (uvicorn's ``ClientDisconnected`` once
        the connection is closing)."""
        while not self.write_utf8(data):
            if self._shut():
                raise ClientDisconnected()
            await self.writable.wait()

    def data_received(self, data: bytes) -> None:
        self.heard = self.loop.time()
        super().data_received(data)

    def schedule_ping(self) -> None:
        """Look again once the connection may have been silent long enough (at the handshake,
        and after each pong)."""
        interval = self.ping_interval
        assert interval is not None
        due = self.heard + interval * (1.0 + _jitter.random())
        self.ping_timer = self.loop.call_later(max(0.0, due - self.loop.time()), self._look)

    def _look(self) -> None:
        self.ping_timer = None
        interval = self.ping_interval
        assert interval is not None
        if self.loop.time() - self.heard < interval:
            self.schedule_ping()  # it spoke meanwhile: no ping needed yet
        else:
            self.send_keepalive_ping()
