"""A small stand-in for a tendays site's Bot API, for the bridge's tests: the contract's event
stream, game streams, moves and challenge answers, spoken through ``httpx.MockTransport``.

Games are real: the engine plays them, and their tables are the server's own encoding
(:class:`~tendays.server.matches.wire.TableEncoder`), so what the bridge reads is what a site
sends. The opponent (seat 1) plays the first legal move, at once or when the test says
(``hold``). Tests can drop every open stream (a lost connection) and refuse new ones for a while
(a server restarting).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from tendays.engine import Game, IllegalMoveError, Move, Options, OutOfTurnError, view
from tendays.server.matches.wire import SeatInfo, TableEncoder

TOKEN = "tdb_FAKEtokenFAKEtokenFAKEtokenFAKEtokenFAKE9z8y"
SERVER = "http://site.test"

_END = object()  # the stream ends cleanly
_DROP = object()  # the connection breaks


class _Stream:
    """One open ndjson stream: what the site sends on it, in order."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[object] = asyncio.Queue()
        self.log_sent = 0  # a game stream: the log entries its reader has

    async def body(self) -> AsyncIterator[bytes]:
        while True:
            item = await self.queue.get()
            if item is _END:
                return
            if item is _DROP:
                raise httpx.RemoteProtocolError("the connection was dropped")
            yield (json.dumps(item) + "\n").encode()


@dataclass
class FakeGame:
    """A game the bot account sits at (seat 0) against the first legal move (seat 1)."""

    id: str
    seed: int = 7
    days: int = 10
    turn_limit: int = 30  # the first legal move against itself may never win
    hold: bool = False  # the opponent waits for release()
    streams: list[_Stream] = field(default_factory=list)
    opened: int = 0  # game streams opened, in all
    most_open: int = 0  # game streams open at once, at most

    def __post_init__(self) -> None:
        self.game = Game(
            "usa",
            Options(players=2, days=self.days, turn_limit=self.turn_limit),
            self.seed,
            keep_states=False,
        )
        self.encoder = TableEncoder(self.id, self.game.state.edition)
        self.version = 0
        self.waiting = asyncio.Event()  # set while the opponent holds its turn
        self.over = asyncio.Event()

    @property
    def finished(self) -> bool:
        return self.game.state.is_over

    def table(self, stream: _Stream) -> dict[str, Any]:
        seen = view(self.game.state, 0)
        status = "over" if self.finished else "playing"
        seats = [
            SeatInfo(0, "human", "Robo", None, True, account=True),
            SeatInfo(1, "human", "Ann", None, True, account=True),
        ]
        shared = self.encoder.shared(seen, self.version, status, seats)
        extra = {
            "clock": None,
            "ended": None,
            "rematch": None,
            "end_votes": [],
            "can_end": False,
            "rated": False,
            "rated_outcome": None,
        }
        out = self.encoder.table(shared, seen, self.version, status, stream.log_sent, 0, extra)
        stream.log_sent = out.log_end
        game: dict[str, Any] = json.loads(out.text)["game"]
        return game

    def open(self) -> _Stream:
        stream = _Stream()
        self.streams.append(stream)
        self.opened += 1
        self.most_open = max(self.most_open, len(self.streams))
        stream.queue.put_nowait({"type": "gameFull", "game": self.table(stream)})
        if self.finished:
            stream.queue.put_nowait(_END)
        return stream

    def close(self, stream: _Stream) -> None:
        if stream in self.streams:
            self.streams.remove(stream)

    def move(self, text: str) -> tuple[int, dict[str, Any]]:
        try:
            self.game.play(Move.from_text(text), 0)
        except OutOfTurnError as error:
            return 409, {"detail": str(error), "code": "out_of_turn"}
        except IllegalMoveError as error:
            return 409, {"detail": str(error), "code": "illegal"}
        self.version += 1
        self.play_opponent()
        return 200, {"ok": True, "version": self.version}

    def release(self) -> None:
        self.hold = False
        self.play_opponent()

    def play_opponent(self) -> None:
        state = self.game.state
        while not state.is_over and state.current == 1 and not self.hold:
            self.game.play(view(state, 1).legal_moves()[0], 1)
            self.version += 1
            state = self.game.state
        if not state.is_over and state.current == 1:
            self.waiting.set()
        else:
            self.waiting.clear()
        for stream in self.streams:
            stream.queue.put_nowait({"type": "gameState", "game": self.table(stream)})
            if self.finished:
                stream.queue.put_nowait(_END)
        if self.finished:
            self.over.set()


class FakeSite:
    """The Bot API of one bot account, whose token is :data:`TOKEN`."""

    def __init__(self, token: str = TOKEN) -> None:
        self.token = token
        self.games: dict[str, FakeGame] = {}
        self.challenges: dict[str, dict[str, Any]] = {}
        self.answers: dict[str, str] = {}  # challenge id -> "accepted" or the decline reason
        self.event_streams: list[_Stream] = []
        self.event_connections = 0
        self.connected = asyncio.Condition()
        self.refuse_connections = 0  # the next this many requests fail to connect
        self.moves: list[tuple[str, str]] = []  # (game, move) as posted
        self.refused_token = 0
        # what GET /api/token says of the token: a bot account's, with bot:play
        self.owner: dict[str, Any] = {
            "id": 1,
            "name": "Robo",
            "bot_account": True,
            "scopes": ["bot:play"],
        }
        self.transport = httpx.MockTransport(self.handle)

    # -- what tests do ---------------------------------------------------------------------

    def add_game(self, game_id: str, **settings: Any) -> FakeGame:
        game = self.games[game_id] = FakeGame(game_id, **settings)
        game.play_opponent()
        return game

    def challenge(self, challenge_id: str, **fields: Any) -> None:
        """A challenge to the bot, told on every open event stream."""
        challenge = {
            "id": challenge_id,
            "from": "Ann",
            "edition": "usa",
            "options": {"days": 10},
            "clock": None,
            "rated": False,
            **fields,
        }
        self.challenges[challenge_id] = challenge
        self.tell({"type": "challenge", "challenge": challenge})

    def tell(self, event: dict[str, Any]) -> None:
        for stream in self.event_streams:
            stream.queue.put_nowait(event)

    def drop_connections(self) -> None:
        """Every open stream breaks, as when the network or the server goes away."""
        for stream in [*self.event_streams, *(s for g in self.games.values() for s in g.streams)]:
            stream.queue.put_nowait(_DROP)

    async def wait_for_connections(self, count: int) -> None:
        async with self.connected:
            await self.connected.wait_for(lambda: self.event_connections >= count)

    # -- the API ---------------------------------------------------------------------------

    async def handle(self, request: httpx.Request) -> httpx.Response:
        if self.refuse_connections > 0:
            self.refuse_connections -= 1
            raise httpx.ConnectError("connection refused", request=request)
        if request.headers.get("Authorization") != f"Bearer {self.token}":
            self.refused_token += 1
            return httpx.Response(401, json={"detail": "this token is not known or was revoked"})
        path, method = request.url.path, request.method
        parts = path.strip("/").split("/")
        if method == "GET" and path == "/api/token":
            return httpx.Response(200, json=self.owner)
        if method == "GET" and path == "/api/stream/event":
            return await self._event_stream()
        if method == "GET" and parts[:4] == ["api", "bot", "game", "stream"]:
            return self._game_stream(parts[4])
        if method == "POST" and parts[:3] == ["api", "bot", "game"] and parts[4:] == ["move"]:
            game = self.games.get(parts[3])
            if game is None:
                return httpx.Response(404, json={"detail": f"you have no seat at game {parts[3]}"})
            text = json.loads(request.content)["move"]
            self.moves.append((game.id, text))
            status, body = game.move(text)
            return httpx.Response(status, json=body)
        if method == "POST" and parts[:2] == ["api", "challenges"]:
            return self._answer(parts[2], parts[3], json.loads(request.content or b"{}"))
        return httpx.Response(404, json={"detail": "Not Found"})

    async def _event_stream(self) -> httpx.Response:
        stream = _Stream()
        for game in self.games.values():
            if not game.finished:
                stream.queue.put_nowait(
                    {"type": "gameStart", "game": {"id": game.id, "seat": 0, "edition": "usa"}}
                )
        for challenge_id, challenge in self.challenges.items():
            if challenge_id not in self.answers:
                stream.queue.put_nowait({"type": "challenge", "challenge": challenge})
        self.event_streams.append(stream)
        async with self.connected:
            self.event_connections += 1
            self.connected.notify_all()
        return httpx.Response(200, content=self._closing(stream, self.event_streams))

    async def _closing(self, stream: _Stream, streams: list[_Stream]) -> AsyncIterator[bytes]:
        try:
            async for chunk in stream.body():
                yield chunk
        finally:
            if stream in streams:
                streams.remove(stream)

    def _game_stream(self, game_id: str) -> httpx.Response:
        game = self.games.get(game_id)
        if game is None:
            return httpx.Response(404, json={"detail": f"you have no seat at game {game_id}"})
        stream = game.open()
        return httpx.Response(200, content=self._closing(stream, game.streams))

    def _answer(self, challenge_id: str, action: str, body: dict[str, Any]) -> httpx.Response:
        if challenge_id not in self.challenges:
            return httpx.Response(404, json={"detail": "no such challenge"})
        if challenge_id in self.answers:
            return httpx.Response(409, json={"detail": "this challenge was answered already"})
        if action == "decline":
            self.answers[challenge_id] = body.get("reason", "generic")
            return httpx.Response(200, json={**self.challenges[challenge_id], "status": "declined"})
        self.answers[challenge_id] = "accepted"
        game_id = f"g-{challenge_id}"
        self.add_game(game_id)
        self.tell({"type": "gameStart", "game": {"id": game_id, "seat": 0, "edition": "usa"}})
        seat = {"game": game_id, "token": "seat", "url": f"/play/{game_id}"}
        return httpx.Response(200, json=seat)
