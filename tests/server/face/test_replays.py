"""Replays in the browser, over HTTP: a finished game's record (as ``tendays replay`` reads it), its positions
with every rack, records opened from a file, and the analysis of its moves. Nothing before the game is over."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import HUMAN, SEED, TestClient, bot, new_game, open_table, settings

from tendays.cli.tui.save_file import load_save
from tendays.engine import GameRecord, view
from tendays.engine.wire import view_to_json
from tendays.server.face.app import create_app
from tendays.server.face.routers import replay_analysis, replays
from tendays.server.matches.lobby import Lobby


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message


def play_out(client: TestClient, ticket: dict[str, Any], chat: str = "") -> None:
    """Play the person's seat (the first legal move each time) until the game is over."""
    with open_table(client, ticket["id"], ticket["token"]) as ws:
        table = next_of(ws, "state")
        if chat:
            ws.send_json({"type": "chat", "text": chat})
        while table["game"]["status"] != "over":
            moves = table["game"]["legal_moves"]
            if moves:
                ws.send_json({"type": "move", "move": moves[0]["text"], "version": table["version"]})
            table = next_of(ws, "state")


TOKEN = "op3rator-Zq8vX2mLw4Rt7Yb1Nc6Kd9Hs0Pf5Gj3"


@pytest.fixture
def lite(tmp_path: Path) -> Any:
    """The app on SQLite alone (the record is read back on PostgreSQL too, through conftest's ``client``), with
    an operator."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'tendays.db'}", settings(), admin_token=TOKEN)) as test_client:
        yield test_client


def play_some_then(client: TestClient, ticket: dict[str, Any], moves: int, then: str) -> None:
    """Play the person's seat for ``moves`` moves, say something, then end the game early: ``then`` is "leave"
    (nobody is left: abandoned) or "close" (the operator closes it)."""
    with open_table(client, ticket["id"], ticket["token"]) as ws:
        table = next_of(ws, "state")
        ws.send_json({"type": "chat", "text": "off we go"})
        while moves and table["game"]["status"] != "over":
            if table["game"]["legal_moves"]:
                ws.send_json(
                    {"type": "move", "move": table["game"]["legal_moves"][0]["text"], "version": table["version"]}
                )
                moves -= 1
            table = next_of(ws, "state")
        if then == "leave":
            ws.send_json({"type": "leave"})
        else:
            closed = client.post(f"/api/admin/games/{ticket['id']}/close", headers={"Authorization": f"Bearer {TOKEN}"})
            assert closed.status_code == 200, closed.text
        while table["game"]["status"] != "over":
            table = next_of(ws, "state")
        assert table["game"]["ended"] == ("abandoned" if then == "leave" else "closed")


def strings_in(data: Any) -> set[str]:
    """Every key and string value anywhere in a JSON answer."""
    if isinstance(data, dict):
        return set(data) | {s for value in data.values() for s in strings_in(value)}
    if isinstance(data, list):
        return {s for value in data for s in strings_in(value)}
    return {data} if isinstance(data, str) else set()


def test_an_unknown_game_has_no_record_and_no_replay(lite: TestClient) -> None:
    for path in ("record", "replay"):
        answer = lite.get(f"/api/games/nosuchgame/{path}")
        assert answer.status_code == 404 and answer.json()["detail"] == "there is no game 'nosuchgame'"
    assert lite.post("/api/games/nosuchgame/analysis").status_code == 404


def test_a_game_being_played_tells_nothing(lite: TestClient) -> None:
    ticket = new_game(lite, [HUMAN, bot("normal")], turn_limit=2, days=5)
    with open_table(lite, ticket["id"], ticket["token"]) as ws:
        dealt = next_of(ws, "state")["game"]
        ws.send_json({"type": "move", "move": dealt["legal_moves"][0]["text"], "version": 0})
        next_of(ws, "state")
        for answer in (
            lite.get(f"/api/games/{ticket['id']}/record"),
            lite.get(f"/api/games/{ticket['id']}/replay"),
            lite.post(f"/api/games/{ticket['id']}/analysis"),
        ):
            assert answer.status_code == 409
            assert answer.json() == {
                "detail": f"game {ticket['id']} is still being played: its record and replay open once it is over"
            }
    assert lite.get(f"/replay/{ticket['id']}").status_code == 200  # the page itself says so, in words


def test_a_record_opened_from_a_file_replays_and_a_tampered_one_is_refused(lite: TestClient) -> None:
    ticket = new_game(lite, [HUMAN, bot("normal")], turn_limit=2, days=5)
    play_out(lite, ticket)
    text = lite.get(f"/api/games/{ticket['id']}/record").text
    opened = lite.post("/api/replays", content=text, headers={"Content-Type": "application/json"})
    assert opened.status_code == 200
    assert opened.json()["frames"] == lite.get(f"/api/games/{ticket['id']}/replay").json()["frames"]

    record = json.loads(text)
    tampered = {**record, "moves": [*record["moves"][:3], "draft 1", *record["moves"][4:]]}
    refused = lite.post("/api/replays", json=tampered)
    assert refused.status_code == 422
    assert refused.json()["detail"].startswith("move 4 (draft 1) does not replay: day 1 already holds a tile")
    cases = [
        ([1, 2, 3], "not a tendays game record: the file holds no JSON object"),
        ({**record, "names": ["Alice"]}, "the record names 1 players for a game of 2"),
        ({**record, "edition": "mars"}, "this record cannot be replayed: "),
        ({k: v for k, v in record.items() if k != "seed"}, "not a tendays game record: it has no 'seed'"),
        ({"not": "a record"}, "not a tendays game record: it has no 'edition', 'options', 'seed' or 'moves'"),
        ({**record, "options": "fast"}, "not a tendays game record: 'options' must be an object such as"),
    ]
    for body, reason in cases:
        answer = lite.post("/api/replays", json=body)
        assert answer.status_code == 422 and answer.json()["detail"].startswith(reason), answer.text
    not_json = lite.post("/api/replays", content=b"draft 1\n", headers={"Content-Type": "application/json"})
    assert not_json.status_code == 422 and "not valid JSON" in not_json.json()["detail"]


def test_the_analysis_runs_off_the_event_loop_and_is_kept(lite: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    measure = replay_analysis.analyse_move

    def analyse(record: dict[str, Any], number: int) -> dict[str, Any]:
        with pytest.raises(RuntimeError):
            asyncio.get_running_loop()  # a worker thread: no event loop waits on this
        calls.append(number)
        return measure(record, number, "normal")  # the normal bot: quicker than the hard one

    monkeypatch.setattr(replay_analysis, "analyse_move", analyse)
    ticket = new_game(lite, [HUMAN, bot("normal")], turn_limit=1, days=5)
    play_out(lite, ticket)
    record = GameRecord.from_json(lite.get(f"/api/games/{ticket['id']}/record").json())
    first = lite.post(f"/api/games/{ticket['id']}/analysis")
    assert first.status_code == 202 and first.json()["total"] == len(record.moves)
    for _ in range(600):
        answer = lite.get(f"/api/games/{ticket['id']}/analysis")
        if answer.status_code == 200:
            break
        assert answer.json()["status"] == "running", answer.json()["error"]
        asyncio.run(asyncio.sleep(0.05))
    analysis = answer.json()
    assert analysis["status"] == "ready" and calls == list(range(1, len(record.moves) + 1))
    moves = analysis["moves"]
    assert [m["move"]["text"] for m in moves] == [str(m) for m in record.moves]
    for move in moves:
        assert move["lengthened"] == (move["after"] > move["before"])
        assert move["better"] == (move["bot_after"] < move["after"])
    again = lite.post(f"/api/games/{ticket['id']}/analysis")
    assert again.status_code == 200 and again.json() == analysis and len(calls) == len(record.moves)  # kept


@pytest.mark.slow  # over a second of CPU
def test_a_game_deleted_after_its_end_is_gone_from_the_replays_too(lite: TestClient) -> None:
    ticket = new_game(lite, [HUMAN, bot("normal")], turn_limit=1, days=5)
    play_out(lite, ticket)
    assert lite.get(f"/api/games/{ticket['id']}/replay").status_code == 200  # and kept
    lobby: Lobby = lite.app.state.lobby  # type: ignore[attr-defined]
    assert lobby.journal.store.purge_finished(time.time() + 60) == [ticket["id"]]  # past its retention
    for path in ("replay", "record"):
        assert lite.get(f"/api/games/{ticket['id']}/{path}").status_code == 404


def test_a_finished_game_replays_as_tendays_replay_reads_it(client: TestClient, tmp_path: Path) -> None:
    ticket = new_game(client, [HUMAN, bot("normal")], turn_limit=2, days=5)
    play_out(client, ticket, chat="good luck")
    answer = client.get(f"/api/games/{ticket['id']}/record")
    assert answer.status_code == 200
    saved = tmp_path / "game.json"
    saved.write_text(answer.text)
    record, _seats = load_save(saved)
    assert record.names == ("Alice", "Normal bot")
    states = record.states()
    assert states[-1].is_over

    replay = client.get(f"/api/games/{ticket['id']}/replay", headers={"Accept-Language": "de"}).json()
    assert len(replay["frames"]) == len(record.moves) + 1
    assert [s["name"] for s in replay["seats"]] == ["Alice", "Bot (normal)"]
    assert [line["text"] for line in replay["chat"]] == ["good luck"]
    edition = states[0].edition
    for state, frame in zip(states, replay["frames"], strict=True):  # every rack, at every move
        assert frame["racks"] == [[None if t is None else edition.tiles[t].id for t in rack] for rack in state.racks]
        assert frame["log_length"] == len(state.events)
        assert all(0 <= v < len(replay["verdicts"]) for v in frame["journeys"])
    assert replay["frames"][1]["move"] == {"text": str(record.moves[0]), "seat": states[0].current}
    assert replay["log"][0]["text"].startswith("Alice legt")


@pytest.mark.parametrize("then", ["leave", "close"])
def test_a_game_ended_early_replays_as_its_watchers_saw_it(lite: TestClient, then: str) -> None:
    ticket = new_game(lite, [HUMAN, bot("normal")], days=5)
    play_some_then(lite, ticket, 6, then)  # the draft, and a draw
    lobby: Lobby = lite.app.state.lobby  # type: ignore[attr-defined]
    stored = lobby.journal.store.load_game(ticket["id"])
    assert stored is not None and stored.ended == ("abandoned" if then == "leave" else "closed")
    states = replays._stored_record(stored).states()
    assert len(states) > 10 and not states[-1].is_over

    answer = lite.get(f"/api/games/{ticket['id']}/replay", headers={"Accept-Language": "de"})
    assert answer.status_code == 200
    replay = answer.json()
    assert replay["ended"] == stored.ended and replay["racks_hidden"] is True and replay["verdicts"] == []
    assert [line["text"] for line in replay["chat"]][:1] == ["off we go"]
    public = (
        "phase",
        "current",
        "turn",
        "in_hand",
        "taken_from",
        "forced_pile",
        "piles",
        "draw_pile",
        "rack_counts",
        "racks",
        "winner",
    )
    for state, frame in zip(states, replay["frames"], strict=True):  # what a watcher saw, no more
        seen = view_to_json(view(state, None), events=False)
        assert {k: frame[k] for k in public} == {k: seen[k] for k in public}
        assert frame["racks"] is None and frame["journeys"] is None
    edition = states[0].edition
    shown = {edition.tiles[t].id for state in states for pile in state.piles for t in pile}
    held = {
        edition.tiles[t].id
        for state in states
        for rack in (*state.racks, (state.in_hand,))
        for t in rack
        if t is not None
    } - shown
    assert held and not held & strings_in(replay)  # no tile that stayed in a rack, anywhere
    assert "seed" not in strings_in(replay) and str(SEED) not in answer.text

    closed = (
        f"Spiel {ticket['id']} wurde beendet, bevor es zu Ende gespielt war: seine Reisepläne bleiben "
        "verdeckt, also gibt es kein Spielprotokoll und keine Analyse"
    )
    for refused in (
        lite.get(f"/api/games/{ticket['id']}/record", headers={"Accept-Language": "de"}),
        lite.post(f"/api/games/{ticket['id']}/analysis", headers={"Accept-Language": "de"}),
        lite.get(f"/api/games/{ticket['id']}/analysis", headers={"Accept-Language": "de"}),
    ):
        assert refused.status_code == 409 and refused.json() == {"detail": closed}
    english = lite.get(f"/api/games/{ticket['id']}/record").json()["detail"]
    assert english == (
        f"game {ticket['id']} ended before it was played out: its racks stay hidden, so it has no "
        "record and no analysis"
    )


def test_a_record_opened_from_a_file_shows_every_rack_even_before_its_end(lite: TestClient) -> None:
    ticket = new_game(lite, [HUMAN, bot("normal")], turn_limit=1, days=5)
    play_out(lite, ticket)
    record = lite.get(f"/api/games/{ticket['id']}/record").json()
    cut = {**record, "moves": record["moves"][:5]}  # a save of a game not yet over: its owner has it all
    replay = lite.post("/api/replays", json=cut).json()
    assert replay["racks_hidden"] is False
    assert all(frame["racks"] is not None for frame in replay["frames"])
