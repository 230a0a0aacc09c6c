"""A test engine for ``tendays bridge``, written from docs/engine-protocol.md with the standard
library alone: it answers the first legal move. ``--crash-after N --marker FILE``: the first
process (while FILE does not exist) exits with status 3 on its N-th ``go``, creating FILE, so the
one started after it plays on. ``--illegal``: every answer is ``swap 1 2`` (a move the rules
refuse without the swap variant). ``--silent``: it never greets."""

from __future__ import annotations

import argparse
import json
import os
import sys


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--crash-after", type=int, default=0)
    parser.add_argument("--marker", default="")
    parser.add_argument("--illegal", action="store_true")
    parser.add_argument("--silent", action="store_true")
    args = parser.parse_args()
    crashes = args.crash_after and not os.path.exists(args.marker)
    asked = 0
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        if command == "tendays" and not args.silent:
            print("ready first-move", flush=True)
        elif command == "newgame":
            print("ok", flush=True)
        elif command == "go":
            asked += 1
            if crashes and asked >= args.crash_after:
                open(args.marker, "w").close()  # noqa: SIM115
                return 3
            view = json.loads(rest)
            move = "swap 1 2" if args.illegal else view["legal_moves"][0]["text"]
            print(f"move {move}", flush=True)
        elif command == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
