"""Write the OpenSpiel playthroughs of python_tendays kept in the tests (tests/data/openspiel/).

    .venv/bin/python tools/openspiel_playthrough.py

A playthrough is one random game, seeded, with every state's strings, tensors, legal actions and
returns, as OpenSpiel records its own games; tests/rl/test_openspiel.py replays it and compares line
for line. Rewrite the files after a change to the game's encoding or rules, and read the diff.
"""

from __future__ import annotations

import sys
from pathlib import Path

from open_spiel.python.algorithms import generate_playthrough

import tendays.rl.openspiel  # noqa: F401  (registers python_tendays)

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "data" / "openspiel"
# Short games (3 days, a few turns) keep the files small; the rules and
# encoders are those of every game.
GAMES = {
    "python_tendays_usa.txt": "python_tendays(edition=usa,players=2,days=2,turns=3)",
    "python_tendays_germany.txt": (
        "python_tendays(edition=germany,players=3,days=2,turns=3,swap=True)"
    ),
}


def main() -> int:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, game in GAMES.items():
        text = generate_playthrough.playthrough(game, action_sequence=None, seed=26)
        (FOLDER / name).write_text(text, encoding="utf-8")
        print(f"{FOLDER / name}: {len(text.splitlines())} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
