"""Many sockets on one server: idle connections held open beside the played games.

Used by ``benchmarks/server_load.py --idle-connections N``: before the games start, N spectators
open the table sockets of ``--idle-tables`` games that wait for a player (so their tables do not
change: the connections stay idle, as a site's many open pages do), say hello, read the table and
then only listen. The server's resident memory is read before and after they open; its difference,
divided by N, is the memory a connection costs. They stay open while the games are played, so the
games' latency and CPU are measured beside them.

The open-files limit of this process (and of the servers it starts) is raised to its hard limit:
every connection is a file descriptor at both ends.
"""

from __future__ import annotations

import asyncio
import json
import resource
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

__all__ = ["IdleSockets", "raise_open_files", "rss_kb"]

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
class IdleSockets:
    """N spectators on a few waiting tables of one server, open until :meth:`close`."""

    port: int
    count: int
    tables: int
    connections: list[ClientConnection] = field(default_factory=list)
    readers: list[asyncio.Task[None]] = field(default_factory=list)
    received: int = 0  # messages after the first table: none while the tables wait
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
                    print("an idle connection failed:", repr(error))
                return
            if first.get("type") != "state":
                self.failed += 1
                await ws.close()
                return
        self.connections.append(ws)
        self.readers.append(asyncio.create_task(self._listen(ws)))

    async def _listen(self, ws: ClientConnection) -> None:
        try:
            async for _message in ws:
                self.received += 1
        except Exception:  # the server closed it: counted as not held at the end
            pass

    def held(self) -> int:
        """The connections still open."""
        return sum(1 for task in self.readers if not task.done())

    async def close(self) -> None:
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*(ws.close() for ws in self.connections), return_exceptions=True)


async def open_idle(port: int, pid: int, count: int, tables: int) -> tuple[IdleSockets, Any]:
    """Open ``count`` idle connections on the server (``port``, process ``pid``); return them and
    the figures: the server's memory before and after, and per connection."""
    idle = IdleSockets(port, count, tables)
    before = rss_kb(pid)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        await idle.open(http)
    await asyncio.sleep(1.0)  # the server's side of the last ones settles
    after = rss_kb(pid)
    opened = len(idle.connections)
    figures = {
        "idle_connections": opened,
        "idle_failed": idle.failed,
        "idle_tables": tables,
        "rss_mb_before_idle": round(before / 1024, 1),
        "rss_mb": round(after / 1024, 1),
        "rss_kb_per_connection": round((after - before) / opened, 1) if opened else None,
        "open_files_limit": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
    }
    return idle, figures
