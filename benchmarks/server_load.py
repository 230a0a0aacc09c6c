"""Load on the web server: many concurrent games played over real WebSockets on loopback.

    python benchmarks/server_load.py                     # 200 games, a readable report
    python benchmarks/server_load.py --games 50 --json   # one JSON object
    python benchmarks/server_load.py --in-process        # the match master alone: its CPU per move
    python benchmarks/server_load.py --postgres --json     # one server on a throwaway PostgreSQL
    python benchmarks/server_load.py --processes 3 --json  # three servers on one PostgreSQL
    python benchmarks/server_load.py --processes 3 --kills 6 --lease 3  # and kill -9 one every few
                                                                        # seconds
    python benchmarks/server_load.py --idle-connections 10000 --json  # and 10,000 idle sockets
                                                                      # (benchmarks/load_sockets.py)

Starts ``tendays serve`` as a subprocess (bots without pacing, a fresh SQLite file: every move is
committed before it is acknowledged, as in production), creates N games at once, each with two human
seats and one server bot, and plays every human seat through the protocol with a scripted client
that picks a random legal move after a short pause (``--think``, 0.1 s on average: far quicker than
people, yet within the protocol's limit of 20 messages a second per connection). Games end when the
bot completes its journey or at the turn limit.

Clocks and chat are on by default, as on a public site: every game is live (``--clock``, 60 s a move
and a 120 s bank; the scripted players never run out of time) and each seat writes a chat line every
``--chat`` of its moves. The server's per-client limits are turned off, since every client here has
the same address.

With ``--processes N`` (or ``--db postgresql://...``) N ``tendays serve`` processes share one
PostgreSQL database: a throwaway cluster of Debian's PostgreSQL, durable (every commit flushed),
unless ``--db`` names one. Game i is created on process i mod N; its join and both seats'
connections go to one process chosen by a hash of the game's id, as the shipped nginx sends them
(``--route game``, benchmarks/load_cluster.py), and that process takes the game over. With ``--route
spread`` its first seat plays through the creating process and its second through the next, as
behind a proxy that spreads connections, so every move also travels between processes
(LISTEN/NOTIFY). ``--compare-one`` runs the same load on one process on PostgreSQL as well and gives
the ratios (``cpu_ratio_vs_one_process``, ``p99_ratio_vs_one_process``); ``--idle-window S``
measures the processes' idle CPU first and gives the CPU per move less it
(``cpu_ms_per_move_net``). On the throwaway PostgreSQL a run also gives the database's transactions
a move (``db_transactions_per_move``); ``--pg-stats`` adds the notices and the statements a move
(``pg_stat_statements``). ``--kills K`` kills a process with SIGKILL every ``--kill-every``
seconds (round the processes) and starts it again; its clients reconnect to another process, as the
browser does (with ``--route game``, all of a game's to the same one, which takes the game over).
The failover time is from the kill to the next bot move of each game the killed process drove (only
the driving process moves bots), read from the database every 20 ms. With kills, a game that ends is
followed by a new one in its place until the last kill's failover is timed, so every kill finds
games to time however short the games are.

Reported: games finished, accepted moves per second (people's and bots'), the latency of a person's
move (from sending the move to receiving the new table, which is the acknowledgement), the server's
CPU time per move, and the mean size of a table message. The clients run in this process, so they
share the machine's cores with the server; the idle connections of ``--idle-connections`` (other
people's open pages) are held by a child process of their own (benchmarks/load_sockets.py).
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
from load_cluster import (
    ROUTE_HEADERS,
    compare_one,
    count_statements,
    database_counts,
    game_home,
    idle_cpu,
    per_move,
)
from load_sockets import IdleSockets, open_idle, raise_open_files, rss_kb
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake


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
    started: int = 0  # games created
    tables: int = 0  # table messages received
    table_bytes: int = 0
    reconnects: int = 0
    # seconds from a kill to an orphaned game's next bot move
    failovers: list[float] = field(default_factory=list)
    idle: dict[str, Any] = field(default_factory=dict)  # --idle-connections: their figures
    cpu_mark: float | None = None  # the servers' CPU once the idle connections are open


async def play_seat(
    ports: list[int],
    ticket: dict[str, Any],
    rng: random.Random,
    args: argparse.Namespace,
    tally: Tally,
    first: int,
) -> int:
    """Play one seat until the game is over; return the final version. A seat whose server goes away
    reconnects to the next one (as the browser client does, through a load balancer)."""
    which = first
    while True:
        try:
            return await _play_connected(
                f"ws://127.0.0.1:{ports[which % len(ports)]}", ticket, rng, args, tally
            )
        except (ConnectionClosed, InvalidHandshake, OSError):
            tally.reconnects += 1
            which += 1
            await asyncio.sleep(0.05)


async def _play_connected(
    base: str, ticket: dict[str, Any], rng: random.Random, args: argparse.Namespace, tally: Tally
) -> int:
    think = args.think
    routed = ROUTE_HEADERS if args.route == "game" else None
    async with connect(
        f"{base}/ws/games/{ticket['id']}",
        max_size=2**22,
        open_timeout=5,
        additional_headers=routed,
    ) as ws:
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
                # the other process moved first; the new table follows
                if message.get("code") == "stale":
                    continue
                tally.errors.append(f"{message}")
                # the move was not taken: send it again, later
                if message.get("code") == "rate_limited":
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
            last = json.dumps(
                {"type": "move", "move": rng.choice(moves)["text"], "version": version}
            )
            await ws.send(last)


async def keep_playing(
    http: list[httpx.AsyncClient],
    ports: list[int],
    slot: int,
    args: argparse.Namespace,
    tally: Tally,
    killing: asyncio.Event | None,
) -> None:
    """Game ``slot``: one game, or while ``killing`` is set, a new game each time one ends."""
    # games start spread over the ramp, as people arrive
    await asyncio.sleep(slot * args.ramp / args.games)
    number = slot
    await play_game(http, ports, number, args, tally)
    while killing is not None and killing.is_set():
        number += args.games
        await play_game(http, ports, number, args, tally)


async def play_game(
    http: list[httpx.AsyncClient],
    ports: list[int],
    number: int,
    args: argparse.Namespace,
    tally: Tally,
) -> None:
    tally.started += 1
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": args.bot}]
    request: dict[str, Any] = {
        "edition": args.edition,
        "name": f"A{number}",
        "seats": seats,
        "options": {"turn_limit": args.turn_limit},
    }
    if args.clock != "none":
        kind, per_move, bank = (args.clock.split(":") + ["0"])[:3]
        request["pace"] = {"kind": kind, "per_move": int(per_move), "bank": int(bank)}
    home = number % len(ports)
    alice = await post_to_live(http, home, "/api/games", request)
    # --route game: the game's requests and connections go to one process, as nginx sends them
    routed = game_home(alice["id"], len(ports)) if args.route == "game" else None
    joined = await post_to_live(
        http,
        home + 1 if routed is None else routed,
        f"/api/games/{alice['id']}/join",
        {"name": f"B{number}"},
    )
    rng = random.Random(number)
    versions = await asyncio.gather(
        *(
            play_seat(
                ports,
                t,
                random.Random(rng.random()),
                args,
                tally,
                home + seat if routed is None else routed,
            )
            for seat, t in enumerate((alice, joined))
        )
    )
    tally.finished += 1
    tally.moves += max(versions)


async def post_to_live(
    http: list[httpx.AsyncClient], first: int, path: str, body: dict[str, Any]
) -> Any:
    """POST to server ``first``, or (while it is down, killed) to the next live
    one, as a load balancer does."""
    for attempt in range(10 * len(http)):
        try:
            answer = await http[(first + attempt) % len(http)].post(path, json=body)
        except httpx.TransportError:
            await asyncio.sleep(0.1)
            continue
        answer.raise_for_status()
        return answer.json()
    raise SystemExit(f"no server answered {path}")


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


async def run_load(
    args: argparse.Namespace, servers: list[Server], db: str | None
) -> tuple[Tally, float]:
    ports = [server.port for server in servers]
    tally = Tally()
    limits = httpx.Limits(max_connections=50)
    clients = [
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60, limits=limits)
        for port in ports
    ]
    idle: IdleSockets | None = None
    try:
        if args.idle_connections:
            idle, tally.idle = await open_idle(
                ports[0],
                servers[0].process.pid,
                args.idle_connections,
                args.idle_tables,
                args.idle_ping,
            )
            tally.cpu_mark = sum(s.cpu() for s in servers)  # the games' CPU counts from here
        start = time.perf_counter()
        killing = asyncio.Event() if args.kills and db is not None else None
        if killing is not None:
            killing.set()  # until the last kill's failover is timed, games that end are replaced
        play = asyncio.gather(
            *(keep_playing(clients, ports, n, args, tally, killing) for n in range(args.games))
        )
        if killing is not None:
            await asyncio.gather(play, kill_servers(args, servers, db, tally, killing))
        else:
            await play
        return tally, time.perf_counter() - start
    finally:
        if idle is not None:
            tally.idle["rss_mb_end"] = round(rss_kb(servers[0].process.pid) / 1024, 1)
            tally.idle.update(await idle.finish())
        for client in clients:
            await client.aclose()


async def kill_servers(
    args: argparse.Namespace, servers: list[Server], db: str, tally: Tally, killing: asyncio.Event
) -> None:
    """Kill -9 a server every ``--kill-every`` seconds, start it again, and time each orphaned
    game's next bot move (seat 3: only the process that drives the game moves
    it); then clear ``killing``."""
    try:
        await _kill_servers(args, servers, db, tally)
    finally:
        killing.clear()


async def _kill_servers(
    args: argparse.Namespace, servers: list[Server], db: str, tally: Tally
) -> None:
    import psycopg

    conninfo = db.replace("postgresql+psycopg://", "postgresql://")
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
        for kill in range(args.kills):
            await asyncio.sleep(args.kill_every)
            server = servers[kill % len(servers)]
            rows = await (
                await conn.execute(
                    "SELECT g.id, (SELECT count(*) FROM moves m WHERE m.game_id = g.id AND m.seat "
                    "= 2) FROM games g WHERE NOT g.finished AND g.lease_owner LIKE %s",
                    (f"%:{server.process.pid}:%",),
                )
            ).fetchall()
            server.kill()
            killed = time.perf_counter()
            # the clients play on meanwhile
            restarted = asyncio.create_task(asyncio.to_thread(server.start))
            waiting = dict(rows)
            while waiting and time.perf_counter() - killed < 10 * args.lease + 30:
                found = await (
                    await conn.execute(
                        "SELECT g.id, g.finished, (SELECT count(*) FROM moves m WHERE m.game_id = "
                        "g.id AND m.seat = 2) FROM games g WHERE g.id = ANY(%s)",
                        (list(waiting),),
                    )
                ).fetchall()
                now = time.perf_counter()
                for game_id, finished, bot_moves in found:
                    if bot_moves > waiting[game_id]:
                        tally.failovers.append(now - killed)
                        del waiting[game_id]
                    elif finished:
                        del waiting[game_id]
                await asyncio.sleep(0.02)
            await restarted


class Server:
    """One ``tendays serve`` process on a fixed port."""

    def __init__(self, db: str, log: Path, lease: float) -> None:
        self.port, self.db, self.log, self.lease = free_port(), db, log, lease
        self.spent = 0.0
        self.process = self.start()

    def start(self) -> subprocess.Popen[str]:
        unlimited = [
            f"--{name}=0"
            for name in (
                "creates-per-minute",
                "joins-per-minute",
                "connections-per-minute",
                "connections-at-once",
                "open-connections",
            )
        ]
        with self.log.open("a") as log_file:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tendays",
                    "serve",
                    "--port",
                    str(self.port),
                    "--db",
                    self.db,
                    "--bot-delay",
                    "0",
                    "--log-level",
                    "warning",
                    "--lease",
                    f"{self.lease}s",
                    *unlimited,
                ],
                stdout=subprocess.DEVNULL,
                stderr=log_file,
                text=True,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=2).status_code == 200:
                    return self.process
            except httpx.HTTPError:
                time.sleep(0.1)
        self.process.kill()
        raise SystemExit(f"the server did not start: {self.log.read_text()}")

    def kill(self) -> None:
        self.spent += cpu_seconds(self.process.pid)  # the CPU of the killed process counts too
        self.process.kill()
        self.process.wait(10)

    def cpu(self) -> float:
        """CPU seconds of this server, over every process it was (killed ones included)."""
        return self.spent + cpu_seconds(self.process.pid)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


def postgres_cluster() -> Any:
    """A throwaway, durable PostgreSQL cluster (the tests' helper, tests/server/postgres.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
    from postgres import PostgresCluster, binaries

    bin_dir = binaries()
    if bin_dir is None:
        raise SystemExit(
            "PostgreSQL's server programs are not installed (apt-get install postgresql)"
        )
    return PostgresCluster(bin_dir, durable=True)


def children_cpu(parent: int) -> float:
    """CPU seconds of a process and its children (the database server and its backends)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        if pid == parent or int(fields[1]) == parent:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def master_alone(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """The match master in this process, without sockets: N games of two scripted seats, each seat
    with a subscribed connection whose messages are taken at once. Its CPU per move is the server's
    own work (moves, clocks, storing, views, encoding), apart from the
    WebSocket and event-loop layers."""
    from tendays.server.matches.lobby import Lobby
    from tendays.server.settings import MasterSettings, Pace
    from tendays.server.storage.journal import Journal
    from tendays.server.storage.store import Store

    # No think time here, so the chat's rate limit (made for people) is lifted.
    settings = MasterSettings(
        bot_delay=0, draft_delay=0, bot_processes=0, seed_source=lambda: 7, chat_lines=10**9
    )
    lobby = Lobby(Journal(Store(f"sqlite:///{folder / 'master.db'}")), settings)
    lobby.restore()
    lobby.start()
    pace = (
        None
        if args.clock == "none"
        else Pace(*(lambda k, m, b="0": (k, float(m), float(b)))(*args.clock.split(":")))
    )
    rng, games = random.Random(1), []
    for number in range(args.games):
        match, _ = await lobby.create(
            args.edition,
            [("human", None), ("human", None)],
            {"turn_limit": args.turn_limit},
            f"A{number}",
            pace,
        )
        await match.join(f"B{number}")
        games.append((match, [match.subscribe(0), match.subscribe(1)]))
    tally = {"moves": 0, "bytes": 0, "messages": 0}

    async def play(match: Any, subscribers: list[Any]) -> None:
        while match.status != "over":
            seat = match.state.current
            await match.submit(seat, str(rng.choice(match.state.legal_moves())), match.version)
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
    return {
        "games": args.games,
        "moves": tally["moves"],
        "seconds": round(wall, 2),
        "master_cpu_ms_per_move": round(1000 * cpu / tally["moves"], 3),
        "bytes_per_move": round(tally["bytes"] / tally["moves"]),
        "message_bytes_mean": round(tally["bytes"] / tally["messages"]),
        "clock": args.clock,
        "chat_every": args.chat,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--edition", default="usa")
    parser.add_argument(
        "--bot", default="normal", help="the server bot in each game (default normal)"
    )
    parser.add_argument(
        "--turn-limit", type=int, default=60, help="turns before a game ends undecided (default 60)"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.1,
        help="mean seconds a scripted player waits before each move, drawn from 0.5x to 1.5x "
        "(default 0.1; at least 0.1 keeps every connection within 20 messages a second)",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="seconds over which the games start, evenly spread (default 0: all at once)",
    )
    parser.add_argument(
        "--clock",
        default="live:60:120",
        metavar="KIND:SECONDS:BANK",
        help="every game's clock (default live:60:120; 'none' for no clock)",
    )
    parser.add_argument(
        "--chat",
        type=int,
        default=10,
        metavar="N",
        help="each seat writes a chat line every N of its moves (default 10; 0: no chat)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        metavar="N",
        help="server processes on one PostgreSQL database (default 1: SQLite, unless --db)",
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="a throwaway PostgreSQL even for one process (implied by --processes > 1)",
    )
    parser.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="a PostgreSQL database to use (default: a throwaway cluster when --processes > 1)",
    )
    parser.add_argument(
        "--kills",
        type=int,
        default=0,
        metavar="K",
        help="kill -9 a server K times during the run and time the failover (PostgreSQL)",
    )
    parser.add_argument(
        "--kill-every",
        type=float,
        default=8.0,
        metavar="SECONDS",
        help="seconds between kills (default 8)",
    )
    parser.add_argument(
        "--lease",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="the servers' game lease (default 10, as tendays serve)",
    )
    parser.add_argument(
        "--route",
        choices=("game", "spread"),
        default="game",
        help="with several processes: every connection of a game to one process, as the shipped "
        "nginx sends them (game, the default), or a game's two seats on two processes (spread)",
    )
    parser.add_argument(
        "--idle-window",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="measure the servers' and the database's idle CPU this long before the load, and "
        "give the CPU per move less it (cpu_ms_per_move_net; default 0: not measured)",
    )
    parser.add_argument(
        "--compare-one",
        action="store_true",
        help="run the same load on one process on PostgreSQL too, and give the ratios to it",
    )
    parser.add_argument(
        "--idle-connections",
        type=int,
        default=0,
        metavar="N",
        help="N spectators held open on waiting tables of the first server beside the games; "
        "reports the server's memory per connection (default 0)",
    )
    parser.add_argument(
        "--idle-tables",
        type=int,
        default=100,
        metavar="T",
        help="the waiting tables the idle connections watch (default 100)",
    )
    parser.add_argument(
        "--idle-ping",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="each idle connection sends the browser's ping message this often (the table page "
        "sends one every 25 s; default 0: nothing after its hello, as the inbox's page)",
    )
    parser.add_argument(
        "--pg-stats",
        action="store_true",
        help="on the throwaway PostgreSQL, also count the notice and fence statements a move "
        "(loads pg_stat_statements; the database's transactions a move are always given)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="measure the match master alone, in this process, without sockets or think time",
    )
    args = parser.parse_args()
    if args.in_process:
        with tempfile.TemporaryDirectory() as folder:
            alone = asyncio.run(master_alone(args, Path(folder)))
        print(
            json.dumps(alone)
            if args.json
            else f"{alone['moves']} moves of {alone['games']} games in {alone['seconds']} s: "
            f"the match master spent {alone['master_cpu_ms_per_move']} ms of CPU per move and sent "
            f"{alone['bytes_per_move']} bytes per move to two connections "
            f"({alone['message_bytes_mean']} per message); clock {alone['clock']}, a chat line "
            f"every {alone['chat_every']} moves a seat"
        )
        return 0
    cluster = None
    if args.idle_connections:
        raise_open_files()  # a connection is a file at both ends; the servers inherit the limit
    shared = args.postgres or args.db is not None or args.processes > 1 or args.kills > 0
    with tempfile.TemporaryDirectory() as folder:
        if shared and args.db is None:
            cluster = postgres_cluster()
            cluster._admin("CREATE DATABASE tendays_load")
            args.db = cluster.url("tendays_load")
            if args.pg_stats:
                count_statements(cluster, "tendays_load")
        db = args.db or f"sqlite:///{Path(folder) / 'load.db'}"
        log = Path(folder) / "server.log"
        servers = [Server(db, log, args.lease) for _ in range(max(1, args.processes))]
        database_cpu = (
            (lambda: children_cpu(cluster.postmaster())) if cluster is not None else (lambda: 0.0)
        )
        try:
            # what the servers and the database spend doing nothing, a second (--idle-window)
            idle_per_s = idle_cpu(servers, database_cpu, args.idle_window)
            cpu_before = sum(s.cpu() for s in servers)
            asked = (
                {} if cluster is None else database_counts(cluster, "tendays_load", args.pg_stats)
            )
            db_before, client_before = database_cpu(), time.process_time()
            tally, wall = asyncio.run(run_load(args, servers, db if shared else None))
            if cluster is not None and not args.kills:
                after = database_counts(cluster, "tendays_load", args.pg_stats)
                asked = per_move(asked, after, tally.moves)
            server_cpu = sum(s.cpu() for s in servers) - (
                cpu_before if tally.cpu_mark is None else tally.cpu_mark
            )
            db_cpu = database_cpu() - db_before
            client_cpu = time.process_time() - client_before
        finally:
            for server in servers:
                server.stop()
            server_log = log.read_text()
            if cluster is not None:
                cluster.stop()
    lat = tally.latencies
    failovers = tally.failovers
    result = {
        "processes": max(1, args.processes),
        "database": "postgresql" if shared else "sqlite",
        "games": args.games,
        "games_played": tally.started,
        "finished": tally.finished,
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
        "server_cpu_ms_per_move": round(1000 * server_cpu / tally.moves, 3)
        if tally.moves
        else None,
        # With kills the database's backends come and go, and the CPU of those
        # gone is not counted: none then.
        "database_cpu_ms_per_move": round(1000 * db_cpu / tally.moves, 3)
        if tally.moves and not args.kills
        else None,
        "table_bytes_mean": round(tally.table_bytes / tally.tables) if tally.tables else None,
        "clock": args.clock,
        "chat_every": args.chat,
        "client_cpu_s": round(client_cpu, 1),
        "errors": len(tally.errors),
        "think_s": args.think,
        "ramp_s": args.ramp,
        "cpus": os.cpu_count(),
        "reconnects": tally.reconnects,
    }
    # The short names: p50/p99 of a person's move, CPU of the servers and the database per move.
    result["p50_ms"], result["p99_ms"] = result["latency_p50_ms"], result["latency_p99_ms"]
    result.update(tally.idle)
    if cluster is not None and not args.kills:
        result.update(asked)  # what the database was asked a move
    counted = server_cpu + (db_cpu if not args.kills else 0.0)
    result["cpu_ms_per_move"] = round(1000 * counted / tally.moves, 3) if tally.moves else None
    if args.idle_window and tally.moves and not args.kills:
        result["idle_cpu_ms_per_s"] = round(1000 * idle_per_s, 2)
        net = counted - idle_per_s * wall  # less what the processes spend idle over the run
        result["cpu_ms_per_move_net"] = round(1000 * net / tally.moves, 3)
    if args.kills:
        result["kills"] = args.kills
        result["failovers_timed"] = len(failovers)
        result["failover_ms_p50"] = (
            round(1000 * statistics.median(failovers)) if failovers else None
        )
        result["failover_ms_p99"] = round(1000 * percentile(failovers, 99)) if failovers else None
    if args.compare_one:
        result.update(compare_one(sys.argv[1:], result))
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['games_finished']}/{tally.started} games finished in {result['seconds']} s "
            f"({tally.moves} moves, {result['moves_per_s']} moves/s, think {args.think} s, ramp "
            f"{args.ramp} s)"
        )
        print(
            f"move latency (sent -> new table): p50 {result['latency_p50_ms']} ms, p99 "
            f"{result['latency_p99_ms']} ms, max {result['latency_max_ms']} ms over {len(lat)} "
            f"moves"
        )
        print("p99 in each fifth of the run (ms):", result["latency_p99_by_fifth_ms"])
        print(
            f"server CPU per move: {result['server_cpu_ms_per_move']} ms; mean table message: "
            f"{result['table_bytes_mean']} bytes; clock {args.clock}, a chat line every "
            f"{args.chat} moves a seat"
        )
        print(
            f"{result['processes']} server process(es) on {result['database']}; CPU per move, "
            f"servers and database together: {result['cpu_ms_per_move']} ms (database "
            f"{result['database_cpu_ms_per_move']})"
        )
        if args.kills:
            print(
                f"failover (kill -9 to the next bot move of each orphaned game, {len(failovers)} "
                f"games, {args.kills} kills, lease {args.lease} s): p50 "
                f"{result['failover_ms_p50']} ms, p99 {result['failover_ms_p99']} ms; "
                f"reconnections {tally.reconnects}"
            )
        if tally.idle:
            print(
                f"{result['idle_connections']} idle connections on {args.idle_tables} waiting "
                f"tables ({result['idle_failed']} failed, {result['idle_held_at_end']} open at "
                f"the end): server memory {result['rss_mb_before_idle']} -> {result['rss_mb']} "
                f"MiB, {result['rss_kb_per_connection']} KiB a connection; "
                f"{result['rss_mb_end']} MiB at the end"
            )
        print(
            f"CPU: server {result['server_cpu_s']} s, clients {result['client_cpu_s']} s; rejected "
            f"messages: {result['errors']}; {result['cpus']} CPUs shared by server and clients"
        )
        if args.compare_one:
            print(
                f"against one process on PostgreSQL: CPU per move x"
                f"{result['cpu_ratio_vs_one_process']}, p99 x{result['p99_ratio_vs_one_process']}"
            )
        for error in tally.errors[:5]:
            print("  ", error)
        if server_log.strip():
            print("server log (last lines):", *server_log.strip().splitlines()[-10:], sep="\n  ")
    return 0 if tally.finished == tally.started and (args.kills or not tally.errors) else 1


if __name__ == "__main__":
    sys.exit(main())
