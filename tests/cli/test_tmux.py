"""A whole game in a real terminal: ``tendays play`` inside tmux at 80x24, played with the arrow keys and Enter.

The test keeps its own copy of the game (same seed, same bots, so the same moves) and of the input
model, chooses each move from its own seat's view, presses the arrow keys that make it, and waits
until the terminal shows the position it expects before going on.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from arrows import next_arrow_keys

from tendays.bots import GreedyBot, make_bot
from tendays.cli.tui.input_model import InputModel
from tendays.cli.tui.words import status_text, turn_prompt
from tendays.engine import Game, Options, next_decision, view

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

TMUX_KEYS = {"up": "Up", "down": "Down", "left": "Left", "right": "Right", "enter": "Enter", "q": "q"}


class Terminal:
    """A tmux server of its own with one 80x24 window and no status line."""

    def __init__(self, directory: Path) -> None:
        self.socket = f"tendays-test-{os.getpid()}"
        config = directory / "tmux.conf"
        config.write_text("set -g status off\nset -g escape-time 0\n")
        self.base = ["tmux", "-L", self.socket, "-f", str(config)]

    def start(self, command: str, directory: Path) -> None:
        subprocess.run([*self.base, "new-session", "-d", "-s", "game", "-x", "80", "-y", "24", "-c", str(directory),
                        command], check=True)

    def text(self) -> str:
        result = subprocess.run([*self.base, "capture-pane", "-p", "-t", "game"], capture_output=True, text=True)
        return result.stdout

    def press(self, key: str) -> None:
        subprocess.run([*self.base, "send-keys", "-t", "game", TMUX_KEYS[key]], check=True)

    def wait_for(self, *words: str, timeout: float = 20.0) -> str:
        """The screen once it shows every one of ``words`` (whitespace as on screen does not matter)."""
        wanted = [" ".join(word.split()) for word in words]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = " ".join(self.text().split())
            if all(word in shown for word in wanted):
                return shown
            time.sleep(0.05)
        raise AssertionError(f"the terminal never showed {wanted}:\n{self.text()}")

    def alive(self) -> bool:
        return subprocess.run([*self.base, "has-session", "-t", "game"], capture_output=True).returncode == 0

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True)


def test_a_whole_game_in_tmux_at_80x24_with_the_arrow_keys_alone(tmp_path: Path) -> None:
    seed, days = 8, 10
    terminal = Terminal(tmp_path)
    terminal.start(f"{sys.executable} -m tendays play --players me,random --seed {seed} --days {days} --delay 0",
                   tmp_path)
    try:
        game = Game("usa", Options(players=2, days=days), seed, ("You", "Bot 2"))
        bot, me, rng = make_bot("random"), GreedyBot(), random.Random(1)
        model = InputModel()
        presses = 0
        while True:
            while not game.state.is_over and game.state.current != 0:
                decision = next_decision(game)
                assert decision is not None
                game.play(bot.choose(decision.view, decision.rng), decision.seat)
            if game.state.is_over:
                break
            pv = view(game.state, 0)
            model.reset(pv)
            # The terminal must show this very position before a key is pressed.
            terminal.wait_for(status_text(pv, game.names).plain, turn_prompt(pv, None).plain[:30])
            move = me.choose(pv, rng)
            moves_before = game.move_count
            while game.move_count == moves_before:
                for key in next_arrow_keys(model, move, days):
                    terminal.press(key)
                    presses += 1
                    if key in ("up", "down"):
                        model.move_cursor(-1 if key == "up" else 1, days)
                    elif key in ("left", "right"):
                        model.point_at_piles(key == "right")
                    else:
                        reply = model.enter(pv)
                        assert not reply.error, reply.message
                        if reply.move is not None:
                            game.play(reply.move, 0)
        winner = game.names[game.state.winner] if game.state.winner is not None else ""
        shown = terminal.wait_for("You win after" if winner == "You" else f"{winner} wins after")
        assert "journey, day by day" in shown and presses > game.move_count
        # The game is finished but not saved: the first q asks, the second quits.
        terminal.press("q")
        terminal.wait_for("The finished game is not saved")
        terminal.press("q")
        deadline = time.monotonic() + 10
        while terminal.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not terminal.alive()
    finally:
        terminal.close()
