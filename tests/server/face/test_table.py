"""The WebSocket table: views, moves, every kind of rejection, limits, hints, reconnecting."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from server_helpers import HUMAN, TestClient, bot, join, new_game, open_table, settings
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tendays.engine import RULES_VERSION
from tendays.server.face.app import Limits, create_app
from tendays.server.matches.lobby import Lobby

Message = dict[str, Any]


def receive_until(ws: WebSocketTestSession, wanted: Callable[[Message], bool], limit: int = 500) -> Message:
    for _ in range(limit):
        message: Message = ws.receive_json()
        if wanted(message):
            return message
    raise AssertionError("the wanted message never came")


def state_at(version: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "state" and m["version"] == version


def lobby(client: TestClient) -> Lobby:
    found: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    return found


@pytest.fixture
def two_humans(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    alice = new_game(client, [HUMAN, HUMAN])
    return alice, join(client, alice["id"])


def seat_socket(client: TestClient, ticket: dict[str, Any]) -> Any:
    return open_table(client, ticket["id"], ticket["token"])


def test_each_connection_sees_its_own_view(client: TestClient, two_humans: tuple[Message, Message]) -> None:
    alice, bob = two_humans
    with (
        seat_socket(client, alice) as ws_alice,
        seat_socket(client, bob) as ws_bob,
        open_table(client, alice["id"]) as ws_watch,
    ):
        first = ws_alice.receive_json()
        assert first["type"] == "state" and first["version"] == 0
        game = first["game"]
        assert game["you"] == 0 and game["status"] == "playing" and game["phase"] == "draft"
        assert game["current"] == 0 and game["rack"] == [None] * 10
        assert game["in_hand"] is not None  # the tile seat 1 drafts now, seen by its owner only
        assert game["legal_moves"] == [{"kind": "draft", "day": d, "text": f"draft {d}"} for d in range(1, 11)]
        assert game["draw_pile"] == 66 - 1 and game["piles"] == [[], [], []] and game["racks"] is None
        assert game["taken_from"] == 0 and game["forced_pile"] == 0
        assert game["options"] == {
            "players": 2,
            "days": 10,
            "swap": False,
            "open_hands": False,
            "turn_limit": None,
            "first_seat": None,
            "rules": RULES_VERSION,
        }
        bob_game = receive_until(ws_bob, lambda m: m["game"]["seats"][1]["connected"])["game"]
        assert bob_game["you"] == 1 and bob_game["in_hand"] is None and bob_game["legal_moves"] == []
        watch = ws_watch.receive_json()["game"]
        assert watch["you"] is None and watch["rack"] is None and watch["journey"] is None
        assert watch["in_hand"] is None and watch["legal_moves"] == []
        assert [s["connected"] for s in watch["seats"]] == [True, True]


def test_a_move_is_acknowledged_by_the_new_table_sent_to_everyone(
    client: TestClient, two_humans: tuple[Message, Message]
) -> None:
    alice, bob = two_humans
    with seat_socket(client, alice) as ws_alice, seat_socket(client, bob) as ws_bob:
        tile = ws_alice.receive_json()["game"]["in_hand"]
        ws_alice.send_json({"type": "move", "move": "draft 4", "version": 0})
        after = receive_until(ws_alice, state_at(1))["game"]
        assert after["rack"][3] == tile and after["current"] == 1 and after["legal_moves"] == []
        assert after["log"][-1]["text"] == "Alice put a tile on day 4"
        assert after["log"][-1] == {
            "text": "Alice put a tile on day 4",
            "kind": "draft",
            "player": 0,
            "tile": None,
            "pile": None,
            "day": 4,
            "day2": None,
            "count": 0,
        }
        bob_after = receive_until(ws_bob, state_at(1))["game"]
        assert bob_after["rack"] == [None] * 10 and bob_after["legal_moves"][0]["text"] == "draft 1"
        assert [s["tiles"] for s in bob_after["seats"]] == [1, 0]
        assert tile not in json.dumps(bob_after["rack"])
    assert lobby(client).matches[alice["id"]].version == 1


def rejected(ws: WebSocketTestSession, message: Any, *, raw: bool = False) -> Message:
    if raw:
        ws.send_text(message)
    else:
        ws.send_json(message)
    answer = receive_until(ws, lambda m: m["type"] != "state")
    assert answer["type"] == "error", answer
    return answer


# the words of the refusal of a message of no kind the table knows
UNKNOWN_KIND = (
    "unknown message type; send 'move', 'hint', 'chat', 'leave', 'back', 'end', 'rematch', 'sync', 'language' or 'ping'"
)

REJECTIONS = [
    # (message to send as seat 1 at version 0, error code, words the message must contain)
    ("not json", "malformed", "JSON object"),
    ("[1, 2]", "malformed", "JSON object"),
    ({"type": "dance"}, "malformed", UNKNOWN_KIND),
    ({"type": ["move"]}, "malformed", UNKNOWN_KIND),
    ({"type": "hello", "token": None}, "malformed", UNKNOWN_KIND),  # the hello comes once
    ({"type": "move", "move": 4, "version": 0}, "malformed", "notation"),
    ({"type": "move", "move": "draft 4"}, "malformed", "version"),
    ({"type": "move", "move": "draft 4", "version": "0"}, "malformed", "version"),
    ({"type": "move", "move": "fly 3", "version": 0}, "malformed", "unknown move 'fly'"),
    ({"type": "move", "move": "replace 4", "version": 0}, "malformed", "expected 'replace DAY PILE'"),
    ({"type": "move", "move": "draft 4", "version": 3}, "stale", "someone moved while you were choosing"),
    ({"type": "move", "move": "draw", "version": 0}, "illegal", "the racks are still being filled"),
    ({"type": "move", "move": "draft 11", "version": 0}, "illegal", "there is no day 11"),
]


@pytest.mark.parametrize(("message", "code", "words"), REJECTIONS)
def test_rejected_messages_change_nothing(
    client: TestClient, two_humans: tuple[Message, Message], message: Any, code: str, words: str
) -> None:
    alice, _ = two_humans
    with seat_socket(client, alice) as ws:
        before = ws.receive_json()
        answer = rejected(ws, message, raw=isinstance(message, str))
        assert answer["code"] == code and words in answer["message"], answer
        if code == "stale":  # the current table follows a stale rejection
            assert ws.receive_json() == before
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    assert lobby(client).matches[alice["id"]].version == 0


def test_out_of_turn_and_spectator_moves_are_refused(client: TestClient, two_humans: tuple[Message, Message]) -> None:
    alice, bob = two_humans
    with seat_socket(client, bob) as ws_bob, open_table(client, alice["id"]) as ws_watch:
        ws_bob.receive_json()
        answer = rejected(ws_bob, {"type": "move", "move": "draft 1", "version": 0})
        assert answer == {"type": "error", "code": "out_of_turn", "message": "it is Alice's turn, not yours"}
        ws_watch.receive_json()
        answer = rejected(ws_watch, {"type": "move", "move": "draft 1", "version": 0})
        assert answer["code"] == "forbidden" and "spectators cannot move" in answer["message"]
        assert rejected(ws_watch, {"type": "hint"})["code"] == "forbidden"
        for kind in ("leave", "back", "end", "rematch", "dance"):  # these need a seat
            answer = rejected(ws_watch, {"type": kind})
            assert answer == {
                "type": "error",
                "code": "forbidden",
                "message": "spectators cannot do that; join the game or open your seat link",
            }
    assert lobby(client).matches[alice["id"]].version == 0


def test_binary_and_oversized_messages(client: TestClient, two_humans: tuple[Message, Message]) -> None:
    alice, _ = two_humans
    with seat_socket(client, alice) as ws:
        ws.receive_json()
        ws.send_bytes(b'{"type": "ping"}')
        assert receive_until(ws, lambda m: m["type"] == "error")["code"] == "malformed"
        padded = json.dumps({"type": "move", "move": "draft 1", "version": 0, "pad": "x" * 4100})
        answer = rejected(ws, padded, raw=True)
        assert answer["code"] == "too_large" and "4096 bytes" in answer["message"]
    assert lobby(client).matches[alice["id"]].version == 0


def test_moves_wait_until_every_seat_is_taken(client: TestClient) -> None:
    alice = new_game(client, [HUMAN, HUMAN])
    with seat_socket(client, alice) as ws:
        game = ws.receive_json()["game"]
        assert game["status"] == "waiting" and game["legal_moves"] == [] and game["in_hand"] is None
        answer = rejected(ws, {"type": "move", "move": "draft 1", "version": 0})
        assert answer["code"] == "illegal" and "waits for every seat" in answer["message"]
        join(client, alice["id"], "Bob")
        game = receive_until(ws, lambda m: m["type"] == "state" and m["game"]["status"] == "playing")["game"]
        assert game["seats"][1]["name"] == "Bob" and game["legal_moves"][0]["text"] == "draft 1"


def test_bad_token_and_unknown_game_are_refused_and_closed(
    client: TestClient, two_humans: tuple[Message, Message]
) -> None:
    alice, _ = two_humans
    with open_table(client, alice["id"], "guess") as ws:
        assert ws.receive_json()["code"] == "forbidden"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with open_table(client, "nothing-here") as ws:
        assert ws.receive_json()["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    # In German, before any hello (the address asks): the long sentence still closes with its code.
    with client.websocket_connect(f"/ws/games/{alice['id']}?token=x&lang=de") as ws:
        refusal = ws.receive_json()
        assert refusal["code"] == "malformed" and refusal["message"].startswith("der Platz-Schlüssel gehört")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400 and len(closed.value.reason.encode()) <= 123


def test_a_close_reason_is_cut_to_the_bytes_a_websocket_allows() -> None:
    import asyncio

    from tendays.server.face.sockets.table import _refuse

    class Socket:
        def __init__(self) -> None:
            self.sent: list[str] = []
            self.closed: tuple[int, str] | None = None

        async def send_text(self, text: str) -> None:
            self.sent.append(text)

        async def close(self, code: int, reason: str) -> None:
            if len(reason.encode()) > 123:
                raise ValueError("a close reason is at most 123 bytes")
            self.closed = (code, reason)

    socket = Socket()
    asyncio.run(_refuse(socket, "forbidden", "Plätzchen " * 20, 4403))  # type: ignore[arg-type]
    assert socket.closed is not None and socket.closed[0] == 4403 and socket.closed[1].startswith("Plätzchen")
    assert json.loads(socket.sent[0])["message"] == "Plätzchen " * 20


@pytest.mark.slow  # over a second of CPU
def test_rate_limit_refuses_the_excess_and_a_flood_closes(db_url: str) -> None:
    frozen = Limits(clock=lambda: 100.0)  # every message arrives in the same second
    with TestClient(create_app(db_url, settings(), frozen)) as test_client:
        alice = new_game(test_client, [HUMAN, bot()])
        with seat_socket(test_client, alice) as ws:
            ws.receive_json()
            for _ in range(20):
                ws.send_json({"type": "ping"})
            answers = [receive_until(ws, lambda m: m["type"] != "state") for _ in range(20)]
            assert answers == [{"type": "pong"}] * 20
            answer = rejected(ws, {"type": "move", "move": "draft 1", "version": 0})
            assert answer["code"] == "rate_limited" and "20 messages a second" in answer["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(100):
                    ws.send_json({"type": "ping"})
                    receive_until(ws, lambda m: m["type"] != "state")
            assert closed.value.code == 1008
        assert lobby(test_client).matches[alice["id"]].version == 0


@pytest.mark.slow  # over a second of CPU
def test_hint_names_the_days_to_change(client: TestClient, two_humans: tuple[Message, Message]) -> None:
    alice, _ = two_humans
    with seat_socket(client, alice) as ws:
        ws.receive_json()
        ws.send_json({"type": "hint"})
        answer = receive_until(ws, lambda m: m["type"] == "hint")
        assert answer["distance"] == 10 and answer["days"] == list(range(1, 11))
        assert answer["message"].startswith("10 tiles from a complete journey: fill days 1, 2")


def test_reconnecting_resumes_the_same_view(client: TestClient) -> None:
    alice = new_game(client, [HUMAN, bot("easy")])
    with seat_socket(client, alice) as ws:
        table = ws.receive_json()
        for version in range(0, 10, 2):  # five drafts, the bot drafting in between
            table = receive_until(ws, state_at(version)) if version else table
            ws.send_json({"type": "move", "move": table["game"]["legal_moves"][-1]["text"], "version": version})
        seen = receive_until(ws, state_at(10))
    assert seen["game"]["rack"][:5] == [None] * 5 and None not in seen["game"]["rack"][5:]
    for _ in range(2):  # a reload, then another device with the same link: the whole table, log included
        with seat_socket(client, alice) as again:
            fresh = again.receive_json()
            assert fresh["game"]["log_from"] == 0 and len(fresh["game"]["log"]) == 10
            for key in ("version", "type"):
                assert fresh[key] == seen[key]
            for key in ("rack", "in_hand", "piles", "legal_moves", "journey", "seats", "current", "phase"):
                assert fresh["game"][key] == seen["game"][key], key


@pytest.mark.slow  # over a second of CPU
def test_the_end_reveals_every_rack_and_journey(client: TestClient) -> None:
    alice = new_game(client, [HUMAN, bot("normal")], turn_limit=4)
    with seat_socket(client, alice) as ws:
        while True:
            table = receive_until(
                ws, lambda m: m["type"] == "state" and (m["game"]["legal_moves"] or m["game"]["status"] == "over")
            )
            game = table["game"]
            if game["status"] == "over":
                break
            ws.send_json({"type": "move", "move": game["legal_moves"][0]["text"], "version": table["version"]})
    assert game["phase"] == "over" and game["legal_moves"] == []
    assert len(game["racks"]) == 2 and all(None not in rack for rack in game["racks"])
    assert game["racks"][0] == game["rack"]
    assert [j["valid"] for j in game["journeys"]] == [game["winner"] == s for s in (0, 1)]
    assert game["log"][-1]["kind"] in ("win", "limit")
    assert client.get(f"/api/games/{alice['id']}").json()["status"] == "over"
    assert client.get("/api/games?show=playing").json()["games"] == []


def test_each_connection_reads_the_table_in_its_own_language(
    client: TestClient, two_humans: tuple[Message, Message]
) -> None:
    alice, bob = two_humans
    with (
        client.websocket_connect(f"/ws/games/{alice['id']}") as ws_de,
        client.websocket_connect(f"/ws/games/{alice['id']}", headers={"Accept-Language": "en-GB,en"}) as ws_en,
    ):
        ws_de.send_json({"type": "hello", "token": alice["token"], "lang": ["de-AT", "en"]})
        ws_en.send_json({"type": "hello", "token": bob["token"]})
        table_de, table_en = ws_de.receive_json()["game"], ws_en.receive_json()["game"]
        assert (table_de["you"], table_en["you"]) == (0, 1)
        # Refusals in the mover's language: the message's own and the engine's.
        assert (
            rejected(ws_de, {"type": "move", "move": "draft 1"})["message"]
            == "ein Spielzug braucht die Version des Tisches, auf dem er gemacht wurde"
        )
        assert (
            rejected(ws_en, {"type": "move", "move": "draft 1"})["message"]
            == "a move needs the version of the table it was made on"
        )
        mover, waiting = (ws_de, ws_en) if table_de["current"] == 0 else (ws_en, ws_de)
        other = rejected(waiting, {"type": "move", "move": "draw", "version": 0})
        assert other["code"] == "out_of_turn"
        name = ("Alice", "Bob")[table_de["current"]]
        assert other["message"] == (
            f"{name} ist am Zug, nicht du" if waiting is ws_de else f"it is {name}'s turn, not yours"
        )
        said = {}
        for lang in ("de", "en"):
            mover.send_json({"type": "language", "lang": lang})
            said[lang] = rejected(mover, {"type": "move", "move": "draw", "version": 0})
            assert said[lang]["code"] == "illegal"
        assert said["de"]["message"] != said["en"]["message"]
        mover.send_json({"type": "language", "lang": "de" if mover is ws_de else "en"})
        # A hint is worked out on a thread, in the asker's language.
        ws_de.send_json({"type": "hint"})
        hint_de = receive_until(ws_de, lambda m: m["type"] == "hint")["message"]
        ws_en.send_json({"type": "hint"})
        hint_en = receive_until(ws_en, lambda m: m["type"] == "hint")["message"]
        assert hint_de != hint_en and ("Tag" in hint_de or "Plättchen" in hint_de), (hint_de, hint_en)
        # A notice is stored once, as data, and each seat reads it in its language.
        ws_en.send_json({"type": "leave"})
        notice_de = receive_until(ws_de, lambda m: m["type"] == "state" and m["game"]["chat"])["game"]["chat"][-1]
        notice_en = receive_until(ws_en, lambda m: m["type"] == "state" and m["game"]["chat"])["game"]["chat"][-1]
        assert notice_de["text"] == "Bob hat das Spiel verlassen: ab jetzt spielt ein Bot den Platz"
        assert notice_en["text"] == "Bob left the game: a bot plays the seat from now on"
        # The log's sentences follow the language too, and a connection may change its language.
        ws_en.send_json({"type": "language", "lang": "de"})
        again = receive_until(ws_en, lambda m: m["type"] == "state")["game"]
        assert again["chat"][-1]["text"] == notice_de["text"] and again["chat_from"] == 0
        assert [e["text"] for e in again["log"]] == [e["text"] for e in table_de["log"][: len(again["log"])]]


def test_old_english_notices_still_read_and_new_ones_render_per_language() -> None:
    from tendays.engine import use_language
    from tendays.server.matches.notices import N_, encode_notice, mark_plural, render_notice

    assert (
        render_notice("Bob left the game: a bot plays the seat from now on")
        == "Bob left the game: a bot plays the seat from now on"
    )
    stored = encode_notice(
        mark_plural(
            "{name} missed {n} turn in a row: a bot plays the seat until {name} opens the seat link again",
            "{name} missed {n} turns in a row: a bot plays the seat until {name} opens the seat link again",
            3,
        ),
        name="Bob",
    )
    assert render_notice(stored).startswith("Bob missed 3 turns in a row")
    with use_language("de"):
        assert render_notice(stored).startswith("Bob hat 3 Züge in Folge verpasst")
        assert (
            render_notice(encode_notice(N_("the players chose to end the game"), sentence=True))
            == "Die Spieler haben beschlossen, das Spiel zu beenden."
        )
