"""Two ``tendays serve`` processes on one PostgreSQL database behind nginx with the shipped configuration
(deploy/nginx/tendays.conf, its upstream given two servers): every connection of a game lands on one
process, which holds the game (stores, views and sends its moves); when that process is killed, the
game goes on through the other, and every acknowledged move is stored.

Only what a machine needs changes in the configuration (ports, the server name, the certificate's and
the log's paths, the upstream's servers); each change must find its line.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")
pytest.importorskip("psycopg")
import psycopg  # noqa: E402
from cluster_nodes import Node  # noqa: E402
from server_helpers import free_port  # noqa: E402
from websockets.sync.client import ClientConnection, connect  # noqa: E402

from tendays.engine import Game  # noqa: E402
from tendays.server.storage.rows import read_options  # noqa: E402

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed (scripts/test.sh installs Debian's)"),
    pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is missing"),
]
SITE = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "tendays.conf"
TLS = ssl.create_default_context()
TLS.check_hostname, TLS.verify_mode = False, ssl.CERT_NONE  # the certificate made for the test
# The test's WebSocket client reads in a thread of its own while the test writes; with TLS 1.3 the
# reader is already inside OpenSSL (taking nginx's session tickets) as the upgrade request is written,
# and one TLS session entered by two threads at once can lose the request, leaving the connection
# silent. TLS 1.2 ends its handshake before either thread touches the session.
TLS.maximum_version = ssl.TLSVersion.TLSv1_2


def site_config(folder: Path, https: int, http: int, upstreams: list[int]) -> str:
    text = SITE.read_text()
    servers = "\n    ".join(f"server 127.0.0.1:{port} max_fails=1 fail_timeout=30s;" for port in upstreams)
    for old, new in (
        ("listen 80;", f"listen 127.0.0.1:{http};"),
        ("listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;"),
        ("server_name tendays.example.org;", "server_name localhost;"),
        ("/etc/letsencrypt/live/tendays.example.org/fullchain.pem", str(folder / "cert.pem")),
        ("/etc/letsencrypt/live/tendays.example.org/privkey.pem", str(folder / "key.pem")),
        ("server 127.0.0.1:8000;", servers),
        ("/var/log/nginx/tendays.access.log;", f"{folder / 'access.log'} routed;"),
    ):
        assert old in text, f"deploy/nginx/tendays.conf no longer has {old!r}"
        text = text.replace(old, new)
    assert "hash $tendays_game consistent;" in text and "X-Tendays-Route game" in text
    return text


@pytest.fixture
def proxy(tmp_path: Path, postgres_url: str, nodes: list[Node]) -> Iterator[str]:
    """nginx in front of two server processes (``nodes``); its HTTPS address."""
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"]
        + ["-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
        check=True,
        capture_output=True,
    )
    # as deployed behind nginx: the proxy's address is trusted, each client counted by its own
    settings = {"TRUSTED_PROXIES": "127.0.0.1", "CONNECTIONS_PER_MINUTE": "0", "CREATES_PER_MINUTE": "0"}
    nodes.extend(Node(postgres_url, **settings) for _ in range(2))
    https, http = free_port(), free_port()
    (tmp_path / "site.conf").write_text(site_config(tmp_path, https, http, [n.port for n in nodes]))
    (tmp_path / "nginx.conf").write_text(f"""
{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log warn;
events {{ worker_connections 256; }}
http {{
    client_body_temp_path {tmp_path}/body;
    proxy_temp_path {tmp_path}/proxy;
    fastcgi_temp_path {tmp_path}/fastcgi;
    uwsgi_temp_path {tmp_path}/uwsgi;
    scgi_temp_path {tmp_path}/scgi;
    log_format routed '$request_method $uri $status $upstream_addr';
    include {tmp_path}/site.conf;
}}
""")
    nginx = subprocess.Popen(
        [str(NGINX), "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-g", "daemon off;"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        base = f"https://localhost:{https}"
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{base}/health", timeout=2, context=TLS):
                    break
            except OSError:
                assert nginx.poll() is None and time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.1)
        yield base
    finally:
        nginx.terminate()
        nginx.wait(10)


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10, context=TLS) as answer:
        result: dict[str, Any] = json.load(answer)
        return result


def lease_owner(url: str, game_id: str) -> str:
    with psycopg.connect(url) as db:
        row = db.execute("SELECT lease_owner FROM games WHERE id = %s", (game_id,)).fetchone()
    return str(row[0] if row else None)


def holder(nodes: list[Node], url: str, game_id: str) -> Node | None:
    owner = lease_owner(url, game_id)
    return next((n for n in nodes if f":{n.process.pid}:" in owner), None)


class Seat:
    """A person's table connection through nginx."""

    def __init__(self, base: str, ticket: dict[str, Any]) -> None:
        self.base, self.ticket, self.latest = base, ticket, {"version": -1}
        self.conn: ClientConnection | None = None
        self._stack = contextlib.ExitStack()
        reconnect(self, time.monotonic() + 60)

    def connect(self) -> None:
        self.close()
        address = self.base.replace("https://", "wss://") + f"/ws/games/{self.ticket['id']}"
        self.conn = self._stack.enter_context(connect(address, ssl=TLS, open_timeout=10))
        self.conn.send(json.dumps({"type": "hello", "token": self.ticket["token"]}))
        self.latest = {"version": -1}
        self.read(10)

    def read(self, timeout: float) -> None:
        assert self.conn is not None
        end = time.monotonic() + timeout
        while True:
            try:
                message = json.loads(self.conn.recv(timeout=max(0.0, end - time.monotonic())))
            except TimeoutError:
                return
            if message.get("type") == "state" and message["version"] >= self.latest["version"]:
                self.latest = message
            if time.monotonic() >= end:
                return
            end = min(end, time.monotonic() + 0.02)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()
        self.conn = None


def reconnect(seat: Seat, deadline: float) -> None:
    """Connect (again) as the browser does, trying until ``deadline``: on a busy machine a process
    may take longer than one handshake's wait to answer."""
    while True:
        try:
            seat.connect()
            return
        except Exception:
            assert time.monotonic() < deadline, "no process took the connection again"
            time.sleep(0.2)


def play(seats: list[Seat], moves: int, acked: dict[tuple[str, int], str]) -> int:
    """Play ``moves`` moves (the people's and the bot's), reconnecting through nginx when a connection
    drops; record each acknowledged move by its game and number."""
    start = max(s.latest["version"] for s in seats)
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the game did not go on"
        for seat in seats:
            try:
                seat.read(0.05)
            except Exception:  # its process is gone: the browser reconnects, nginx sends it on
                reconnect(seat, deadline)
        table = max((s.latest for s in seats), key=lambda m: m["version"])
        version = table["version"]
        if version >= start + moves or table["game"]["status"] == "over":
            return int(version)
        mover = next((s for s in seats if s.ticket["seat"] == table["game"]["current"]), None)
        if mover is None or mover.latest["version"] != version:
            continue  # the bot's turn, or the mover has not seen the table yet
        legal = mover.latest["game"]["legal_moves"]
        if not legal:
            continue
        move = legal[0]["text"]
        assert mover.conn is not None
        try:
            mover.conn.send(json.dumps({"type": "move", "move": move, "version": version}))
            end = time.monotonic() + 5
            while mover.latest["version"] == version and time.monotonic() < end:
                mover.read(0.2)
        except Exception:
            continue
        if mover.latest["version"] > version:  # acknowledged: the new table came
            acked[mover.ticket["id"], version + 1] = move


def upstreams_of(log: Path, game_id: str) -> set[str]:
    """The upstream addresses of the game's table connections that nginx logged (once closed)."""
    lines = [line.split() for line in log.read_text().splitlines()]
    return {line[3] for line in lines if line[1] == f"/ws/games/{game_id}" and line[2] == "101"}


def stored_moves(url: str, game_id: str) -> list[str]:
    """The game's stored moves, checked: numbered 1..n without a gap, and replaying by the rules."""
    with psycopg.connect(url) as db:
        edition, options, seed = db.execute(
            "SELECT edition, options, seed FROM games WHERE id = %s", (game_id,)
        ).fetchone() or ("", "", 0)
        rows = db.execute("SELECT number, move FROM moves WHERE game_id = %s ORDER BY number", (game_id,)).fetchall()
    assert [n for n, _ in rows] == list(range(1, len(rows) + 1))
    game = Game(edition, read_options(options), seed)
    for _, move in rows:
        game.play(move)
    return [move for _, move in rows]


def test_a_games_connections_land_on_the_process_that_holds_it_and_move_when_it_dies(
    proxy: str, postgres_url: str, nodes: list[Node], tmp_path: Path
) -> None:
    url, acked = postgres_url, {}
    tables: dict[str, list[Seat]] = {}
    held: dict[str, Node] = {}
    # Games created wherever nginx sent each request, until both processes hold some: a game is held by
    # the process its people's connections go to, whichever created it.
    while len(tables) < 4 or len(set(held.values())) < 2:
        assert len(tables) < 24, "nginx sent every game to one process"
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}]
        alice = post(proxy, "/api/games", {"edition": "usa", "name": "Alice", "seats": seats})
        bob = post(proxy, f"/api/games/{alice['id']}/join", {"name": "Bob"})
        tables[alice["id"]] = [Seat(proxy, alice), Seat(proxy, bob)]
        play(tables[alice["id"]], 6, acked)  # the bot's moves too: the game is driven
        node = holder(nodes, url, alice["id"])
        assert node is not None
        held[alice["id"]] = node
    for seats in tables.values():
        for seat in seats:
            seat.close()
    log, deadline = tmp_path / "access.log", time.monotonic() + 10
    while any(not upstreams_of(log, game_id) for game_id in tables) and time.monotonic() < deadline:
        time.sleep(0.1)  # nginx writes a WebSocket's line once it is closed
    for game_id, node in held.items():
        # both seats' connections went to the process that holds the game, and only there
        assert upstreams_of(log, game_id) == {f"127.0.0.1:{node.port}"}

    victim = held[next(iter(held))]
    for seats in tables.values():
        for seat in seats:
            reconnect(seat, time.monotonic() + 60)
    victim.kill()  # kill -9 of a process holding games
    for seats in tables.values():
        play(seats, 6, acked)  # through the survivor
    survivor = next(n for n in nodes if n is not victim)
    for game_id in tables:
        assert holder(nodes, url, game_id) in (survivor, None)  # None: the game ended
        moves = stored_moves(url, game_id)
        mine = {number: move for (game, number), move in acked.items() if game == game_id}
        assert mine and all(moves[number - 1] == move for number, move in mine.items())
