"""The inbox, on SQLite and PostgreSQL: a notification written in a transaction reaches every open page
of its account (``/ws/me``) once the transaction commits, and nothing of a rolled-back one does; the
inbox pages newest first and marks read (some or all, every open page hears the count); it keeps at most
its 200 newest and forgets read ones after 30 days; "your move" is kept once per game while unread,
however many write it at once; the socket of nobody signed in, and of a session that ends, is closed
with 4401; an open page makes its account online."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from server_helpers import TestClient, another_browser, at_once, sign_up
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tendays.server.people.notifications import INBOX_SIZE, NotificationKind, inbox_of, notify
from tendays.server.people.presence import ONLINE_SECONDS, online_among
from tendays.server.storage.schema import AccountTable, NotificationTable
from tendays.server.storage.store import Store

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in

Message = dict[str, Any]
T = TypeVar("T")


class RolledBack(Exception):
    """Raised inside a transaction to roll it back."""


def in_server(client: TestClient, work: Callable[[Connection], T]) -> T:
    """``work`` in one transaction on the server's database thread, as the server's own writes run."""
    journal = client.app.state.lobby.journal

    def run() -> T:
        with journal.store.engine.begin() as db:
            return work(db)

    return client.portal.call(journal.run, run)


def tell(client: TestClient, account: int, kind: NotificationKind, **data: Any) -> None:
    in_server(client, lambda db: notify(db, account, kind, data))


def signed_up(client: TestClient, name: str) -> int:
    """A new account signed in on ``client``: its id."""
    sign_up(client, name)
    found: int = in_server(client, lambda db: db.scalar(select(AccountTable.id).where(AccountTable.name == name)))
    return found


def hello(ws: WebSocketTestSession) -> int:
    message: Message = ws.receive_json()
    assert message["type"] == "hello", message
    unread: int = message["unread"]
    return unread


def inbox(client: TestClient, **params: Any) -> Message:
    answer = client.get("/api/notifications", params=params)
    assert answer.status_code == 200, answer.text
    body: Message = answer.json()
    return body


def test_a_committed_notification_reaches_every_open_page_and_a_rolled_back_one_nothing(
    client: TestClient,
) -> None:
    alice = signed_up(client, "Alice")

    def rolled_back(db: Connection) -> None:
        notify(db, alice, NotificationKind.CHALLENGE, {"from": "Mallory", "url": "/player/Mallory"})
        raise RolledBack

    with client.websocket_connect("/ws/me") as first, client.websocket_connect("/ws/me") as second:
        assert hello(first) == 0 and hello(second) == 0
        with pytest.raises(RolledBack):
            in_server(client, rolled_back)
        tell(client, alice, NotificationKind.CHALLENGE, **{"from": "Bob", "url": "/player/Bob"})
        for ws in (first, second):
            told: Message = ws.receive_json()
            assert told["type"] == "notification" and told["kind"] == "challenge", told
            assert told["data"] == {"from": "Bob", "url": "/player/Bob"} and told["read"] is False
            assert ws.receive_json() == {"type": "unread", "unread": 1}
    shown = inbox(client)
    assert shown["unread"] == 1
    assert [n["data"]["from"] for n in shown["notifications"]] == ["Bob"]


def test_the_inbox_pages_newest_first_and_marks_read_for_every_open_page(client: TestClient) -> None:
    alice = signed_up(client, "Alice")
    for number in range(5):
        tell(client, alice, NotificationKind.GAME_ENDED, game=f"g{number}", place=1, url=f"/play/g{number}")
    newest = inbox(client, limit=2)
    assert [n["data"]["game"] for n in newest["notifications"]] == ["g4", "g3"] and newest["unread"] == 5
    older = inbox(client, limit=2, before=newest["notifications"][-1]["id"])
    assert [n["data"]["game"] for n in older["notifications"]] == ["g2", "g1"]
    with client.websocket_connect("/ws/me") as ws:
        assert hello(ws) == 5
        marked = client.post("/api/notifications/read", json={"ids": [newest["notifications"][0]["id"]]})
        assert marked.json() == {"marked": 1, "unread": 4}
        assert ws.receive_json() == {"type": "unread", "unread": 4}
        assert client.post("/api/notifications/read", json={}).json() == {"marked": 4, "unread": 0}
        assert ws.receive_json() == {"type": "unread", "unread": 0}
    assert all(n["read"] for n in inbox(client)["notifications"])
    # nobody else's: Bob marks nothing of Alice's
    bob = another_browser(client)
    sign_up(bob, "Bob")
    tell(client, alice, NotificationKind.GAME_ENDED, game="g5", url="/play/g5")
    assert bob.post("/api/notifications/read", json={}).json() == {"marked": 0, "unread": 0}
    assert inbox(client)["unread"] == 1


def test_the_inbox_asks_for_a_session_and_its_token(client: TestClient) -> None:
    assert client.get("/api/notifications").status_code == 401
    assert client.post("/api/notifications/read", json={}).status_code == 401
    assert client.get("/api/games/your-move").status_code == 401
    sign_up(client, "Alice")
    del client.headers["X-CSRF-Token"]
    assert client.post("/api/notifications/read", json={}).status_code == 403
    assert client.get("/api/notifications", params={"limit": 1000}).status_code == 422


def test_an_inbox_keeps_its_newest_and_forgets_old_read_ones(client: TestClient) -> None:
    alice = signed_up(client, "Alice")

    def many(db: Connection) -> None:
        for number in range(INBOX_SIZE + 30):
            notify(db, alice, NotificationKind.CHALLENGE, {"from": f"p{number}"})

    in_server(client, many)
    kept = inbox(client, limit=100)
    assert kept["unread"] == INBOX_SIZE
    assert kept["notifications"][0]["data"]["from"] == f"p{INBOX_SIZE + 29}"
    client.post("/api/notifications/read", json={"ids": [kept["notifications"][0]["id"]]})
    long_ago = time.time() - 31 * 86400
    in_server(
        client,
        lambda db: db.execute(
            update(NotificationTable).where(NotificationTable.read_at.is_not(None)).values(read_at=long_ago)
        ),
    )
    tell(client, alice, NotificationKind.CHALLENGE, **{"from": "last"})
    after = inbox(client, limit=2)
    assert [n["data"]["from"] for n in after["notifications"]] == ["last", f"p{INBOX_SIZE + 28}"]
    # the newest 200 were "last", the old read one (forgotten) and 198 more
    assert after["unread"] == INBOX_SIZE - 1


def test_your_move_is_kept_once_per_game_until_read(client: TestClient) -> None:
    alice = signed_up(client, "Alice")
    with client.websocket_connect("/ws/me") as ws:
        assert hello(ws) == 0
        for turn in range(3):
            tell(client, alice, NotificationKind.YOUR_MOVE, game="corr1", turn=turn, url="/play/corr1")
            told: Message = ws.receive_json()
            assert told["kind"] == "your_move" and told["data"]["turn"] == turn, told
            if turn == 0:
                assert ws.receive_json() == {"type": "unread", "unread": 1}
        tell(client, alice, NotificationKind.YOUR_MOVE, game="corr2", url="/play/corr2")
        assert ws.receive_json()["data"]["game"] == "corr2"
        assert ws.receive_json() == {"type": "unread", "unread": 2}
    shown = inbox(client)["notifications"]
    assert [(n["data"]["game"], n["data"].get("turn")) for n in shown] == [("corr2", None), ("corr1", 2)]
    client.post("/api/notifications/read", json={"ids": [shown[1]["id"]]})
    tell(client, alice, NotificationKind.YOUR_MOVE, game="corr1", turn=3, url="/play/corr1")
    assert [n["data"]["game"] for n in inbox(client)["notifications"]] == ["corr1", "corr2", "corr1"]


def test_a_signed_out_page_is_refused_and_a_sign_out_closes_the_open_ones(client: TestClient) -> None:
    with client.websocket_connect("/ws/me") as ws:
        refused: Message = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "signed_out"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
    sign_up(client, "Alice")
    with client.websocket_connect("/ws/me") as ws:
        hello(ws)
        assert client.delete("/api/session").status_code in (200, 204)
        said: Message = ws.receive_json()
        assert said["type"] == "error" and "sign in again" in said["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401


def test_an_open_page_makes_its_account_online(client: TestClient) -> None:
    alice = signed_up(client, "Alice")
    bob = another_browser(client)
    bob_id = signed_up(bob, "Bob")
    with client.websocket_connect("/ws/me") as ws:
        hello(ws)
        now = time.time()
        assert in_server(client, lambda db: online_among(db, [alice, bob_id], now)) == {alice}
    later = time.time() + ONLINE_SECONDS + 1
    assert in_server(client, lambda db: online_among(db, [alice, bob_id], later)) == set()


def test_your_move_sent_at_once_by_many_is_kept_once(db_url: str) -> None:
    """Strangers send everything at once: eight writers tell one account of one game together, on their own
    connections; the database keeps one unread notice."""
    store = Store(db_url)
    try:
        with store.engine.begin() as db:
            account = db.execute(
                insert(AccountTable)
                .values(name="Racer", name_key="racer", password_hash="-", created=time.time())
                .returning(AccountTable.id)
            ).scalar_one()

        def send(number: int) -> None:
            with store.engine.begin() as db:
                notify(db, account, NotificationKind.YOUR_MOVE, {"game": "raced", "turn": number})

        at_once(8, send)
        with store.engine.connect() as db:
            kept = inbox_of(db, account, None, 50)
        assert kept.unread == 1 and [n.data["game"] for n in kept.notifications] == ["raced"]
    finally:
        store.close()
