"""What the browser tests share: the server in a subprocess, Chromium pages, and a person's actions."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 30_000

Page = Any  # playwright.sync_api.Page


# -- the server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# The server app as ``tendays serve`` builds it, but with bots that do not pause (unless the settings say)
# and games dealt from a fixed sequence of seeds, so every run of these tests plays the same games. Settings
# and limits may be changed (JSON), e.g. to allow clocks of a second or two.
SERVE = """
import itertools, json, sys, uvicorn
from tendays.server.face.app import Limits, create_app
from tendays.server.settings import MasterSettings
from tendays.server.settings import PaceLimits
port, database, first_seed = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
changes, limits = json.loads(sys.argv[4]), json.loads(sys.argv[5])
seeds = itertools.count(first_seed)
paces = PaceLimits(**changes.pop("paces", {}))
admin_token = changes.pop("admin_token", None)
settings = MasterSettings(**{"bot_delay": 0, "draft_delay": 0, **changes}, seed_source=lambda: next(seeds),
                          paces=paces)
app = create_app(database, settings, Limits(**limits), admin_token=admin_token)
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", proxy_headers=False)
"""
FIRST_SEED = 5


class Server:
    """The server in a subprocess; it can be killed and started again on the same database."""

    def __init__(
        self, database: Path, settings: dict[str, Any] | None = None, limits: dict[str, Any] | None = None
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = f"sqlite:///{database}"
        self.settings = settings or {}
        # Every browser of the tests shares one address: the per-client limits are tested elsewhere.
        self.limits = (
            limits
            if limits is not None
            else {"creates_per_minute": 0, "joins_per_minute": 0, "connections_per_minute": 0, "connections_at_once": 0}
        )
        self.process: subprocess.Popen[bytes] | None = None
        self.printed = ""  # the file its output goes to, once started

    def start(self) -> None:
        command = [
            sys.executable,
            "-c",
            SERVE,
            str(self.port),
            self.database,
            str(FIRST_SEED),
            json.dumps(self.settings),
            json.dumps(self.limits),
        ]
        # What it prints goes to a file: a pipe nobody reads while the server runs fills with a long
        # run's warnings and then blocks the server's every write, and so its event loop.
        handle, self.printed = tempfile.mkstemp(prefix="tendays-browser-serve-", suffix=".log")
        with os.fdopen(handle, "ab") as printed:
            self.process = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=printed, env={**os.environ, "PYTHONUNBUFFERED": "1"}
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                error = Path(self.printed).read_text(errors="replace")
                raise RuntimeError(f"tendays serve exited with {self.process.returncode}: {error}")
            try:
                with urllib.request.urlopen(f"{self.url}/health", timeout=1) as answer:
                    if json.load(answer)["status"] == "ok":
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("tendays serve did not answer /health within 30 s")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.process = None
        if self.printed:
            Path(self.printed).unlink(missing_ok=True)


def new_page(browser: Any, width: int = 1280, height: int = 900, **options: Any) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors  # checked at the end of each test
    page.wait_for_function = _as_function(page.wait_for_function)
    return page


# The start of a JavaScript function: "() =>", "([v]) =>", "async () =>", "function".
_FUNCTION = re.compile(r"\s*(async\s+)?(function\b|\([^()]*\)\s*=>|\w+\s*=>)")


def _as_function(wait_for_function: Any) -> Any:
    """Playwright polls a bare expression with eval(), which the pages' Content-Security-Policy refuses
    (no 'unsafe-eval'); the same expression as a function is polled without it."""

    def wait(expression: str, **options: Any) -> Any:
        if not _FUNCTION.match(expression):
            expression = f"() => ({expression})"
        return wait_for_function(expression, **options)

    return wait


def open_lobby(page: Page, url: str | None = None) -> None:
    """Open the lobby at ``url`` (or take the one loading) and wait until its form is wired and filled in."""
    if url is not None:
        page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached")


# -- what a person does at the table -----------------------------------------------------------


def rack_tiles(page: Page) -> list[str | None]:
    """The tile ids on the rack, day by day (None for an empty day)."""
    tiles: list[str | None] = page.eval_on_selector_all(
        "#rack .day",
        "days => days.map(d => { const t = d.querySelector('[data-tile]'); return t ? t.dataset.tile : null; })",
    )
    return tiles


def legal_buttons(page: Page) -> list[str]:
    moves: list[str] = page.eval_on_selector_all(
        "[data-move]:not([disabled])", "nodes => nodes.map(n => n.dataset.move)"
    )
    return moves


def is_over(page: Page) -> bool:
    return bool(page.locator(".turn-banner.over").count() > 0)


def wait_for_turn_or_end(pages: list[Page]) -> Page | None:
    """The page whose player may move now, or None once the game is over (bots move by themselves)."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        if any(is_over(p) for p in pages):
            return None
        for page in pages:
            if legal_buttons(page):
                return page
        pages[0].wait_for_timeout(50)
    raise AssertionError("nobody could move and the game did not end")


def click_move(page: Page, move: str) -> None:
    """Click the button that makes ``move`` and wait until the server has answered with a new table."""
    before = page.get_attribute("body", "data-version")
    page.locator(f"[data-move='{move}']").first.click()
    page.wait_for_function(
        "([before]) => document.body.dataset.version !== before || !document.querySelector('#error').hidden",
        arg=[before],
    )
    assert page.locator("#error").is_hidden(), f"{move}: {page.inner_text('#error-text')}"


def sign_up(page: Page, server: Server, name: str, password: str) -> None:
    """Sign up on the account page, which then opens the lobby, signed in."""
    page.goto(f"{server.url}/account#sign-up")
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#sign-up-name", name)
    page.fill("#sign-up-password", password)
    page.click("#sign-up-form button[type=submit]")
    page.wait_for_url(f"{server.url}/")


def sit(browser: Any, server: Server, ticket: dict[str, Any]) -> Page:
    """Open the seat link of ``ticket`` (an answer of ``POST /api/games`` or a join) on a new page."""
    page = new_page(browser)
    page.goto(f"{server.url}{ticket['url']}")
    page.wait_for_selector("#turn strong")
    return page


def held_request(page: Page, held: list[Any], method: str = "GET") -> Any:
    """The first route in ``held`` (routes a test holds back) whose request has this method, once the page
    has sent it."""
    for _ in range(500):
        found = [route for route in held if route.request.method == method]
        if found:
            return found[0]
        page.wait_for_timeout(20)
    raise AssertionError(f"the page sent no {method} request to hold")


def chat_lines(page: Page) -> list[str]:
    lines: list[str] = page.eval_on_selector_all("#chat .chat-line", "nodes => nodes.map(n => n.textContent)")
    return lines


def wait_for_chat(page: Page, words: str, times: int = 1, timeout: float | None = None) -> None:
    """Wait until ``times`` chat lines hold ``words`` (``timeout`` in milliseconds: the page's own if None)."""
    page.wait_for_function(
        "([words, times]) => [...document.querySelectorAll('#chat .chat-line')]"
        ".filter(n => n.textContent.includes(words)).length >= times",
        arg=[words, times],
        timeout=timeout,
    )


def drag(page: Page, source: str, target: str) -> None:
    """Drag with the mouse from the middle of ``source`` to the middle of ``target``."""
    start = page.locator(source).first.bounding_box()
    end = page.locator(target).first.bounding_box()
    assert start and end
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


def post(server_url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """A REST call, as a script would make it."""
    request = urllib.request.Request(
        f"{server_url}{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        result: dict[str, Any] = json.load(answer)
        return result
