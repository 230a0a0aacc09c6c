"""An engine written without tendays, from the protocol page alone: it reads the view's JSON and
answers.

It drafts onto the first empty day, draws, and discards onto the forced pile when there is one (else
onto pile 1 or whatever the legal moves allow), always answering the ``"text"`` of a legal move.
"""

import json
import sys

for line in sys.stdin:
    command, _, rest = line.strip().partition(" ")
    if command == "tendays":
        print(
            "ready plain" if rest == "2" else f"error this engine speaks protocol 2, not {rest}",
            flush=True,
        )
    elif command == "newgame":
        print("ok", flush=True)
    elif command == "go":
        view = json.loads(rest)
        legal = view["legal_moves"]
        discards = [m for m in legal if m["kind"] == "discard"]
        draws = [m for m in legal if m["kind"] == "draw"]
        if discards:
            forced = view["forced_pile"]
            choice = next((m for m in discards if m["pile"] == forced), discards[0])
        else:
            choice = (draws or legal)[0]
        print(f"move {choice['text']}", flush=True)
    elif command == "quit":
        break
