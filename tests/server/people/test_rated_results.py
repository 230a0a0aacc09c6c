"""Rated results that mean something: the abort rule (a rated game that ends before every person has moved
after the draft moves no rating, and reads as aborted), the repeat cap (the same two accounts count at most
REPEAT_CAP rated games a day in an edition; later ones are rated but capped), decided once when two processes
finish games of one pair at once, the farming run of the audit (two accounts from one address, 30 rated
games, one leaving at move 0) and its harder variant, and the operator's recomputation of an edition, on
SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import time
from pathlib import Path
from typing import Any

import pytest
from rated_helpers import play_past_the_draft, rate_from_a_process
from server_helpers import TestClient, open_table, sign_up
from sqlalchemy import func, select, update
from test_ratings import HUMAN, add_accounts, add_game, open_lobby, rating_of, settled

from tendays.bots import LEVELS
from tendays.engine import Phase
from tendays.server.matches.lobby import Lobby
from tendays.server.matches.master import Match
from tendays.server.people.profiles import leaderboard, profile
from tendays.server.people.rated_rules import REPEAT_CAP, REPEAT_WINDOW, RatedOutcome
from tendays.server.people.ratings import START, Rating, rate_game, rate_places, recompute_edition
from tendays.server.settings import Pace
from tendays.server.storage.schema import GameTable, RatingHistoryTable, RatingTable, SeatTable
from tendays.server.storage.store import Store

SHORT = {"days": 3}  # a draft of three tiles each: the games here are about their ends
HARD = LEVELS["hard"].rating


def honest_day() -> Rating:
    """A newcomer's rating after a day of honest play against one other newcomer, winning every counted
    game: the most one pair can move a rating in a day."""
    winner, loser = START, START
    for _ in range(REPEAT_CAP):
        winner, loser = rate_places([winner, loser], [1, 2])
    return winner


def outcome_of(store: Store, game_id: str) -> str | None:
    with store.engine.connect() as db:
        return db.scalar(select(GameTable.rated_outcome).where(GameTable.id == game_id))


def history_rows(store: Store, game_id: str | None = None) -> int:
    where = [] if game_id is None else [RatingHistoryTable.game_id == game_id]
    with store.engine.connect() as db:
        return int(db.scalar(select(func.count()).select_from(RatingHistoryTable).where(*where)) or 0)


async def rated_game(lobby: Lobby, people: list[int], pace: Any = None) -> Match:
    """A rated game of three days between ``people`` (accounts), every seat taken, as the lobby makes it."""
    match, _token = await lobby.create(
        "usa", [HUMAN] * len(people), SHORT, "P0", Pace(*pace) if pace else None, rated=True, account_id=people[0]
    )
    for number, account in enumerate(people[1:], 1):
        await lobby.join(match.id, f"P{number}", account_id=account)
    return match


def last_table(match: Match) -> dict[str, Any]:
    watcher = match.subscribe(None)
    try:
        table: dict[str, Any] = json.loads(watcher.drain()[-1])["game"]
        return table
    finally:
        match.unsubscribe(watcher)


# -- the abort rule ------------------------------------------------------------------------------


@pytest.mark.parametrize("when", ["at move 0", "after the draft"])
def test_leaving_before_every_person_has_moved_after_the_draft_aborts_a_rated_game(db_url: str, when: str) -> None:
    async def scenario() -> None:
        lobby = open_lobby(db_url)
        try:
            ada, bob = add_accounts(lobby.journal.store, "Ada", "Bob")
            match = await rated_game(lobby, [ada, bob])
            if when == "after the draft":  # both draft; the first to play moves once; the other leaves
                while match.state.phase is Phase.DRAFT:
                    await match.submit(match.state.current, str(match.state.legal_moves()[0]), match.version)
                first = match.state.current
                await match.submit(first, str(match.state.legal_moves()[0]), match.version)
                assert match.seats[first].moved_after_draft
                leaver = 1 - first
            else:
                leaver = 1
            await match.leave(leaver)
            assert match.ended == "forfeit"
            await settled(lobby)
            store = lobby.journal.store
            assert outcome_of(store, match.id) == RatedOutcome.ABORTED
            assert rating_of(store, ada) is None and rating_of(store, bob) is None  # nobody's rating moved
            assert history_rows(store) == 0
            assert match.rated_outcome == "aborted" and last_table(match)["rated_outcome"] == "aborted"
            for name in ("Ada", "Bob"):  # the profile says aborted, not lost or won
                shown = profile(store.engine, name)
                assert shown is not None and shown["ratings"] == {}
                assert [(g["result"], g["rated_outcome"]) for g in shown["games"]] == [("aborted", "aborted")]
        finally:
            await lobby.close()
            await lobby.journal.close()

    asyncio.run(scenario())


def test_once_every_person_has_moved_after_the_draft_leaving_loses(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = open_lobby(f"sqlite:///{tmp_path / 'games.db'}")
        try:
            ada, bob = add_accounts(lobby.journal.store, "Ada", "Bob")
            match = await rated_game(lobby, [ada, bob])
            await play_past_the_draft(match)
            await match.leave(1)
            await settled(lobby)
            store = lobby.journal.store
            assert outcome_of(store, match.id) == RatedOutcome.COUNTED == last_table(match)["rated_outcome"]
            assert rating_of(store, ada).mu > START.mu > rating_of(store, bob).mu
            with store.engine.connect() as db:  # the fact the rule reads is stored with the seats
                assert db.scalars(select(SeatTable.moved_after_draft).where(SeatTable.game_id == match.id)).all() == [
                    True,
                    True,
                ]
        finally:
            await lobby.close()
            await lobby.journal.close()

    asyncio.run(scenario())


@pytest.mark.slow  # waits on a clock or a timeout
@pytest.mark.parametrize("when", ["at move 0", "after the draft"])
def test_timing_out_before_a_first_move_of_ones_own_aborts_a_rated_game(tmp_path: Path, when: str) -> None:
    """The stand-in bot's move for the absent person is not theirs: the game they never played is aborted."""

    async def scenario() -> None:
        lobby = open_lobby(f"sqlite:///{tmp_path / 'games.db'}")
        try:
            ada, bob = add_accounts(lobby.journal.store, "Ada", "Bob")
            match = await rated_game(lobby, [ada, bob], ("live", 1.0, 0))
            if when == "after the draft":
                while match.state.phase is Phase.DRAFT and match.status == "playing":
                    await match.submit(match.state.current, str(match.state.legal_moves()[0]), match.version)
                assert match.status == "playing" and match.state.phase is not Phase.DRAFT
            sleeper = match.state.current
            deadline = time.monotonic() + 20
            while match.status != "over" and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert match.ended == "forfeit" and match.seats[sleeper].left
            await settled(lobby)
            store = lobby.journal.store
            assert outcome_of(store, match.id) == RatedOutcome.ABORTED
            assert rating_of(store, ada) is None and rating_of(store, bob) is None
        finally:
            await lobby.close()
            await lobby.journal.close()

    asyncio.run(scenario())


def test_a_rated_game_that_expires_before_every_first_move_is_aborted(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = open_lobby(f"sqlite:///{tmp_path / 'games.db'}", idle_expiry=60.0)
        try:
            ada, bob = add_accounts(lobby.journal.store, "Ada", "Bob")
            match = await rated_game(lobby, [ada, bob])
            with lobby.journal.store.engine.begin() as db:  # nobody moved for longer than the expiry
                db.execute(update(GameTable).where(GameTable.id == match.id).values(last_move_at=time.time() - 120))
            assert await lobby.sweep() == (1, 0)
            assert match.ended == "abandoned"
            await settled(lobby)
            assert outcome_of(lobby.journal.store, match.id) == RatedOutcome.ABORTED
            assert rating_of(lobby.journal.store, ada) is None
        finally:
            await lobby.close()
            await lobby.journal.close()

    asyncio.run(scenario())


def test_a_rated_game_played_out_counts_however_it_began(db_url: str) -> None:
    """The abort rule is for games that end early: a game won by the rules counts (its seats' moves are
    not asked about)."""
    store = Store(db_url)
    try:
        ada, bob = add_accounts(store, "Ada", "Bob")
        add_game(store, "won", [ada, bob])  # played out: no "ended", no seat marked as moved
        assert rate_game(store.engine, "won", [1, 2])
        assert outcome_of(store, "won") == RatedOutcome.COUNTED
        add_game(store, "left", [ada, bob])
        with store.engine.begin() as db:
            db.execute(update(GameTable).where(GameTable.id == "left").values(ended="forfeit"))
        assert rate_game(store.engine, "left", [1, 2])
        assert outcome_of(store, "left") == RatedOutcome.ABORTED and rating_of(store, ada).games == 1
    finally:
        store.close()


# -- the repeat cap ------------------------------------------------------------------------------


def test_a_pair_counts_at_most_the_cap_in_a_rolling_day_per_edition(db_url: str) -> None:
    store = Store(db_url)
    try:
        ada, bob, cy = add_accounts(store, "Ada", "Bob", "Cy")
        start = 5_000_000.0
        for number in range(REPEAT_CAP + 1):
            add_game(store, f"ab{number}", [ada, bob])
            assert rate_game(store.engine, f"ab{number}", [1, 2], at=start + 60 * number)
        assert [outcome_of(store, f"ab{n}") for n in range(REPEAT_CAP + 1)] == [
            *[RatedOutcome.COUNTED] * REPEAT_CAP,
            RatedOutcome.CAPPED,
        ]
        before = rating_of(store, ada)
        assert before.games == REPEAT_CAP and history_rows(store, f"ab{REPEAT_CAP}") == 0
        assert before.mu == pytest.approx(honest_day().mu)  # the capped win moved nothing
        with store.engine.connect() as db:  # played and recorded: its places are written
            assert db.scalars(
                select(SeatTable.place).where(SeatTable.game_id == f"ab{REPEAT_CAP}").order_by(SeatTable.seat)
            ).all() == [1, 2]
        # another pair, and the same pair in another edition, count
        add_game(store, "ac", [ada, cy])
        assert rate_game(store.engine, "ac", [1, 2], at=start + 600)
        add_game(store, "ab-germany", [ada, bob], edition="germany")
        assert rate_game(store.engine, "ab-germany", [1, 2], at=start + 600)
        assert outcome_of(store, "ac") == outcome_of(store, "ab-germany") == RatedOutcome.COUNTED
        # a rolling day: once the first game is a day old, one more counts, and the next does not
        for name, at, outcome in (
            ("late1", start + REPEAT_WINDOW + 1, RatedOutcome.COUNTED),
            ("late2", start + REPEAT_WINDOW + 2, RatedOutcome.CAPPED),
        ):
            add_game(store, name, [bob, ada])
            assert rate_game(store.engine, name, [1, 2], at=at)
            assert outcome_of(store, name) == outcome
    finally:
        store.close()


def test_with_more_people_the_cap_is_per_pair(db_url: str) -> None:
    store = Store(db_url)
    try:
        ada, bob, cy, dee = add_accounts(store, "Ada", "Bob", "Cy", "Dee")
        for number in range(REPEAT_CAP):
            add_game(store, f"ab{number}", [ada, bob])
            rate_game(store.engine, f"ab{number}", [1, 2])
        # Ada and Bob are at the cap: a game with both of them moves nobody's rating, Cy's neither
        add_game(store, "three", [cy, ada, bob])
        assert rate_game(store.engine, "three", [1, 2, 3])
        assert outcome_of(store, "three") == RatedOutcome.CAPPED and rating_of(store, cy) is None
        # without them together, the others count
        add_game(store, "others", [cy, ada, dee])
        assert rate_game(store.engine, "others", [1, 2, 3])
        assert outcome_of(store, "others") == RatedOutcome.COUNTED and history_rows(store, "others") == 3
    finally:
        store.close()


@pytest.mark.slow  # two processes racing to rate
def test_the_last_counted_game_of_a_pair_is_decided_once_by_two_processes_at_once(db_url: str) -> None:
    """Two processes each finish three games of the same pair at once, one game short of the cap: exactly
    one of the six counts."""
    store = Store(db_url)
    try:
        ada, bob = add_accounts(store, "Ada", "Bob")
        for number in range(REPEAT_CAP - 1):
            add_game(store, f"before{number}", [ada, bob])
            rate_game(store.engine, f"before{number}", [1, 2])
        games = [f"race{n}" for n in range(6)]
        for game in games:
            add_game(store, game, [ada, bob])
    finally:
        store.close()
    spawn = multiprocessing.get_context("spawn")
    barrier, answers = spawn.Barrier(2), spawn.Queue()
    processes = [
        spawn.Process(target=rate_from_a_process, args=(db_url, games[i::2], barrier, 0.0, answers)) for i in range(2)
    ]
    for process in processes:
        process.start()
    written = [answers.get(timeout=120) for _ in games]
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    assert sorted(game for game, wrote in written if wrote) == sorted(games)
    store = Store(db_url)
    try:
        outcomes = [outcome_of(store, game) for game in games]
        assert outcomes.count(RatedOutcome.COUNTED) == 1 and outcomes.count(RatedOutcome.CAPPED) == 5
        assert rating_of(store, ada).games == rating_of(store, bob).games == REPEAT_CAP
        assert history_rows(store) == 2 * REPEAT_CAP
    finally:
        store.close()


# -- the farming run -----------------------------------------------------------------------------


@pytest.mark.slow  # plays 30 games through the API
def test_the_farming_run_moves_no_rating(client: TestClient) -> None:
    """The audit's run through the API: two accounts from one address, 30 rated games, the second leaving
    each at move 0. Every game is aborted: the first account's rating stays where it started, below the
    hard bot, and the leaderboard does not list it."""
    people = {}
    for name in ("Farmer", "Helper"):  # two accounts signed in from one address
        client.cookies.clear()
        csrf = sign_up(client, name)["csrf"]
        people[name] = (dict(client.cookies), csrf)

    def as_(name: str) -> TestClient:
        cookies, csrf = people[name]
        client.cookies.clear()
        client.cookies.update(cookies)
        client.headers["X-CSRF-Token"] = csrf
        return client

    game = {"edition": "usa", "name": "Farmer", "seats": [HUMAN_SEAT, HUMAN_SEAT], "rated": True}
    ids = []
    for _ in range(30):
        created = as_("Farmer").post("/api/games", json=game)
        assert created.status_code == 201, created.text
        joined = as_("Helper").post(f"/api/games/{created.json()['id']}/join", json={"name": "Helper"})
        assert joined.status_code == 200, joined.text
        with open_table(client, joined.json()["id"], joined.json()["token"]) as table:
            table.send_json({"type": "leave"})
            while table.receive_json().get("game", {}).get("status") != "over":
                pass
        ids.append(created.json()["id"])
    deadline = time.monotonic() + 30
    while True:  # the results are written a moment after each end
        shown = client.get("/api/players/Farmer", params={"per_page": 50}).json()
        if all(g["rated_outcome"] == "aborted" for g in shown["games"]):
            break
        assert time.monotonic() < deadline, shown["games"]
        time.sleep(0.05)
    assert sorted(g["id"] for g in shown["games"]) == sorted(ids)
    assert {g["result"] for g in shown["games"]} == {"aborted"}
    assert shown["ratings"] == {}  # no rated game counted: the farmer is where every newcomer starts
    assert HARD is not None and START.mu < HARD
    assert client.get("/api/leaderboard", params={"edition": "usa"}).json()["players"] == []
    assert client.get(f"/api/games/{ids[-1]}").json()["rated_outcome"] == "aborted"
    mine = as_("Farmer").get("/api/account/data").json()["games"]  # the data download says so too
    assert [g["rated_outcome"] for g in mine] == ["aborted"] * 30


HUMAN_SEAT = {"kind": "human"}


@pytest.mark.slow  # plays 30 games through the API
def test_farming_with_one_move_after_the_draft_moves_a_rating_no_more_than_a_day_of_honest_play(tmp_path: Path) -> None:
    """The harder run: the helper drafts and makes one move before leaving, 30 times. Three games count (the
    repeat cap), the rest are capped: the farmer ends exactly where three honest wins against an equal
    newcomer take anyone (31.2), provisional and off the leaderboard."""

    async def scenario() -> None:
        lobby = open_lobby(f"sqlite:///{tmp_path / 'games.db'}")
        try:
            farmer, helper = add_accounts(lobby.journal.store, "Farmer", "Helper")
            for _ in range(30):
                match = await rated_game(lobby, [farmer, helper])
                await play_past_the_draft(match)
                await match.leave(1)
            await settled(lobby)
            store = lobby.journal.store
            rating = rating_of(store, farmer)
            assert rating.games == REPEAT_CAP
            assert rating.mu == pytest.approx(honest_day().mu) and round(rating.mu, 1) == 31.2
            assert Rating(rating.mu, rating.sigma).provisional
            assert leaderboard(store.engine, "usa")["players"] == []
            shown = profile(store.engine, "Farmer", per_page=30)
            assert shown is not None
            outcomes = [g["rated_outcome"] for g in shown["games"]]
            assert outcomes.count("counted") == REPEAT_CAP and outcomes.count("capped") == 30 - REPEAT_CAP
            assert {g["result"] for g in shown["games"]} == {"won"}  # capped games are still won
        finally:
            await lobby.close()
            await lobby.journal.close()

    asyncio.run(scenario())


# -- the operator's recomputation ------------------------------------------------------------------


def test_recompute_edition_replays_the_counted_games_and_leaves_out_the_annulled(db_url: str) -> None:
    store = Store(db_url)
    try:
        ada, bob, cy = add_accounts(store, "Ada", "Bob", "Cy")
        played = [
            ("g1", [ada, bob], [1, 2]),
            ("g2", [cy, bob], [2, 1]),
            ("g3", [ada, cy], [1, 2]),
            ("g4", [bob, ada], [1, 2]),
            ("g5", [ada, bob], [1, 2]),
            ("cap", [ada, bob], [1, 2]),
        ]
        for number, (game, people, places) in enumerate(played):
            add_game(store, game, people)
            rate_game(store.engine, game, places, at=7_000_000 + number)
        assert outcome_of(store, "cap") == RatedOutcome.CAPPED

        def snapshot() -> tuple[dict[int, tuple[float, float, int]], dict[tuple[int, str], float]]:
            with store.engine.connect() as db:
                ratings = {r.account_id: (r.mu, r.sigma, r.games) for r in db.execute(select(RatingTable))}
                history = {(h.account_id, h.game_id): h.rating for h in db.execute(select(RatingHistoryTable))}
            return ratings, history

        before = snapshot()
        with store.engine.begin() as db:  # nothing skipped: the same ratings and history
            recompute_edition(db, "usa", set())
        after = snapshot()
        assert after[1] == pytest.approx(before[1]) and set(after[0]) == set(before[0])
        for account, values in before[0].items():
            assert after[0][account] == pytest.approx(values)

        with store.engine.begin() as db:  # g1 and g3 annulled (Ada's wins): replayed without them
            recompute_edition(db, "usa", {"g1", "g3", "g5", "cap", "elsewhere"})
        # only g2 and g4 are left, in that order
        cy_rating, bob_rating = rate_places([START, START], [2, 1])
        bob_rating, ada_rating = rate_places([bob_rating, START], [1, 2])
        ratings, history = snapshot()
        assert ratings[ada] == pytest.approx((ada_rating.mu, ada_rating.sigma, 1))
        assert ratings[bob] == pytest.approx((bob_rating.mu, bob_rating.sigma, 2))
        assert ratings[cy] == pytest.approx((cy_rating.mu, cy_rating.sigma, 1))
        assert sorted({game for _, game in history}) == ["g2", "g4"]
        assert [outcome_of(store, g) for g in ("g1", "g2", "g3", "g4", "g5", "cap")] == [
            "annulled",
            "counted",
            "annulled",
            "counted",
            "annulled",
            "annulled",
        ]

        with store.engine.begin() as db:  # every game of Cy's annulled: Cy has no rating left
            recompute_edition(db, "usa", {"g2"})
        assert rating_of(store, cy) is None and rating_of(store, ada).games == 1
    finally:
        store.close()


# -- the revision -----------------------------------------------------------------------------------


def test_revision_0008_marks_the_games_that_moved_ratings_before_it_as_counted(db_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    from tendays.server.storage.schema import MIGRATIONS

    store = Store(db_url)
    try:
        ada, bob = add_accounts(store, "Ada", "Bob")
        add_game(store, "old", [ada, bob])
        rate_game(store.engine, "old", [1, 2])
        add_game(store, "friendly", [ada, bob], rated=False)
        rate_game(store.engine, "friendly", [1, 2])
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with store.engine.begin() as db:  # back to before the revision, then up again
            config.attributes["connection"] = db
            command.downgrade(config, "0007")
        with store.engine.begin() as db:
            config.attributes["connection"] = db
            command.upgrade(config, "head")
        assert outcome_of(store, "old") == RatedOutcome.COUNTED and outcome_of(store, "friendly") is None
        assert rating_of(store, ada).games == 1 and history_rows(store, "old") == 2
    finally:
        store.close()
