"""A deliberately broken engine for tests: it misbehaves in the way its first argument names.

crash    exits when asked for a move
garbage  answers a move with text that is not a move
illegal  answers a well-formed move the rules do not allow
slow     never answers a move in time
mute     never answers the greeting
bytes    answers a move with bytes that are not UTF-8
"""

import sys
import time

mode = sys.argv[1]
for line in sys.stdin:
    command = line.split(" ", 1)[0].strip()
    if command == "tendays":
        if mode == "mute":
            time.sleep(60)
        print("ready broken", flush=True)
    elif command == "newgame":
        print("info starting a game", flush=True)
        print("ok", flush=True)
    elif command == "go":
        if mode == "crash":
            sys.exit(3)
        if mode == "garbage":
            print("I would rather not", flush=True)
        elif mode == "illegal":
            print("move swap 1 2", flush=True)
        elif mode == "slow":
            time.sleep(60)
        elif mode == "bytes":
            sys.stdout.buffer.write(b"move draft \xff\n")
            sys.stdout.flush()
    elif command == "quit":
        break
