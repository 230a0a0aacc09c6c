"""Ratings: the model (openskill on the bots' scale, provisional players), each seat's place, a game rated
exactly once (even by two processes at once), rated games lost by leaving or being away (once every person
has moved after the draft: before that, test_rated_results.py's abort rule), and the profile and leaderboard
answers, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from rated_helpers import play_past_the_draft
from server_helpers import TestClient, settings
from sqlalchemy import insert, select, update

from tendays.bots import LEVELS
from tendays.server.matches.lobby import Lobby
from tendays.server.matches.master import Match
from tendays.server.matches.seats import LobbyError
from tendays.server.matches.text import name_key
from tendays.server.people.profiles import leaderboard
from tendays.server.people.ratings import PROVISIONAL_SIGMA, START, Rating, places, rate_game, rate_places
from tendays.server.people.results import catch_up, results_hook
from tendays.server.settings import PaceLimits
from tendays.server.storage.journal import Journal
from tendays.server.storage.schema import AccountTable, GameTable, RatingHistoryTable, RatingTable, SeatTable
from tendays.server.storage.store import Store

HUMAN: tuple[str, None] = ("human", None)

# -- the model -----------------------------------------------------------------------------------


def test_a_new_player_starts_where_the_bots_ladder_started_and_is_provisional() -> None:
    assert (START.mu, round(START.sigma, 3)) == (25.0, 8.333)
    assert START.provisional
    # The bots' published ratings are on this scale: the normal bot is above a newcomer, the beginner below.
    assert LEVELS["beginner"].rating is not None and LEVELS["normal"].rating is not None
    assert LEVELS["beginner"].rating < START.mu < LEVELS["normal"].rating


def test_a_win_moves_the_winner_up_and_the_loser_down_and_both_grow_surer() -> None:
    winner, loser = rate_places([START, START], [1, 2])
    assert winner.mu > START.mu > loser.mu
    assert winner.sigma < START.sigma and loser.sigma < START.sigma
    assert winner.games == loser.games == 1
    drawn = rate_places([START, START], [1, 1])
    assert drawn[0].mu == pytest.approx(drawn[1].mu)


def test_four_players_are_rated_by_their_places() -> None:
    after = rate_places([START] * 4, [1, 2, 2, 3])
    assert after[0].mu > after[1].mu > after[3].mu
    assert after[1].mu == pytest.approx(after[2].mu)


def test_a_rating_settles_after_a_dozen_or_so_games() -> None:
    rating, games = START, 0
    while rating.provisional:
        rating = rate_places([rating, Rating(25.0, 2.0)], [1 + games % 2, 2 - games % 2])[0]
        games += 1
    assert 5 <= games <= 25
    assert rating.sigma <= PROVISIONAL_SIGMA


# -- places ------------------------------------------------------------------------------------


def fake(over: bool, winner: int | None, current: int, gone: dict[int, str], rated: bool, players: int = 2) -> Any:
    seats = [
        SimpleNamespace(index=i, kind="human", left=gone.get(i) == "left", away=gone.get(i) == "away")
        for i in range(players)
    ]
    ended = None if over else gone.get(-1, "abandoned")
    return SimpleNamespace(
        state=SimpleNamespace(is_over=over, winner=winner, current=current), seats=seats, rated=rated, ended=ended
    )


@pytest.mark.parametrize(
    ("over", "winner", "current", "gone", "rated", "players", "expected"),
    [
        (True, 1, 0, {}, False, 2, [2, 1]),  # played out: the winner first
        (True, None, 0, {}, False, 3, [1, 1, 1]),  # the turn limit: everyone shares first
        (False, None, 0, {}, False, 2, None),  # an unrated game ended early has no result
        (False, None, 0, {0: "left"}, True, 2, [2, 1]),  # rated, left: the other wins (a forfeit)
        (False, None, 1, {}, True, 2, [1, 2]),  # rated, expired waiting for seat 2's move: seat 2 lost
        (False, None, 1, {-1: "closed"}, True, 2, None),  # rated, closed by the operator: no result
        (True, 0, 0, {2: "left"}, True, 3, [1, 2, 3]),  # rated: who left is last
        (True, 2, 0, {2: "left"}, True, 3, [1, 1, 2]),  # rated: the leaver's bot won; the others share first
        (True, 1, 0, {2: "away"}, False, 3, [2, 1, 2]),  # unrated: away changes nothing
    ],
)
def test_places(
    over: bool,
    winner: int | None,
    current: int,
    gone: dict[int, str],
    rated: bool,
    players: int,
    expected: list[int] | None,
) -> None:
    assert places(fake(over, winner, current, gone, rated, players)) == expected


# -- a game rated once -----------------------------------------------------------------------


def add_accounts(store: Store, *names: str) -> list[int]:
    with store.engine.begin() as db:
        return [
            db.execute(
                insert(AccountTable).values(name=n, name_key=name_key(n), password_hash="-", created=time.time())
            ).inserted_primary_key[0]
            for n in names
        ]


def add_game(
    store: Store,
    game_id: str,
    accounts: list[int | None],
    rated: bool = True,
    edition: str = "usa",
    finished: bool = True,
    created: float = 0.0,
) -> None:
    from datetime import UTC, datetime

    with store.engine.begin() as db:
        db.execute(
            insert(GameTable).values(
                id=game_id,
                edition=edition,
                options="{}",
                seed=1,
                rated=rated,
                created=datetime.fromtimestamp(created or time.time(), UTC),
                finished=finished,
                finished_at=time.time() if finished else None,
            )
        )
        db.execute(
            insert(SeatTable),
            [
                {"game_id": game_id, "seat": i, "kind": "human", "name": f"P{i}", "account_id": a}
                for i, a in enumerate(accounts)
            ],
        )


def rating_of(store: Store, account: int, edition: str = "usa") -> Any:
    with store.engine.connect() as db:
        return db.execute(
            select(RatingTable).where(RatingTable.account_id == account, RatingTable.edition == edition)
        ).one_or_none()


def test_a_game_is_rated_once(db_url: str) -> None:
    store = Store(db_url)
    try:
        ada, bob = add_accounts(store, "Ada", "Bob")
        add_game(store, "g1", [ada, bob])
        assert rate_game(store.engine, "g1", [1, 2])
        assert not rate_game(store.engine, "g1", [1, 2])  # told again (another process saw it end)
        assert not rate_game(store.engine, "g1", [2, 1])  # even with other places: the first result stands
        won, lost = rating_of(store, ada), rating_of(store, bob)
        assert (won.games, lost.games) == (1, 1)
        assert won.mu > START.mu > lost.mu
        assert won.rating == won.mu
        with store.engine.connect() as db:
            assert db.execute(
                select(SeatTable.place).where(SeatTable.game_id == "g1").order_by(SeatTable.seat)
            ).scalars().all() == [1, 2]
            assert (
                db.execute(select(RatingHistoryTable.account_id).where(RatingHistoryTable.game_id == "g1"))
                .scalars()
                .all()
                != []
            )
        add_game(store, "friendly", [ada, bob], rated=False)
        assert rate_game(store.engine, "friendly", [2, 1])  # an unrated game's places are written, nothing more
        assert rating_of(store, ada).games == 1
    finally:
        store.close()


@pytest.mark.slow  # starts PostgreSQL
def test_two_processes_rate_a_game_once_and_lose_no_update(postgres_url: str) -> None:
    stores = [Store(postgres_url), Store(postgres_url)]
    try:
        people = add_accounts(stores[0], "Ada", "Bob", "Cy")
        for number in range(6):
            add_game(stores[0], f"g{number}", [people[0], people[1 + number % 2]])
        answers: list[bool] = []
        barrier = threading.Barrier(4)

        def rate_all(store: Store) -> None:
            barrier.wait()
            for number in range(6):
                answers.append(rate_game(store.engine, f"g{number}", [1, 2]))

        # Two "processes" (engines) each rate every game, two threads apiece: every game once, Ada in all six.
        threads = [threading.Thread(target=rate_all, args=(stores[i % 2],)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert answers.count(True) == 6
        assert rating_of(stores[0], people[0]).games == 6
        assert rating_of(stores[0], people[1]).games == rating_of(stores[0], people[2]).games == 3
    finally:
        for store in stores:
            store.close()


# -- rated games at the lobby ------------------------------------------------------------------


def open_lobby(url: str, **changes: Any) -> Lobby:
    values: dict[str, Any] = {"paces": PaceLimits(live_min=0.05), "timeouts_to_bot": 1}
    values.update(changes)
    journal = Journal(Store(url))
    lobby = Lobby(journal, settings(**values))
    lobby.on_finished = results_hook(journal)
    lobby.restore()
    lobby.start()
    return lobby


async def rated_pair(lobby: Lobby, pace: Any = None) -> tuple[Match, list[int]]:
    """A rated two-person game between two new accounts, as the lobby makes it."""
    from tendays.server.settings import Pace

    store = lobby.journal.store
    people = add_accounts(store, "Ada", "Bob")
    match, _token = await lobby.create(
        "usa", [HUMAN, HUMAN], {}, "Ada", Pace(*pace) if pace else None, rated=True, account_id=people[0]
    )
    await lobby.join(match.id, "Bob", account_id=people[1])
    return match, people


async def settled(lobby: Lobby) -> None:
    for _ in range(100):
        await asyncio.sleep(0.02)
        if not lobby.finisher.pending:
            return


def test_a_rated_game_is_for_signed_in_people_only(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = open_lobby(f"sqlite:///{tmp_path / 'games.db'}")
        try:
            (ada, bob) = add_accounts(lobby.journal.store, "Ada", "Bob")
            with pytest.raises(LobbyError) as refused:
                await lobby.create("usa", [HUMAN, ("bot", "normal")], {}, "Ada", rated=True, account_id=ada)
            assert refused.value.status == 422 and "human seat" in refused.value.message
            with pytest.raises(LobbyError):
                await lobby.create("usa", [HUMAN], {}, "Ada", rated=True, account_id=ada)
            with pytest.raises(LobbyError) as refused:
                await lobby.create("usa", [HUMAN, HUMAN], {}, "Ada", rated=True)
            assert refused.value.status == 401
            match, _token = await lobby.create("usa", [HUMAN, HUMAN], {}, "Ada", rated=True, account_id=ada)
            for account, status in ((None, 401), (ada, 409)):  # anonymous; the same person twice
                with pytest.raises(LobbyError) as refused:
                    await lobby.join(match.id, "Someone", account_id=account)
                assert refused.value.status == status
            await lobby.join(match.id, "Bob", account_id=bob)
            assert match.status == "playing"
        finally:
            await lobby.close()
            await lobby.journal.close()

    asyncio.run(scenario())


def test_leaving_a_rated_two_person_game_ends_it_in_the_others_favour(db_url: str) -> None:
    async def scenario() -> None:
        lobby = open_lobby(db_url)
        try:
            match, (ada, bob) = await rated_pair(lobby)
            assert match.rated and match.summary()["rated"]
            watcher = match.subscribe(None)
            table = json.loads(watcher.drain()[-1])
            assert table["game"]["rated"] is True  # the table says so (leaving it loses it)
            assert "places" not in table["game"] and match.summary()["winner"] is None
            await play_past_the_draft(match)
            await match.leave(0)
            assert match.status == "over" and match.ended == "forfeit"
            # the result as data, not only in the chat: Bob's seat won, Ada's is second
            ended = json.loads(watcher.drain()[-1])["game"]
            assert (ended["ended"], ended["winner"], ended["places"]) == ("forfeit", 1, [2, 1])
            summary = match.summary()
            assert (summary["winner"], summary["places"]) == (1, [2, 1])
            match.unsubscribe(watcher)
            await settled(lobby)
            store = lobby.journal.store
            assert rating_of(store, bob).mu > START.mu > rating_of(store, ada).mu
        finally:
            await lobby.close()
            await lobby.journal.close()

    asyncio.run(scenario())


@pytest.mark.slow  # waits on a clock or a timeout
def test_away_until_a_bot_takes_the_seat_loses_a_rated_game(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = open_lobby(f"sqlite:///{tmp_path / 'games.db'}")
        try:
            # long enough a turn for the draft and a move each (played at once), then one runs out
            match, (ada, bob) = await rated_pair(lobby, ("live", 2.0, 0))
            await play_past_the_draft(match)
            mover = match.state.current
            deadline = time.monotonic() + 20
            while match.status != "over" and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert match.ended == "forfeit"
            assert match.seats[mover].left  # for good: a rated game's seat does not come back
            await settled(lobby)
            store = lobby.journal.store
            loser, winner = (ada, bob) if mover == 0 else (bob, ada)
            assert rating_of(store, winner).mu > START.mu > rating_of(store, loser).mu
        finally:
            await lobby.close()
            await lobby.journal.close()

    asyncio.run(scenario())


def test_a_rated_game_that_ended_unrated_is_rated_at_the_next_start(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"

    async def first() -> tuple[str, list[int]]:
        lobby = open_lobby(url)
        lobby_hook, lobby.on_finished = lobby.on_finished, None  # the process dies before it rates the game
        try:
            match, people = await rated_pair(lobby)
            await play_past_the_draft(match)
            await match.leave(1)
            assert lobby_hook is not None and match.ended == "forfeit"
            return match.id, people
        finally:
            await lobby.close()
            await lobby.journal.close()

    async def second(game_id: str) -> int:
        lobby = open_lobby(url)
        try:
            return await catch_up(lobby)
        finally:
            await lobby.close()
            await lobby.journal.close()

    game_id, (ada, bob) = asyncio.run(first())
    assert asyncio.run(second(game_id)) == 1
    store = Store(url)
    try:
        assert rating_of(store, ada).mu > START.mu > rating_of(store, bob).mu
    finally:
        store.close()
    assert asyncio.run(second(game_id)) == 0  # once


# -- profiles and the leaderboard ---------------------------------------------------------------


def seeded(url: str) -> list[int]:
    """Ada beats Bob in five rated games (a day apart: each counts) and loses one friendly game to him; Cy
    plays one rated game."""
    store = Store(url)
    try:
        ada, bob, cy = add_accounts(store, "Ada", "Bob", "Cy")
        for number in range(5):
            add_game(store, f"r{number}", [ada, bob], created=1_000_000 + number)
            rate_game(store.engine, f"r{number}", [1, 2], at=2_000_000 + number * 90_000)
        add_game(store, "friendly", [bob, ada], rated=False, created=1_000_010)
        rate_game(store.engine, "friendly", [1, 2])
        add_game(store, "open", [ada, None], rated=False, finished=False, created=1_000_020)
        add_game(store, "c1", [cy, bob], created=1_000_005)
        rate_game(store.engine, "c1", [1, 2], at=2_000_010)
        with store.engine.begin() as db:  # Bob has played enough to be settled
            db.execute(update(RatingTable).where(RatingTable.account_id == bob).values(sigma=4.0))
        return [ada, bob, cy]
    finally:
        store.close()


def test_profile_and_leaderboard(db_url: str, client: TestClient) -> None:
    seeded(db_url)
    answer = client.get("/api/players/ada")  # any letter case
    assert answer.status_code == 200, answer.text
    ada = answer.json()
    assert ada["name"] == "Ada"
    usa = ada["ratings"]["usa"]
    assert usa["games"] == 5 and usa["provisional"] and usa["rating"] > START.mu
    points = ada["history"]["usa"]
    assert [p["game"] for p in points] == [f"r{n}" for n in range(5)]
    assert all(p["change"] > 0 for p in points)
    assert [g["id"] for g in ada["games"]] == ["open", "friendly", "r4", "r3", "r2", "r1", "r0"]
    by_id = {g["id"]: g for g in ada["games"]}
    assert by_id["open"]["result"] == "playing" and by_id["open"]["link"] == "/play/open"
    assert by_id["friendly"]["result"] == "lost" and not by_id["friendly"]["rated"]
    assert by_id["r4"]["result"] == "won" and by_id["r4"]["link"] == "/replay/r4"
    assert by_id["r4"]["others"] == [
        {"name": "P1", "bot": None, "place": 2, "bot_account": False, "profile": "/players/P1"}
    ]
    assert by_id["r4"]["change"] == points[-1]["change"]
    paged = client.get("/api/players/Ada", params={"page": 2, "per_page": 3}).json()
    assert [g["id"] for g in paged["games"]] == ["r3", "r2", "r1"] and paged["pages"] == 3 and paged["total"] == 7
    missing = client.get("/api/players/Nobody")
    assert missing.status_code == 404 and "Nobody" in missing.json()["detail"]
    german = client.get("/api/players/Nobody", headers={"Accept-Language": "de"})
    assert german.status_code == 404 and german.json()["detail"] != missing.json()["detail"]

    board = client.get("/api/leaderboard", params={"edition": "usa"})
    assert board.status_code == 200, board.text
    best = board.json()
    assert [p["name"] for p in best["players"]] == ["Bob"]  # Ada and Cy are still provisional
    assert best["players"][0]["rank"] == 1 and best["total"] == 1
    assert {b["level"] for b in best["bots"]["levels"]} == set(LEVELS)
    assert best["bots"]["edition"] == "usa"
    assert client.get("/api/leaderboard", params={"edition": "germany"}).json()["players"] == []
    unknown = client.get("/api/leaderboard", params={"edition": "mars"})
    assert unknown.status_code == 422 and "mars" in unknown.json()["detail"]
    assert client.get("/players/Ada").status_code == 200
    assert client.get("/leaderboard").status_code == 200


def sign_up(client: TestClient, name: str) -> dict[str, str]:
    """A new account signed in on ``client`` (its cookie replaces any other); the CSRF header to send."""
    client.cookies.clear()
    answer = client.post("/api/accounts", json={"name": name, "password": f"{name} plays ten days"})
    assert answer.status_code == 201, answer.text
    return {"X-CSRF-Token": answer.json()["csrf"]}


@pytest.mark.slow  # over a second of CPU
def test_rated_games_over_the_api(client: TestClient) -> None:
    game = {"edition": "usa", "name": "Ada", "seats": [{"kind": "human"}, {"kind": "human"}], "rated": True}
    anonymous = client.post("/api/games", json=game)
    assert anonymous.status_code == 401 and "sign in" in anonymous.json()["detail"]
    ada = sign_up(client, "Ada")
    with_bot = client.post(
        "/api/games", json={**game, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]}, headers=ada
    )
    assert with_bot.status_code == 422
    created = client.post("/api/games", json=game, headers=ada)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert client.get(f"/api/games/{game_id}").json()["rated"] is True
    client.cookies.clear()
    assert client.post(f"/api/games/{game_id}/join", json={"name": "Bob"}).status_code == 401
    bob = sign_up(client, "Bob")
    joined = client.post(f"/api/games/{game_id}/join", json={"name": "Bob"}, headers=bob)
    assert joined.status_code == 200, joined.text
    assert client.get(f"/api/games/{game_id}").json()["status"] == "playing"
    profile = client.get("/api/players/Bob").json()
    assert [(g["id"], g["rated"], g["result"]) for g in profile["games"]] == [(game_id, True, "playing")]


def test_a_leaderboard_shows_a_newly_settled_player_at_once_and_pages(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    seeded(url)
    store = Store(url)
    try:
        assert [p["name"] for p in leaderboard(store.engine, "usa")["players"]] == ["Bob"]
        with store.engine.begin() as db:  # Ada settles
            db.execute(update(RatingTable).where(RatingTable.account_id == 1).values(sigma=3.0))
        best = leaderboard(store.engine, "usa", page=1, per_page=1)
        assert [p["name"] for p in best["players"]] == ["Ada"] and best["pages"] == 2 and best["total"] == 2
        second = leaderboard(store.engine, "usa", page=2, per_page=1)["players"]
        assert [(p["name"], p["rank"]) for p in second] == [("Bob", 2)]
        assert leaderboard(store.engine, "usa", page=3, per_page=1)["players"] == []
    finally:
        store.close()


def test_a_rated_game_that_expires_is_lost_by_the_person_to_move(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = open_lobby(f"sqlite:///{tmp_path / 'games.db'}", idle_expiry=60.0)
        try:
            match, (ada, bob) = await rated_pair(lobby)
            await play_past_the_draft(match)
            with lobby.journal.store.engine.begin() as db:  # nobody moved for longer than the expiry
                db.execute(update(GameTable).where(GameTable.id == match.id).values(last_move_at=time.time() - 120))
            assert await lobby.sweep() == (1, 0)
            assert match.ended == "abandoned"
            await settled(lobby)
            store = lobby.journal.store
            stalled, waited = (ada, bob) if match.state.current == 0 else (bob, ada)
            assert rating_of(store, waited).mu > START.mu > rating_of(store, stalled).mu
        finally:
            await lobby.close()
            await lobby.journal.close()

    asyncio.run(scenario())


def test_with_three_people_one_leaving_does_not_end_a_rated_game(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = open_lobby(f"sqlite:///{tmp_path / 'games.db'}")
        try:
            ada, bob, cy = add_accounts(lobby.journal.store, "Ada", "Bob", "Cy")
            match, _token = await lobby.create("usa", [HUMAN] * 3, {}, "Ada", rated=True, account_id=ada)
            await lobby.join(match.id, "Bob", account_id=bob)
            await lobby.join(match.id, "Cy", account_id=cy)
            await play_past_the_draft(match)
            await match.leave(2)
            assert match.status == "playing" and match.seats[2].left  # a bot plays Cy's seat, which has lost
            await match.leave(1)
            assert match.ended == "forfeit"  # Ada is the only person left
            await settled(lobby)
            store = lobby.journal.store
            assert rating_of(store, ada).mu > START.mu > rating_of(store, bob).mu
            assert rating_of(store, bob).mu == pytest.approx(rating_of(store, cy).mu)  # both left: a shared last
        finally:
            await lobby.close()
            await lobby.journal.close()

    asyncio.run(scenario())
