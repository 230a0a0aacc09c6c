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
"""

from __future__ import annotations

import random
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["SpreadPings"]

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
