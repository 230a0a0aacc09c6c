"""The plain install (no extras) runs every bot the game offers: each bot plays a move with the
packages that only the extras bring hidden from it."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[3]

# Distributions whose module has another name.
MODULES = {
    "scikit-learn": "sklearn",
    "colour-science": "colour",
    "import-linter": "importlinter",
    "sb3-contrib": "sb3_contrib",
    "psycopg": "psycopg",
    "uvicorn": "uvicorn",
}

PLAY_EVERY_BOT = """
import importlib.abc, random, sys
HIDDEN = set(sys.argv[1].split(","))

class OnlyThePlainInstall(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r} (an extra)", name=name)
        return None

sys.meta_path.insert(0, OnlyThePlainInstall())
from tendays.bots import bot_names, make_bot
from tendays.engine import Game, Options, next_decision
for name in bot_names():
    bot = make_bot(name)
    game = Game("usa", Options(players=2, days=10), 1)
    decision = next_decision(game)
    game.play(bot.choose(decision.view, decision.rng), decision.seat)
    print(name, "played")
"""


def _module(requirement: str) -> str:
    name = re.split(r"[<>=\[ ;]", requirement, maxsplit=1)[0].lower()
    return MODULES.get(name, name.replace("-", "_"))


@pytest.mark.slow  # whole games in subprocesses
def test_every_offered_bot_plays_on_the_plain_install() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    plain = {_module(r) for r in project["dependencies"]}
    extras = {_module(r) for group in project["optional-dependencies"].values() for r in group}
    hidden = sorted(extras - plain - {"tendays"})
    assert "fastapi" in hidden  # the extras really are hidden
    result = subprocess.run(
        [sys.executable, "-c", PLAY_EVERY_BOT, ",".join(hidden)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "learned played" in result.stdout
