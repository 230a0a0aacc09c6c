"""Challenges over HTTP (``/api/challenges``), on SQLite and PostgreSQL: a named player is challenged and
told, accepts into a game where both accounts sit, or declines with a reason the challenger reads in their
language; an open link goes to its first taker; every rule (blocks, suspended accounts, expiry, three open to one
person, twenty an hour, one accept) is refused in words, and requests sent at once never break one."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from people_helpers import SignedUp, engine_of
from server_helpers import PASSWORD, TestClient, another_browser, at_once
from sqlalchemy import update

from tendays.server.people.accounts import Account
from tendays.server.people.challenges import CLAIM_GRACE, ChallengeBook
from tendays.server.people.notifications import inbox_of
from tendays.server.storage.schema import AccountTable, ChallengeTable, GameTable, SeatTable

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in

LIVE = {"kind": "live", "per_move": 60}


def inbox(client: TestClient, person: SignedUp) -> list[dict[str, Any]]:
    with engine_of(client).connect() as db:
        return [n.to_json() for n in inbox_of(db, person.id, None, 50).notifications]


def statuses(answers: list[Any]) -> Counter[int]:
    return Counter(answer.status_code for answer in answers)


def test_a_challenge_is_told_listed_and_accepted_into_a_game_of_both_accounts(client: TestClient) -> None:
    ann, ben = SignedUp(client, "Ann"), SignedUp(client, "Ben")
    posted = ann.challenge("ben", clock=LIVE, rated=True, options={"days": 10, "swap": True})
    assert posted.status_code == 201, posted.text
    challenge = posted.json()
    assert challenge["url"] == f"/challenge/{challenge['id']}"
    assert (challenge["from"], challenge["to"], challenge["status"], challenge["game"]) == ("Ann", "Ben", "open", None)
    told = inbox(client, ben)
    assert [n["kind"] for n in told] == ["challenge"]
    assert told[0]["data"] == {
        "id": challenge["id"],
        "from": "Ann",
        "edition": "usa",
        "clock": {"kind": "live", "per_move": 60.0, "bank": 0.0},
        "rated": True,
        "url": challenge["url"],
    }
    assert [c["id"] for c in ben.call("GET", "/api/challenges").json()["incoming"]] == [challenge["id"]]
    assert ann.call("GET", "/api/challenges").json()["incoming"] == []
    assert [c["status"] for c in ann.call("GET", "/api/challenges").json()["outgoing"]] == ["open"]

    taken = ben.call("POST", f"/api/challenges/{challenge['id']}/accept")
    assert taken.status_code == 200, taken.text
    game, token = taken.json()["game"], taken.json()["token"]
    assert taken.json()["url"] == f"/play/{game}#token={token}"
    summary = client.get(f"/api/games/{game}").json()
    assert summary["rated"] is True and [s["name"] for s in summary["seats"]] == ["Ann", "Ben"]
    with engine_of(client).connect() as db:
        seats = db.execute(SeatTable.__table__.select().where(SeatTable.game_id == game)).all()
        stored = db.execute(GameTable.__table__.select().where(GameTable.id == game)).one()
    assert sorted(seat.account_id for seat in seats) == [ann.id, ben.id]
    assert '"swap": true' in stored.options and '"per_move": 60' in stored.clock
    # the challenger's seat opens signed in, and they are told where to go (never with a token)
    assert ann.call("GET", f"/api/games/{game}/seat").json()["seat"] in (0, 1)
    answered = inbox(client, ann)[0]
    assert answered["kind"] == "challenge_answered"
    assert answered["data"] == {
        "id": challenge["id"],
        "by": "Ben",
        "answer": "accepted",
        "game": game,
        "url": f"/play/{game}",
    }
    seen = ann.call("GET", f"/api/challenges/{challenge['id']}").json()
    assert (seen["status"], seen["game"]) == ("accepted", game)
    assert ann.call("GET", "/api/challenges").json()["outgoing"][0]["game"] == game
    assert ben.call("GET", "/api/challenges").json()["incoming"] == []
    again = ben.call("POST", f"/api/challenges/{challenge['id']}/accept")
    assert again.status_code == 409 and "accepted already" in again.json()["detail"]
    # each one's data download keeps the challenge and what its inbox was told
    for person, kind in ((ann, "challenge_answered"), (ben, "challenge")):
        data = person.call("GET", "/api/account/data").json()
        kept = [(c["id"], c["from"], c["to"], c["accepted_by"], c["status"], c["game"]) for c in data["challenges"]]
        assert kept == [(challenge["id"], "Ann", "Ben", "Ben", "accepted", game)]
        assert [n["kind"] for n in data["notifications"]] == [kind]


def test_a_decline_gives_its_reason_in_the_challengers_language(client: TestClient) -> None:
    ann, ben = SignedUp(client, "Ann"), SignedUp(client, "Ben")
    challenge = ann.challenge("Ben").json()
    wrong = ben.call("POST", f"/api/challenges/{challenge['id']}/decline", {"reason": "bored"})
    assert wrong.status_code == 422
    declined = ben.call("POST", f"/api/challenges/{challenge['id']}/decline", {"reason": "clock"})
    assert declined.status_code == 200, declined.text
    assert (declined.json()["status"], declined.json()["reason"]) == ("declined", "clock")
    seen = ann.call("GET", "/api/challenges", **{"Accept-Language": "de"}).json()["outgoing"][0]
    assert (seen["status"], seen["reason"]) == ("declined", "clock")
    assert seen["reason_said"] == "Diese Bedenkzeit passt mir nicht, bitte frag mit einer anderen."
    english = ann.call("GET", f"/api/challenges/{challenge['id']}").json()
    assert english["reason_said"] == "This clock does not suit me, please ask with another one."
    assert inbox(client, ann)[0]["data"] == {
        "id": challenge["id"],
        "by": "Ben",
        "answer": "declined",
        "reason": "clock",
        "url": challenge["url"],
    }
    late = ben.call("POST", f"/api/challenges/{challenge['id']}/accept")
    assert late.status_code == 409 and "declined already" in late.json()["detail"]
    # no body: the generic reason
    other = ann.challenge("Ben").json()
    assert ben.call("POST", f"/api/challenges/{other['id']}/decline").json()["reason"] == "generic"
    # a deleted account takes its challenges with it, either way
    open_to_ann = ben.challenge("Ann").json()
    assert ben.call("DELETE", "/api/account", {"password": PASSWORD}).status_code == 204
    assert ann.call("GET", "/api/challenges").json() == {"incoming": [], "outgoing": []}
    assert ann.call("GET", f"/api/challenges/{open_to_ann['id']}").status_code == 404


def test_the_rules_are_refused_in_words(client: TestClient) -> None:
    ann, ben, cat = SignedUp(client, "Ann"), SignedUp(client, "Ben"), SignedUp(client, "Cat")
    anonymous = another_browser(client)
    body = {"to": "Ben", "edition": "usa"}
    assert anonymous.post("/api/challenges", json=body).status_code == 401
    assert ann.challenge("Ann").json()["detail"] == "you cannot challenge yourself"
    assert ann.challenge("Nobody").status_code == 404
    assert ann.challenge("Ben", edition="atlantis").status_code == 422
    assert ann.challenge("Ben", clock={"kind": "live", "per_move": 1}).status_code == 422
    assert ann.challenge("Ben", options={"days": 0}).status_code == 422
    # blocks, either way, said to each as theirs to know
    assert ben.call("PUT", "/api/blocks/Cat").status_code == 200
    mine = ben.challenge("Cat")
    assert mine.status_code == 409 and "you blocked Cat" in mine.json()["detail"]
    theirs = cat.challenge("Ben")
    assert theirs.status_code == 409 and theirs.json()["detail"] == "Ben does not take challenges from you"
    # a suspended account is not challenged, and its open links cannot be accepted
    cats_link = cat.challenge(None).json()
    with engine_of(client).begin() as db:
        db.execute(update(AccountTable).where(AccountTable.id == cat.id).values(status="suspended"))
    suspended = ann.challenge("Cat")
    assert suspended.status_code == 409 and "suspended" in suspended.json()["detail"]
    inactive = ann.call("POST", f"/api/challenges/{cats_link['id']}/accept")
    assert (
        inactive.status_code == 409
        and inactive.json()["detail"] == "Cat's account is no longer active: the challenge cannot be accepted"
    )
    # only its people read a named challenge, only the challenged declines, only the challenger cancels
    challenge = ann.challenge("Ben").json()
    assert anonymous.get(f"/api/challenges/{challenge['id']}").status_code == 404
    assert ann.call("POST", f"/api/challenges/{challenge['id']}/decline").status_code == 404
    assert ben.call("DELETE", f"/api/challenges/{challenge['id']}").status_code == 404
    assert (
        ann.call("POST", f"/api/challenges/{challenge['id']}/accept").json()["detail"]
        == "you cannot accept your own challenge"
    )
    cancelled = ann.call("DELETE", f"/api/challenges/{challenge['id']}")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    late = ben.call("POST", f"/api/challenges/{challenge['id']}/accept")
    assert late.status_code == 409 and "cancelled" in late.json()["detail"]
    # a lapsed challenge cannot be accepted
    lapsing = ann.challenge("Ben").json()
    with engine_of(client).begin() as db:
        db.execute(update(ChallengeTable).where(ChallengeTable.id == lapsing["id"]).values(expires_at=1.0))
    expired = ben.call("POST", f"/api/challenges/{lapsing['id']}/accept")
    assert expired.status_code == 409 and "expired" in expired.json()["detail"]
    assert ann.call("GET", f"/api/challenges/{lapsing['id']}").json()["status"] == "expired"


def test_an_open_link_goes_to_its_first_taker_outside_any_block(client: TestClient) -> None:
    ann, ben, cat = SignedUp(client, "Ann"), SignedUp(client, "Ben"), SignedUp(client, "Cat")
    link = ann.challenge(None, clock={"kind": "correspondence", "per_move": 86400}).json()
    assert link["to"] is None and link["expires_at"] > link["expires_at"] - 3 * 86400
    assert another_browser(client).get(f"/api/challenges/{link['id']}").json()["status"] == "open"
    assert (
        ann.call("POST", f"/api/challenges/{link['id']}/accept").json()["detail"]
        == "you cannot accept your own challenge"
    )
    assert ben.call("POST", f"/api/challenges/{link['id']}/decline").status_code == 404
    assert cat.call("PUT", "/api/blocks/Ann").status_code == 200
    blocked = cat.call("POST", f"/api/challenges/{link['id']}/accept")
    assert blocked.status_code == 409 and "you blocked Ann" in blocked.json()["detail"]
    taken = ben.call("POST", f"/api/challenges/{link['id']}/accept")
    assert taken.status_code == 200, taken.text
    summary = client.get(f"/api/games/{taken.json()['game']}").json()
    assert [s["name"] for s in summary["seats"]] == ["Ann", "Ben"] and summary["rated"] is False


def test_requests_at_once_make_one_game_and_keep_the_limits(client: TestClient) -> None:
    ann, ben, cat, dan = (SignedUp(client, name) for name in ("Ann", "Ben", "Cat", "Dan"))
    # three takers of one open link at once: one game
    link = ann.challenge(None).json()
    takers = [ben, cat, dan]
    answers = at_once(3, lambda n: takers[n].call("POST", f"/api/challenges/{link['id']}/accept"))
    assert statuses(answers) == {200: 1, 409: 2}
    with engine_of(client).connect() as db:
        games = db.execute(SeatTable.__table__.select().where(SeatTable.account_id == ann.id)).all()
    assert len(games) == 1
    # an accept and a cancel at once: exactly one of them
    for _ in range(3):
        challenge = ann.challenge("Ben").json()
        path = f"/api/challenges/{challenge['id']}"
        accept, cancel = at_once(
            2, lambda n, path=path: ben.call("POST", f"{path}/accept") if n == 0 else ann.call("DELETE", path)
        )
        assert sorted([accept.status_code, cancel.status_code]) == [200, 409]
    # eight challenges to one person at once: three stay open
    made = at_once(8, lambda _n: cat.challenge("Dan"))
    assert statuses(made) == {201: 3, 409: 5}
    assert "3 open challenges to Dan" in next(a.json()["detail"] for a in made if a.status_code == 409)
    assert len(dan.call("GET", "/api/challenges").json()["incoming"]) == 3
    # twenty an hour: Cat made 3 (the refused ones are not counted); 20 open links at once make 17 more
    links = at_once(20, lambda _n: cat.challenge(None))
    assert statuses(links) == {201: 17, 429: 3}
    assert int(next(a for a in links if a.status_code == 429).headers["Retry-After"]) > 3000


def test_a_claim_whose_game_was_never_made_is_given_back(client: TestClient) -> None:
    ann, ben = SignedUp(client, "Ann"), SignedUp(client, "Ben")
    # the server is full: the accept is refused in words and the challenge is open again
    full = ann.challenge("Ben").json()
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    lobby.settings.max_games, most = 0, lobby.settings.max_games
    refused = ben.call("POST", f"/api/challenges/{full['id']}/accept")
    lobby.settings.max_games = most
    assert refused.status_code == 503 and "try again later" in refused.json()["detail"]
    assert ben.call("GET", f"/api/challenges/{full['id']}").json()["status"] == "open"
    assert ben.call("POST", f"/api/challenges/{full['id']}/accept").status_code == 200
    # a process claimed it and died before making the game: after the grace another accept makes it
    stranded = ann.challenge("Ben").json()
    book = ChallengeBook(engine_of(client))
    book.claim(stranded["id"], Account(ben.id, "Ben"), time.time())
    too_soon = ben.call("POST", f"/api/challenges/{stranded['id']}/accept")
    assert too_soon.status_code == 409 and "accepted already" in too_soon.json()["detail"]
    with engine_of(client).begin() as db:
        db.execute(
            update(ChallengeTable)
            .where(ChallengeTable.id == stranded["id"])
            .values(answered_at=time.time() - CLAIM_GRACE - 1)
        )
    taken = ben.call("POST", f"/api/challenges/{stranded['id']}/accept")
    assert taken.status_code == 200, taken.text
    assert ann.call("GET", f"/api/challenges/{stranded['id']}").json()["game"] == taken.json()["game"]
