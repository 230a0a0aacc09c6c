"""Limits on connections, below HTTP: what a client may do before its request's headers are read.

:func:`guarded_http` makes uvicorn's HTTP protocol (httptools) refuse

- request headers (the request line and every header) larger than ``max_header_bytes``: ``431`` and
  the connection closed, as soon as that much has come, so a huge header is never held in memory;
- headers that take longer than ``header_seconds`` to arrive (a client that trickles them, to hold a
  connection open for nothing): the connection is closed;
- more than ``per_client`` connections open at once from one address (trusted proxies excepted,
  since they carry many clients): the new connection is closed at once.

``tendays serve`` runs with it by default, whether or not a proxy is in front (docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import Counter
from typing import Any

import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from tendays.engine.i18n import gettext as _

from .addresses import client_key

__all__ = ["ConnectionLimits", "guarded_http"]


class ConnectionLimits:
    """The limits :func:`guarded_http` enforces, and the open connections it counts per address."""

    def __init__(
        self,
        max_header_bytes: int = 16 * 1024,
        header_seconds: float = 10.0,
        per_client: int = 100,
        trusted_proxies: tuple[str, ...] = (),
    ) -> None:
        self.max_header_bytes = max_header_bytes
        self.header_seconds = header_seconds
        self.per_client = per_client  # 0: no limit
        self.trusted = [ipaddress.ip_network(p, strict=False) for p in trusted_proxies]
        self.open: Counter[str] = Counter()

    def counted(self, address: str) -> bool:
        """Whether connections from ``address`` count against ``per_client``
        (not a trusted proxy's)."""
        if not self.per_client:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return True
        return not any(ip in network for network in self.trusted)


def guarded_http(limits: ConnectionLimits) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with ``limits`` (pass it as ``uvicorn.Config(http=...)``)."""

    def _uncount(address: str | None) -> None:
        if address is not None:
            limits.open[address] -= 1
            if limits.open[address] <= 0:
                del limits.open[address]

    class GuardedHttp(HttpToolsProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._head_bytes = 0
            self._head_done = False
            self._head_timer: asyncio.TimerHandle | None = None
            self._counted: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = client_key(self.client[0]) if self.client else "unknown"
            if limits.counted(address):
                if limits.open[address] >= limits.per_client:
                    # nothing is read or answered: the client holds too many already
                    transport.abort()
                    return
                limits.open[address] += 1
                self._counted = address
            self._wait_for_head()

        def connection_lost(self, exc: Exception | None) -> None:
            _uncount(self._counted)
            self._counted = None
            self._stop_waiting()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> None:
            """A table connection: the WebSocket protocol takes the connection
            over, and uncounts it when lost."""
            super().handle_websocket_upgrade()
            self._stop_waiting()
            counted, self._counted = self._counted, None
            if counted is None:
                return
            protocol = self.transport.get_protocol()
            lost = protocol.connection_lost

            def connection_lost(exc: Exception | None) -> None:
                _uncount(counted)
                lost(exc)

            protocol.connection_lost = connection_lost  # type: ignore[method-assign]

        def data_received(self, data: bytes) -> None:
            if not self._head_done:
                self._head_bytes += len(data)
            super().data_received(data)
            if (
                not self._head_done
                and self._head_bytes > limits.max_header_bytes
                and not self.transport.is_closing()
            ):
                self._refuse_head()

        def on_headers_complete(self) -> None:
            self._head_done = True
            self._stop_waiting()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # the next request's headers, on the same connection
            if not self.transport.is_closing():
                self._head_done, self._head_bytes = False, 0
                self._wait_for_head()

        def _wait_for_head(self) -> None:
            self._stop_waiting()
            self._head_timer = self.loop.call_later(limits.header_seconds, self._head_too_slow)

        def _stop_waiting(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self) -> None:
            self._head_timer = None
            if not self._head_done and not self.transport.is_closing():
                self.transport.close()

        def _refuse_head(self) -> None:
            body = orjson.dumps(
                {
                    "detail": _(
                        "the request's headers are too large (at most {most} bytes)"
                    ).format(most=limits.max_header_bytes)
                }
            )
            self.transport.write(
                b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                b"content-type: application/json\r\nconnection: close\r\n"
                b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
            )
            self.transport.close()
            self._stop_waiting()

    return GuardedHttp
