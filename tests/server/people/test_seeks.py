"""Quick pairing's seeks in the database, on SQLite and PostgreSQL: who is paired with whom (edition, pace,
ratings, never oneself), one open seek a person, lapsing, cancelling, with many threads on two connection
pools at once no seek paired twice; and the matchmaker, whose pair waits again when its game cannot be made."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("sqlalchemy")
from server_helpers import settings  # noqa: E402
from sqlalchemy import insert  # noqa: E402

from tendays.server.matches.lobby import Lobby  # noqa: E402
from tendays.server.people.matchmaker import Matchmaker  # noqa: E402
from tendays.server.people.seeks import Pairing, SeekBook, SeekStatus  # noqa: E402
from tendays.server.settings import Pace  # noqa: E402
from tendays.server.storage.journal import Journal  # noqa: E402
from tendays.server.storage.schema import AccountTable, RatingTable  # noqa: E402
from tendays.server.storage.store import Store  # noqa: E402

NEW = 1000.0  # the rating of someone with no rated game
LIVE = Pace("live", 60)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = Store(db_url)
    yield opened
    opened.close()


@pytest.fixture
def book(store: Store) -> SeekBook:
    return SeekBook(store.engine, expiry=60, new_rating=NEW)


def accounts(store: Store, count: int, ratings: dict[int, float] | None = None) -> list[int]:
    """``count`` accounts (ids from 1), with the ratings given in "usa" (by position)."""
    with store.engine.begin() as db:
        for i in range(1, count + 1):
            db.execute(
                insert(AccountTable).values(id=i, name=f"p{i}", name_key=f"p{i}", password_hash="x", created=0.0)
            )
        for i, rating in (ratings or {}).items():
            db.execute(
                insert(RatingTable).values(
                    account_id=i, edition="usa", mu=25, sigma=8, rating=rating, games=3, updated=0.0
                )
            )
    return list(range(1, count + 1))


def seek(
    book: SeekBook,
    account: int,
    edition: str = "usa",
    pace: Pace | None = LIVE,
    low: float | None = None,
    high: float | None = None,
    now: float | None = None,
) -> str:
    return book.post(account, edition, pace, low, high, time.time() if now is None else now).id


def test_two_compatible_seeks_pair_the_older_first(store: Store, book: SeekBook) -> None:
    ann, ben = accounts(store, 2)
    first = seek(book, ann, now=time.time() - 1)
    assert book.pair(first, time.time()) is None  # alone
    second = seek(book, ben)
    pairing = book.pair(second, time.time())
    assert pairing is not None
    assert [s.id for s in pairing.seeks] == [first, second]
    assert [s.account_id for s in pairing.seeks] == [ann, ben]
    for seek_id in (first, second):
        stored = book.get(seek_id)
        assert stored is not None and stored.status == SeekStatus.PAIRED and stored.game_id is None
    assert book.pair(first, time.time()) is None  # paired once only


@pytest.mark.parametrize(("edition", "pace"), [("germany", LIVE), ("usa", Pace("live", 90)), ("usa", None)])
def test_a_different_edition_or_pace_does_not_pair(
    store: Store, book: SeekBook, edition: str, pace: Pace | None
) -> None:
    ann, ben = accounts(store, 2)
    seek(book, ann)
    assert book.pair(seek(book, ben, edition, pace), time.time()) is None


def test_no_one_is_paired_with_themselves(store: Store, book: SeekBook) -> None:
    ann, ben = accounts(store, 2)
    book.post(ann, "usa", LIVE, None, None, time.time())
    again = seek(book, ann)  # the first is cancelled: one open seek a person
    assert book.pair(again, time.time()) is None
    assert book.pair(seek(book, ben), time.time()) is not None


def test_each_rating_must_lie_in_the_others_range(store: Store, book: SeekBook) -> None:
    ann, ben, cid, dan = accounts(store, 4, {1: 1500.0, 2: 1800.0, 3: 1550.0})
    picky = seek(book, ann, low=1400, high=1600)
    assert book.pair(seek(book, ben), time.time()) is None  # 1800 is outside Ann's range
    assert book.pair(seek(book, dan, low=1520, high=1700), time.time()) is None  # Ann 1500, Ben 1800: outside
    pairing = book.pair(seek(book, cid), time.time())
    assert pairing is not None and pairing.first.id == picky and pairing.second.account_id == cid


def test_someone_new_counts_with_the_new_rating(store: Store, book: SeekBook) -> None:
    ann, ben = accounts(store, 2)
    seek(book, ann, low=NEW + 1)
    assert book.pair(seek(book, ben), time.time()) is None
    assert book.pair(seek(book, ben, low=NEW - 1, high=NEW), time.time()) is None  # Ann's range still refuses


def test_a_cancelled_or_lapsed_seek_is_not_paired(store: Store, book: SeekBook) -> None:
    ann, ben, cid = accounts(store, 3)
    cancelled = seek(book, ann)
    assert book.cancel(cancelled)
    assert not book.cancel(cancelled)
    old = seek(book, ben, now=time.time() - 120)
    waiting = seek(book, cid)
    assert book.pair(waiting, time.time()) is None
    assert book.sweep(time.time()) == [waiting]  # the old one lapsed
    lapsed = book.get(old)
    assert lapsed is not None and lapsed.status == SeekStatus.EXPIRED


def test_a_settled_pairing_tells_each_owner_the_game_a_while_and_a_failed_one_waits_again(
    store: Store, book: SeekBook
) -> None:
    ann, ben, cid, dan = accounts(store, 4)
    seek(book, ann)
    failed = book.pair(seek(book, ben), time.time())
    assert failed is not None
    book.reopen(failed)
    assert all(s is not None and s.status == SeekStatus.OPEN for s in (book.get(x.id) for x in failed.seeks))
    pairing = book.pair(failed.first.id, time.time())
    assert pairing is not None
    book.settle(pairing, "g1", {pairing.first.id: "t-first", pairing.second.id: "t-second"})
    first, second = book.get(pairing.first.id), book.get(pairing.second.id)
    assert first is not None and (first.game_id, first.token) == ("g1", "t-first")
    assert second is not None and (second.game_id, second.token) == ("g1", "t-second")
    book.sweep(time.time() + 120)  # later, the tokens are forgotten; the game stays
    forgotten = book.get(pairing.first.id)
    assert forgotten is not None and (forgotten.game_id, forgotten.token) == ("g1", None)


@pytest.mark.slow  # over a second of CPU
def test_many_seeks_paired_at_once_through_two_pools_are_each_paired_at_most_once(store: Store, db_url: str) -> None:
    people = accounts(store, 40)
    other = Store(db_url)
    books = [SeekBook(store.engine, 60, NEW), SeekBook(other.engine, 60, NEW)]
    try:

        def post_and_pair(account: int) -> Pairing | None:
            book = books[account % 2]
            return book.pair(seek(book, account), time.time())

        with ThreadPoolExecutor(8) as pool:
            pairings = [p for p in pool.map(post_and_pair, people) if p is not None]
        for seek_id in books[0].sweep(time.time()):  # the sweep catches pairs missed in the race
            if (found := books[1].pair(seek_id, time.time())) is not None:
                pairings.append(found)
    finally:
        other.close()
    seeks = [s.id for p in pairings for s in p.seeks]
    assert len(seeks) == len(set(seeks)) == 40  # every seek paired, none twice
    assert all(p.first.account_id != p.second.account_id for p in pairings)
    paired = [books[0].get(s) for s in seeks]
    assert all(s is not None and s.status == SeekStatus.PAIRED for s in paired)
    assert len(pairings) == 20


async def test_a_pair_whose_game_cannot_be_made_waits_again_and_the_sweep_pairs_it(db_url: str) -> None:
    lobby = Lobby(Journal(Store(db_url)), settings(max_games=0))  # full: no game can be made
    lobby.start()
    matchmaker = Matchmaker(lobby)
    try:
        ann, ben = accounts(lobby.journal.store, 2)
        seeks = [await matchmaker.seek(person, "usa", None) for person in (ann, ben)]
        await asyncio.gather(*matchmaker._tasks)
        waiting = [await matchmaker.look(s.id, s.account_id) for s in seeks]
        assert all(s is not None and s.status == SeekStatus.OPEN for s in waiting)
        lobby.settings.max_games = 10
        assert await matchmaker.sweep() == 1
        paired = [await matchmaker.look(s.id, s.account_id) for s in seeks]
        assert all(s is not None and s.status == SeekStatus.PAIRED and s.token for s in paired)
        assert paired[0] is not None and paired[1] is not None and paired[0].game_id == paired[1].game_id
        assert await matchmaker.look(seeks[0].id, ben) is None  # someone else's seek is nobody's to read
    finally:
        await matchmaker.close()
        await lobby.close()
        await lobby.journal.close()


def test_a_pairing_whose_game_was_never_made_waits_again_after_the_grace(store: Store, book: SeekBook) -> None:
    from tendays.server.people.seeks import PAIRING_GRACE

    ann, ben = accounts(store, 2)
    start = time.time()
    first = seek(book, ann, now=start)
    pairing = book.pair(seek(book, ben, now=start + 20), start + 25)  # then its process died
    assert pairing is not None
    book.sweep(start + 25 + PAIRING_GRACE - 1)  # a game may still be on its way
    assert {book.get(s.id).status for s in pairing.seeks} == {SeekStatus.PAIRED}  # type: ignore[union-attr]
    later = start + 25 + PAIRING_GRACE + 1
    assert set(book.sweep(later)) == {first, pairing.second.id}  # past the grace: both wait, to be paired again
    assert book.settle(pairing, "late", {s.id: "t" for s in pairing.seeks}) is False  # too late: not written
    again = book.pair(first, later)
    assert again is not None and {s.id for s in again.seeks} == {first, pairing.second.id}
    assert book.settle(again, "g1", {s.id: "t" for s in again.seeks})
    assert book.sweep(later + 10 * PAIRING_GRACE) == []  # a pairing with its game stays paired
    assert {book.get(s.id).game_id for s in again.seeks} == {"g1"}  # type: ignore[union-attr]
