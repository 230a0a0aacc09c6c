"""``tendays learn`` in a real 80x24 terminal (tmux), played by reading the screen alone: each
step's "Keys:" line says what to press; one wrong key first, whose explanation must show; then the
guided game to its end."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_tmux import Terminal

# slow: starts tmux
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
    pytest.mark.slow,
]

STEP = re.compile(r"step (\d+) of (\d+)")
KEYS = re.compile(r"Keys: (\S+?)(?:, then (\S+))?\s*$", re.MULTILINE)


def screen(terminal: Terminal) -> str:
    return terminal.text()


def lesson(text: str) -> str:
    """The lesson's column (right of the │ border), its lines joined as one text."""
    return " ".join(" ".join(line.partition("│")[2] for line in text.splitlines()).split())


def wait(terminal: Terminal, check: object, what: str, timeout: float = 30.0) -> str:
    """The screen once it shows what ``check`` looks for and has stopped
    changing (a step is drawn whole)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = screen(terminal)
        if callable(check) and check(text):
            time.sleep(0.15)
            if screen(terminal) == text:
                return text
        time.sleep(0.05)
    raise AssertionError(f"the terminal never showed {what}:\n{screen(terminal)}")


def press(terminal: Terminal, key: str) -> None:
    subprocess.run([*terminal.base, "send-keys", "-t", "game", "-l", key], check=True)


def test_the_guided_game_to_its_end_at_80x24_by_the_keys_on_screen(tmp_path: Path) -> None:
    progress = tmp_path / "learn.json"
    terminal = Terminal(tmp_path)
    terminal.start(
        f"{sys.executable} -m tendays learn usa --lang en --progress {progress}", tmp_path
    )
    try:
        text = wait(terminal, lambda t: STEP.search(t) and KEYS.search(t), "the first step")
        found = STEP.search(text)
        assert found is not None
        total = int(found.group(2))
        # A wrong day first: the lesson explains it and stays where it was.
        keys = KEYS.search(text)
        assert keys is not None
        wrong = "1" if keys.group(1) != "1" else "2"
        press(terminal, wrong)
        text = wait(
            terminal,
            lambda t: "Try this" in lesson(t) and KEYS.search(t),
            "the explanation of a wrong move",
        )
        assert "step 1 of" in text
        step = 1
        while step <= total:
            keys = KEYS.search(text)
            assert keys is not None, text
            for key in filter(None, keys.groups()):
                press(terminal, key)
            step += 1
            if step > total:
                break
            text = wait(
                terminal,
                lambda t, n=step: f"step {n} of {total}" in t and KEYS.search(t),
                f"step {step}",
            )
            assert "Try this" not in lesson(text), text
        text = wait(terminal, lambda t: "won the guided game" in lesson(t), "the end of the lesson")
        assert json.loads(progress.read_text())["finished"] is True
        press(terminal, "q")
        assert terminal.exits()
    finally:
        terminal.close()


def test_the_place_reached_is_kept_and_restart_starts_over(tmp_path: Path) -> None:
    progress = tmp_path / "learn.json"
    progress.write_text(json.dumps({"steps": {"germany": 3}, "finished": False, "skipped": False}))
    terminal = Terminal(tmp_path)
    terminal.start(
        f"{sys.executable} -m tendays learn germany --lang de --progress {progress}", tmp_path
    )
    try:
        wait(terminal, lambda t: "Schritt 4 von" in t, "the fourth step")
        press(terminal, "r")
        wait(terminal, lambda t: "Schritt 1 von" in t, "the first step again")
        press(terminal, "s")
        wait(terminal, lambda t: "s noch einmal" in t, "the question before skipping for good")
        press(terminal, "s")
        terminal.exits()  # skipping leaves the lesson
        assert json.loads(progress.read_text())["skipped"] is True
    finally:
        terminal.close()
