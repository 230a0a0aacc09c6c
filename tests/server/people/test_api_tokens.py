"""Personal API tokens over HTTP, on SQLite and PostgreSQL: a token is shown once and kept only as
its SHA-256; the list and the data download never hold a value; a revoked token, or one whose
account is suspended or closed, is refused (401 with ``WWW-Authenticate: Bearer``) on its next
request; scopes are enforced (403 naming the scope); a token needs no CSRF while a cookie still
does; a token cannot make tokens; and the cap of live tokens and the per-minute limit hold under
requests sent at once (exactly as many pass as the rule allows)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from fastapi import Depends, FastAPI
from people_helpers import engine_of, person
from server_helpers import TestClient, Ticker, at_once, settings
from sqlalchemy import String, select, update

from tendays.server.face.app import Limits, create_app
from tendays.server.face.door.bearer import Bearer, bearer, person_or_bearer, token_alive
from tendays.server.people.accounts import Account, AccountError
from tendays.server.people.api_tokens import MOST_LIVE_TOKENS, TokenScope, make_token
from tendays.server.storage.schema import AccountTable, ApiTokenTable
from tendays.server.storage.store import Store


def with_token(client: TestClient, method: str, path: str, token: str, body: Any = None) -> Any:
    client.cookies.clear()
    return client.request(method, path, json=body, headers={"Authorization": f"Bearer {token}"})


def add_test_calls(app: FastAPI) -> None:
    """Calls that need a scope, or accept a person or a token, as the Bot API's calls do."""

    async def play(token: Annotated[Bearer, Depends(bearer(TokenScope.BOT_PLAY))]) -> dict[str, Any]:
        return {"name": token.account.name}

    async def either(account: Annotated[Account, Depends(person_or_bearer(TokenScope.BOARD_PLAY))]) -> dict[str, Any]:
        return {"name": account.name}

    app.add_api_route("/test/play", play, methods=["POST"])
    app.add_api_route("/test/either", either, methods=["POST"])


def tokens_app(db_url: str, per_minute: int = 0) -> TestClient:
    limits = Limits(
        clock=Ticker(0.1),
        creates_per_minute=0,
        joins_per_minute=0,
        connections_per_minute=0,
        connections_at_once=0,
        token_requests_per_minute=per_minute,
    )
    app = create_app(db_url, settings(), limits)
    add_test_calls(app)
    return TestClient(app)


@pytest.fixture
def tokens_client(db_url: str) -> Iterator[TestClient]:
    with tokens_app(db_url) as test_client:
        yield test_client


def alive(client: TestClient, token_id: int) -> bool:
    """What an open stream of the token is told at its keep-alive."""
    portal: Any = client.portal
    return bool(portal.call(token_alive, client.app, token_id))


def test_a_token_is_shown_once_and_kept_only_as_its_hash(tokens_client: TestClient) -> None:
    client = tokens_client
    ann = person(engine_of(client), "Ann")
    made = ann.call(client, "POST", "/api/tokens", {"name": "  my bot  ", "scopes": ["board:play", "bot:play"]})
    assert made.status_code == 201, made.text
    answer = made.json()
    token = answer["token"]
    assert token.startswith("tdb_") and len(token) == 4 + 43
    assert answer["name"] == "my bot" and answer["scopes"] == ["bot:play", "board:play"]
    assert made.headers["Cache-Control"] == "no-store"
    listed = ann.call(client, "GET", "/api/tokens")
    assert listed.status_code == 200
    assert token not in listed.text and "token" not in listed.json()["tokens"][0]
    assert listed.json()["tokens"][0]["id"] == answer["id"] and listed.json()["tokens"][0]["revoked"] is None
    with engine_of(client).connect() as db:  # no column of the table holds the token
        texts = [column for column in ApiTokenTable.__table__.columns if isinstance(column.type, String)]
        row = db.execute(select(*texts).where(ApiTokenTable.id == answer["id"])).one()
    assert all(token not in str(value) and token[4:] not in str(value) for value in row)
    assert hashlib.sha256(token.encode()).hexdigest() in row
    data = ann.call(client, "GET", "/api/account/data").json()
    assert data["api_tokens"] == [
        {
            "name": "my bot",
            "scopes": ["bot:play", "board:play"],
            "created": pytest.approx(listed.json()["tokens"][0]["created"]),
            "last_used": None,
            "revoked": None,
        }
    ]
    assert token not in str(data) and row[[c.name for c in texts].index("token_hash")] not in str(data)


def test_the_token_acts_for_its_account_and_a_revoked_one_is_refused(tokens_client: TestClient) -> None:
    client = tokens_client
    ann = person(engine_of(client), "Ann")
    token = ann.token(client, "challenge:write")
    owner = with_token(client, "GET", "/api/token", token)
    assert owner.status_code == 200, owner.text
    assert owner.json() == {
        "id": owner.json()["id"],
        "name": "Ann",
        "bot_account": False,
        "scopes": ["challenge:write"],
    }
    gone = ann.call(client, "DELETE", f"/api/tokens/{owner.json()['id']}")
    assert gone.status_code == 200 and gone.json() == {"id": owner.json()["id"], "revoked": True}
    refused = with_token(client, "GET", "/api/token", token)
    assert refused.status_code == 401 and refused.headers["WWW-Authenticate"] == "Bearer"
    assert "revoked" in refused.json()["detail"]
    assert ann.call(client, "GET", "/api/tokens").json()["tokens"][0]["revoked"] is not None
    again = ann.call(client, "DELETE", f"/api/tokens/{owner.json()['id']}")
    assert again.status_code == 200  # revoking a revoked token changes nothing


def test_a_token_is_revoked_only_by_its_owner(tokens_client: TestClient) -> None:
    client = tokens_client
    ann, ben = person(engine_of(client), "Ann"), person(engine_of(client), "Ben")
    token = ann.token(client)
    token_id = with_token(client, "GET", "/api/token", token).json()["id"]
    for missing in (token_id, token_id + 1000):
        refused = ben.call(client, "DELETE", f"/api/tokens/{missing}")
        assert refused.status_code == 404 and refused.json()["detail"] == f"you have no token {missing}"
    assert ben.call(client, "GET", "/api/tokens").json() == {"tokens": []}
    assert ben.call(client, "DELETE", f"/api/tokens/{2**63}").status_code == 422  # no id so large
    assert with_token(client, "GET", "/api/token", token).status_code == 200


@pytest.mark.parametrize(
    "header", [None, "Bearer", "Bearer tdb_unknown", "Basic YWxpY2U6c2VjcmV0", "Bearer " + "x" * 500]
)
def test_no_token_or_an_unknown_one_is_401_with_the_challenge(tokens_client: TestClient, header: str | None) -> None:
    client = tokens_client
    client.cookies.clear()
    answer = client.get("/api/token", headers={} if header is None else {"Authorization": header})
    assert answer.status_code == 401, answer.text
    assert answer.headers["WWW-Authenticate"] == "Bearer"
    assert "token" in answer.json()["detail"]


def test_scopes_are_enforced_and_named(tokens_client: TestClient) -> None:
    client = tokens_client
    ann = person(engine_of(client), "Ann")
    board = ann.token(client, "board:play", "challenge:write")
    refused = with_token(client, "POST", "/test/play", board)
    assert refused.status_code == 403
    assert refused.json()["detail"] == "this call needs a token with the scope bot:play; this token does not have it"
    played = with_token(client, "POST", "/test/play", ann.token(client, "bot:play"))
    assert played.status_code == 200 and played.json() == {"name": "Ann"}
    challenge_only = ann.token(client, "challenge:write")
    assert with_token(client, "POST", "/test/either", challenge_only).status_code == 403
    assert with_token(client, "POST", "/test/either", board).json() == {"name": "Ann"}


def test_a_token_needs_no_csrf_but_a_cookie_still_does(tokens_client: TestClient) -> None:
    client = tokens_client
    ann = person(engine_of(client), "Ann")
    token = ann.token(client, "bot:play")
    assert with_token(client, "POST", "/test/play", token).status_code == 200  # no CSRF header, no cookie
    without = ann.call(client, "POST", "/test/either", csrf=False)
    assert without.status_code == 403 and "X-CSRF-Token" in without.json()["detail"]
    assert ann.call(client, "POST", "/test/either").json() == {"name": "Ann"}
    assert ann.call(client, "POST", "/api/tokens", {"name": "x", "scopes": ["bot:play"]}, csrf=False).status_code == 403
    client.cookies.clear()
    assert client.post("/test/either").status_code == 401


def test_a_token_cannot_make_or_list_tokens(tokens_client: TestClient) -> None:
    client = tokens_client
    ann = person(engine_of(client), "Ann")
    token = ann.token(client)
    made = with_token(client, "POST", "/api/tokens", token, {"name": "more", "scopes": ["bot:play"]})
    assert made.status_code == 401
    assert with_token(client, "GET", "/api/tokens", token).status_code == 401
    assert with_token(client, "DELETE", "/api/tokens/1", token).status_code == 401
    assert len(ann.call(client, "GET", "/api/tokens").json()["tokens"]) == 1


@pytest.mark.parametrize(
    "body, words",
    [
        (
            {"name": "x", "scopes": ["bot:play", "admin"]},
            "there is no scope 'admin'; a token's scopes are bot:play, challenge:write, board:play",
        ),
        ({"name": "x", "scopes": []}, "choose at least one scope: bot:play, challenge:write, board:play"),
        ({"name": "   ", "scopes": ["bot:play"]}, "a token's name is 1 to 60 characters, not 0"),
        ({"name": "n" * 61, "scopes": ["bot:play"]}, "a token's name is 1 to 60 characters, not 61"),
        ({"name": "a\x07b", "scopes": ["bot:play"]}, "a token's name cannot hold control characters"),
    ],
)
def test_a_token_that_cannot_be_is_refused_in_words(
    tokens_client: TestClient, body: dict[str, Any], words: str
) -> None:
    client = tokens_client
    ann = person(engine_of(client), "Ann")
    refused = ann.call(client, "POST", "/api/tokens", body)
    assert refused.status_code == 422 and refused.json()["detail"] == words
    assert ann.call(client, "GET", "/api/tokens").json() == {"tokens": []}


@pytest.mark.parametrize("status", ["suspended", "closed"])
def test_a_token_of_a_suspended_or_closed_account_is_refused(tokens_client: TestClient, status: str) -> None:
    client = tokens_client
    ann = person(engine_of(client), "Ann")
    token = ann.token(client)
    token_id = with_token(client, "GET", "/api/token", token).json()["id"]
    with engine_of(client).begin() as db:
        db.execute(update(AccountTable).where(AccountTable.id == ann.id).values(status=status))
    refused = with_token(client, "GET", "/api/token", token)
    assert refused.status_code == 401 and "suspended or closed" in refused.json()["detail"]
    assert alive(client, token_id) is False
    with engine_of(client).begin() as db:  # reinstated: the token works again
        db.execute(update(AccountTable).where(AccountTable.id == ann.id).values(status="active"))
    assert with_token(client, "GET", "/api/token", token).status_code == 200
    assert alive(client, token_id) is True


def test_token_alive_says_no_once_revoked(tokens_client: TestClient) -> None:
    client = tokens_client
    ann = person(engine_of(client), "Ann")
    token_id = with_token(client, "GET", "/api/token", ann.token(client)).json()["id"]
    assert alive(client, token_id) is True
    assert ann.call(client, "DELETE", f"/api/tokens/{token_id}").status_code == 200
    assert alive(client, token_id) is False


def test_last_used_is_written_at_most_once_a_minute(tokens_client: TestClient) -> None:
    client = tokens_client
    ann = person(engine_of(client), "Ann")
    token = ann.token(client)
    assert ann.call(client, "GET", "/api/tokens").json()["tokens"][0]["last_used"] is None
    with_token(client, "GET", "/api/token", token)
    first = ann.call(client, "GET", "/api/tokens").json()["tokens"][0]["last_used"]
    assert first is not None
    for _ in range(3):
        with_token(client, "GET", "/api/token", token)
    assert ann.call(client, "GET", "/api/tokens").json()["tokens"][0]["last_used"] == first
    with engine_of(client).begin() as db:  # a minute later, it is written again
        db.execute(update(ApiTokenTable).values(last_used=first - 61))
    with_token(client, "GET", "/api/token", token)
    assert ann.call(client, "GET", "/api/tokens").json()["tokens"][0]["last_used"] > first - 61


def test_tokens_made_at_once_never_pass_the_cap(tokens_client: TestClient) -> None:
    client = tokens_client
    ann = person(engine_of(client), "Ann")
    room, burst = 4, 24
    revoked = [ann.token(client, name=f"old {n}") for n in range(3)]
    for token in revoked:  # revoked tokens do not count
        token_id = with_token(client, "GET", "/api/token", token).json()["id"]
        assert ann.call(client, "DELETE", f"/api/tokens/{token_id}").status_code == 200
    for n in range(MOST_LIVE_TOKENS - room):
        ann.token(client, name=f"kept {n}")
    answers = at_once(
        burst, lambda n: ann.call(client, "POST", "/api/tokens", {"name": f"burst {n}", "scopes": ["bot:play"]})
    )
    statuses = [answer.status_code for answer in answers]
    assert statuses.count(201) == room and statuses.count(409) == burst - room, statuses
    refusal = next(answer for answer in answers if answer.status_code == 409)
    assert refusal.json()["detail"] == (
        "an account holds at most 20 tokens that are not revoked; revoke one before making another"
    )
    listed = ann.call(client, "GET", "/api/tokens").json()["tokens"]
    assert sum(entry["revoked"] is None for entry in listed) == MOST_LIVE_TOKENS
    assert listed[0]["name"].startswith("burst")  # newest first


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = Store(db_url)
    yield opened
    opened.close()


def test_tokens_made_at_once_on_connections_of_their_own_never_pass_the_cap(store: Store) -> None:
    """Each on its own database connection, as several server processes send them: the account's
    row is locked first, so the live tokens are counted one maker after the other."""
    ann = person(store.engine, "Ann")
    room, burst = 3, 24
    for n in range(MOST_LIVE_TOKENS - room):
        with store.engine.begin() as db:
            make_token(db, ann.id, f"kept {n}", (TokenScope.BOT_PLAY,), time.time())

    def send(n: int) -> int:
        try:
            with store.engine.begin() as db:
                make_token(db, ann.id, f"burst {n}", (TokenScope.BOT_PLAY,), time.time())
        except AccountError as error:
            assert error.status == 409, error.message
            return 409
        return 201

    answers = at_once(burst, send)
    assert answers.count(201) == room and answers.count(409) == burst - room, answers
    with store.engine.connect() as db:
        names = db.scalars(select(ApiTokenTable.name).where(ApiTokenTable.account_id == ann.id)).all()
    assert len(names) == MOST_LIVE_TOKENS


def test_a_tokens_requests_at_once_pass_exactly_its_per_minute_limit(db_url: str) -> None:
    most, burst = 7, 20
    with tokens_app(db_url, per_minute=most) as client:
        ann, ben = person(engine_of(client), "Ann"), person(engine_of(client), "Ben")
        token, other = ann.token(client), ben.token(client)
        answers = at_once(burst, lambda n: with_token(client, "GET", "/api/token", token))
        statuses = [answer.status_code for answer in answers]
        assert statuses.count(200) == most and statuses.count(429) == burst - most, statuses
        refused = next(answer for answer in answers if answer.status_code == 429)
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert refused.json()["detail"].startswith(f"this API token has made its {most} requests of this minute")
        assert with_token(client, "POST", "/test/play", token).status_code == 429  # every call counts
        assert with_token(client, "GET", "/api/token", other).status_code == 200  # per token, not per server
        assert ann.call(client, "GET", "/api/tokens").status_code == 200  # the cookie is not limited by it
