"""An external engine written only from docs/engine-protocol.md: plain Python, standard library.

It greets `tendays 2` with `ready`, answers `newgame` with `ok` and each `go` with one of the
view's `legal_moves`, chosen by a cheap rule of its own: in the draft it puts the tile on the free
day nearest the middle; later it draws and discards the drawn tile rather than churn its rack, and
otherwise takes the first legal move. It exits on `quit` or when its input closes.
"""

from __future__ import annotations

import json
import sys

PROTOCOL_VERSION = "2"


def choose(view: dict) -> str:
    """The `text` of the move this engine plays from ``view``."""
    moves = view["legal_moves"]
    drafts = [move for move in moves if move["kind"] == "draft"]
    if drafts:
        # The middle of the journey keeps both ends open: pick the draft day nearest the middle.
        middle = (len(view["rack"]) + 1) / 2
        return min(drafts, key=lambda move: abs(move["day"] - middle))["text"]
    for kind in ("draw", "discard"):
        for move in moves:
            if move["kind"] == kind:
                return move["text"]
    return moves[0]["text"]


def answer(line: str) -> str | None:
    """The one line answering the host's ``line``, or None for a command that asks for none."""
    command, _, rest = line.partition(" ")
    if command == "tendays":
        if rest.strip() != PROTOCOL_VERSION:
            return f"error this engine speaks version {PROTOCOL_VERSION}, not {rest.strip()}"
        return "ready docs-engine 1"
    if command == "newgame":
        return "ok"
    if command == "go":
        return f"move {choose(json.loads(rest))}"
    return f"error unknown command {command!r}"


def main() -> None:
    for raw in sys.stdin:
        line = raw.rstrip("\n")
        if not line:
            continue
        if line.split(" ", 1)[0] == "quit":
            return
        reply = answer(line)
        if reply is not None:
            sys.stdout.write(reply + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
