"""WebSocket keep-alive (face/door/keepalive.py): a silent connection is pinged between one and two
intervals after it last spoke, at a moment drawn for each, so connections opened together are not
pinged together; one that speaks is not pinged; an unanswered ping closes the connection (1011)
within three intervals of the last word, in a clock the test turns, and over a real socket."""

from __future__ import annotations

import asyncio
import base64
import os
import random
import socket
import struct
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")
from server_helpers import free_port, post_json, wait_until_serving  # noqa: E402
from uvicorn.config import Config  # noqa: E402
from uvicorn.server import ServerState  # noqa: E402
from websockets.frames import Frame, Opcode  # noqa: E402

from tendays.server.face.door import keepalive  # noqa: E402
from tendays.server.face.door.keepalive import SpreadPings  # noqa: E402

INTERVAL = 10.0
HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


class Timer:
    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when, self.callback, self.cancelled = when, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class Clock:
    """The loop a protocol sees, with a clock the test turns."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[Timer] = []

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[..., None], *args: Any) -> Timer:
        timer = Timer(self.now + delay, lambda: callback(*args))
        self.timers.append(timer)
        return timer

    def create_task(self, coroutine: Any) -> Any:
        coroutine.close()  # the app is not run here: only the protocol's keep-alive is

        class Done:
            def add_done_callback(self, callback: Any) -> None:
                pass

        return Done()

    def turn(self, until: float) -> None:
        """Run every timer due up to ``until``, in order, the clock following them."""
        while True:
            due = [t for t in self.timers if not t.cancelled and t.when <= until]
            if not due:
                break
            timer = min(due, key=lambda t: t.when)
            self.timers.remove(timer)
            self.now = max(self.now, timer.when)
            timer.callback()
        self.now = until


class Transport:
    def __init__(self) -> None:
        self.written = bytearray()
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_extra_info(self, name: str) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 5555)}.get(name)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def frames(self) -> list[tuple[int, bytes]]:
        """The frames written since the handshake's answer: (opcode, payload), taken."""
        frames, data = [], bytes(self.written)
        self.written.clear()
        while data:
            opcode, length, data = data[0] & 0x0F, data[1] & 0x7F, data[2:]
            frames.append((opcode, data[:length]))
            data = data[length:]
        return frames


async def _app(scope: Any, receive: Any, send: Any) -> None:
    pass


def opened(clock: Clock, ping: float | None = INTERVAL) -> tuple[SpreadPings, Transport]:
    """A protocol whose handshake is done, at the clock's time."""
    config = Config(_app, ws_ping_interval=ping, ws_ping_timeout=ping)
    config.load()
    protocol = SpreadPings(config, ServerState(), {}, _loop=clock)  # type: ignore[arg-type]
    transport = Transport()
    protocol.connection_made(transport)  # type: ignore[arg-type]
    protocol.data_received(HANDSHAKE)
    asyncio.run(protocol.send({"type": "websocket.accept", "subprotocol": None, "headers": []}))
    transport.written.clear()  # the handshake's answer
    return protocol, transport


def from_client(opcode: Opcode, payload: bytes) -> bytes:
    return Frame(opcode, payload).serialize(mask=True, extensions=[])


@pytest.fixture(autouse=True)
def seeded_jitter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keepalive, "_jitter", random.Random(7))


def test_a_silent_connection_is_pinged_after_one_to_two_intervals_and_closed_unanswered() -> None:
    clock = Clock()
    protocol, transport = opened(clock)
    clock.turn(INTERVAL - 0.01)
    assert transport.frames() == []
    pinged = None
    while pinged is None and clock.now < 2 * INTERVAL:
        clock.turn(clock.now + 0.1)
        if transport.frames():
            pinged = clock.now
    assert pinged is not None and INTERVAL <= pinged <= 2 * INTERVAL + 0.1
    clock.turn(pinged + INTERVAL + 0.1)  # no pong
    (opcode, payload), *_ = transport.frames()
    assert opcode == Opcode.CLOSE and struct.unpack("!H", payload[:2])[0] == 1011
    assert transport.closed and clock.now <= 3 * INTERVAL + 0.2


def test_an_answered_ping_keeps_the_connection_open() -> None:
    clock = Clock()
    protocol, transport = opened(clock)
    for _ in range(5):
        clock.turn(clock.now + 2 * INTERVAL)
        [(opcode, payload)] = transport.frames()
        assert opcode == Opcode.PING
        protocol.data_received(from_client(Opcode.PONG, payload))
    clock.turn(clock.now + 0.9 * INTERVAL)
    assert transport.frames() == [] and not transport.closed


def test_a_connection_that_speaks_is_not_pinged() -> None:
    clock = Clock()
    protocol, transport = opened(clock)
    for _ in range(40):
        clock.turn(clock.now + 0.9 * INTERVAL)
        protocol.data_received(from_client(Opcode.TEXT, b'{"type":"ping"}'))
    assert transport.frames() == [] and not transport.closed


def test_connections_opened_together_are_pinged_at_spread_moments() -> None:
    clock = Clock()
    transports = [opened(clock)[1] for _ in range(200)]
    pinged: list[float] = []
    while clock.now < 2 * INTERVAL:
        clock.turn(clock.now + 1.0)  # counted by the second in which each was pinged
        pinged += [clock.now for t in transports if Opcode.PING in dict(t.frames())]
    assert len(pinged) == 200
    per_second = [pinged.count(second) for second in set(pinged)]
    assert max(per_second) <= 200 / 4  # with uvicorn's own pings all 200 in one instant


def test_no_pings_when_turned_off() -> None:
    clock = Clock()
    _, transport = opened(clock, ping=None)
    clock.turn(100 * INTERVAL)
    assert transport.frames() == [] and not transport.closed


@pytest.mark.parametrize("text", ['{"type":"pong"}', "…\u2028<script>ü" * 40, "ü€😀" * 30000])
def test_utf8_text_goes_out_as_the_frame_a_text_send_writes(text: str) -> None:
    """The scope's SEND_UTF8 writes for UTF-8 bytes what ``websocket.send`` writes for the text
    (short, 16-bit and 64-bit lengths)."""
    by_send, sent = opened(Clock())
    by_utf8, sent_utf8 = opened(Clock())
    send_utf8 = by_utf8.scope["extensions"][keepalive.UTF8_TEXT]["send"]
    asyncio.run(by_send.send({"type": "websocket.send", "text": text}))
    asyncio.run(send_utf8(text.encode()))
    assert sent_utf8.written == sent.written and len(sent.written) > len(text.encode())


def test_utf8_text_is_written_at_once_only_while_the_socket_takes_it() -> None:
    by_send, sent = opened(Clock())
    protocol, transport = opened(Clock())
    write = protocol.scope["extensions"][keepalive.UTF8_TEXT]["write"]
    asyncio.run(by_send.send({"type": "websocket.send", "text": "{}"}))
    assert write(b"{}") is True and transport.written == sent.written
    transport.written.clear()
    protocol.pause_writing()  # the socket's buffer is full
    assert write(b"{}") is False and transport.written == b""

    async def send_when_drained() -> None:
        sending = asyncio.ensure_future(protocol.send_utf8(b"{}"))
        await asyncio.sleep(0)
        assert not sending.done() and transport.written == b""
        protocol.resume_writing()
        await sending

    asyncio.run(send_when_drained())
    assert transport.written == sent.written


def test_utf8_text_is_refused_once_the_connection_closed() -> None:
    protocol, transport = opened(Clock())
    asyncio.run(protocol.send({"type": "websocket.close", "code": 1000}))
    transport.written.clear()
    with pytest.raises(OSError):  # uvicorn's ClientDisconnected, as its own send raises
        asyncio.run(protocol.scope["extensions"][keepalive.UTF8_TEXT]["send"](b"{}"))
    assert protocol.write_utf8(b"{}") is False
    protocol.connection_lost(None)
    with pytest.raises(OSError):
        asyncio.run(protocol.send_utf8(b"{}"))
    assert protocol.write_utf8(b"{}") is False and transport.written == b""


def _frames(sock: socket.socket) -> Iterator[tuple[int, bytes]]:
    """The server's frames on a raw socket (never answered), until it closes."""
    data = b""
    while True:
        while len(data) >= 2:
            length, start = data[1] & 0x7F, 2
            if length == 126:
                length, start = struct.unpack("!H", data[2:4])[0], 4
            elif length == 127:
                length, start = struct.unpack("!Q", data[2:10])[0], 10
            if len(data) < start + length:
                break
            yield data[0] & 0x0F, data[start : start + length]
            data = data[start + length :]
        chunk = sock.recv(65536)
        if not chunk:
            return
        data += chunk


@pytest.mark.slow  # starts tendays serve
def test_a_client_that_stops_answering_is_closed(tmp_path: Any) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "tendays", "serve", "--port", str(port), "--websocket-ping", "1s"],
        cwd=tmp_path,
        env={**os.environ, "TENDAYS_DB": f"sqlite:///{tmp_path / 'keepalive.db'}"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_until_serving(server, base)
        game = post_json(base, "/api/games", {"edition": "usa", "name": "Alice", "seats": [{"kind": "human"}] * 2})
        with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
            key = base64.b64encode(os.urandom(16))
            sock.sendall(
                f"GET /ws/games/{game['id']} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n".encode()
                + b"Sec-WebSocket-Key: "
                + key
                + b"\r\n\r\n"
            )
            answer = b""
            while b"\r\n\r\n" not in answer:
                answer += sock.recv(1)
            assert answer.startswith(b"HTTP/1.1 101")
            sock.sendall(from_client(Opcode.TEXT, b'{"type":"hello"}'))
            seen = list(_frames(sock))  # read, never answered, until the server closes
        opcodes = [opcode for opcode, _ in seen]
        assert Opcode.TEXT in opcodes and Opcode.PING in opcodes
        assert opcodes[-1] == Opcode.CLOSE
        assert struct.unpack("!H", seen[-1][1][:2])[0] == 1011  # keepalive ping timeout
    finally:
        server.terminate()
        server.wait(timeout=30)
