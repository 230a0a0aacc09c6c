"""The Bot API end to end, as a researcher and a person meet on a real site.

``tendays serve`` runs on a SQLite file. Over HTTP an owner signs up, makes a ``bot:play`` token and
turns the account into a bot account; ``tendays bridge`` plays it with an external engine program
written only from docs/engine-protocol.md (tests/data/engines/docs_engine.py). A person signs up in
Chromium, challenges the bot from its profile (rated, the usa edition, a live clock of two minutes a
move), the bridge accepts, and the person plays the game to its end by clicking, each move the greedy
bot's choice from the person's own table. Mid-game the server is killed with SIGKILL and started
again on the same port and database: the page and the bridge reconnect by themselves and the game is
played out. Then the leaderboard shows the bot with its BOT mark and the rating the game moved (the
bot's rating starts settled, as after a dozen games: the leaderboard lists settled ratings only, and
one game settles none), the bridge is still running (and stops with status 0 on SIGTERM), its log
never names the token, and every frame of the bot's game stream (recorded by a second stream on the
same token, which reconnects too) shows exactly what the bot's seat could see: audited against the
finished game's record (bot_audit.py), an audit that catches a doctored copy of one of the frames.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from bot_audit import audit_frames
from server_helpers import free_port, start_serve, wait_until_serving
from sqlalchemy import insert, select

from tendays.bots.registry import make_bot
from tendays.engine import GameRecord
from tendays.engine.wire import view_from_json
from tendays.server.storage.schema import AccountTable, RatingTable
from tendays.server.storage.store import Store

# The browser tests' helpers (their pages, and a person's clicks at the table).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from browser_helpers import CHROMIUM, CHROMIUM_ARGS, click_move, is_over, legal_buttons, new_page  # noqa: E402
from browser_helpers import sign_up as sign_up_on_page  # noqa: E402

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
# slow: starts tendays serve
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is missing"),
]

ENGINE = Path(__file__).resolve().parents[1] / "data" / "engines" / "docs_engine.py"
PASSWORD = "a bot walks across the map"
OWNER, PERSON = "DocsBot", "Pia"
GAME_URL = re.compile(r"/play/([A-Za-z0-9_-]+)")
SETTLED = {"mu": 25.0, "sigma": 5.5, "games": 12}  # a rating on the leaderboard: a dozen games' deviation
TURN_ENDS = {"replace", "discard"}  # the moves that end a turn after the draft
WAIT = 60.0  # seconds for anything the test waits for (a server start, a reconnection, a move)


class Served:
    """``tendays serve`` on one port and one SQLite file; killed with SIGKILL and started again."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = f"sqlite:///{folder / 'tendays.db'}"
        self.log = folder / "serve.log"
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "TENDAYS_DB": self.database,
            "TENDAYS_PORT": str(self.port),
            "TENDAYS_BOT_WORKERS": "0",
        }
        self.process = start_serve(env, self.log)
        wait_until_serving(self.process, self.url, WAIT)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)


class Bridge:
    """``tendays bridge`` playing the bot account with the docs engine."""

    def __init__(self, folder: Path, server: str, token: str) -> None:
        self.log_file = folder / "bridge.log"
        self.output = folder / "bridge.out"
        command = [
            sys.executable,
            "-m",
            "tendays",
            "bridge",
            "--server",
            server,
            "--token",
            token,
            "--editions",
            "usa",
            "--log-file",
            str(self.log_file),
            "--",
            sys.executable,
            str(ENGINE),
        ]
        with self.output.open("w") as output:
            self.process = subprocess.Popen(
                command, stdout=output, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"}
            )

    def said(self) -> str:
        return "".join(path.read_text() for path in (self.log_file, self.output) if path.exists())

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(30)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


class StreamRecorder:
    """Every frame of the bot's game stream (``GET /api/bot/game/stream/{id}``), on a thread; opened
    again whenever the connection drops, until the stream ends after the game is over."""

    def __init__(self, server: str, token: str, game_id: str) -> None:
        self.url = f"{server}/api/bot/game/stream/{game_id}"
        self.headers = {"Authorization": f"Bearer {token}"}
        self.frames: list[dict[str, Any]] = []
        self.opened = 0
        self.finished = threading.Event()
        self.stopping = threading.Event()
        self.problems: list[str] = []
        self.thread = threading.Thread(target=self._record, daemon=True)
        self.thread.start()

    def _record(self) -> None:
        while not self.stopping.is_set():
            try:
                with httpx.stream(
                    "GET", self.url, headers=self.headers, timeout=httpx.Timeout(10, read=WAIT)
                ) as answer:
                    if answer.status_code != 200:
                        self.problems.append(f"{answer.status_code}: {answer.read().decode()}")
                        return
                    self.opened += 1
                    for line in answer.iter_lines():
                        if line.strip():
                            self.frames.append(json.loads(line))
                if self.frames and _over(self.frames[-1]["game"]):
                    self.finished.set()
                    return
            except httpx.TransportError:
                self.stopping.wait(0.2)  # the server is down: ask again

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(WAIT)


def _over(game: dict[str, Any]) -> bool:
    return bool(game.get("status") == "over" or game.get("phase") == "over")


class Table:
    """The person's browser at the table: the last table its game sockets received, and how many
    game sockets it has opened."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.latest: dict[str, Any] = {"version": -1}
        self.sockets = 0
        self.heard_on = 0  # the socket (counted from 1) the latest table came on
        page.on("websocket", self._opened)

    def _opened(self, socket: Any) -> None:
        if "/ws/games/" not in socket.url:
            return
        self.sockets += 1
        number = self.sockets
        socket.on("framereceived", lambda payload: self._heard(number, payload))

    def _heard(self, number: int, payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "state" and (number > self.heard_on or message["version"] >= self.latest["version"]):
            self.latest, self.heard_on = message, number

    @property
    def game(self) -> dict[str, Any]:
        return dict(self.latest.get("game", {}))

    def greedy_move(self, rng: random.Random) -> str:
        """The move the greedy bot makes from the person's own view (what their table shows)."""
        game = self.game
        view = view_from_json({**game, "player": game["you"], "events": []})
        return str(make_bot("greedy").choose(view, rng))

    def wait(self, what: str, done: Any) -> None:
        deadline = time.monotonic() + WAIT
        while not done():
            assert time.monotonic() < deadline, f"the page never {what}: {self.game}"
            self.page.wait_for_timeout(50)  # lets Playwright deliver the socket's frames


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.kill()


def bot_account(server: Served) -> str:
    """The owner signs up, makes a bot:play token with the session's CSRF, and upgrades the account
    with the token; the token."""
    with httpx.Client(base_url=server.url, timeout=WAIT) as owner:
        signed = owner.post("/api/accounts", json={"name": OWNER, "password": PASSWORD})
        assert signed.status_code == 201, signed.text
        made = owner.post(
            "/api/tokens",
            json={"name": "bridge", "scopes": ["bot:play"]},
            headers={"X-CSRF-Token": signed.json()["csrf"]},
        )
        assert made.status_code == 201, made.text
        token = str(made.json()["token"])
        assert owner.get("/api/tokens").text.count(token) == 0  # shown once
    upgraded = httpx.post(
        f"{server.url}/api/bot/account/upgrade", headers={"Authorization": f"Bearer {token}"}, timeout=WAIT
    )
    assert upgraded.status_code == 200, upgraded.text
    assert upgraded.json() == {"name": OWNER, "bot": True}
    return token


def settle_rating(server: Served) -> None:
    """Give the bot account a settled rating, as after a dozen games: only settled ratings are on the
    leaderboard, and one game does not settle one."""
    store = Store(server.database)
    try:
        with store.engine.begin() as db:
            account = db.execute(select(AccountTable.id).where(AccountTable.name == OWNER)).scalar_one()
            db.execute(
                insert(RatingTable).values(
                    account_id=account, edition="usa", rating=SETTLED["mu"], updated=time.time(), **SETTLED
                )
            )
    finally:
        store.close()


def challenge_from_profile(page: Any, server: Served) -> str:
    """The person challenges the bot from its profile (rated, usa, two minutes a move); the game's id
    once the bridge has accepted and the page has gone to the table."""
    page.goto(f"{server.url}/players/{OWNER}")
    page.wait_for_selector("body[data-ready]", state="attached")
    page.get_by_role("button", name="Challenge", exact=True).click()
    dialog = page.get_by_role("dialog", name=f"Challenge {OWNER}")
    dialog.wait_for()
    dialog.get_by_label("Edition").select_option("usa")
    dialog.get_by_label("Clock").select_option("live:120:0")
    dialog.get_by_label("Rated", exact=False).check()
    dialog.get_by_role("button", name="Send the challenge").click()
    page.wait_for_url(GAME_URL, timeout=WAIT * 1000)  # the bridge accepted; the page follows the answer
    found = GAME_URL.search(page.url)
    assert found is not None
    page.wait_for_selector("#turn strong")
    return found.group(1)


def play(table: Table, move: str) -> None:
    """Make ``move`` by clicking, as a person does (a replacement: the day first, then the pile)."""
    kind, *numbers = move.split()
    if kind == "replace":
        table.page.locator(f"#rack [data-day='{numbers[0]}']").click()
    click_move(table.page, move)


def restart(server: Served, table: Table) -> None:
    """Kill the server with SIGKILL, start it on the same port and database, and wait until the page
    says it is connected again, with a table from its new connection."""
    before = table.sockets
    server.kill()
    table.page.wait_for_selector(".connection.waiting, .connection.connecting")
    server.start()
    table.page.wait_for_selector(".connection.open", timeout=WAIT * 1000)
    table.wait("reconnected", lambda: table.sockets > before and table.heard_on > before)


def play_out(server: Served, table: Table) -> bool:
    """The person plays to the end; the server is restarted once, as the person's second turn after
    the draft ends (the bot is then to move, or moving). Whether it was."""
    rng, restarted, turns = random.Random(36), False, 0
    deadline = time.monotonic() + 20 * WAIT
    while not is_over(table.page):
        assert time.monotonic() < deadline, f"the game did not end: {table.game}"
        if legal_buttons(table.page) and table.game.get("legal_moves"):
            move = table.greedy_move(rng)
            play(table, move)
            turns += move.split()[0] in TURN_ENDS
            if turns == 2 and not restarted and not is_over(table.page):
                restart(server, table)
                restarted = True
        else:
            table.page.wait_for_timeout(50)
    return restarted


def test_a_person_plays_a_bridged_engine_through_a_server_restart(browser: Any, served: Served, tmp_path: Path) -> None:
    token = bot_account(served)
    settle_rating(served)
    bridge = Bridge(tmp_path, served.url, token)
    recorder: StreamRecorder | None = None
    try:
        page = new_page(browser)
        table = Table(page)
        sign_up_on_page(page, served, PERSON, PASSWORD)  # type: ignore[arg-type]
        game_id = challenge_from_profile(page, served)
        recorder = StreamRecorder(served.url, token, game_id)
        assert play_out(served, table)
        page.wait_for_selector(".turn-banner.over")
        table.wait("heard the rated result", lambda: table.game.get("rated_outcome") == "counted")
        assert recorder.finished.wait(WAIT), recorder.problems
        assert bridge.process.poll() is None, bridge.said()  # the bridge lived through the restart

        # the leaderboard: the bot with its BOT mark and its rating, moved by the game
        answer = httpx.get(f"{served.url}/api/players/{OWNER}", timeout=WAIT).json()
        assert answer["bot_account"] is True
        rating = answer["ratings"]["usa"]["rating"]
        assert rating != SETTLED["mu"]
        page.goto(f"{served.url}/leaderboard?edition=usa")
        row = page.locator("#board tr", has=page.get_by_role("link", name=OWNER, exact=True))
        row.wait_for()
        assert "BOT" in row.inner_text()
        assert f"{rating:.1f}" in row.inner_text() or str(round(rating)) in row.inner_text()
        page.get_by_label("Hide bots").check()  # the filter leaves bot accounts off
        row.wait_for(state="detached")
        assert page.js_errors == []

        # the stream never carried what the bot's seat could not see
        record = GameRecord.from_json(httpx.get(f"{served.url}/api/games/{game_id}/record", timeout=WAIT).json())
        seat = recorder.frames[0]["game"]["you"]
        assert [frame["type"] for frame in recorder.frames].count("gameFull") == recorder.opened >= 2
        assert _over(recorder.frames[-1]["game"]) and len(recorder.frames) > 10
        (tmp_path / "frames.json").write_text(json.dumps(recorder.frames))  # kept for a failure's reader
        assert audit_frames(record, seat, recorder.frames) == []
        # and the audit is not blind: the person's rack and the draw pile of the moment, put into one
        # frame, are caught there
        doctored = copy.deepcopy(recorder.frames)
        middle = len(doctored) // 2
        state = record.replay(doctored[middle]["version"])
        secret = [*state.racks[1 - seat], *state.draw_pile]
        tiles = [state.edition.tiles[tile].id for tile in secret if tile is not None]
        doctored[middle]["game"]["seats"][1 - seat]["rack"] = tiles
        assert {breach.frame for breach in audit_frames(record, seat, doctored)} == {middle}
    finally:
        if recorder is not None:
            recorder.stop()
        status = bridge.stop()
        bridge.kill()
        # shown by pytest when the test fails
        print(f"bridge said:\n{bridge.said()}\nserver said:\n{served.log.read_text()}")
    assert status == 0, bridge.said()
    assert token not in bridge.said()  # the log names no secret
