"""Where a newcomer stopped in the guided game, kept in a small JSON file for the terminal.

The file is ``$TENDAYS_LEARN_FILE`` if set, else ``learn.json`` in tendays' folder of the user's
data (``$XDG_DATA_HOME/tendays``, by default ``~/.local/share/tendays``). It holds, per edition, the
step reached, and whether the guided game was finished or skipped: a player who did either is no
longer a first-timer. The browser keeps the same facts in its local storage.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["ENV_VAR", "Progress", "default_path"]

ENV_VAR = "TENDAYS_LEARN_FILE"


def default_path() -> Path:
    """The progress file: ``$TENDAYS_LEARN_FILE``, else ``$XDG_DATA_HOME/tendays/learn.json``."""
    chosen = os.environ.get(ENV_VAR)
    if chosen:
        return Path(chosen)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "tendays" / "learn.json"


@dataclass
class Progress:
    """The steps reached per edition, and whether the guided game was finished or skipped."""

    path: Path
    steps: dict[str, int] = field(default_factory=dict)
    finished: bool = False
    skipped: bool = False

    @classmethod
    def load(cls, path: Path | None = None) -> Progress:
        """The progress in ``path`` (default: :func:`default_path`); a missing or
        unreadable file is a fresh start."""
        path = path or default_path()
        try:
            data: Any = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            return cls(path)
        if not isinstance(data, dict):
            return cls(path)
        steps = data.get("steps")
        steps = (
            {
                str(k): v
                for k, v in steps.items()
                if isinstance(v, int) and not isinstance(v, bool) and v >= 0
            }
            if isinstance(steps, dict)
            else {}
        )
        return cls(path, steps, data.get("finished") is True, data.get("skipped") is True)

    @property
    def first_time(self) -> bool:
        """Whether the guided game should be offered: never finished nor skipped."""
        return not (self.finished or self.skipped)

    def step(self, edition: str) -> int:
        return self.steps.get(edition, 0)

    def save(self) -> str | None:
        """Write the file (its folder is made): None when written, else why it could not be (the
        system's words), so the front end can say that the place reached is not kept."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(
                json.dumps(
                    {"steps": self.steps, "finished": self.finished, "skipped": self.skipped},
                    indent=1,
                )
                + "\n",
                "utf-8",
            )
        except OSError as error:
            return error.strerror or str(error)
        return None
