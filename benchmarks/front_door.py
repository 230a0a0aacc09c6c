"""What strangers' bodies cost a running server: memory under huge bodies, and another client's wait
while records are opened from files.

    python benchmarks/front_door.py          # a readable report
    python benchmarks/front_door.py --json   # one JSON object
    python benchmarks/front_door.py --replays-per-minute 0   # records unlimited, as before

Starts ``tendays serve`` (a fresh SQLite file, two bot workers) and measures

- **huge bodies**: the server's resident memory (``VmHWM``, its peak, from ``/proc``) before and
  after six clients at once each send an anonymous ``DELETE /api/account`` declaring 20 MB and try
  to send it all; the server answers 413 after the headers and closes each connection;
- **record uploads**: the median time of ``GET /api/games`` for one client, alone and while four
  other requests from one address open records (``POST /api/replays``, each 400 random moves
  replayed in the bot workers) at the same moment, over several rounds; the server replays one
  record per address at a time and refuses the rest (429), so the other client's wait barely moves.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
BODY = 20_000_000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def peak_memory(pid: int) -> float:
    """The process's peak resident memory, MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


def huge_delete(port: int) -> bytes:
    head = (
        f"DELETE /api/account HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {BODY}\r\n\r\n"
    ).encode()
    chunk = b"x" * 65536
    with socket.create_connection((HOST, port), timeout=30) as sock:
        sock.sendall(head)
        with contextlib.suppress(OSError):
            for _ in range(BODY // len(chunk)):
                sock.sendall(chunk)
        with contextlib.suppress(OSError):
            return sock.recv(200)
    return b""


def call(base: str, path: str, body: Any = None) -> int:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            answer.read()
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def record() -> dict[str, Any]:
    """A record of a two-player game of random legal moves, its first 400 (tendays-record/1)."""
    from tendays.engine import GameRecord, Options, apply, legal_moves, load_edition, new_game

    options, rng = Options(players=2), random.Random(5)
    state, moves = new_game(load_edition("usa"), options, 5), []
    while not state.is_over and len(moves) < 400:  # within the body limit of 16 KiB
        move = rng.choice(legal_moves(state))
        moves.append(move)
        state = apply(state, move)
    return GameRecord("usa", options, 5, tuple(moves)).to_json()


def other_client_wait(
    base: str, body: dict[str, Any], rounds: int
) -> tuple[float, float, list[int]]:
    """(median ms alone, median ms during four uploads at once, the uploads' statuses)."""

    def timed() -> float:
        start = time.perf_counter()
        call(base, "/api/games")
        return (time.perf_counter() - start) * 1000

    alone = [timed() for _ in range(20)]
    during: list[float] = []
    statuses: list[int] = []
    for _ in range(rounds):
        go = threading.Barrier(5)

        def upload(go: threading.Barrier = go) -> None:
            go.wait()
            statuses.append(call(base, "/api/replays", body))

        threads = [threading.Thread(target=upload) for _ in range(4)]
        for thread in threads:
            thread.start()
        go.wait()
        during += [timed() for _ in range(5)]
        for thread in threads:
            thread.join()
        time.sleep(6.5)  # past the minute's window of this round's uploads (10 a minute)
    return statistics.median(alone), statistics.median(during), statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--replays-per-minute", type=int, default=10, help="the server's limit; 0: off, as before"
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    port = free_port()
    env = {
        **os.environ,
        "TENDAYS_DB": f"sqlite:///{folder / 'tendays.db'}",
        "TENDAYS_PORT": str(port),
        "TENDAYS_BOT_WORKERS": "2",
        "TENDAYS_LOG_LEVEL": "warning",
        "TENDAYS_REPLAYS_PER_MINUTE": str(args.replays_per_minute),
    }
    server = subprocess.Popen([sys.executable, "-m", "tendays", "serve"], env=env)
    base = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + 60
        while call_health(base) != 200:
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.2)
        before = peak_memory(server.pid)
        with_threads = [threading.Thread(target=huge_delete, args=(port,)) for _ in range(6)]
        for thread in with_threads:
            thread.start()
        for thread in with_threads:
            thread.join()
        after = peak_memory(server.pid)
        alone, during, statuses = other_client_wait(base, record(), args.rounds)
    finally:
        server.terminate()
        server.wait(30)
    result = {
        "memory_mb_before": round(before, 1),
        "memory_mb_after_six_20mb_deletes": round(after, 1),
        "other_client_ms_alone": round(alone, 1),
        "other_client_ms_during_four_uploads": round(during, 1),
        "upload_statuses": sorted(statuses),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")


def call_health(base: str) -> int:
    try:
        return call(base, "/health")
    except OSError:
        return 0


if __name__ == "__main__":
    main()
