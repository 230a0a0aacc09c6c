"""The site as the bridge speaks to it: ndjson streams and JSON calls with the token.

The token travels only in the ``Authorization`` header, never in an address; what this module
raises and logs names it as :func:`token_label` does at most.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx

__all__ = [
    "Answer",
    "Busy",
    "NotFound",
    "Site",
    "SiteError",
    "TokenRefused",
    "token_label",
]

# A stream that says nothing for this long (not even its keep-alive line, sent every few seconds)
# has died without closing: it is opened again.
STREAM_SILENCE = 60.0
CALL_TIMEOUT = 30.0


def token_label(token: str) -> str:
    """The token as logs may name it: its kind and last four characters (``token tdb_…a1b2``)."""
    kind, underscore, _rest = token.partition("_")
    prefix = kind + underscore if underscore and len(kind) <= 8 else ""
    return f"token {prefix}…{token[-4:]}" if len(token) > 8 else "token …"


class SiteError(RuntimeError):
    """The site answered with a refusal the bridge cannot act on; the message is its words."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail


class TokenRefused(SiteError):
    """401 or 403: the token is unknown, revoked, lacks the scope, or its account cannot play."""


class NotFound(SiteError):
    """404: no such game or challenge for this account."""


class Busy(SiteError):
    """429 or 503: try again after ``retry_after`` seconds."""

    def __init__(self, status: int, detail: str, retry_after: float) -> None:
        super().__init__(status, detail)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Answer:
    """A call's answer: its status and its JSON body (an empty dict when it had none)."""

    status: int
    body: dict[str, Any]

    @property
    def detail(self) -> str:
        return _detail(self.body, self.status)


def _detail(body: object, status: int) -> str:
    if isinstance(body, dict):
        detail = body.get("detail")
        if isinstance(detail, str):
            return detail
        if detail is not None:
            return json.dumps(detail)[:300]
    return f"HTTP {status}"


def _refusal(status: int, body: object, retry_after: str | None) -> SiteError:
    detail = _detail(body, status)
    if status in (401, 403):
        return TokenRefused(status, detail)
    if status == 404:
        return NotFound(status, detail)
    if status in (429, 503):
        try:
            wait = float(retry_after or 1.0)
        except ValueError:
            wait = 1.0
        return Busy(status, detail, max(0.0, min(wait, 300.0)))
    return SiteError(status, detail)


class Site:
    """One site, one token. ``transport`` replaces the network (tests)."""

    def __init__(
        self, server: str, token: str, transport: httpx.AsyncBaseTransport | None = None
    ) -> None:
        self.server = server.rstrip("/")
        self.token_label = token_label(token)
        self._client = httpx.AsyncClient(
            base_url=self.server,
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
            timeout=httpx.Timeout(CALL_TIMEOUT),
            transport=transport,
            follow_redirects=False,
        )

    async def close(self) -> None:
        await self._client.aclose()

    @contextlib.asynccontextmanager
    async def stream(self, path: str) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
        """Open the ndjson stream at ``path``: its objects, keep-alive lines skipped. Raises
        :class:`SiteError` for a refusal and ``httpx.TransportError`` for a broken connection."""
        timeout = httpx.Timeout(CALL_TIMEOUT, read=STREAM_SILENCE)
        async with self._client.stream("GET", path, timeout=timeout) as response:
            if response.status_code != 200:
                await response.aread()
                raise _refusal(
                    response.status_code, _json(response), response.headers.get("Retry-After")
                )
            yield _objects(response)

    async def get(self, path: str) -> dict[str, Any]:
        """GET ``path``'s JSON object; refusals raise as :meth:`stream` does."""
        response = await self._client.get(path)
        if response.status_code != 200:
            raise _refusal(
                response.status_code, _json(response), response.headers.get("Retry-After")
            )
        parsed = _json(response)
        return parsed if isinstance(parsed, dict) else {}

    async def post(self, path: str, body: dict[str, Any] | None = None) -> Answer:
        """POST ``body`` to ``path``. A refusal in words (409, 422) is an :class:`Answer`; the
        token refused, 404, 429 and 503 raise as :meth:`stream` does."""
        response = await self._client.post(path, json=body or {})
        status = response.status_code
        if status in (401, 403, 404, 429, 503) or status >= 500:
            raise _refusal(status, _json(response), response.headers.get("Retry-After"))
        parsed = _json(response)
        return Answer(status, parsed if isinstance(parsed, dict) else {})


def _json(response: httpx.Response) -> object:
    try:
        return response.json()
    except ValueError:
        return None


async def _objects(response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    async for line in response.aiter_lines():
        if not line.strip():
            continue  # keep-alive
        try:
            message = json.loads(line)
        except ValueError:
            continue  # not a line of the stream: nothing to act on
        if isinstance(message, dict):
            yield message
