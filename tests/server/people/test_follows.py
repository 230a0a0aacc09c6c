"""Following players over HTTP, on SQLite and PostgreSQL: follow (once, however often asked),
unfollow, the list with who is online and who is playing (and their game), the refusals in words
(nobody of that name, oneself, a blocked pair, an account the operator suspended or closed, a full
list), and the cap held by a burst of follows at once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from people_helpers import Person, engine_of, new_table, person
from server_helpers import TestClient, at_once
from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Engine

from tendays.server.people.accounts import AccountError
from tendays.server.people.follows import FOLLOWING_CAP, follow
from tendays.server.people.presence import touch
from tendays.server.storage.schema import (
    AccountTable,
    BlockTable,
    FollowTable,
    GameTable,
)
from tendays.server.storage.store import Store


def listed(client: TestClient, who: Person) -> list[dict[str, Any]]:
    answer = who.call(client, "GET", "/api/following")
    assert answer.status_code == 200, answer.text
    people: list[dict[str, Any]] = answer.json()["following"]
    return people


def follows_of(engine: Engine, follower: int) -> int:
    with engine.connect() as db:
        return int(
            db.scalar(select(func.count()).select_from(FollowTable).where(FollowTable.follower_id == follower)) or 0
        )


def test_follow_list_and_unfollow(client: TestClient) -> None:
    engine = engine_of(client)
    ann, ben, cid = person(engine, "Ann"), person(engine, "Ben"), person(engine, "Cid")
    assert listed(client, ann) == []
    for name in ("cid", "BEN", "Ben"):  # any letter case; following twice is one follow
        answer = ann.call(client, "PUT", f"/api/following/{name}")
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"name": name.capitalize(), "following": True}
    assert follows_of(engine, ann.id) == 2
    assert [(p["name"], p["online"], p["playing"], p["rating"]) for p in listed(client, ann)] == [
        ("Ben", False, None, None),
        ("Cid", False, None, None),
    ]
    assert listed(client, ben) == []  # following is one way
    gone = ann.call(client, "DELETE", "/api/following/ben")
    assert gone.status_code == 200 and gone.json() == {"name": "Ben", "following": False}
    assert ann.call(client, "DELETE", "/api/following/Ben").status_code == 200  # not followed: nothing changes
    assert [p["name"] for p in listed(client, ann)] == ["Cid"]
    data = ann.call(client, "GET", "/api/account/data").json()  # one's own data says whom one follows
    assert [f["name"] for f in data["following"]] == ["Cid"]
    assert ben.call(client, "GET", "/api/account/data").json()["following"] == []
    assert cid.id != ben.id


def test_the_list_says_who_is_playing_and_who_is_online_those_first(client: TestClient) -> None:
    engine = engine_of(client)
    ann, ben, cid, dee, eve = (person(engine, name) for name in ("Ann", "Ben", "Cid", "Dee", "Eve"))
    for name in ("Ben", "Cid", "Dee", "Eve"):
        assert ann.call(client, "PUT", f"/api/following/{name}").status_code == 200
    waiting = new_table(client, eve)  # a free seat: not started, so not playing
    assert [p["playing"] for p in listed(client, ann)] == [None] * 4
    game = new_table(client, dee, ben)
    with engine.begin() as db:
        touch(db, cid.id, time.time())
    people = listed(client, ann)
    assert [(p["name"], p["online"], p["playing"]) for p in people] == [
        ("Ben", False, game),
        ("Dee", False, game),
        ("Cid", True, None),
        ("Eve", False, None),
    ]
    with engine.begin() as db:  # the game ends: nobody plays it any more
        db.execute(update(GameTable).where(GameTable.id == game).values(finished=True))
    assert [p["playing"] for p in listed(client, ann)] == [None] * 4
    assert waiting != game


def test_a_blocked_pair_is_left_off_the_list_and_cannot_follow(client: TestClient) -> None:
    engine = engine_of(client)
    ann, ben, cid = person(engine, "Ann"), person(engine, "Ben"), person(engine, "Cid")
    assert ann.call(client, "PUT", "/api/following/Ben").status_code == 200
    assert ben.call(client, "PUT", "/api/blocks/Ann").status_code == 200
    assert listed(client, ann) == []
    for who, whom in ((ann, "Ben"), (ben, "Ann")):
        refused = who.call(client, "PUT", f"/api/following/{whom}")
        assert refused.status_code == 409, refused.text
        assert "one of you blocks the other" in refused.json()["detail"]
    assert ann.call(client, "PUT", "/api/following/Cid").status_code == 200
    assert cid.call(client, "PUT", "/api/following/Ann").status_code == 200


@pytest.mark.parametrize(
    ("status", "words"),
    [
        ("suspended", "Ben is suspended by the server's operator and cannot be followed"),
        ("closed", "Ben's account is closed and cannot be followed"),
    ],
)
def test_an_account_suspended_or_closed_cannot_be_followed(client: TestClient, status: str, words: str) -> None:
    engine = engine_of(client)
    ann, ben = person(engine, "Ann"), person(engine, "Ben")
    with engine.begin() as db:
        db.execute(update(AccountTable).where(AccountTable.id == ben.id).values(status=status))
    refused = ann.call(client, "PUT", "/api/following/Ben")
    assert refused.status_code == 409 and refused.json()["detail"] == words
    assert follows_of(engine, ann.id) == 0


def test_a_follow_that_cannot_be_is_refused_in_words(client: TestClient) -> None:
    engine = engine_of(client)
    ann = person(engine, "Ann")
    myself = ann.call(client, "PUT", "/api/following/ann")
    assert myself.status_code == 409 and myself.json()["detail"] == "you cannot follow yourself"
    nobody = ann.call(client, "PUT", "/api/following/Nobody")
    assert nobody.status_code == 404 and nobody.json()["detail"] == "there is no player called 'Nobody'"
    assert ann.call(client, "DELETE", "/api/following/Nobody").status_code == 404
    client.cookies.clear()
    assert client.get("/api/following").status_code == 401
    assert client.put("/api/following/Ann").status_code == 401
    forged = ann.call(client, "PUT", "/api/following/Ann", csrf=False)
    assert forged.status_code == 403 and "X-CSRF-Token" in forged.json()["detail"]
    assert follows_of(engine, ann.id) == 0


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = Store(db_url)
    yield opened
    opened.close()


def fill_up(engine: Engine, follower: Person, count: int) -> None:
    """``follower`` follows ``count`` made-up accounts (written at once: no request each)."""
    now = time.time()
    with engine.begin() as db:
        ids = (
            db.execute(
                insert(AccountTable).returning(AccountTable.id),
                [
                    {"name": f"Filler{i}", "name_key": f"filler{i}", "password_hash": "x", "created": now}
                    for i in range(count)
                ],
            )
            .scalars()
            .all()
        )
        db.execute(
            insert(FollowTable),
            [{"follower_id": follower.id, "followed_id": followed, "created": now} for followed in ids],
        )


def test_a_burst_of_follows_never_passes_the_cap(store: Store) -> None:
    """Twenty follows at once, each on its own database connection, with room for five: five are
    written, fifteen refused in words."""
    ann = person(store.engine, "Ann")
    fill_up(store.engine, ann, FOLLOWING_CAP - 5)
    players = [person(store.engine, f"Player{i}") for i in range(20)]
    now = time.time()

    def send(player: Person) -> int:
        try:
            follow(store.engine, ann.account, player.name, now)
        except AccountError as error:
            assert error.status == 409 and f"you follow {FOLLOWING_CAP} players already" in error.message
            return 409
        return 200

    answers = at_once(len(players), lambda i: send(players[i]))
    assert answers.count(200) == 5 and answers.count(409) == 15
    assert follows_of(store.engine, ann.id) == FOLLOWING_CAP
    follow(store.engine, ann.account, "Filler0", now)  # one already followed: still fine when full


def test_the_same_follow_sent_many_times_at_once_is_one(store: Store) -> None:
    ann, ben = person(store.engine, "Ann"), person(store.engine, "Ben")
    with ThreadPoolExecutor(8) as pool:
        followed = list(pool.map(lambda _i: follow(store.engine, ann.account, "ben", time.time()), range(16)))
    assert {account.name for account in followed} == {"Ben"}
    assert follows_of(store.engine, ann.id) == 1
    with store.engine.connect() as db:
        assert db.scalar(select(func.count()).select_from(BlockTable)) == 0
    assert ben.id != ann.id
