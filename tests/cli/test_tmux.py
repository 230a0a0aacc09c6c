"""A whole game in a real terminal: ``tendays play`` inside tmux at 80x24, played with the arrow
keys and Enter.

The test keeps its own copy of the game (same seed, same bots, so the same moves) and of the input
model, chooses each move from its own seat's view, presses the arrow keys that make it, and waits
until the terminal shows the position it expects before going on.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from arrows import next_arrow_keys

from tendays.bots import Bot, GreedyBot, make_bot
from tendays.cli.tui.captions import status_text, turn_prompt
from tendays.cli.tui.input_model import InputModel
from tendays.engine import Game, MoveKind, Options, Phase, next_decision, view

# slow: starts tmux
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
    pytest.mark.slow,
]

TMUX_KEYS = {
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "enter": "Enter",
    "q": "q",
}


class Terminal:
    """A tmux server of its own with one 80x24 window and no status line."""

    def __init__(self, directory: Path) -> None:
        self.socket = f"tendays-test-{os.getpid()}"
        config = directory / "tmux.conf"
        config.write_text("set -g status off\nset -g escape-time 0\n")
        self.base = ["tmux", "-L", self.socket, "-f", str(config)]

    def start(self, command: str, directory: Path) -> None:
        subprocess.run(
            [
                *self.base,
                "new-session",
                "-d",
                "-s",
                "game",
                "-x",
                "80",
                "-y",
                "24",
                "-c",
                str(directory),
                command,
            ],
            check=True,
        )

    def text(self) -> str:
        result = subprocess.run(
            [*self.base, "capture-pane", "-p", "-t", "game"], capture_output=True, text=True
        )
        return result.stdout

    def press(self, key: str) -> None:
        subprocess.run([*self.base, "send-keys", "-t", "game", TMUX_KEYS[key]], check=True)

    def wait_for(self, *words: str, timeout: float = 20.0) -> str:
        """The screen once it shows every one of ``words`` (whitespace
        as on screen does not matter)."""
        wanted = [" ".join(word.split()) for word in words]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = " ".join(self.text().split())
            if all(word in shown for word in wanted):
                return shown
            time.sleep(0.05)
        raise AssertionError(f"the terminal never showed {wanted}:\n{self.text()}")

    def alive(self) -> bool:
        return (
            subprocess.run(
                [*self.base, "has-session", "-t", "game"], capture_output=True
            ).returncode
            == 0
        )

    def exits(self, timeout: float = 10.0) -> bool:
        """Whether the program in the window ends (and with it the
        session) within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        return not self.alive()

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True)


def bots_play_until_my_turn(game: Game, bot: Bot) -> bool:
    """The bots' seats move (as the terminal's bots do, from the same seeded decisions) until seat 1
    is to move; False once the game is over."""
    while not game.state.is_over and game.state.current != 0:
        decision = next_decision(game)
        assert decision is not None
        game.play(bot.choose(decision.view, decision.rng), decision.seat)
    return not game.state.is_over


def test_a_whole_game_in_tmux_at_80x24_with_the_arrow_keys_alone(tmp_path: Path) -> None:
    seed, days = 8, 10
    terminal = Terminal(tmp_path)
    terminal.start(
        f"{sys.executable} -m tendays play --players me,random --seed {seed} --days {days} "
        f"--delay 0",
        tmp_path,
    )
    try:
        game = Game("usa", Options(players=2, days=days), seed, ("You", "Bot 2"))
        bot, me, rng = make_bot("random"), GreedyBot(), random.Random(1)
        model = InputModel()
        presses = 0
        while True:
            if not bots_play_until_my_turn(game, bot):
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
                        model.move_cursor(
                            -1 if key == "up" else 1, days, holding=pv.phase is Phase.PLACE
                        )
                    elif key in ("left", "right"):
                        model.point_at_piles(key == "right", pv)
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
        assert terminal.exits()
    finally:
        terminal.close()


# -- following the instructions on screen
# ------------------------------------------------------------------

ARROW_CLAUSE = re.compile(r"([←→]*)↑↓ Enter")
CHOICE_WORD = re.compile(r"\b(day|pile|discard)\b")


class Reader:
    """A person who reads the 80x24 screen and does exactly what its instruction line says."""

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal

    def lines(self) -> list[str]:
        return self.terminal.text().splitlines()

    def prompt(self) -> str:
        """The instruction under the board: the full-width lines between the panes (drawn with ▕)
        and the footer."""
        lines = [line.rstrip() for line in self.lines()]
        while lines and not lines[-1]:
            lines.pop()
        body_end = max(index for index, line in enumerate(lines) if "▕" in line)
        return " ".join(" ".join(lines[body_end + 1 : -1]).split())

    def cursor(self, kind: str) -> int | None:
        """Where ▸ stands: on a day of the rack (``kind`` "day") or on a pile
        ("pile": 0 is the draw pile)."""
        for line in self.lines():
            rack, _border, side = line.partition("▕")
            found = (
                re.match(r"\s*▸\s*(\d+)\s", rack)
                if kind == "day"
                else re.match(r"\s*▸\s*([d123])\s", side)
            )
            if found:
                return 0 if found.group(1) == "d" else int(found.group(1))
        return None

    def until(self, check: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + 20
        while not check():
            if time.monotonic() > deadline:
                raise AssertionError(f"the terminal never showed {what}:\n{self.terminal.text()}")
            time.sleep(0.03)

    def choose(self, kind: str, target: int) -> None:
        """Choose day or pile ``target`` as the instruction says: the
        arrow keys it names, then Enter."""
        prompt = self.prompt()
        assert "✗" not in prompt, prompt
        clauses = [
            (CHOICE_WORD.findall(prompt[: found.start()])[-1:], found.group(1))
            for found in ARROW_CLAUSE.finditer(prompt)
        ]
        said = [
            arrows for words, arrows in clauses if words and (words[0] == "day") == (kind == "day")
        ]
        if not said:
            # The emptied-pile rule: "press 1 or Enter", with the cursor already on that pile.
            assert kind == "pile" and "or Enter" in prompt and self.cursor("pile") == target, prompt
            self.terminal.press("enter")
            return
        for arrow in said[0]:
            self.terminal.press("left" if arrow == "←" else "right")
        self.until(
            lambda: self.cursor(kind) is not None, f"the cursor on a {kind} after {said[0]!r}"
        )
        for _press in range(12):
            where = self.cursor(kind)
            if where == target:
                break
            self.terminal.press("down")
            self.until(
                lambda where=where: self.cursor(kind) not in (where, None), "the cursor moving down"
            )
        assert self.cursor(kind) == target, (kind, target, prompt)
        self.terminal.press("enter")


def test_a_three_seat_game_following_the_instructions_on_screen_literally(tmp_path: Path) -> None:
    """Each step reads the instruction line, presses the arrow keys it names, moves ↑↓ to the
    choice, and Enter."""
    seed, days = 11, 10
    terminal = Terminal(tmp_path)
    terminal.start(
        f"{sys.executable} -m tendays play --players me,random,random --seed {seed} --days {days} "
        "--delay 0 --lang en",
        tmp_path,
    )
    reader = Reader(terminal)
    try:
        game = Game("usa", Options(players=3, days=days), seed, ("You", "Bot 2", "Bot 3"))
        bot, me, rng = make_bot("random"), GreedyBot(), random.Random(2)
        while True:
            if not bots_play_until_my_turn(game, bot):
                break
            pv = view(game.state, 0)
            terminal.wait_for(status_text(pv, game.names).plain, turn_prompt(pv, None).plain[:30])
            move = me.choose(pv, rng)
            if move.kind is MoveKind.DRAFT:
                reader.choose("day", move.a)
            elif move.kind in (MoveKind.DRAW, MoveKind.TAKE):
                reader.choose("pile", 0 if move.kind is MoveKind.DRAW else move.a)
            elif move.kind is MoveKind.DISCARD:
                reader.choose("pile", move.a)
            else:
                reader.choose("day", move.a)
                reader.until(
                    lambda: reader.cursor("pile") is not None, "the piles after choosing a day"
                )
                reader.choose("pile", move.b)
            game.play(move, 0)
        winner = game.names[game.state.winner] if game.state.winner is not None else ""
        terminal.wait_for("You win after" if winner == "You" else f"{winner} wins after")
    finally:
        terminal.close()
