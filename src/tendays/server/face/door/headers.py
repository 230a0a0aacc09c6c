"""Security headers on every answer of the server: pages, API calls, static files and refusals.

:class:`SecurityHeaders` is an ASGI middleware around the whole app (outside the request guard, so
its refusals carry them too). Every HTTP answer gets

- ``Content-Security-Policy`` (:data:`PAGE_POLICY`): scripts, styles, images and connections from
  this server only, no inline script or style, no plugins, and ``frame-ancestors 'none'``: no other
  site may frame a page, so a button such as "Leave the game" cannot be clickjacked;
- ``X-Frame-Options: DENY``, the same for browsers that predate ``frame-ancestors``;
- ``X-Content-Type-Options: nosniff``: a file is only ever what its ``Content-Type`` says;
- ``Referrer-Policy: same-origin``: addresses of this site are never told to another;
- ``Permissions-Policy`` (:data:`PERMISSIONS`): no camera, microphone, location, payment or USB;
- ``Cross-Origin-Opener-Policy: same-origin``: a page opened from another site shares no window.

An answer that sets one of these itself keeps its own (``/docs`` allows Swagger UI's inline styles).
``Strict-Transport-Security`` is the TLS proxy's to send (``deploy/nginx/tendays.conf``): only it
knows that the site is served over HTTPS.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = ["HEADERS", "PAGE_POLICY", "PERMISSIONS", "SecurityHeaders"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# 'self' covers the tables' WebSocket (ws: and wss: of the same host). The pages' icon is "data:,".
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
PERMISSIONS = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
    "payment=(), usb=()"
)
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", PAGE_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"permissions-policy", PERMISSIONS.encode()),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class SecurityHeaders:
    """ASGI middleware: see the module's text."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] != "http":
            return self.app(scope, receive, send)  # no frame of its own around an open socket
        return self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _value in headers}
                headers += [(name, value) for name, value in HEADERS if name not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
