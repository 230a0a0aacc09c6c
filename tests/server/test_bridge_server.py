"""`tendays bridge` against a real `tendays serve`: a bot account made with a token, the bridge
running `tendays engine --bot greedy`, a person who challenges it and plays the whole game from a
program of their own (a `board:play` token); the bridge declines what its settings refuse, takes
up its game again after a kill -9 of the server and its restart, and stops on SIGTERM with status
0. Its log names the token only by its last four characters."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
from server_helpers import PASSWORD, free_port, wait_until_serving  # noqa: E402

pytestmark = pytest.mark.slow  # starts tendays serve

WAIT = 120.0  # seconds before the test gives up on what it waits for


class Served:
    """``tendays serve`` on a database file, which can be killed and started again on its port."""

    def __init__(self, db: Path) -> None:
        self.db, self.port = db, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.start()

    def start(self) -> None:
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "TENDAYS_DB": f"sqlite:///{self.db}",
            "TENDAYS_PORT": str(self.port),
            "TENDAYS_BOT_DELAY": "0",
            "TENDAYS_BOT_WORKERS": "0",
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tendays", "serve", "--log-level", "warning", "--stream-keepalive", "1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        wait_until_serving(self.process, self.base)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(20)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path / "site.db")
    yield server
    server.kill()


def person(base: str, name: str) -> Any:
    """A signed-in browser of a new account: cookies and the CSRF header."""
    client = httpx.Client(base_url=base, timeout=30)
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    client.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return client


def token(client: Any, *scopes: str) -> str:
    answer = client.post("/api/tokens", json={"name": "program", "scopes": list(scopes)})
    assert answer.status_code == 201, answer.text
    made: str = answer.json()["token"]
    return made


def wait_for_line(path: Path, words: str) -> str:
    deadline, text = time.monotonic() + WAIT, ""
    while time.monotonic() < deadline:
        text = path.read_text() if path.exists() else ""
        if words in text:
            return text
        time.sleep(0.05)
    raise AssertionError(f"the bridge's log never said {words!r}: {text[-3000:]}")


def play_first_legal_moves(
    base: str, board_token: str, game_id: str, after_move: Callable[[int], None] = lambda n: None
) -> dict[str, Any]:
    """Ann's program: her seat's game stream (opened again when it breaks), the first legal move
    each time, ``after_move(moves so far)`` after each; the last table."""
    headers = {"Authorization": f"Bearer {board_token}"}
    last: dict[str, Any] = {}
    played_at, moves = -1, 0
    deadline = time.monotonic() + WAIT
    with httpx.Client(base_url=base, headers=headers, timeout=WAIT) as client:
        while last.get("status") != "over":
            assert time.monotonic() < deadline, f"Ann's game did not end: {last}"
            log: list[Any] = []
            try:
                with client.stream("GET", f"/api/board/game/stream/{game_id}") as lines:
                    assert lines.status_code == 200, lines.read()
                    for line in lines.iter_lines():
                        message = json.loads(line) if line.strip() else {}
                        if message.get("type") not in ("gameFull", "gameState"):
                            continue
                        last = message["game"]
                        log[last["log_from"] :] = last["log"]
                        if last["legal_moves"] and len(log) != played_at:
                            answer = client.post(
                                f"/api/board/game/{game_id}/move", json={"move": last["legal_moves"][0]["text"]}
                            )
                            assert answer.status_code in (200, 409), answer.text
                            played_at, moves = len(log), moves + 1
                            after_move(moves)
            except httpx.TransportError:
                time.sleep(0.2)  # the server is away: try again
    return last


class Bridge:
    """A bot account named Robo with a bot:play token, and `tendays bridge` running for it."""

    def __init__(self, base: str, log_file: Path, *flags: str) -> None:
        robo = person(base, "Robo")
        self.token = token(robo, "bot:play")
        upgraded = httpx.post(
            f"{base}/api/bot/account/upgrade", headers={"Authorization": f"Bearer {self.token}"}, timeout=30
        )
        assert upgraded.status_code == 200, upgraded.text
        self.log_file = log_file
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tendays",
                "bridge",
                "--server",
                base,
                "--token",
                self.token,
                "--log-file",
                str(log_file),
                *flags,
                "--",
                sys.executable,
                "-m",
                "tendays",
                "engine",
                "--bot",
                "greedy",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        wait_for_line(log_file, "connected to")

    def stop(self) -> tuple[str, str]:
        """SIGTERM; the log, and what the bridge wrote to its standard error and output."""
        self.process.send_signal(signal.SIGTERM)
        out, err = self.process.communicate(timeout=WAIT)
        assert self.process.returncode == 0, err
        log = self.log_file.read_text()
        assert "bridge stopped" in log
        assert f"token tdb_…{self.token[-4:]}" in log
        assert self.token not in log + out + err
        return log, out + err


def challenge(ann: Any, **fields: Any) -> str:
    answer = ann.post("/api/challenges", json={"to": "Robo", "edition": "usa", "options": {"days": 6}, **fields})
    assert answer.status_code == 201, answer.text
    challenge_id: str = answer.json()["id"]
    return challenge_id


def test_the_bridge_plays_a_challenge_game_to_its_end_and_stops_on_sigterm(served: Served, tmp_path: Path) -> None:
    bridge = Bridge(served.base, tmp_path / "bridge.log", "--editions", "usa", "--rated", "no")
    try:
        ann = person(served.base, "Ann")
        board_token = token(ann, "board:play", "challenge:write")
        declined = challenge(ann, edition="germany")
        accepted = challenge(ann, rated=False)
        wait_for_line(bridge.log_file, f"accepted challenge {accepted}")
        game_id = ann.get(f"/api/challenges/{accepted}").json()["game"]
        last = play_first_legal_moves(served.base, board_token, game_id)
        assert last["status"] == "over"
        wait_for_line(bridge.log_file, f"game {game_id} over")
        assert ann.get(f"/api/challenges/{declined}").json()["reason"] == "edition"
    finally:
        log, _said = bridge.stop()
    assert f"declined challenge {declined}: from Ann, germany, no clock, casual; reason edition" in log
    assert f"game {game_id}: played" in log
    assert "the site refused" not in log and "the program failed" not in log


def test_the_bridge_finishes_its_game_after_the_server_is_killed_and_started_again(
    served: Served, tmp_path: Path
) -> None:
    bridge = Bridge(served.base, tmp_path / "bridge.log")
    try:
        ann = person(served.base, "Ann")
        board_token = token(ann, "board:play", "challenge:write")
        accepted = challenge(ann)
        wait_for_line(bridge.log_file, f"accepted challenge {accepted}")
        game_id = ann.get(f"/api/challenges/{accepted}").json()["game"]

        def restart_after_the_third_move(moves: int) -> None:
            if moves == 3:
                served.kill()
                wait_for_line(bridge.log_file, f"connection to {served.base} lost")
                served.start()

        last = play_first_legal_moves(served.base, board_token, game_id, restart_after_the_third_move)
        assert last["status"] == "over"
        wait_for_line(bridge.log_file, f"game {game_id} over")
        wait_for_line(bridge.log_file, f"reconnected to {served.base}")  # its event stream too
    finally:
        log, _said = bridge.stop()
    assert f"reconnected to {served.base}" in log
    assert log.count(f"game {game_id} started") == 1
    assert "the site refused" not in log
