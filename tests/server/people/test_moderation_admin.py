"""The operator's moderation over the admin API, on SQLite and PostgreSQL: suspending ends an
account's sessions, refuses its sign-in in words and gives its seats to bots; closing and hiding take
it off the leaderboard (its profile says so); annulling recomputes every rating of the edition in
order without its games; reports are listed open and newest first and closed with a note; accounts
that throw rated games are flagged with the games; every action leaves one audit row, and two
operators acting at once act once."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from server_helpers import HUMAN, PASSWORD, TestClient, Ticker, join, settings, sign_up
from sqlalchemy import insert, select, update
from starlette.websockets import WebSocketDisconnect

from tendays.server.face.app import Limits, create_app
from tendays.server.matches.text import name_key
from tendays.server.people import flags
from tendays.server.people.accounts import AccountError
from tendays.server.people.audit import Operator
from tendays.server.people.moderation import annul, change_status, close_report
from tendays.server.people.moderation_types import OperatorAction
from tendays.server.people.ratings import START, Rating, rate_game, rate_places
from tendays.server.storage.schema import (
    AccountTable,
    AuditTable,
    GameTable,
    MoveTable,
    RatingHistoryTable,
    RatingTable,
    ReportTable,
    SeatTable,
)
from tendays.server.storage.store import Store

ADMIN = "adm1n-Tq4Lx8Vw2Rz6Yb0Nc5Kd9Hs3Pf7Gj1Me"
BEARER = {"Authorization": f"Bearer {ADMIN}"}
FINGERPRINT = hashlib.sha256(ADMIN.encode()).hexdigest()[:12]
DAY = 86400.0


@pytest.fixture
def admin(db_url: str) -> Iterator[TestClient]:
    """The server with an admin token; requests carry it unless they say otherwise."""
    unlimited = Limits(
        clock=Ticker(0.1), creates_per_minute=0, joins_per_minute=0, connections_per_minute=0, connections_at_once=0
    )
    with TestClient(create_app(db_url, settings(), unlimited, admin_token=ADMIN)) as client:
        yield client


def act(client: TestClient, name: str, action: str, **body: Any) -> Any:
    return client.post(f"/api/admin/accounts/{name}/{action}", json=body, headers=BEARER)


def audit(client: TestClient) -> list[dict[str, Any]]:
    answer = client.get("/api/admin/audit", headers=BEARER)
    assert answer.status_code == 200, answer.text
    entries: list[dict[str, Any]] = answer.json()["entries"]
    return entries


def add_accounts(url: str, *names: str) -> list[int]:
    store = Store(url)
    try:
        with store.engine.begin() as db:
            return [
                db.execute(
                    insert(AccountTable).values(name=n, name_key=name_key(n), password_hash="-", created=time.time())
                ).inserted_primary_key[0]
                for n in names
            ]
    finally:
        store.close()


def rated(store: Store, game_id: str, people: list[int], places: list[int], at: float) -> None:
    """A rated two-person game between ``people``, finished ``at`` with ``places``, and rated."""
    with store.engine.begin() as db:
        db.execute(
            insert(GameTable).values(
                id=game_id,
                edition="usa",
                options="{}",
                seed=1,
                rated=True,
                created=datetime.fromtimestamp(at - 600, UTC),
                finished=True,
                finished_at=at,
            )
        )
        db.execute(
            insert(SeatTable),
            [
                {"game_id": game_id, "seat": i, "kind": "human", "name": f"P{a}", "account_id": a}
                for i, a in enumerate(people)
            ],
        )
    assert rate_game(store.engine, game_id, places, at=at)


# -- suspending, closing, hiding ----------------------------------------------------------------


@pytest.mark.slow  # Argon2id: a sign-up and three sign-ins
def test_suspending_ends_the_sessions_refuses_the_sign_in_and_gives_the_seats_to_bots(admin: TestClient) -> None:
    sign_up(admin, "Mallory")
    game = admin.post("/api/games", json={"edition": "usa", "name": "Mallory", "seats": [HUMAN, HUMAN]}).json()
    bob = TestClient(admin.app)
    join(bob, game["id"], "Bob")
    assert admin.get("/api/session").status_code == 200

    with admin.websocket_connect(f"/ws/games/{game['id']}") as table:  # Mallory at her table
        table.send_json({"type": "hello", "account": True})
        assert table.receive_json()["game"]["you"] == 0
        done = act(admin, "mallory", "suspend", note="threw games to a friend")
        table.send_json({"type": "chat", "text": "still here"})
        heard = []
        with pytest.raises(WebSocketDisconnect):
            while True:
                heard.append(json.dumps(table.receive_json()))
        assert not any("still here" in message for message in heard)  # closed before it could chat
    assert done.status_code == 200, done.text
    assert done.json()["games_to_bots"] == [game["id"]] and done.json()["account"] == "Mallory"
    assert admin.get("/api/session").status_code == 204  # the session ended on the server
    seats = admin.get(f"/api/games/{game['id']}").json()["seats"]
    assert seats[0]["left"] and not seats[1]["left"]  # a bot plays Mallory's seat; Bob plays on
    admin.cookies.clear()
    refused = admin.post("/api/session", json={"name": "Mallory", "password": PASSWORD})
    assert refused.status_code == 403 and "suspended" in refused.json()["detail"]
    german = admin.post(
        "/api/session", json={"name": "Mallory", "password": PASSWORD}, headers={"Accept-Language": "de"}
    )
    assert german.status_code == 403 and german.json()["detail"] != refused.json()["detail"]
    wrong = admin.post("/api/session", json={"name": "Mallory", "password": PASSWORD + "!"})
    assert wrong.status_code == 401  # a guess learns nothing of the suspension

    again = act(admin, "Mallory", "suspend")
    assert again.status_code == 409 and again.json()["detail"] == "Mallory is suspended already"
    assert act(admin, "Mallory", "reinstate", note="talked it over").status_code == 200
    assert admin.post("/api/session", json={"name": "Mallory", "password": PASSWORD}).status_code == 200
    assert [(e["action"], e["account"], e["note"], e["operator"]) for e in audit(admin)] == [
        ("reinstate", "Mallory", "talked it over", f"token {FINGERPRINT}"),
        ("suspend", "Mallory", "threw games to a friend", f"token {FINGERPRINT}"),
    ]
    assert audit(admin)[1]["outcome"] == {"status": "suspended", "unfinished_games": [game["id"]]}


def test_closing_takes_the_account_off_the_leaderboard_for_good_and_its_profile_says_so(
    admin: TestClient, db_url: str
) -> None:
    ada, bob = add_accounts(db_url, "Ada", "Bob")
    store = Store(db_url)
    try:
        rated(store, "g1", [ada, bob], [1, 2], 1_000_000.0)
        with store.engine.begin() as db:  # both settled
            db.execute(update(RatingTable).values(sigma=3.0))
    finally:
        store.close()
    board = admin.get("/api/leaderboard", params={"edition": "usa"}).json()
    assert [p["name"] for p in board["players"]] == ["Ada", "Bob"] and board["total"] == 2

    assert act(admin, "Ada", "close", note="a second account of Bob").status_code == 200
    board = admin.get("/api/leaderboard", params={"edition": "usa"}).json()
    assert [(p["name"], p["rank"]) for p in board["players"]] == [("Bob", 1)] and board["total"] == 1
    assert admin.get("/api/players/Ada").json()["status"] == "closed"
    assert admin.get("/api/players/Bob").json()["status"] == "active"
    refused = act(admin, "Ada", "reinstate")
    assert refused.status_code == 409 and refused.json()["detail"] == "Ada is closed for good"
    assert act(admin, "Ada", "suspend").status_code == 409
    missing = act(admin, "Nobody", "close")
    assert missing.status_code == 404 and "Nobody" in missing.json()["detail"]


def test_hiding_takes_an_active_account_off_the_leaderboard_until_shown_again(admin: TestClient, db_url: str) -> None:
    ada, bob = add_accounts(db_url, "Ada", "Bob")
    store = Store(db_url)
    try:
        rated(store, "g1", [ada, bob], [1, 2], 1_000_000.0)
        with store.engine.begin() as db:
            db.execute(update(RatingTable).values(sigma=3.0))
    finally:
        store.close()
    assert act(admin, "ada", "hide").json() == {"account": "Ada", "hidden": True}
    assert [p["name"] for p in admin.get("/api/leaderboard?edition=usa").json()["players"]] == ["Bob"]
    assert admin.get("/api/players/Ada").json()["status"] == "active"  # hidden, not suspended
    assert act(admin, "Ada", "hide").status_code == 409
    assert act(admin, "Ada", "unhide").status_code == 200
    assert [p["name"] for p in admin.get("/api/leaderboard?edition=usa").json()["players"]] == ["Ada", "Bob"]
    assert [e["action"] for e in audit(admin)] == ["unhide", "hide"]


def test_every_admin_call_needs_the_token(admin: TestClient) -> None:
    for method, path in (
        ("GET", "/api/admin/reports"),
        ("GET", "/api/admin/flags"),
        ("GET", "/api/admin/audit"),
        ("POST", "/api/admin/accounts/Ada/close"),
        ("POST", "/api/admin/reports/1/close"),
    ):
        answer = admin.request(method, path, json={}, headers={"Authorization": "Bearer wrong"})
        assert answer.status_code == 401, path


def test_the_operators_name_goes_to_the_audit_log_beside_the_fingerprint(admin: TestClient, db_url: str) -> None:
    add_accounts(db_url, "Ada")
    named = {**BEARER, "X-Tendays-Operator": "J%C3%B6rg"}  # "Jörg", percent-encoded as the command sends it
    assert admin.post("/api/admin/accounts/Ada/hide", json={}, headers=named).status_code == 200
    assert audit(admin)[0]["operator"] == f"Jörg (token {FINGERPRINT})"
    bad = {**BEARER, "X-Tendays-Operator": "%1B%5D2%3Bpwned%07"}
    refused = admin.post("/api/admin/accounts/Ada/unhide", json={}, headers=bad)
    assert refused.status_code == 422 and "control" in refused.json()["detail"]
    assert len(audit(admin)) == 1


# -- annulling ----------------------------------------------------------------------------------


def replay(games: list[tuple[list[int], list[int]]]) -> dict[int, Rating]:
    """The ratings after these games in this order (people, places), from the start."""
    ratings: dict[int, Rating] = {}
    for people, places in games:
        after = rate_places([ratings.get(p, START) for p in people], places)
        ratings.update(zip(people, after, strict=True))
    return ratings


def test_annulling_recomputes_every_rating_of_the_edition_in_order_without_the_games(
    admin: TestClient, db_url: str
) -> None:
    cheat, bob, cy = add_accounts(db_url, "Cheat", "Bob", "Cy")
    store = Store(db_url)
    # Cheat feeds Bob twice; Bob and Cy play honestly in between and after, days apart.
    games = [
        ("f1", [cheat, bob], [2, 1]),
        ("h1", [bob, cy], [1, 2]),
        ("f2", [cheat, bob], [2, 1]),
        ("h2", [cy, bob], [1, 2]),
        ("h3", [bob, cy], [2, 1]),
    ]
    try:
        for number, (game_id, people, places) in enumerate(games):
            rated(store, game_id, people, places, 1_000_000.0 + number * 3 * DAY)
        done = act(admin, "Cheat", "annul", note="fed Bob")
        assert done.status_code == 200, done.text
        assert done.json() == {"account": "Cheat", "games": ["f1", "f2"], "editions": ["usa"]}
        honest = [(people, places) for game_id, people, places in games if game_id.startswith("h")]
        expected = replay(honest)
        # the order matters: the same games the other way round give other ratings
        assert replay(honest[::-1])[bob].mu != pytest.approx(expected[bob].mu, abs=1e-9)
        with store.engine.connect() as db:
            now = {r.account_id: r for r in db.execute(select(RatingTable))}
            history = db.execute(
                select(RatingHistoryTable.game_id, RatingHistoryTable.account_id, RatingHistoryTable.rating).order_by(
                    RatingHistoryTable.at, RatingHistoryTable.account_id
                )
            ).all()
        assert cheat not in now  # no counted game left
        for person in (bob, cy):
            assert now[person].mu == pytest.approx(expected[person].mu, abs=1e-9)
            assert now[person].sigma == pytest.approx(expected[person].sigma, abs=1e-9)
            assert now[person].games == 3
        assert [g for g, _a, _r in history] == ["h1", "h1", "h2", "h2", "h3", "h3"]
        first = replay(honest[:1])
        assert [r for g, a, r in history if g == "h1" and a == bob] == [pytest.approx(first[bob].mu, abs=1e-9)]
        again = act(admin, "Cheat", "annul")
        assert again.status_code == 409 and "no counted rated game" in again.json()["detail"]
        assert [(e["action"], e["outcome"]) for e in audit(admin)] == [
            ("annul", {"games": ["f1", "f2"], "editions": ["usa"]})
        ]
    finally:
        store.close()


def test_annulling_some_games_keeps_the_others(admin: TestClient, db_url: str) -> None:
    cheat, bob = add_accounts(db_url, "Cheat", "Bob")
    store = Store(db_url)
    try:
        for number in range(3):
            rated(store, f"g{number}", [cheat, bob], [2, 1], 1_000_000.0 + number * 3 * DAY)
        done = act(admin, "Cheat", "annul", games=["g1", "not-hers"])
        assert done.json()["games"] == ["g1"]
        expected = replay([([cheat, bob], [2, 1])] * 2)
        with store.engine.connect() as db:
            now = {r.account_id: r for r in db.execute(select(RatingTable))}
        assert now[bob].mu == pytest.approx(expected[bob].mu, abs=1e-9) and now[bob].games == 2
    finally:
        store.close()


# -- reports --------------------------------------------------------------------------------------


def test_reports_are_listed_open_and_newest_first_and_closed_with_a_note(admin: TestClient, db_url: str) -> None:
    ada, bob, cy = add_accounts(db_url, "Ada", "Bob", "Cy")
    store = Store(db_url)
    try:
        with store.engine.begin() as db:
            ids = [
                db.execute(
                    insert(ReportTable).values(
                        reporter_id=reporter,
                        reported_id=reported,
                        game_id=game,
                        reason=reason,
                        text=text,
                        created=created,
                        status=status,
                    )
                ).inserted_primary_key[0]
                for reporter, reported, game, reason, text, created, status in (
                    (ada, bob, "g1", "abuse", "rude in chat", 100.0, "open"),
                    (cy, bob, None, "name", "", 300.0, "closed"),
                    (None, cy, "g2", "farming", "left at once, every game", 200.0, "open"),
                )
            ]
    finally:
        store.close()
    listed = admin.get("/api/admin/reports", headers=BEARER).json()
    assert [r["id"] for r in listed["reports"]] == [ids[2], ids[0], ids[1]]
    assert listed["open"] == 2 and listed["total"] == 3
    first = listed["reports"][1]
    assert (first["reporter"], first["reported"], first["game"], first["reason"], first["text"]) == (
        "Ada",
        "Bob",
        "g1",
        "abuse",
        "rude in chat",
    )
    assert listed["reports"][0]["reporter"] is None  # the reporter's account was deleted

    closed = admin.post(f"/api/admin/reports/{ids[0]}/close", json={"note": "warned Bob"}, headers=BEARER)
    assert closed.status_code == 200, closed.text
    again = admin.post(f"/api/admin/reports/{ids[0]}/close", json={"note": "twice"}, headers=BEARER)
    assert again.status_code == 409 and "closed already" in again.json()["detail"]
    assert admin.post("/api/admin/reports/999/close", json={}, headers=BEARER).status_code == 404
    still_open = admin.get("/api/admin/reports?status=open", headers=BEARER).json()["reports"]
    assert [r["id"] for r in still_open] == [ids[2]]
    done = [r for r in admin.get("/api/admin/reports", headers=BEARER).json()["reports"] if r["id"] == ids[0]]
    assert done[0]["status"] == "closed" and done[0]["closed_note"] == "warned Bob"
    assert [(e["action"], e["report"], e["account"], e["note"]) for e in audit(admin)] == [
        ("close-report", ids[0], "Bob", "warned Bob")
    ]
    long = admin.post(f"/api/admin/reports/{ids[2]}/close", json={"note": "x" * 1001}, headers=BEARER)
    assert long.status_code == 422


# -- flags ---------------------------------------------------------------------------------------


def thrown(
    store: Store, game_id: str, people: list[int], at: float, moves: int, how: str = "left", edition: str = "usa"
) -> None:
    """A rated game in which ``people[0]`` gave up (left or timed out) after ``moves`` moves after the draft."""
    with store.engine.begin() as db:
        db.execute(
            insert(GameTable).values(
                id=game_id,
                edition=edition,
                options="{}",
                seed=1,
                rated=True,
                created=datetime.fromtimestamp(at - 60, UTC),
                finished=True,
                finished_at=at,
            )
        )
        db.execute(
            insert(SeatTable),
            [
                {
                    "game_id": game_id,
                    "seat": i,
                    "kind": "human",
                    "name": f"P{a}",
                    "account_id": a,
                    "left": i == 0 and how == "left",
                    "away": i == 0 and how == "timed_out",
                }
                for i, a in enumerate(people)
            ],
        )
        played = [(0, "draft 3"), (1, "draft 5")] + [(0, "discard 1")] * moves
        db.execute(
            insert(MoveTable),
            [
                {"game_id": game_id, "number": n + 1, "seat": seat, "move": move}
                for n, (seat, move) in enumerate(played)
            ],
        )


def test_accounts_that_throw_rated_games_are_flagged_with_the_games(admin: TestClient, db_url: str) -> None:
    now = time.time()
    feeder, slow, brave, friend = add_accounts(db_url, "Feeder", "Slow", "Brave", "Friend")
    store = Store(db_url)
    try:
        thrown(store, "f1", [feeder, friend], now - 3 * 3600, 0)
        thrown(store, "f2", [feeder, friend], now - 2 * 3600, 1, how="timed_out")
        thrown(store, "f3", [feeder, friend], now - 3600, 0)
        for day in range(3):  # three over three days: bad luck, not a pattern
            thrown(store, f"s{day}", [slow, friend], now - day * 1.5 * DAY, 0)
        for number in range(3):  # gave up, but after playing on
            thrown(store, f"b{number}", [brave, friend], now - number * 600, flags.QUICK_LOSS_MOVES)
    finally:
        store.close()
    answer = admin.get("/api/admin/flags", headers=BEARER).json()
    assert [f["account"] for f in answer["accounts"]] == ["Feeder"]
    feeder_flag = answer["accounts"][0]
    assert feeder_flag["in_a_day"] == 3 and feeder_flag["quick_losses"] == 3
    assert [(g["id"], g["how"], g["moves"]) for g in feeder_flag["games"]] == [
        ("f3", "left", 0),
        ("f2", "timed_out", 1),
        ("f1", "left", 0),
    ]
    assert answer["rule"] == {"quick_loss_moves": 2, "losses": 3, "window_hours": 24.0, "lookback_days": 30}


# -- two operators at once ------------------------------------------------------------------------


def test_an_action_sent_many_times_at_once_is_taken_once(admin: TestClient, db_url: str) -> None:
    add_accounts(db_url, "Ada")
    answers: list[int] = []
    barrier = threading.Barrier(6)

    def suspend() -> None:
        barrier.wait()
        answers.append(act(admin, "Ada", "suspend").status_code)

    threads = [threading.Thread(target=suspend) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [200] + [409] * 5
    assert [e["action"] for e in audit(admin)] == ["suspend"]


@pytest.mark.slow  # starts PostgreSQL
def test_two_processes_acting_at_once_act_once(postgres_url: str) -> None:
    """Two engines (as two server processes) on one PostgreSQL, three threads each, race to suspend the
    same account, close the same report and annul the same games: each is done once."""
    stores = [Store(postgres_url), Store(postgres_url)]
    try:
        cheat, bob = add_accounts(postgres_url, "Cheat", "Bob")
        for number in range(3):
            rated(stores[0], f"g{number}", [cheat, bob], [2, 1], 1_000_000.0 + number * 3 * DAY)
        with stores[0].engine.begin() as db:
            report = db.execute(
                insert(ReportTable).values(
                    reporter_id=bob, reported_id=cheat, reason="farming", text="", created=1.0, status="open"
                )
            ).inserted_primary_key[0]
        operator = Operator("f" * 12, "Test")
        work = {
            "suspend": lambda db: change_status(db, operator, OperatorAction.SUSPEND, "Cheat", ""),
            "report": lambda db: close_report(db, operator, report, "done"),
            "annul": lambda db: annul(db, operator, "Cheat", None, ""),
        }
        for what, step in work.items():
            outcomes: list[str] = []
            barrier = threading.Barrier(6)

            def run(
                store: Store, step: Any = step, outcomes: list[str] = outcomes, barrier: threading.Barrier = barrier
            ) -> None:
                barrier.wait()
                try:
                    with store.engine.begin() as db:
                        step(db)
                    outcomes.append("done")
                except AccountError as error:
                    outcomes.append(str(error.status))

            threads = [threading.Thread(target=run, args=(stores[i % 2],)) for i in range(6)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(outcomes) == ["409"] * 5 + ["done"], what
        with stores[0].engine.connect() as db:
            actions = db.scalars(select(AuditTable.action).order_by(AuditTable.id)).all()
            bob_now = db.execute(select(RatingTable).where(RatingTable.account_id == bob)).one_or_none()
        assert actions == ["suspend", "close-report", "annul"]
        assert bob_now is None  # every game of his was against Cheat: none counts
    finally:
        for store in stores:
            store.close()
