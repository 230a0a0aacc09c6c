"""People for the browser tests, made one of two ways.

- :class:`Person`: an account made in the running server's database with a live session (no
  password to hash, no form to fill), acting over HTTP (:meth:`Person.call`) or in a page of its
  own, signed in (:meth:`Person.page`): for tests that need several accounts at once.
- :func:`sign_up_as`: an account signed up on the account page, as a visitor does; such a page
  then opens others (:func:`ready`) and creates games through its own API helper (:func:`create`).
"""

from __future__ import annotations

import json
import secrets
import time
import urllib.request
from typing import Any

from browser_helpers import Page, Server, new_page, sign_up
from sqlalchemy import insert

from tendays.server.matches.text import name_key
from tendays.server.people.accounts import session_hash
from tendays.server.storage.schema import AccountTable, SessionTable
from tendays.server.storage.store import Store

__all__ = ["PASSWORD", "Person", "create", "ready", "sign_up_as"]

PASSWORD = "walking across the map"  # one the account rules accept


class Person:
    """An account with a live session, made in the database (no password to hash)."""

    def __init__(self, server: Server, name: str) -> None:
        self.server, self.name = server, name
        self.session, self.csrf = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        now = time.time()
        store = Store(server.database)
        try:
            with store.engine.begin() as db:
                self.id = db.execute(
                    insert(AccountTable)
                    .values(name=name, name_key=name_key(name), password_hash="-", created=now)
                    .returning(AccountTable.id)
                ).scalar_one()
                db.execute(
                    insert(SessionTable).values(
                        id_hash=session_hash(self.session),
                        account_id=self.id,
                        csrf=self.csrf,
                        created=now,
                        expires=now + 3600,
                    )
                )
        finally:
            store.close()

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """``method path`` with ``body`` as JSON, sent with the session: the answer's JSON."""
        request = urllib.request.Request(
            f"{self.server.url}{path}",
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={
                "Content-Type": "application/json",
                "Cookie": f"tendays_session={self.session}",
                "X-CSRF-Token": self.csrf,
            },
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        """``POST path`` with ``body``, sent with the session: the answer's JSON."""
        return self.call("POST", path, body)

    def page(self, browser: Any, locale: str = "en-US", **options: Any) -> Page:
        """A new page in ``browser``, signed in as the person."""
        page = new_page(browser, locale=locale, **options)
        cookie = {"name": "tendays_session", "value": self.session, "url": self.server.url}
        page.context.add_cookies([cookie])
        return page


def ready(page: Page, url: str) -> None:
    """Open ``url`` and wait until its scripts have drawn it."""
    page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached")


def sign_up_as(page: Page, server: Server, name: str) -> None:
    """Sign up as ``name`` (with :data:`PASSWORD`) on the account page, and wait for the lobby it
    opens to be drawn."""
    sign_up(page, server, name, PASSWORD)
    page.wait_for_selector("body[data-ready]", state="attached")


def create(page: Page, **body: Any) -> dict[str, Any]:
    """A game created through the page's own API helper (it sends the session's CSRF token)."""
    api = "(await import('/static/js/shared/rest.js')).api"
    script = f"async (body) => {api}('/api/games', {{method: 'POST', body}})"
    game: dict[str, Any] = page.evaluate(script, {"edition": "usa", "name": "x", **body})
    return game
