"""``/ws/me``: the live line of a signed-in page to its account's inbox, and its presence.

Every page of the site opens it when someone is signed in (its session cookie, from this server's
own pages). The server speaks, the page only listens:

- first ``{"type": "hello", "unread": n}``;
- ``{"type": "notification", "id", "kind", "data", "created_at", "read"}`` for each new (or
  refreshed) notification, as soon as the transaction that wrote it commits, in any server process;
- ``{"type": "unread", "unread": n}`` whenever the unread count changes (also when another page of
  the account marked notifications read).

A page opened by nobody signed in is closed with code 4401 at once; an open one is closed with 4401
when its session ends (sign-out, a new password, the account closed), told at once in this process
or through the cluster, and checked every :data:`~tendays.server.people.presence.TOUCH_SECONDS`
(when the socket also says its account is still online).

:class:`InboxSockets` keeps this process's sockets by account and wakes them when an inbox changed:
on PostgreSQL told by the cluster's ``inbox`` notices, on SQLite by the commits of this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from fastapi import WebSocket, WebSocketDisconnect

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import match_language, use_language

from ...matches.lobby import Lobby
from ...people.notifications import Notification, listen, unread_count, unread_newest
from ...people.presence import TOUCH_SECONDS, touch
from ...people.session_ends import Ending, HeldTable, SessionEnds, close_once
from ...vocabulary import RejectionCode
from .table import SESSION_ENDED_CLOSE

__all__ = ["FOLLOWED", "InboxSockets", "serve_me"]

log = logging.getLogger("tendays.server")

#: How many of the newest unread notifications a socket compares to find the new ones.
FOLLOWED = 20

# the game id of a held page socket: it holds on its session, not on a table
_NO_GAME = ""


@dataclass(eq=False)
class _Page:
    """One open ``/ws/me`` socket: its account, and what it last told its page."""

    account_id: int
    woken: asyncio.Event = field(default_factory=asyncio.Event)
    unread: int = -1
    # {id: created} of the newest unread notifications the page was told of
    known: dict[int, float] = field(default_factory=dict)
    newest: int = 0


class InboxSockets:
    """This process's ``/ws/me`` sockets, by account, woken when an account's inbox changes."""

    def __init__(self, lobby: Lobby, ends: SessionEnds) -> None:
        self.lobby = lobby
        self.ends = ends
        self._pages: dict[int, set[_Page]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_listening: Callable[[], None] | None = None

    def start(self) -> None:
        """Hear of inbox changes: the cluster's notices, or this process's commits."""
        self._loop = asyncio.get_running_loop()
        if self.lobby.cluster is not None:
            self.lobby.cluster.on_inbox = self.changed
        else:
            self._stop_listening = listen(self.lobby.journal.store.engine, self._committed)

    def close(self) -> None:
        if self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None

    def changed(self, account_id: int) -> None:
        """The account's inbox changed: its sockets here read it again."""
        for page in self._pages.get(account_id, ()):
            page.woken.set()

    def _committed(self, account_id: int) -> None:
        """A commit of this process changed the inbox (called on the committing thread)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self.changed, account_id)

    def add(self, page: _Page) -> None:
        self._pages.setdefault(page.account_id, set()).add(page)

    def discard(self, page: _Page) -> None:
        pages = self._pages.get(page.account_id)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self._pages[page.account_id]

    def open_pages(self, account_id: int) -> int:
        """How many sockets of the account this process holds."""
        return len(self._pages.get(account_id, ()))

    async def read(self, account_id: int, with_touch: bool) -> tuple[int, list[Notification]]:
        """The unread count and newest unread notifications; the presence touched first if asked.
        Alone on SQLite this runs on the writer's thread, so it reads after the commit that woke
        it; on PostgreSQL the notice comes after the commit, and a reader thread does."""
        journal = self.lobby.journal
        engine = journal.store.engine

        def work() -> tuple[int, list[Notification]]:
            if with_touch:
                with engine.begin() as db:
                    touch(db, account_id, time.time())
            with engine.connect() as db:
                return unread_count(db, account_id), unread_newest(db, account_id, FOLLOWED)

        if journal.store.shared and not with_touch:
            return await journal.read(work)
        return await journal.run(work)


def _language_asked(websocket: WebSocket) -> str:
    asked = websocket.query_params.get("lang") or websocket.headers.get("accept-language")
    return match_language(asked[:200] if asked else None)


def _signed_out_words() -> str:
    return _("your session has ended (you signed out, or it expired); sign in again")


async def serve_me(
    websocket: WebSocket,
    sockets: InboxSockets,
    account_id: int | None,
    session_hash: str | None,
) -> None:
    """One page's socket, from hello to close; ``account_id`` and ``session_hash``: the session the
    socket is signed in to (None: nobody, refused with 4401)."""
    await websocket.accept()
    with use_language(_language_asked(websocket)):
        words = _signed_out_words()
    if account_id is None or session_hash is None:
        await _close(websocket, words)
        return
    page = _Page(account_id)
    ended = asyncio.Event()

    async def close(_why: Ending) -> None:
        ended.set()
        page.woken.set()
        await _close(websocket, words)

    held = HeldTable(_NO_GAME, None, close, session_hash=session_hash, session_account=account_id)
    sockets.add(page)
    sockets.ends.tables.add(held)
    try:
        unread, newest = await sockets.read(account_id, with_touch=True)
        page.unread = unread
        page.known = {n.id: n.created for n in newest}
        page.newest = max(page.known, default=0)
        await websocket.send_json({"type": "hello", "unread": unread})
        await _follow(websocket, sockets, page, held, ended)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the page went away, or was closed meanwhile
    except Exception:  # the database failed: the page opens its line again after a while
        log.exception("a page's inbox socket failed")
        with contextlib.suppress(Exception):
            await websocket.close(1011, "try again")
    finally:
        sockets.discard(page)
        sockets.ends.tables.discard(held)


async def _follow(
    websocket: WebSocket,
    sockets: InboxSockets,
    page: _Page,
    held: HeldTable,
    ended: asyncio.Event,
) -> None:
    """Tell the page of each change until it goes away or its session ends."""
    gone = asyncio.create_task(_until_gone(websocket), name="a page's socket")
    try:
        last_touch = time.monotonic()
        while not gone.done() and not ended.is_set():
            waiting = asyncio.create_task(page.woken.wait())
            left = max(0.0, TOUCH_SECONDS - (time.monotonic() - last_touch))
            await asyncio.wait({gone, waiting}, timeout=left, return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
            if gone.done() or ended.is_set():
                break
            due = time.monotonic() - last_touch >= TOUCH_SECONDS
            if due:
                # a session ended where this process did not hear of it (the operator's reset)
                if await sockets.ends.check(held) is not None:
                    await close_once(held, Ending.SIGNED_OUT)
                    break
                last_touch = time.monotonic()
            if not page.woken.is_set() and not due:
                continue
            page.woken.clear()
            unread, newest = await sockets.read(page.account_id, with_touch=due)
            await _tell(websocket, page, unread, newest)
    finally:
        gone.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await gone


async def _tell(websocket: WebSocket, page: _Page, unread: int, newest: list[Notification]) -> None:
    """Send the page what is new since it was last told: notifications, then the count."""
    fresh = [
        n
        for n in reversed(newest)  # oldest first, so the page shows the newest last
        if n.id > page.newest or (n.id in page.known and page.known[n.id] != n.created)
    ]
    for notification in fresh:
        await websocket.send_json({"type": "notification", **notification.to_json()})
    page.known = {n.id: n.created for n in newest}
    page.newest = max([page.newest, *page.known])
    if unread != page.unread:
        page.unread = unread
        await websocket.send_json({"type": "unread", "unread": unread})


async def _until_gone(websocket: WebSocket) -> None:
    """Read (and ignore) what the page sends until it closes."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return


async def _close(websocket: WebSocket, words: str) -> None:
    """Say why in words, then close with 4401: the page stops reconnecting."""
    with contextlib.suppress(Exception):
        await websocket.send_json(
            {"type": "error", "code": RejectionCode.SIGNED_OUT, "message": words}
        )
        await websocket.close(SESSION_ENDED_CLOSE, "signed out")
