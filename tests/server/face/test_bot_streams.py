"""The Bot API's streams and moves, on SQLite and PostgreSQL, served over real HTTP: the account's event
stream opens with its unfinished games and open challenges and then tells each change; the game stream opens
with the seat's whole table, exactly as the seat's table connection first reads it, and then each change,
never another seat's tiles; moves, chat and leaving by POST are answered with the game's words; tokens are
held to their scopes, their accounts' games and their lifetime; challenges are limited per minute."""

from __future__ import annotations

import json
import time
from collections import Counter
from typing import Any

import pytest
from bot_audit import audit_frames
from bot_stream_helpers import BOARD, BOT, KEEP_ALIVE, WRITE, Player, Served, StreamReader, new_account, serve
from server_helpers import at_once
from sqlalchemy import update
from websockets.sync.client import connect

from tendays.server.people.api_tokens import revoke_token
from tendays.server.storage.schema import ChallengeTable
from tendays.server.storage.store import Store

pytestmark = pytest.mark.slow  # the Bot API's streams on uvicorn, whole games through them


@pytest.fixture
def served(db_url: str) -> Any:
    with serve(db_url) as app:
        yield app


def test_the_event_stream_opens_with_games_then_challenges_and_tells_each_change(db_url: str) -> None:
    # no keep-alive within the test: each change must wake the streams itself
    with serve(db_url, stream_keepalive=300) as served:
        _events_told(served)


def _events_told(served: Served) -> None:
    bot = Player(served, "Robo", BOT, bot=True)
    ann = Player(served, "Ann", WRITE)
    first = ann.challenge("Robo")
    game = bot.accept(first["id"])["game"]
    waiting = ann.challenge("robo", rated=True)
    events = bot.events()
    assert events.status == 200 and events.content_type.startswith("application/x-ndjson")
    assert events.next() == {"type": "gameStart", "game": {"id": game, "seat": 1, "edition": "usa"}}
    told = events.next()
    assert told["type"] == "challenge" and told["challenge"]["id"] == waiting["id"]
    assert (told["challenge"]["from"], told["challenge"]["edition"], told["challenge"]["rated"]) == ("Ann", "usa", True)
    assert set(told["challenge"]) >= {"id", "from", "edition", "options", "clock", "rated"}
    theirs = ann.events()
    assert theirs.next()["type"] == "gameStart"  # Ann sits at the game too; nobody challenged her
    # Ann takes it back, challenges again: the bot declines; then accepts a third
    assert ann.call("DELETE", f"/api/challenges/{waiting['id']}").status_code == 200
    assert events.next() == {"type": "challengeCanceled", "challenge": {"id": waiting["id"]}}
    again = ann.challenge("Robo")
    assert events.next()["challenge"]["id"] == again["id"]
    declined = bot.call("POST", f"/api/challenges/{again['id']}/decline", {"reason": "later"})
    assert declined.status_code == 200, declined.text
    assert theirs.next() == {"type": "challengeDeclined", "challenge": {"id": again["id"], "reason": "later"}}
    # a challenge that lapses is taken back too
    lapsing = ann.challenge("Robo")
    assert events.next()["challenge"]["id"] == lapsing["id"]
    store = Store(served.url)
    with store.engine.begin() as db:
        db.execute(update(ChallengeTable).where(ChallengeTable.id == lapsing["id"]).values(expires_at=time.time() + 1))
    store.close()
    third = ann.challenge("Robo")  # the stream reads again, and waits for the lapse
    assert events.next()["challenge"]["id"] == third["id"]
    assert events.next() == {"type": "challengeCanceled", "challenge": {"id": lapsing["id"]}}
    second_game = bot.accept(third["id"])["game"]
    assert events.next() == {"type": "gameStart", "game": {"id": second_game, "seat": 1, "edition": "usa"}}
    assert theirs.next() == {"type": "gameStart", "game": {"id": second_game, "seat": 0, "edition": "usa"}}
    # leaving a game finishes it for the one who left (a bot plays the seat) and for the stream
    assert ann.call("POST", f"/api/board/game/{game}/resign").status_code == 403  # Ann's token: no board:play
    left = bot.call("POST", f"/api/bot/game/{game}/resign")
    assert left.status_code == 200, left.text
    assert events.next() == {"type": "gameFinish", "game": {"id": game}}
    # a reconnecting program finds the unfinished game first, and nothing that was answered
    events.close()
    again_events = bot.events()
    assert again_events.next() == {"type": "gameStart", "game": {"id": second_game, "seat": 1, "edition": "usa"}}
    for stream in (again_events, theirs):
        stream.close()


def test_the_game_stream_is_the_seats_table_and_never_another_seats_tiles(served: Served) -> None:
    ann = Player(served, "Ann", WRITE, BOARD)
    ben = Player(served, "Ben", WRITE, BOARD)
    made = ann.challenge("Ben", options={"turn_limit": 12})  # a short game, whatever the moves
    taken = ben.accept(made["id"])
    game_id, seat_token = taken["game"], taken["token"]
    events = ann.events()
    assert events.next() == {"type": "gameStart", "game": {"id": game_id, "seat": 0, "edition": "usa"}}
    stream = ben.game(game_id)
    full = stream.next()
    assert full["type"] == "gameFull" and full["game"]["you"] == 1 and full["game"]["log_from"] == 0
    # the seat's own table connection reads the same table first
    port = served.base.rsplit(":", 1)[1]
    with connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}", open_timeout=10) as table:
        table.send(json.dumps({"type": "hello", "token": seat_token}))
        first = json.loads(table.recv(10))
    assert first["type"] == "state" and first["version"] == full["version"]
    assert first["game"] == full["game"]
    assert full["game"]["racks"] is None  # no rack but its own while the game is played
    # both play their first legal move each time it is theirs, through the API, to the end
    ann_stream = ann.game(game_id)
    frames = {0: [ann_stream.next()], 1: [full]}
    assert frames[0][0]["type"] == "gameFull" and frames[0][0]["game"]["you"] == 0
    players, streams = {0: ann, 1: ben}, {0: ann_stream, 1: stream}
    over = {0: False, 1: False}
    moved: set[tuple[int, int]] = set()
    deadline = time.monotonic() + 120
    while not all(over.values()):
        assert time.monotonic() < deadline, [
            (
                f[-1]["version"],
                f[-1]["game"]["current"],
                f[-1]["game"]["phase"],
                len(f[-1]["game"]["legal_moves"]),
                f[-1]["game"]["status"],
            )
            for f in frames.values()
        ]
        for seat in (0, 1):
            latest = frames[seat][-1]
            game = latest["game"]
            if game["legal_moves"] and (seat, latest["version"]) not in moved and not over[seat]:
                moved.add((seat, latest["version"]))
                answer = players[seat].move(game_id, game["legal_moves"][0]["text"], latest["version"])
                assert answer.status_code in (200, 409), answer.text
                if answer.status_code == 409:
                    assert answer.json()["code"] == "stale"  # the table moved on meanwhile
            for line in _waiting(streams[seat]):
                assert line["type"] in ("gameState", "chatLine"), line
                if line["type"] == "gameState":
                    frames[seat].append(line)
            if streams[seat].ended.is_set() and streams[seat].lines.empty():
                over[seat] = True
    assert events.next() == {"type": "gameFinish", "game": {"id": game_id}}
    events.close()
    for seat in (0, 1):
        assert frames[seat][-1]["game"]["status"] == "over"
        assert all(frame["game"]["you"] == seat for frame in frames[seat])
    record = _record(served.url, game_id)
    assert len(record.moves) == frames[0][-1]["version"]
    for seat in (0, 1):
        # The journey is judged from the seat's own rack alone; its sentences may name a region no tile
        # shows ("the car stands for Tennessee"), which the audit's name search cannot tell from a leak.
        audited = [{**frame, "game": {**frame["game"], "journey": None}} for frame in frames[seat]]
        assert audit_frames(record, seat, audited) == []


def _waiting(stream: StreamReader) -> list[dict[str, Any]]:
    """The lines the stream has now, waiting a moment for the first."""
    found: list[dict[str, Any]] = []
    try:
        line = stream.lines.get(timeout=0.05)
    except Exception:
        return found
    while True:
        if isinstance(line, dict):
            found.append(line)
        try:
            line = stream.lines.get_nowait()
        except Exception:
            return found


def _record(url: str, game_id: str) -> Any:
    from tendays.engine import GameRecord, Move

    store = Store(url)
    try:
        stored = store.load_game(game_id)
    finally:
        store.close()
    assert stored is not None
    names = tuple(s.name or "" for s in stored.seats)
    moves = tuple(Move.from_text(move) for move in stored.moves)
    return GameRecord(stored.edition, stored.options, stored.seed, moves, names)


def test_moves_are_answered_with_the_games_words(served: Served) -> None:
    ann = Player(served, "Ann", WRITE, BOARD)
    bot = Player(served, "Robo", BOT, bot=True)
    game_id = bot.accept(ann.challenge("Robo")["id"])["game"]
    stream = bot.game(game_id)
    full = stream.next()["game"]
    mover = full["current"]
    players = {0: ann, 1: bot}
    waiting = players[1 - mover]
    answer = waiting.move(game_id, "draft 1")
    assert answer.status_code == 409 and answer.json()["code"] == "out_of_turn", answer.text
    assert answer.json()["detail"]
    moving = players[mover]
    wrong = moving.move(game_id, "replace 5 1")  # not a move of the draft
    assert wrong.status_code == 409 and wrong.json()["code"] == "illegal", wrong.text
    assert "the racks are still being filled" in wrong.json()["detail"]  # the rule it breaks
    assert moving.move(game_id, "fly me to the moon").status_code == 422
    assert moving.call("POST", f"/api/{moving.family}/game/{game_id}/move", {"mov": "x"}).status_code == 422
    german = served.call(
        "POST",
        f"/api/{moving.family}/game/{game_id}/move",
        moving.token,
        json={"move": "replace 5 1"},
        headers={"Accept-Language": "de"},
    )
    assert german.status_code == 409 and german.json()["detail"] != wrong.json()["detail"]
    legal = full["legal_moves"][0]["text"] if mover == 1 else None
    if legal is None:  # Ann is first: take her move's table from her stream
        legal = ann.game(game_id).next()["game"]["legal_moves"][0]["text"]
    played = moving.move(game_id, legal)
    assert played.status_code == 200 and played.json() == {"ok": True, "version": 1}, played.text
    state = stream.until("gameState")
    while state["version"] < 1:  # the table shown again as Ann's seat came online
        state = stream.until("gameState")
    assert state["version"] == 1 and (state["game"]["log_from"], len(state["game"]["log"])) == (0, 1)
    said = bot.call("POST", f"/api/bot/game/{game_id}/chat", {"text": "good luck"})
    assert said.status_code == 200, said.text
    line = stream.until("chatLine")
    assert line["chat"][-1]["text"] == "good luck" and line["chat"][-1]["seat"] == 1


def test_tokens_keep_to_their_scopes_their_games_and_their_families(served: Served) -> None:
    bot = Player(served, "Robo", BOT, bot=True)
    ann = Player(served, "Ann", WRITE, BOARD)
    cat = Player(served, "Cat", WRITE, BOARD)
    only_board = Player(served, "Dan", BOARD)
    game_id = bot.accept(ann.challenge("Robo")["id"])["game"]
    assert served.call("GET", "/api/stream/event").status_code == 401
    assert served.call("GET", f"/api/bot/game/stream/{game_id}", "tdb_nothing").status_code == 401
    # a bot plays under /api/bot, a person under /api/board
    assert served.call("GET", f"/api/board/game/stream/{game_id}", bot.token).status_code == 403
    assert ann.call("POST", f"/api/bot/game/{game_id}/move", {"move": "draft 1"}).status_code == 403
    # another's game, or none
    refused = cat.call("POST", f"/api/board/game/{game_id}/move", {"move": "draft 1"})
    assert refused.status_code == 404 and game_id in refused.json()["detail"]
    assert served.call("GET", f"/api/board/game/stream/{game_id}", cat.token).status_code == 404
    assert served.call("GET", "/api/bot/game/stream/nosuchgame", bot.token).status_code == 404
    # challenge:write to challenge (a person), bot:play for a bot account
    refused = only_board.call("POST", "/api/challenges", {"to": "Ann", "edition": "usa"})
    assert refused.status_code == 403 and "challenge:write" in refused.json()["detail"]
    assert bot.call("POST", "/api/challenges", {"to": "Ann", "edition": "usa"}).status_code == 201
    # any scope opens the event stream
    events = only_board.events()
    assert events.status == 200
    events.close()


def test_a_revoked_tokens_open_streams_end_within_a_keep_alive(served: Served) -> None:
    bot = Player(served, "Robo", BOT, bot=True)
    ann = Player(served, "Ann", WRITE)
    game_id = bot.accept(ann.challenge("Robo")["id"])["game"]
    events, table = bot.events(), bot.game(game_id)
    assert events.next()["type"] == "gameStart" and table.next()["type"] == "gameFull"
    store = Store(served.url)
    with store.engine.begin() as db:
        revoke_token(db, bot.id, bot.token_id, time.time())
    store.close()
    assert events.ended.wait(KEEP_ALIVE * 20) and table.ended.wait(KEEP_ALIVE * 20)
    assert served.call("GET", "/api/stream/event", bot.token).status_code == 401


def test_an_account_holds_a_few_event_streams_at_once(served: Served) -> None:
    bot = Player(served, "Robo", BOT, bot=True)
    streams = [bot.events() for _ in range(4)]
    assert {s.status for s in streams} == {200}
    fifth = bot.events()
    assert fifth.status == 429 and "4 event streams" in fifth.next()["detail"]
    streams[0].close()
    deadline = time.monotonic() + 30
    while served.app.state.open_streams.event_streams(bot.id) > 3:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    again = bot.events()
    assert again.status == 200
    for stream in [*streams[1:], again]:
        stream.close()


def test_challenges_are_limited_per_minute_however_many_come_at_once(db_url: str) -> None:
    with serve(db_url, challenges_per_minute=3) as served:
        ann = Player(served, "Ann", WRITE)
        for name in ("Ben", "Cat", "Dan", "Eve", "Fay", "Gus"):
            new_account(db_url, name)
        names = ["Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
        made = at_once(6, lambda n: ann.call("POST", "/api/challenges", {"to": names[n], "edition": "usa"}))
        assert Counter(a.status_code for a in made) == {201: 3, 429: 3}
        refused = next(a for a in made if a.status_code == 429)
        assert "3 challenges within the minute" in refused.json()["detail"] and refused.headers["Retry-After"]
