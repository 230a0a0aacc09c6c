"""No hidden tile ever reaches a seat: all traffic to one seat during a whole game, checked against the truth.

Two human seats are played through the socket by a random player, a third seat is the server's bot.
Every message seat 1 (and a spectator) receives is checked against the full server state at that
version: the tiles it shows at a place (rack, hand, piles, racks) are exactly the ones that seat may
see there, no tile of another rack or of the draw pile appears, every tile named in the log was face
up when it happened, and the seed appears nowhere.
"""

from __future__ import annotations

import json
import logging
import random
import re
from collections import Counter
from typing import Any

import pytest
from server_helpers import HUMAN, SEED, TestClient, Ticker, bot, join, open_table, settings
from starlette.testclient import WebSocketTestSession

from tendays.engine import EventKind, GameRecord, Move, Options, Phase, State, apply, checker_for, load_edition
from tendays.engine import new_game as deal
from tendays.server.face.app import Limits, create_app
from tendays.server.matches.lobby import Lobby
from tendays.server.settings import PaceLimits

Message = dict[str, Any]
EDITION = load_edition("usa")
# the events that name a face-up tile
PUBLIC_TILE_EVENTS = {EventKind.REVEAL, EventKind.TAKE, EventKind.REPLACE, EventKind.DISCARD}


def ids(tiles: Any) -> list[str]:
    return [EDITION.tiles[t].id for t in tiles if t is not None]


class Truth:
    """The full states of a finished game, version by version, and the states around each event."""

    def __init__(self, record: GameRecord) -> None:
        state = deal(EDITION, record.options, record.seed)
        self.states: list[State] = [state]
        self.last_version = 0  # the version of the last table checked, for the chat lines after it
        self.event_states: list[tuple[State, State]] = []
        for move in record.moves:
            after = apply(state, move)
            self.event_states += [(state, after)] * (len(after.events) - len(state.events))
            self.states.append(after)
            state = after

    def visible(self, version: int, seat: int | None) -> Counter[str]:
        """Every tile ``seat`` may see at a place at ``version``, computed from the full state."""
        state = self.states[version]
        seen = Counter(ids(t for pile in state.piles for t in pile))
        if seat is not None:
            seen.update(ids(state.racks[seat]))
        if state.in_hand is not None and (
            seat == state.current or (state.phase is Phase.PLACE and state.taken_from > 0)
        ):
            seen.update(ids([state.in_hand]))  # one's own draft or draw, or a tile taken face up from a pile
        if state.is_over or state.options.open_hands:
            for other, rack in enumerate(state.racks):
                if other != seat:
                    seen.update(ids(rack))
        return seen

    def hidden(self, version: int, seat: int | None) -> Counter[str]:
        """The tiles ``seat`` must not see at ``version``: other racks, the draw pile, a hand it cannot see."""
        state = self.states[version]
        everything = Counter(ids(state.draw_pile))
        everything.update(ids(t for pile in state.piles for t in pile))
        for rack in state.racks:
            everything.update(ids(rack))
        if state.in_hand is not None:
            everything.update(ids([state.in_hand]))
        return everything - self.visible(version, seat)


def shown_at_places(game: Message) -> Counter[str]:
    shown = Counter(t for t in game["rack"] or [] if t is not None)
    shown.update(t for pile in game["piles"] for t in pile)
    if game["in_hand"] is not None:
        shown[game["in_hand"]] += 1
    for seat, rack in enumerate(game["racks"] or []):
        if seat != game["you"]:
            shown.update(t for t in rack if t is not None)
    return shown


def check_message(text: str, truth: Truth, seat: int | None, log: list[Message] | None = None) -> list[Message]:
    """Check one message; ``log`` is the log the receiver has so far (tables carry only what is new).
    Returns the receiver's log after this message."""
    log = log or []
    assert str(SEED) not in text  # the seed never leaves the server
    message = json.loads(text)
    if message["type"] == "chat":
        check_chat(message["chat"], truth.hidden(truth.last_version, seat))
        return log
    if message["type"] != "state":
        assert message["type"] in ("error", "hint", "pong"), message
        return log
    truth.last_version = message["version"]
    version, game = message["version"], message["game"]
    start = game["log_from"]
    assert start in (0, len(log)), f"the table's log starts at {start}, but the receiver has {len(log)} entries"
    log = log[:start] + game["log"]
    game = {**game, "log": log}
    state = truth.states[version]
    assert game["you"] == seat
    assert game["draw_pile"] == len(state.draw_pile) and isinstance(game["draw_pile"], int)
    assert game["forced_pile"] == state.forced_pile
    own_moves = seat == state.current and not state.is_over
    assert game["legal_moves"] == ([m.to_json() for m in state.legal_moves()] if own_moves else [])
    shown = shown_at_places(game)
    assert shown == truth.visible(version, seat), f"version {version}: {shown} is not what seat {seat} may see"
    if seat is not None:
        assert game["rack"] == [None if t is None else EDITION.tiles[t].id for t in state.racks[seat]]
        assert game["journey"] == checker_for(EDITION).check(state.racks[seat]).to_json()
    else:
        assert game["rack"] is None and game["journey"] is None
    revealed = state.is_over or state.options.open_hands
    assert (game["racks"] is not None) == revealed and (game["journeys"] is not None) == revealed
    assert len(game["log"]) == len(state.events)
    for number, (entry, event) in enumerate(zip(game["log"], state.events, strict=True)):
        assert entry["kind"] == event.kind
        if event.kind not in PUBLIC_TILE_EVENTS:
            assert entry["tile"] is None, entry  # a draft or a draw from the pile names no tile
            continue
        before, after = truth.event_states[number]
        face_up = before.piles if event.kind is EventKind.TAKE else after.piles
        assert event.tile is not None and entry["tile"] == EDITION.tiles[event.tile].id
        assert event.tile in (t for pile in face_up for t in pile), f"{entry} names a tile that was not face up"
    # Belt and braces: no tile the seat may not see shows anywhere outside the history of face-up tiles.
    # The own rack is also in "racks" once revealed; count it once.
    rest = {k: v for k, v in game.items() if k not in ("log", "legal_moves", "racks")}
    rest["other_racks"] = [r for s, r in enumerate(game["racks"] or []) if s != seat]
    strings = Counter(s for s in iter_strings(rest) if s.upper() in EDITION.by_id)
    visible = truth.visible(version, seat)
    for tile in truth.hidden(version, seat):
        assert strings[tile] <= visible[tile], f"version {version}: hidden {tile} is shown"
    check_chat(game["chat"], truth.hidden(version, seat))
    if game["clock"] is not None:
        assert set(game["clock"]) <= {"kind", "per_move", "bank", "banks", "deadline", "now"}
        assert all(isinstance(v, int | float | str | list) or v is None for v in game["clock"].values())
    return log


def check_chat(lines: list[Message], hidden: Counter[str]) -> None:
    """The chat and the table's notices (turns played on the clock, ...) name no hidden tile."""
    hidden_words = {w for t in hidden for w in (t, EDITION.by_id[t.upper()].name)}
    for line in lines:
        words = set(re.findall(r"[\w-]+", line["text"])) | {line["text"]}
        assert not (words & hidden_words) and not any(n in line["text"] for n in hidden_words if " " in n), line


def iter_strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in iter_strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in iter_strings(item)]
    return []


class Recorder:
    """A seat's socket that keeps every message it receives, as text."""

    def __init__(self, ws: WebSocketTestSession, *, racing_a_clock: bool = False) -> None:
        self.ws = ws
        self.traffic: list[str] = []
        self.latest: Message = {}
        # With a clock playing turns, a move may cross a turn the clock took: refused as stale, with the
        # current table after it. Nothing else this test sends is ever refused.
        self.refusals = {"stale"} if racing_a_clock else set()

    def receive(self) -> Message:
        text = self.ws.receive_text()
        self.traffic.append(text)
        message: Message = json.loads(text)
        while message["type"] == "chat" or (message["type"] == "error" and message["code"] in self.refusals):
            text = self.ws.receive_text()  # a line of talk or a stale refusal: the table comes next
            self.traffic.append(text)
            message = json.loads(text)
        assert message["type"] == "state", message
        self.latest = message
        return message

    def until_version(self, version: int) -> Message:
        while self.latest.get("version", -1) < version:
            self.receive()
        assert self.latest["version"] == version
        return self.latest


PHRASES = ["Good luck!", "hmm", "Well played!"]


def play_through_sockets(client: TestClient, **options: Any) -> tuple[list[str], list[str], GameRecord]:
    """A whole game with a clock running (never running out) and the people chatting now and then."""
    answer = client.post(
        "/api/games",
        json={
            "edition": "usa",
            "name": "Alice",
            "seats": [HUMAN, HUMAN, bot("normal")],
            "options": {"turn_limit": 120, **options},
            "pace": {"kind": "live", "per_move": 600, "bank": 60},
        },
    )
    assert answer.status_code == 201, answer.text
    alice = answer.json()
    bob = join(client, alice["id"])
    rng = random.Random(5)
    with (
        open_table(client, alice["id"], alice["token"]) as ws0,
        open_table(client, alice["id"], bob["token"]) as ws1,
        open_table(client, alice["id"]) as ws_watch,
    ):
        seats = {0: Recorder(ws0), 1: Recorder(ws1)}
        watcher = Recorder(ws_watch)
        acted = -1
        while True:
            # Seat 1's socket tells when a person is to move: bot turns pass by on their own.
            table = seats[1].receive()
            game = table["game"]
            if game["status"] == "over":
                break
            if game["current"] == 2 or table["version"] <= acted:
                continue
            mover = seats[game["current"]]
            own = mover.until_version(table["version"])
            acted = table["version"]
            move = rng.choice(own["game"]["legal_moves"])["text"]
            mover.ws.send_json({"type": "move", "move": move, "version": acted})
            if acted % 7 == 0:
                mover.ws.send_json({"type": "chat", "text": PHRASES[acted % 3]})
        final = table["version"]
        seats[0].until_version(final)
        watcher.until_version(final)
        lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
        record = lobby.matches[alice["id"]].record
    assert record.seed == SEED and len(record.moves) == final
    return seats[1].traffic, watcher.traffic, record


@pytest.mark.slow  # over a second of CPU
@pytest.mark.parametrize("options", [{}, {"open_hands": True, "swap": True}], ids=["closed hands", "open hands, swap"])
def test_no_hidden_tile_ever_reaches_a_seat_or_a_spectator(
    client: TestClient, options: dict[str, bool], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    traffic, watched, record = play_through_sockets(client, **options)
    assert str(SEED) not in caplog.text  # nor in the server's logs
    for path in ("/api/games", f"/api/games/{json.loads(traffic[0])['game']['id']}", "/health"):
        assert str(SEED) not in client.get(path).text
    truth = Truth(record)
    final = truth.states[-1]
    assert final.is_over and final.turn > 3  # a real game: the draft, then turns until a win or the limit
    assert len(traffic) > len(record.moves) // 2
    log: list[Message] = []
    for text in traffic:
        log = check_message(text, truth, 1, log)
    chats = [t for t in traffic if json.loads(t)["type"] == "chat"]
    assert chats, "the people talked"
    traffic = [t for t in traffic if t not in chats]
    # The hard cases happened: the recorded seat was sent tables while another seat held a secret tile.
    secret_hands = [
        v
        for v in (json.loads(t)["version"] for t in traffic)
        if truth.states[v].in_hand is not None and truth.states[v].current != 1 and truth.states[v].taken_from == 0
    ]
    assert len(secret_hands) > 10
    log = []
    for text in watched:
        log = check_message(text, truth, None, log)
    watched_lines = [
        line["text"]
        for t in watched
        for line in json.loads(t).get("chat") or json.loads(t).get("game", {}).get("chat", [])
    ]
    assert "Good luck!" in watched_lines  # a spectator reads the chat
    # The recording saw the other seats' racks only at the end (or all along, with open hands).
    assert json.loads(traffic[-1])["game"]["racks"] == [ids(r) for r in final.racks]
    open_hands = record.options.open_hands
    assert all((json.loads(t)["game"]["racks"] is not None) == open_hands for t in traffic[:-1])


def test_the_checker_catches_a_leak() -> None:
    """The check itself can fail: a message showing another rack's tile is caught."""
    record = GameRecord("usa", Options(players=2), SEED, tuple(Move.from_text(f"draft {d}") for d in (1, 1, 2)))
    truth = Truth(record)
    state = truth.states[3]
    leaked = {
        "type": "state",
        "version": 3,
        "game": {
            "you": 0,
            "draw_pile": len(state.draw_pile),
            "forced_pile": 0,
            "rack": ids(state.racks[0]) + [None] * 8,
            "in_hand": EDITION.tiles[state.in_hand].id if state.in_hand is not None else None,  # seat 2's draft tile
            "piles": [[], [], []],
            "racks": None,
            "journeys": None,
            "log": [],
            "log_from": 0,
            "legal_moves": [],
        },
    }
    try:
        check_message(json.dumps(leaked), truth, 0)
    except AssertionError as error:
        assert "is not what seat 0 may see" in str(error)
    else:
        raise AssertionError("a leaked tile went unnoticed")


@pytest.mark.slow  # waits on a clock or a timeout
def test_no_hidden_tile_leaks_while_the_clock_plays_for_an_absent_seat(db_url: str) -> None:
    """Bob never comes: the bot plays his turns on the clock from his view, then his seat. What Alice and a
    spectator receive meanwhile (the tables, the notices) shows nothing of Bob's rack or draws."""
    quick = settings(paces=PaceLimits(live_min=1), timeouts_to_bot=2)
    with TestClient(create_app(db_url, quick, Limits(clock=Ticker(0.1)))) as client:
        answer = client.post(
            "/api/games",
            json={
                "edition": "usa",
                "name": "Alice",
                "seats": [HUMAN, HUMAN],
                "options": {"turn_limit": 12, "days": 5},
                "pace": {"kind": "live", "per_move": 1},
            },
        )
        alice = answer.json()
        join(client, alice["id"])
        rng = random.Random(7)
        with open_table(client, alice["id"], alice["token"]) as ws0, open_table(client, alice["id"]) as ws_watch:
            seat, watcher = Recorder(ws0, racing_a_clock=True), Recorder(ws_watch)
            while True:
                table = seat.receive()
                if table["game"]["status"] == "over":
                    break
                if table["game"]["legal_moves"]:
                    move = rng.choice(table["game"]["legal_moves"])["text"]
                    ws0.send_json({"type": "move", "move": move, "version": table["version"]})
            final = table["version"]
            watcher.until_version(final)
            lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
            record = lobby.matches[alice["id"]].record
    truth = Truth(record)
    texts = [line["text"] for text in seat.traffic for line in json.loads(text)["game"]["chat"]]
    assert "Bob ran out of time: the normal bot played the turn" in texts and any("missed 2" in t for t in texts)
    for traffic, viewer in ((seat.traffic, 0), (watcher.traffic, None)):
        log: list[Message] = []
        for text in traffic:
            log = check_message(text, truth, viewer, log)
