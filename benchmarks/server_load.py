"""Load on the web server: many concurrent games played over real WebSockets on loopback.

    python benchmarks/server_load.py                     # 200 games, a readable report
    python benchmarks/server_load.py --games 50 --json   # one JSON object
    python benchmarks/server_load.py --in-process        # the match master alone: its CPU per move

Starts ``tendays serve`` as a subprocess (bots without pacing, a fresh SQLite file: every move is
committed before it is acknowledged, as in production), creates N games at once, each with two human
seats and one server bot, and plays every human seat through the protocol with a scripted client that
picks a random legal move after a short pause (``--think``, 0.1 s on average: far quicker than people,
yet within the protocol's limit of 20 messages a second per connection). Games end when the bot
completes its journey or at the turn limit.

Clocks and chat are on by default, as on a public site: every game is live (``--clock``, 60 s a move
and a 120 s bank; the scripted players never run out of time) and each seat writes a chat line every
``--chat`` of its moves. The server's per-client limits are turned off, since every client here has
the same address.

Reported: games finished, accepted moves per second (people's and bots'), the latency of a person's
move (from sending the move to receiving the new table, which is the acknowledgement), the server's CPU
time per move, and the mean size of a table message. The clients run in this process, so they share the
machine's cores with the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    sent: list[float] = field(default_factory=list)  # when each timed move was sent
    finished: int = 0
    moves: int = 0  # accepted moves of finished games, people's and bots'
    errors: list[str] = field(default_factory=list)
    tables: int = 0  # table messages received
    table_bytes: int = 0


async def play_seat(base: str, ticket: dict[str, Any], rng: random.Random, args: argparse.Namespace,
                    tally: Tally) -> int:
    """Play one seat until the game is over; return the final version."""
    think = args.think
    async with connect(f"{base}/ws/games/{ticket['id']}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": ticket["token"]}))
        acted = -1
        sent_at = 0.0
        last = ""
        played = 0
        while True:
            text = await ws.recv()
            message = json.loads(text)
            if message["type"] == "chat":  # the other seat's line of talk
                continue
            if message["type"] != "state":
                tally.errors.append(f"{message}")
                if message.get("code") == "rate_limited":  # the move was not taken: send it again, later
                    await asyncio.sleep(1.0)
                    sent_at = time.perf_counter()
                    await ws.send(last)
                continue
            tally.tables += 1
            tally.table_bytes += len(text)
            version, game = message["version"], message["game"]
            if sent_at and version > acted:
                tally.latencies.append(time.perf_counter() - sent_at)
                tally.sent.append(sent_at)
                sent_at = 0.0
            if game["status"] == "over":
                return int(version)
            moves = game["legal_moves"]
            if not moves or version <= acted:
                continue
            if think:
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            acted = version
            played += 1
            if args.chat and played % args.chat == 0:
                await ws.send(json.dumps({"type": "chat", "text": rng.choice(PHRASES)}))
            sent_at = time.perf_counter()
            last = json.dumps({"type": "move", "move": rng.choice(moves)["text"], "version": version})
            await ws.send(last)


async def play_game(http: httpx.AsyncClient, ws_base: str, number: int, args: argparse.Namespace,
                    tally: Tally) -> None:
    await asyncio.sleep(number * args.ramp / args.games)  # games start spread over the ramp, as people arrive
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": args.bot}]
    request: dict[str, Any] = {"edition": args.edition, "name": f"A{number}", "seats": seats,
                               "options": {"turn_limit": args.turn_limit}}
    if args.clock != "none":
        kind, per_move, bank = (args.clock.split(":") + ["0"])[:3]
        request["pace"] = {"kind": kind, "per_move": int(per_move), "bank": int(bank)}
    created = await http.post("/api/games", json=request)
    created.raise_for_status()
    alice = created.json()
    joined = await http.post(f"/api/games/{alice['id']}/join", json={"name": f"B{number}"})
    joined.raise_for_status()
    rng = random.Random(number)
    versions = await asyncio.gather(*(play_seat(ws_base, t, random.Random(rng.random()), args, tally)
                                      for t in (alice, joined.json())))
    tally.finished += 1
    tally.moves += max(versions)


PHRASES = ("Good luck!", "Nice move!", "Thinking…", "Well played!", "<b>not bold</b> & friends")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def by_fifth(tally: Tally) -> list[float]:
    """The p99 latency of the moves sent in each fifth of the run: where the slow moves happened."""
    if not tally.sent:
        return []
    start, end = min(tally.sent), max(tally.sent)
    span = (end - start) / 5 or 1.0
    fifths: list[list[float]] = [[] for _ in range(5)]
    for sent, latency in zip(tally.sent, tally.latencies, strict=True):
        fifths[min(4, int((sent - start) / span))].append(latency)
    return [round(1000 * percentile(f, 99), 1) if f else 0.0 for f in fifths]


async def run_load(args: argparse.Namespace, port: int) -> tuple[Tally, float]:
    base = f"http://127.0.0.1:{port}"
    tally = Tally()
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        start = time.perf_counter()
        await asyncio.gather(*(play_game(http, f"ws://127.0.0.1:{port}", n, args, tally) for n in range(args.games)))
        return tally, time.perf_counter() - start


def start_server(port: int, db: Path, log: Path) -> subprocess.Popen[str]:
    unlimited = [f"--{name}=0" for name in ("creates-per-minute", "joins-per-minute", "connections-per-minute",
                                            "connections-at-once")]
    with log.open("w") as log_file:
        server = subprocess.Popen(
            [sys.executable, "-m", "tendays", "serve", "--port", str(port), "--db", f"sqlite:///{db}",
             "--bot-delay", "0", "--log-level", "warning", *unlimited],
            stdout=subprocess.DEVNULL, stderr=log_file, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the server did not start: {log.read_text()}")


async def master_alone(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """The match master in this process, without sockets: N games of two scripted seats, each seat with a
    subscribed connection whose messages are taken at once. Its CPU per move is the server's own work
    (moves, clocks, storing, views, encoding), apart from the WebSocket and event-loop layers."""
    from tendays.server.journal import Journal
    from tendays.server.lobby import Lobby
    from tendays.server.settings import MasterSettings
    from tendays.server.store import Store
    from tendays.server.timing import Pace

    # No think time here, so the chat's rate limit (made for people) is lifted.
    settings = MasterSettings(bot_delay=0, draft_delay=0, bot_processes=0, seed_source=lambda: 7, chat_lines=10**9)
    lobby = Lobby(Journal(Store(f"sqlite:///{folder / 'master.db'}")), settings)
    lobby.restore()
    lobby.start()
    pace = None if args.clock == "none" else Pace(*(lambda k, m, b="0": (k, float(m), float(b)))(
        *args.clock.split(":")))
    rng, games = random.Random(1), []
    for number in range(args.games):
        match, _ = await lobby.create(args.edition, [("human", None), ("human", None)],
                                      {"turn_limit": args.turn_limit}, f"A{number}", pace)
        await match.join(f"B{number}")
        games.append((match, [match.subscribe(0), match.subscribe(1)]))
    tally = {"moves": 0, "bytes": 0, "messages": 0}

    async def play(match: Any, subscribers: list[Any]) -> None:
        while match.status != "over":
            seat = match.state.current
            await match.play(seat, str(rng.choice(match.state.legal_moves())), match.version)
            tally["moves"] += 1
            if args.chat and match.version % (2 * args.chat) == 0:
                await match.say(seat, rng.choice(PHRASES))
            for subscriber in subscribers:
                sent = subscriber.drain()
                tally["messages"] += len(sent)
                tally["bytes"] += sum(len(text) for text in sent)

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(play(match, subscribers) for match, subscribers in games))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    await lobby.close()
    await lobby.journal.close()
    return {"games": args.games, "moves": tally["moves"], "seconds": round(wall, 2),
            "master_cpu_ms_per_move": round(1000 * cpu / tally["moves"], 3),
            "bytes_per_move": round(tally["bytes"] / tally["moves"]),
            "message_bytes_mean": round(tally["bytes"] / tally["messages"]), "clock": args.clock,
            "chat_every": args.chat}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--edition", default="usa")
    parser.add_argument("--bot", default="normal", help="the server bot in each game (default normal)")
    parser.add_argument("--turn-limit", type=int, default=60, help="turns before a game ends undecided (default 60)")
    parser.add_argument("--think", type=float, default=0.1,
                        help="mean seconds a scripted player waits before each move, drawn from 0.5x to 1.5x "
                             "(default 0.1; at least 0.1 keeps every connection within 20 messages a second)")
    parser.add_argument("--ramp", type=float, default=0.0,
                        help="seconds over which the games start, evenly spread (default 0: all at once)")
    parser.add_argument("--clock", default="live:60:120", metavar="KIND:SECONDS:BANK",
                        help="every game's clock (default live:60:120; 'none' for no clock)")
    parser.add_argument("--chat", type=int, default=10, metavar="N",
                        help="each seat writes a chat line every N of its moves (default 10; 0: no chat)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--in-process", action="store_true",
                        help="measure the match master alone, in this process, without sockets or think time")
    args = parser.parse_args()
    if args.in_process:
        with tempfile.TemporaryDirectory() as folder:
            alone = asyncio.run(master_alone(args, Path(folder)))
        print(json.dumps(alone) if args.json else
              f"{alone['moves']} moves of {alone['games']} games in {alone['seconds']} s: the match master spent "
              f"{alone['master_cpu_ms_per_move']} ms of CPU per move and sent {alone['bytes_per_move']} bytes per "
              f"move to two connections ({alone['message_bytes_mean']} per message); clock {alone['clock']}, "
              f"a chat line every {alone['chat_every']} moves a seat")
        return 0
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "server.log"
        server = start_server(port, Path(folder) / "load.db", log)
        try:
            cpu_before, client_before = cpu_seconds(server.pid), time.process_time()
            tally, wall = asyncio.run(run_load(args, port))
            server_cpu = cpu_seconds(server.pid) - cpu_before
            client_cpu = time.process_time() - client_before
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
            server_log = log.read_text()
    lat = tally.latencies
    result = {
        "games": args.games,
        "games_finished": tally.finished,
        "moves": tally.moves,
        "person_moves_timed": len(lat),
        "seconds": round(wall, 2),
        "moves_per_s": round(tally.moves / wall, 1),
        "latency_p50_ms": round(1000 * statistics.median(lat), 2) if lat else None,
        "latency_p99_ms": round(1000 * percentile(lat, 99), 2) if lat else None,
        "latency_max_ms": round(1000 * max(lat), 2) if lat else None,
        "latency_p99_by_fifth_ms": by_fifth(tally),
        "server_cpu_s": round(server_cpu, 1),
        "server_cpu_ms_per_move": round(1000 * server_cpu / tally.moves, 3) if tally.moves else None,
        "table_bytes_mean": round(tally.table_bytes / tally.tables) if tally.tables else None,
        "clock": args.clock,
        "chat_every": args.chat,
        "client_cpu_s": round(client_cpu, 1),
        "errors": len(tally.errors),
        "think_s": args.think,
        "ramp_s": args.ramp,
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['games_finished']}/{args.games} games finished in {result['seconds']} s "
              f"({tally.moves} moves, {result['moves_per_s']} moves/s, think {args.think} s, ramp {args.ramp} s)")
        print(f"move latency (sent -> new table): p50 {result['latency_p50_ms']} ms, "
              f"p99 {result['latency_p99_ms']} ms, max {result['latency_max_ms']} ms over {len(lat)} moves")
        print("p99 in each fifth of the run (ms):", result["latency_p99_by_fifth_ms"])
        print(f"server CPU per move: {result['server_cpu_ms_per_move']} ms; mean table message: "
              f"{result['table_bytes_mean']} bytes; clock {args.clock}, a chat line every {args.chat} moves a seat")
        print(f"CPU: server {result['server_cpu_s']} s, clients {result['client_cpu_s']} s; "
              f"rejected messages: {result['errors']}; {result['cpus']} CPUs shared by server and clients")
        for error in tally.errors[:5]:
            print("  ", error)
        if server_log.strip():
            print("server log (last lines):", *server_log.strip().splitlines()[-10:], sep="\n  ")
    return 0 if tally.finished == args.games and not tally.errors else 1


if __name__ == "__main__":
    sys.exit(main())
