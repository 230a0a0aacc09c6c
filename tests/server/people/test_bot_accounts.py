"""Bot accounts (``POST /api/bot/account/upgrade``), on SQLite and PostgreSQL: only an account that never
played becomes one, once and for good, decided by one statement however many ask at once; it is marked
``bot_account`` wherever its name shows (profile, leaderboard, the table's seats, a game's summary), the
leaderboard hides it on request beside the ladder's published levels; the site's own ways to play refuse it in
words; and a bot plays at most ``--bot-games`` games at once, however many challenges are accepted together."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from people_helpers import SignedUp, engine_of
from rated_helpers import play_past_the_draft
from server_helpers import TestClient, Ticker, at_once, open_table, settings
from sqlalchemy import insert, select, update

from tendays.server.face.app import Limits, create_app
from tendays.server.matches.lobby import Lobby
from tendays.server.people.accounts import Account
from tendays.server.people.challenge_games import ChallengeDesk
from tendays.server.people.ratings import START
from tendays.server.people.results import results_hook
from tendays.server.settings import Pace, PaceLimits
from tendays.server.storage.journal import Journal
from tendays.server.storage.schema import AccountTable, ChallengeTable, GameTable, RatingTable, SeekTable
from tendays.server.storage.store import Store

pytestmark = pytest.mark.slow  # Argon2id hashing: every sign-up and sign-in

BOT_ONLY = "a bot account plays only through the Bot API (docs/protocol.md)"


def upgrade(client: TestClient, token: str) -> Any:
    return client.post("/api/bot/account/upgrade", headers={"Authorization": f"Bearer {token}"})


def a_bot(client: TestClient, name: str = "Robo") -> SignedUp:
    robo = SignedUp(client, name)
    made = upgrade(client, robo.token("bot:play"))
    assert made.status_code == 200, made.text
    return robo


def test_an_account_that_never_played_becomes_a_bot_account_once_and_for_good(client: TestClient) -> None:
    robo = SignedUp(client, "Robo")
    token = robo.token("bot:play")
    assert client.get("/api/players/robo").json()["bot_account"] is False
    made = upgrade(client, token)
    assert made.status_code == 200, made.text
    assert made.json() == {"name": "Robo", "bot": True}
    again = upgrade(client, token)
    assert again.status_code == 409 and again.json()["detail"] == "Robo is already a bot account"
    assert client.get("/api/players/robo").json()["bot_account"] is True
    # nothing sets it back: the account's own calls have no way to
    with engine_of(client).connect() as db:
        assert db.scalar(select(AccountTable.bot).where(AccountTable.id == robo.id)) is True


def test_the_upgrade_needs_a_bot_play_token(client: TestClient) -> None:
    ann = SignedUp(client, "Ann")
    refused = upgrade(client, ann.token("board:play"))
    assert refused.status_code == 403 and "bot:play" in refused.json()["detail"]
    nobody = client.post("/api/bot/account/upgrade")
    assert nobody.status_code == 401 and nobody.headers["WWW-Authenticate"] == "Bearer"
    # a cookie is no token: the upgrade is a program's call
    assert ann.call("POST", "/api/bot/account/upgrade").status_code == 401
    assert client.get("/api/players/ann").json()["bot_account"] is False


def test_an_account_that_has_played_stays_a_person(client: TestClient) -> None:
    ann, ben = SignedUp(client, "Ann"), SignedUp(client, "Ben")
    challenge = ann.challenge("Ben").json()
    assert ben.call("POST", f"/api/challenges/{challenge['id']}/accept").status_code == 200
    refused = upgrade(client, ben.token("bot:play"))
    assert refused.status_code == 409
    assert refused.json()["detail"] == (
        "only an account that has never played may become a bot account: Ben has played 1 game"
    )
    assert client.get("/api/players/ben").json()["bot_account"] is False


def test_an_open_seek_holds_the_upgrade_back(client: TestClient) -> None:
    ann = SignedUp(client, "Ann")
    token = ann.token("bot:play")
    assert ann.call("POST", "/api/seeks", {"edition": "usa"}).status_code == 201
    refused = upgrade(client, token)
    assert refused.status_code == 409
    assert refused.json()["detail"] == "Ann is looking for a game: cancel the seek before becoming a bot account"
    with engine_of(client).begin() as db:
        db.execute(update(SeekTable).where(SeekTable.account_id == ann.id).values(status="cancelled"))
    assert upgrade(client, token).status_code == 200


def test_of_many_upgrades_at_once_one_decides(client: TestClient) -> None:
    robo = SignedUp(client, "Robo")
    token = robo.token("bot:play")
    answers = at_once(6, lambda _n: upgrade(client, token))
    assert Counter(a.status_code for a in answers) == {200: 1, 409: 5}
    assert all(a.json()["detail"] == "Robo is already a bot account" for a in answers if a.status_code == 409)


def test_a_bot_account_is_refused_the_sites_own_ways_to_play_in_words(client: TestClient) -> None:
    robo, ann = a_bot(client), SignedUp(client, "Ann")
    seek = robo.call("POST", "/api/seeks", {"edition": "usa"})
    assert (seek.status_code, seek.json()["detail"]) == (403, BOT_ONLY)
    two = [{"kind": "human"}, {"kind": "human"}]
    made = robo.call("POST", "/api/games", {"edition": "usa", "name": "Robo", "seats": two})
    assert (made.status_code, made.json()["detail"]) == (403, BOT_ONLY)
    game = ann.call("POST", "/api/games", {"edition": "usa", "name": "Ann", "seats": two})
    assert game.status_code == 201, game.text
    joined = robo.call("POST", f"/api/games/{game.json()['id']}/join", {"name": "Robo"})
    assert (joined.status_code, joined.json()["detail"]) == (403, BOT_ONLY)
    # German readers read it in German
    german = robo.call("POST", "/api/seeks", {"edition": "usa"}, **{"Accept-Language": "de"})
    assert (german.status_code, german.json()["detail"]) == (
        403,
        "ein Bot-Konto spielt nur über die Bot-API (docs/protocol.md)",
    )
    # it still manages its tokens and profile on the site
    assert robo.call("GET", "/api/tokens").status_code == 200


def test_a_bot_accounts_seat_is_marked_and_its_table_socket_refuses_it(client: TestClient) -> None:
    robo, ann = a_bot(client), SignedUp(client, "Ann")
    challenge = ann.challenge("Robo", rated=True).json()
    accepted = robo.call("POST", f"/api/challenges/{challenge['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    game, token = accepted.json()["game"], accepted.json()["token"]
    seats = client.get(f"/api/games/{game}").json()["seats"]
    assert [(s["name"], s["kind"], s["bot_account"]) for s in seats] == [
        ("Ann", "human", False),
        ("Robo", "human", True),
    ]
    with open_table(client, game) as watcher:  # watching is anyone's
        state = watcher.receive_json()
    assert [(s["name"], s["kind"], s["bot_account"]) for s in state["game"]["seats"]] == [
        ("Ann", "human", False),
        ("Robo", "human", True),
    ]
    for hello in ({"type": "hello", "token": token}, {"type": "hello", "account": True}):
        with robo.browser.websocket_connect(f"/ws/games/{game}") as ws:
            ws.send_json(hello)
            refused = ws.receive_json()
        assert (refused["type"], refused["code"], refused["message"]) == ("error", "forbidden", BOT_ONLY)
    # the person's side is as ever
    with ann.browser.websocket_connect(f"/ws/games/{game}") as ws:
        ws.send_json({"type": "hello", "account": True})
        assert ws.receive_json()["type"] == "state"
    profile = client.get("/api/players/ann").json()
    assert [(o["name"], o["bot_account"]) for o in profile["games"][0]["others"]] == [("Robo", True)]


def settle(client: TestClient, account_id: int, rating: float) -> None:
    """A settled rating in the USA edition (as many rated games would leave)."""
    with engine_of(client).begin() as db:
        db.execute(
            insert(RatingTable).values(
                account_id=account_id,
                edition="usa",
                mu=rating,
                sigma=3.0,
                rating=rating - 9.0,
                games=30,
                updated=time.time(),
            )
        )


def test_the_leaderboard_marks_bot_accounts_and_hides_them_on_request(client: TestClient) -> None:
    robo, ann = a_bot(client), SignedUp(client, "Ann")
    settle(client, robo.id, 40.0)
    settle(client, ann.id, 30.0)
    board = client.get("/api/leaderboard?edition=usa").json()
    assert [(p["rank"], p["name"], p["bot_account"]) for p in board["players"]] == [
        (1, "Robo", True),
        (2, "Ann", False),
    ]
    assert board["total"] == 2
    people = client.get("/api/leaderboard?edition=usa&bots=false").json()
    assert [(p["rank"], p["name"], p["bot_account"]) for p in people["players"]] == [(1, "Ann", False)]
    assert people["total"] == 1
    # the ladder's levels keep their published ratings beside them, either way
    assert people["bots"] == board["bots"] and board["bots"]["levels"]
    assert client.get("/api/leaderboard?edition=usa&bots=maybe").status_code == 422


@pytest.fixture
def two_at_once(db_url: str) -> Iterator[TestClient]:
    """A server where a bot account plays at most two games at once."""
    unlimited = Limits(
        clock=Ticker(0.1), creates_per_minute=0, joins_per_minute=0, connections_per_minute=0, connections_at_once=0
    )
    with TestClient(create_app(db_url, settings(bot_games=2), unlimited)) as test_client:
        yield test_client


def test_a_bot_plays_at_most_its_games_at_once_however_many_accepts_come_together(two_at_once: TestClient) -> None:
    client = two_at_once
    robo = a_bot(client)
    people = [SignedUp(client, f"Player{n}") for n in range(5)]
    challenges = [p.challenge("Robo").json()["id"] for p in people]
    answers = at_once(5, lambda n: robo.call("POST", f"/api/challenges/{challenges[n]}/accept"))
    assert Counter(a.status_code for a in answers) == {200: 2, 409: 3}
    refusals = {a.json()["detail"] for a in answers if a.status_code == 409}
    assert refusals == {"Robo is already playing 2 games, its most at once"}
    with engine_of(client).connect() as db:
        statuses = Counter(db.scalars(select(ChallengeTable.status)))
    assert statuses == {"accepted": 2, "open": 3}  # the refused ones stay open to accept later
    # a bot's own challenge counts too: a person accepting it is refused while the bot is full
    assert robo.call("POST", "/api/challenges", {"to": "Player0", "edition": "usa"}).status_code == 201
    mine = people[0].call("GET", "/api/challenges").json()["incoming"][0]["id"]
    full = people[0].call("POST", f"/api/challenges/{mine}/accept")
    assert (full.status_code, full.json()["detail"]) == (409, "Robo is already playing 2 games, its most at once")
    # once a game ends, the bot has room again
    game = next(a.json()["game"] for a in answers if a.status_code == 200)
    client.portal.call(_close, client, game)  # type: ignore[union-attr]
    open_one = next(challenges[n] for n, a in enumerate(answers) if a.status_code == 409)
    assert robo.call("POST", f"/api/challenges/{open_one}/accept").status_code == 200


async def _close(client: TestClient, game_id: str) -> None:
    """The game ends as the operator's closing ends it."""
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    match = await lobby.get(game_id)
    try:
        await match.end("closed", "the server's operator closed the game")
    finally:
        lobby.release(match)


# -- rated like anyone, and a stalling bot loses on the clock ----------------------------------------


def open_lobby(url: str) -> Lobby:
    """A lobby whose live clocks may be short, one timeout handing a seat over, its results rated."""
    journal = Journal(Store(url))
    lobby = Lobby(journal, settings(paces=PaceLimits(live_min=0.05), timeouts_to_bot=1))
    lobby.on_finished = results_hook(journal)
    lobby.restore()
    lobby.start()
    return lobby


def person_and_bot(store: Store) -> tuple[Account, Account]:
    with store.engine.begin() as db:
        made = [
            db.execute(
                insert(AccountTable).values(
                    name=name, name_key=name.lower(), password_hash="-", created=time.time(), bot=bot
                )
            ).inserted_primary_key[0]
            for name, bot in (("Ada", False), ("Robo", True))
        ]
    return Account(made[0], "Ada"), Account(made[1], "Robo", bot=True)


def test_a_bot_that_stalls_loses_a_rated_game_on_the_clock_as_a_person_would(db_url: str) -> None:
    async def scenario() -> None:
        lobby = open_lobby(db_url)
        try:
            ada, robo = person_and_bot(lobby.journal.store)
            desk = ChallengeDesk(lobby)
            # long enough a turn for the draft and a move each (played at once), then the bot stalls
            challenge = await desk.challenge(ada, "Robo", "usa", {}, Pace("live", 2.0, 0), True)
            game = (await desk.accept(challenge.id, robo)).game_id
            match = await lobby.get(game)
            assert match is not None and [s.bot_account for s in match.seats] == [False, True]
            await play_past_the_draft(match)
            while match.status == "playing" and match.state.current == 0:  # Ada moves; the bot never does
                await match.submit(0, str(match.state.legal_moves()[0]), match.version)
            deadline = time.monotonic() + 30
            while match.status != "over" and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert (match.ended, match.seats[1].left) == ("forfeit", True)
            deadline = time.monotonic() + 30
            outcome = None
            while outcome is None and time.monotonic() < deadline:  # rated after the game ends
                await asyncio.sleep(0.02)
                with lobby.journal.store.engine.connect() as db:
                    outcome = db.scalar(select(GameTable.rated_outcome).where(GameTable.id == game))
            while lobby.finisher.pending and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            with lobby.journal.store.engine.connect() as db:
                ratings = dict(db.execute(select(RatingTable.account_id, RatingTable.mu)).all())
            assert outcome == "counted"  # a bot account's game is rated as any two accounts' game
            assert ratings[ada.id] > START.mu > ratings[robo.id]
            lobby.release(match)
        finally:
            await lobby.close()
            await lobby.journal.close()

    asyncio.run(scenario())


# -- tournaments that allow bots -----------------------------------------------------------------


def test_a_bot_account_enters_only_tournaments_that_allow_bots_with_its_token(client: TestClient) -> None:
    robo, ann = a_bot(client), SignedUp(client, "Ann")
    token = {"Authorization": f"Bearer {robo.token('bot:play')}"}
    event = {"kind": "arena", "edition": "usa", "minutes": 30, "starts_at": time.time() + 3600}
    people_only = ann.call("POST", "/api/tournaments", {**event, "name": "People"}).json()["id"]
    open_to_bots = ann.call("POST", "/api/tournaments", {**event, "name": "Open", "bots_allowed": True}).json()["id"]
    assert client.get(f"/api/tournaments/{people_only}").json()["bots_allowed"] is False
    assert client.get(f"/api/tournaments/{open_to_bots}").json()["bots_allowed"] is True
    refused = client.post(f"/api/tournaments/{people_only}/join", headers=token)
    assert (refused.status_code, refused.json()["detail"]) == (
        409,
        "this tournament does not allow bot accounts: only people may enter",
    )
    assert robo.call("POST", f"/api/tournaments/{people_only}/join").status_code == 409  # signed in: the same
    joined = client.post(f"/api/tournaments/{open_to_bots}/join", headers=token)
    assert joined.status_code == 200, joined.text
    assert ann.call("POST", f"/api/tournaments/{open_to_bots}/join").status_code == 200
    standings = client.get(f"/api/tournaments/{open_to_bots}").json()["standings"]
    assert sorted((s["name"], s["bot_account"]) for s in standings) == [("Ann", False), ("Robo", True)]
    # a token without bot:play enters nothing; the bot withdraws with its token
    other = {"Authorization": f"Bearer {robo.token('board:play')}"}
    assert client.delete(f"/api/tournaments/{open_to_bots}/join", headers=other).status_code == 403
    assert client.delete(f"/api/tournaments/{open_to_bots}/join", headers=token).status_code == 200
    standings = client.get(f"/api/tournaments/{open_to_bots}").json()["standings"]
    assert [s["withdrawn"] for s in standings if s["name"] == "Robo"] == [True]
    # an entry holds an upgrade back as a seek does
    cat = SignedUp(client, "Cat")
    assert cat.call("POST", f"/api/tournaments/{open_to_bots}/join").status_code == 200
    held = upgrade(client, cat.token("bot:play"))
    assert (held.status_code, held.json()["detail"]) == (
        409,
        "Cat has entered a tournament: withdraw from it before becoming a bot account",
    )
