"""Many sockets on one server: idle connections held open beside the played games.

Used by ``benchmarks/server_load.py --idle-connections N``: before the games start, N spectators
open the table sockets of ``--idle-tables`` games that wait for a player (so their tables do not
change: the connections stay idle, as a site's many open pages do), say hello, read the table and
then only listen, answering the server's pings. The server's resident memory is read before and
after they open; its difference, divided by N, is the memory a connection costs. They stay open
while the games are played, so the games' latency and CPU are measured beside them.

They are other people's browsers, not the players', so they live in a child process of their own
(this file run as a script): the players' client process measures its moves' latency without also
serving 10,000 sockets on its one event loop. ``--idle-ping S`` makes each send the browser's
``ping`` message every S seconds (the browser's table page sends one every 25 s; the inbox's
``/ws/me`` page sends nothing); by default they send nothing after their hello.

The open-files limit of this process (and of the processes it starts) is raised to its hard limit:
every connection is a file descriptor at both ends.

    python benchmarks/load_sockets.py --port 8000 --count 1000   # hold 1000 until stdin closes
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

__all__ = ["IdleSockets", "open_idle", "raise_open_files", "rss_kb"]

# connections opened at once: within the server's listen backlog
OPENING_AT_ONCE = 200


def raise_open_files() -> tuple[int, int]:
    """Raise the soft limit on open files to the hard one; return (soft, hard) as they are now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def rss_kb(pid: int) -> int:
    """The resident memory of a process, in KiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise ValueError(f"no VmRSS for process {pid}")


@dataclass
class Holder:
    """The child's side: N spectators on a few waiting tables of one server."""

    port: int
    count: int
    tables: int
    ping_every: float = 0.0  # seconds between the browser's ``ping`` messages; 0: none
    connections: list[ClientConnection] = field(default_factory=list)
    readers: list[asyncio.Task[None]] = field(default_factory=list)
    received: int = 0  # messages after the first table (pongs to --idle-ping's pings apart)
    failed: int = 0

    async def open(self, http: httpx.AsyncClient) -> None:
        """Create the waiting tables and open every connection to them."""
        ids = []
        for number in range(max(1, self.tables)):
            seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "normal"}]
            answer = await http.post(
                "/api/games", json={"edition": "usa", "name": f"W{number}", "seats": seats}
            )
            answer.raise_for_status()
            ids.append(answer.json()["id"])
        gate = asyncio.Semaphore(OPENING_AT_ONCE)
        await asyncio.gather(*(self._open_one(ids[n % len(ids)], gate) for n in range(self.count)))

    async def _open_one(self, game_id: str, gate: asyncio.Semaphore) -> None:
        async with gate:
            try:
                # no pings of the client's own: a browser's page sends none either
                ws = await connect(
                    f"ws://127.0.0.1:{self.port}/ws/games/{game_id}",
                    open_timeout=60,
                    ping_interval=None,
                    max_size=2**22,
                )
                await ws.send(json.dumps({"type": "hello"}))
                first = json.loads(await ws.recv())
            except (OSError, TimeoutError, ValueError) as error:
                self.failed += 1
                if self.failed == 1:
                    print("an idle connection failed:", repr(error), file=sys.stderr)
                return
            if first.get("type") != "state":
                self.failed += 1
                await ws.close()
                return
        self.connections.append(ws)
        self.readers.append(asyncio.create_task(self._listen(ws)))

    async def _listen(self, ws: ClientConnection) -> None:
        pinging = None
        if self.ping_every:
            pinging = asyncio.create_task(self._ping(ws))
        try:
            async for message in ws:
                if not (self.ping_every and '"pong"' in str(message)):
                    self.received += 1
        except Exception:  # the server closed it: counted as not held at the end
            pass
        finally:
            if pinging is not None:
                pinging.cancel()

    async def _ping(self, ws: ClientConnection) -> None:
        """The browser's ``ping`` message every ``ping_every`` seconds, from a random start."""
        await asyncio.sleep(random.uniform(0, self.ping_every))
        while True:
            await ws.send('{"type":"ping"}')
            await asyncio.sleep(self.ping_every)

    def held(self) -> int:
        """The connections still open."""
        return sum(1 for task in self.readers if not task.done())

    async def close(self) -> None:
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*(ws.close() for ws in self.connections), return_exceptions=True)


async def hold(args: argparse.Namespace) -> None:
    """The child: open the connections, say how many on one line, then say how many are still
    held at each line read from stdin, and close them when stdin closes."""
    raise_open_files()
    holder = Holder(args.port, args.count, args.tables, args.idle_ping)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{args.port}", timeout=60) as http:
        await holder.open(http)
    print(json.dumps({"opened": len(holder.connections), "failed": holder.failed}), flush=True)
    loop = asyncio.get_running_loop()
    while await loop.run_in_executor(None, sys.stdin.readline):
        print(json.dumps({"held": holder.held(), "received": holder.received}), flush=True)
    await holder.close()


@dataclass
class IdleSockets:
    """The parent's handle on the child process that holds the idle connections."""

    child: asyncio.subprocess.Process

    async def _line(self) -> dict[str, Any]:
        assert self.child.stdout is not None
        line = await self.child.stdout.readline()
        if not line:
            raise SystemExit("the idle connections' process ended")
        answer: dict[str, Any] = json.loads(line)
        return answer

    async def finish(self) -> dict[str, Any]:
        """How many are still open and what they received; then close them all."""
        assert self.child.stdin is not None
        self.child.stdin.write(b"report\n")
        await self.child.stdin.drain()
        report = await self._line()
        self.child.stdin.close()
        await self.child.wait()
        return {"idle_held_at_end": report["held"], "idle_messages": report["received"]}


async def open_idle(
    port: int, pid: int, count: int, tables: int, ping_every: float = 0.0
) -> tuple[IdleSockets, Any]:
    """Open ``count`` idle connections on the server (``port``, process ``pid``) from a child
    process; return its handle and the figures: the server's memory before and after, and per
    connection."""
    before = rss_kb(pid)
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--port",
        str(port),
        "--count",
        str(count),
        "--tables",
        str(tables),
        "--idle-ping",
        str(ping_every),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    idle = IdleSockets(child)
    opened = await idle._line()
    await asyncio.sleep(1.0)  # the server's side of the last ones settles
    after = rss_kb(pid)
    figures = {
        "idle_connections": opened["opened"],
        "idle_failed": opened["failed"],
        "idle_tables": tables,
        "idle_ping_s": ping_every,
        "idle_in": "a child process",
        "rss_mb_before_idle": round(before / 1024, 1),
        "rss_mb": round(after / 1024, 1),
        "rss_kb_per_connection": round((after - before) / opened["opened"], 1)
        if opened["opened"]
        else None,
        "open_files_limit": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
    }
    return idle, figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--idle-ping", type=float, default=0.0, metavar="SECONDS")
    asyncio.run(hold(parser.parse_args()))


if __name__ == "__main__":
    main()
