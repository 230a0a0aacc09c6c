"""A person's moderation over HTTP, on SQLite and PostgreSQL: reporting a player (a reason, one of the
player's games, a few words; at most the day's limit, however many requests arrive at once; the same report
twice is one), blocking and unblocking (never paired with, never at a table with, their chat hidden), the
refusals in words, and the blocks in one's own data."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from people_helpers import Person, engine_of, new_table, person
from server_helpers import TestClient
from sqlalchemy import func, insert, select
from sqlalchemy.engine import Engine
from starlette.testclient import WebSocketTestSession

from tendays.server.people.accounts import AccountError
from tendays.server.people.blocks import block
from tendays.server.people.reports import REPORT_TEXT, REPORTS_PER_DAY, report
from tendays.server.people.seeks import SeekBook, SeekStatus
from tendays.server.settings import Pace
from tendays.server.storage.schema import BlockTable, ReportTable
from tendays.server.storage.store import Store

HIDDEN = "(hidden: you blocked this player)"
STATIC = Path(__file__).resolve().parents[3] / "src" / "tendays" / "web" / "static"


def reports_in(engine: Engine, reporter: int) -> int:
    with engine.connect() as db:
        return int(
            db.scalar(select(func.count()).select_from(ReportTable).where(ReportTable.reporter_id == reporter)) or 0
        )


# -- reports ---------------------------------------------------------------------------------------


def test_a_report_of_a_player_for_their_game_is_written_once(client: TestClient) -> None:
    engine = engine_of(client)
    ann, ben = person(engine, "Ann"), person(engine, "Ben")
    game = new_table(client, ann, ben)
    body = {"player": "ben", "reason": "abuse", "game": game, "text": "Rude in the chat,\r\nthree times."}
    first = ann.call(client, "POST", "/api/reports", body)
    assert first.status_code == 201, first.text
    assert first.json()["new"] is True
    again = ann.call(client, "POST", "/api/reports", {**body, "reason": "other", "text": "again"})
    assert again.status_code == 200 and again.json() == {"id": first.json()["id"], "new": False}
    with engine.connect() as db:
        rows = db.execute(select(ReportTable)).all()
    assert len(rows) == 1
    row = rows[0]
    assert (row.reporter_id, row.reported_id, row.game_id, row.reason, row.status) == (
        ann.id,
        ben.id,
        game,
        "abuse",
        "open",
    )
    assert row.text == "Rude in the chat,\nthree times."
    other = ann.call(client, "POST", "/api/reports", {"player": "Ben", "reason": "cheating"})  # no game: another
    assert other.status_code == 201 and other.json()["id"] != first.json()["id"]
    sent = ann.call(client, "GET", "/api/account/data").json()["reports"]
    assert [(r["player"], r["reason"], r["game"]) for r in sent] == [("Ben", "abuse", game), ("Ben", "cheating", None)]
    assert "Ann" not in ben.call(client, "GET", "/api/account/data").text  # nobody learns who reported them
    reasons = client.get("/api/report-reasons").json()
    assert reasons == ["cheating", "abuse", "farming", "name", "other"]
    for lang in ("en", "de"):  # the profile's dialog says each reason in words
        words = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        assert [reason for reason in reasons if f"moderation.reason.{reason}" not in words] == []


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"player": "Ann", "reason": "abuse"}, 422, "you cannot report yourself"),
        ({"player": "Nobody", "reason": "abuse"}, 404, "there is no player called 'Nobody'"),
        ({"player": "Ben", "reason": "rudeness"}, 422, "unknown reason 'rudeness'; known: cheating, abuse"),
        ({"player": "Ben", "reason": "abuse", "text": "bell\x07"}, 422, "cannot contain the character U+0007"),
        ({"player": "Ben", "reason": "abuse", "text": "\u202eesrever"}, 422, "cannot contain the character U+202E"),
        (
            {"player": "Ben", "reason": "abuse", "text": "x" * (REPORT_TEXT + 1)},
            422,
            f"at most {REPORT_TEXT} characters, not {REPORT_TEXT + 1}",
        ),
        ({"player": "Ben", "reason": "abuse", "game": "nosuchgame"}, 422, "Ben did not play in game 'nosuchgame'"),
    ],
)
def test_a_report_that_cannot_be_is_refused_in_words(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    engine = engine_of(client)
    ann, _ben = person(engine, "Ann"), person(engine, "Ben")
    answer = ann.call(client, "POST", "/api/reports", body)
    assert answer.status_code == status and words in answer.json()["detail"], answer.text
    assert reports_in(engine, ann.id) == 0


def test_a_report_needs_a_signed_in_person_and_their_csrf_token(client: TestClient) -> None:
    engine = engine_of(client)
    ann, _ben = person(engine, "Ann"), person(engine, "Ben")
    body = {"player": "Ben", "reason": "abuse"}
    client.cookies.clear()
    anonymous = client.post("/api/reports", json=body)
    assert anonymous.status_code == 401 and "sign in first" in anonymous.json()["detail"]
    forged = ann.call(client, "POST", "/api/reports", body, csrf=False)
    assert forged.status_code == 403 and "X-CSRF-Token" in forged.json()["detail"]
    assert reports_in(engine, ann.id) == 0


def test_a_game_the_player_did_not_sit_at_is_refused(client: TestClient) -> None:
    engine = engine_of(client)
    ann, ben, cid = person(engine, "Ann"), person(engine, "Ben"), person(engine, "Cid")
    game = new_table(client, ann, cid)
    answer = ann.call(client, "POST", "/api/reports", {"player": "Ben", "reason": "cheating", "game": game})
    assert answer.status_code == 422 and f"Ben did not play in game '{game}'" in answer.json()["detail"]
    assert (
        ann.call(client, "POST", "/api/reports", {"player": "Cid", "reason": "cheating", "game": game}).status_code
        == 201
    )
    assert ben.id != cid.id


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = Store(db_url)
    yield opened
    opened.close()


def test_a_burst_of_reports_writes_at_most_the_days_limit(store: Store) -> None:
    """Thirty reports at once, each on its own database connection: the limit holds, not one over."""
    reporter = person(store.engine, "Ann")
    players = [person(store.engine, f"Player{i}") for i in range(30)]
    now = time.time()

    def send(player: Person) -> int:
        try:
            report(store.engine, reporter.account, player.name, "abuse", None, "", now)
        except AccountError as error:
            assert error.status == 429, error.message
            assert f"at most {REPORTS_PER_DAY} reports a day" in error.message
            assert error.retry_after is not None and 0 < error.retry_after <= 24 * 3600
            return 429
        return 201

    with ThreadPoolExecutor(10) as pool:
        answers = list(pool.map(send, players))
    assert answers.count(201) == REPORTS_PER_DAY and answers.count(429) == 30 - REPORTS_PER_DAY
    assert reports_in(store.engine, reporter.id) == REPORTS_PER_DAY
    # a day later, the next may be sent
    report(store.engine, reporter.account, "Player0", "abuse", None, "", now + 24 * 3600 + 1)


def test_the_same_report_sent_many_times_at_once_is_one(store: Store) -> None:
    reporter, player = person(store.engine, "Ann"), person(store.engine, "Ben")
    now = time.time()
    with ThreadPoolExecutor(8) as pool:
        filed = list(
            pool.map(lambda _i: report(store.engine, reporter.account, "Ben", "name", None, "", now), range(16))
        )
    assert len({f.id for f in filed}) == 1 and sum(f.new for f in filed) == 1
    assert reports_in(store.engine, reporter.id) == 1 and player.id != reporter.id


# -- blocks ----------------------------------------------------------------------------------------


def test_block_list_and_unblock(client: TestClient) -> None:
    engine = engine_of(client)
    ann, _ben, _cid = person(engine, "Ann"), person(engine, "Ben"), person(engine, "Cid")
    for name in ("ben", "Cid", "Ben"):  # any letter case; twice is one block
        answer = ann.call(client, "PUT", f"/api/blocks/{name}")
        assert answer.status_code == 200 and answer.json()["blocked"] is True, answer.text
    assert [p["name"] for p in ann.call(client, "GET", "/api/blocks").json()["players"]] == ["Ben", "Cid"]
    data = ann.call(client, "GET", "/api/account/data").json()
    assert sorted(b["name"] for b in data["blocks"]) == ["Ben", "Cid"]
    gone = ann.call(client, "DELETE", "/api/blocks/Ben")
    assert gone.status_code == 200 and gone.json() == {"name": "Ben", "blocked": False}
    assert [p["name"] for p in ann.call(client, "GET", "/api/blocks").json()["players"]] == ["Cid"]
    with engine.connect() as db:
        assert db.scalar(select(func.count()).select_from(BlockTable)) == 1


def test_blocking_oneself_or_nobody_or_without_a_session_is_refused_in_words(client: TestClient) -> None:
    engine = engine_of(client)
    ann = person(engine, "Ann")
    itself = ann.call(client, "PUT", "/api/blocks/ANN")
    assert itself.status_code == 422 and itself.json()["detail"] == "you cannot block yourself"
    nobody = ann.call(client, "PUT", "/api/blocks/Nobody")
    assert nobody.status_code == 404 and "there is no player called 'Nobody'" in nobody.json()["detail"]
    forged = ann.call(client, "PUT", "/api/blocks/Nobody", csrf=False)
    assert forged.status_code == 403
    client.cookies.clear()
    assert client.get("/api/blocks").status_code == 401


def test_blocks_sent_at_once_are_one(client: TestClient) -> None:
    engine = engine_of(client)
    ann, ben = person(engine, "Ann"), person(engine, "Ben")
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _i: client.put("/api/blocks/Ben", headers=ann.headers()), range(16)))
    assert {a.status_code for a in answers} == {200}
    with engine.connect() as db:
        assert db.execute(select(BlockTable.blocker_id, BlockTable.blocked_id)).all() == [(ann.id, ben.id)]


def test_blocks_written_at_once_on_many_connections_are_one(store: Store) -> None:
    ann, ben = person(store.engine, "Ann"), person(store.engine, "Ben")
    with ThreadPoolExecutor(8) as pool:
        blocked = list(pool.map(lambda _i: block(store.engine, ann.account, "BEN", time.time()), range(16)))
    assert {b.name for b in blocked} == {"Ben"}
    with store.engine.connect() as db:
        assert db.execute(select(BlockTable.blocker_id, BlockTable.blocked_id)).all() == [(ann.id, ben.id)]


def test_nobody_joins_a_table_with_someone_who_blocks_them_or_whom_they_block(client: TestClient) -> None:
    engine = engine_of(client)
    ann, ben, cid = person(engine, "Ann"), person(engine, "Ben"), person(engine, "Cid")
    assert ann.call(client, "PUT", "/api/blocks/Ben").status_code == 200
    game = new_table(client, ann)
    refused = ben.call(client, "POST", f"/api/games/{game}/join", {"name": "x"})
    assert refused.status_code == 409, refused.text
    assert refused.json()["detail"] == "you cannot play at this table: a player there does not play with you"
    other = new_table(client, ben)
    mine = ann.call(client, "POST", f"/api/games/{other}/join", {"name": "x"})
    assert mine.status_code == 409
    assert mine.json()["detail"].startswith("you blocked Ben, who sits at this table")
    assert cid.call(client, "POST", f"/api/games/{game}/join", {"name": "x"}).status_code == 200
    assert ann.call(client, "DELETE", "/api/blocks/Ben").status_code == 200
    assert ann.call(client, "POST", f"/api/games/{other}/join", {"name": "x"}).status_code == 200


def test_quick_pairing_never_pairs_two_people_when_either_blocks_the_other(store: Store) -> None:
    book = SeekBook(store.engine, expiry=60, new_rating=1000.0)
    ann, ben, cid = (person(store.engine, n) for n in ("Ann", "Ben", "Cid"))
    with store.engine.begin() as db:
        db.execute(insert(BlockTable).values(blocker_id=ben.id, blocked_id=ann.id, created=time.time()))
    live = Pace("live", 60)
    first = book.post(ann.id, "usa", live, None, None, time.time() - 1).id
    second = book.post(ben.id, "usa", live, None, None, time.time()).id
    assert book.pair(second, time.time()) is None
    assert book.pair(first, time.time()) is None
    assert book.sweep(time.time()) == [first, second]  # both still wait
    third = book.post(cid.id, "usa", live, None, None, time.time()).id
    pairing = book.pair(third, time.time())
    assert pairing is not None and [s.account_id for s in pairing.seeks] == [ann.id, cid.id]
    waiting = book.get(second)
    assert waiting is not None and waiting.status == SeekStatus.OPEN


def test_seeks_of_people_who_block_each_other_wait_over_http(client: TestClient) -> None:
    engine = engine_of(client)
    ann, ben = person(engine, "Ann"), person(engine, "Ben")
    assert ann.call(client, "PUT", "/api/blocks/Ben").status_code == 200
    seeks = [p.call(client, "POST", "/api/seeks", {"edition": "usa"}).json()["id"] for p in (ann, ben)]
    book: SeekBook = client.app.state.matchmaker.book  # type: ignore[attr-defined]
    for seek_id in seeks:  # whatever the pairing tasks did, these find no pair either
        assert book.pair(seek_id, time.time()) is None
    for p, seek_id in zip((ann, ben), seeks, strict=True):
        assert p.call(client, "GET", f"/api/seeks/{seek_id}").json()["status"] == "open"


# -- chat ------------------------------------------------------------------------------------------


def next_of(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    for _ in range(50):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message came")


def test_the_blocked_players_chat_is_hidden_from_the_blocker_alone(client: TestClient) -> None:
    engine = engine_of(client)
    ann, ben = person(engine, "Ann"), person(engine, "Ben")
    game = new_table(client, ann, ben)
    url = f"/ws/games/{game}"
    with (
        client.websocket_connect(url, headers=ann.headers(False)) as ws_ann,
        client.websocket_connect(url, headers=ben.headers(False)) as ws_ben,
        client.websocket_connect(url) as ws_watch,
    ):
        for ws in (ws_ann, ws_ben):
            ws.send_json({"type": "hello", "account": True})
        ws_watch.send_json({"type": "hello", "token": None})
        for ws in (ws_ann, ws_ben, ws_watch):
            next_of(ws, "state")
        ws_ben.send_json({"type": "chat", "text": "before the block"})
        for ws in (ws_ann, ws_ben, ws_watch):
            assert next_of(ws, "chat")["chat"][-1]["text"] == "before the block"
        # the block reaches Ann's open table at once: every line of Ben's, the earlier too, is hidden
        assert ann.call(client, "PUT", "/api/blocks/Ben").status_code == 200
        table = next_of(ws_ann, "state")["game"]
        assert table["chat_from"] == 0
        assert [(c["text"], c.get("hidden")) for c in table["chat"]] == [(HIDDEN, True)]
        ws_ben.send_json({"type": "chat", "text": "after the block"})
        hidden = next_of(ws_ann, "chat")["chat"][-1]
        assert (hidden["text"], hidden["name"], hidden["hidden"]) == (HIDDEN, "Ben", True)
        for ws in (ws_ben, ws_watch):  # everyone else reads the words
            lines = next_of(ws, "chat")["chat"]
            assert lines[-1]["text"] == "after the block" and "hidden" not in lines[-1]
        ws_ann.send_json({"type": "chat", "text": "Ann still writes"})
        assert next_of(ws_ben, "chat")["chat"][-1]["text"] == "Ann still writes"
    # a table opened later hides the lines too, in the reader's language
    with client.websocket_connect(f"{url}?lang=de", headers=ann.headers(False)) as ws_ann:
        ws_ann.send_json({"type": "hello", "account": True, "lang": "de"})
        chat = next_of(ws_ann, "state")["game"]["chat"]
        assert [c.get("hidden", False) for c in chat] == [True, True, False]
        assert chat[0]["text"] == "(verborgen: du hast diese Person blockiert)"


def test_no_rematch_is_offered_to_someone_who_blocks_the_asker(client: TestClient) -> None:
    engine = engine_of(client)
    ann, ben = person(engine, "Ann"), person(engine, "Ben")
    game = new_table(client, ann, ben)
    url = f"/ws/games/{game}"
    with (
        client.websocket_connect(url, headers=ann.headers(False)) as ws_ann,
        client.websocket_connect(url, headers=ben.headers(False)) as ws_ben,
    ):
        for ws in (ws_ann, ws_ben):
            ws.send_json({"type": "hello", "account": True})
            next_of(ws, "state")
        ws_ann.send_json({"type": "leave"})
        # Ben asks to end once his table shows Ann gone (asked before, it would be refused)
        while not next_of(ws_ben, "state")["game"]["seats"][0]["left"]:
            pass
        ws_ben.send_json({"type": "end"})  # the game ends: nobody else plays it
        while next_of(ws_ben, "state")["game"]["status"] != "over":
            pass
        assert ann.call(client, "PUT", "/api/blocks/Ben").status_code == 200
        ws_ben.send_json({"type": "rematch"})
        refusal = next_of(ws_ben, "error")
        assert (refusal["code"], refusal["message"]) == (
            "forbidden",
            "you cannot play at this table: a player there does not play with you",
        )
        assert ann.call(client, "DELETE", "/api/blocks/Ben").status_code == 200
        ws_ben.send_json({"type": "rematch"})
        assert next_of(ws_ben, "seat")["id"] != game
