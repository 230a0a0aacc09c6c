"""Which rated games move ratings: the abort rule and the repeat cap, decided once per game in the
transaction that rates it (:func:`~.ratings.rate_game`).

- **The abort rule** (lichess's): a rated game that ends before it is played out (a player left, was
  away until a bot took the seat, or deleted their account; the game was abandoned or expired)
  before every seat's person has made a move after the draft is *aborted*: nobody's rating moves.
  A move a bot made for an absent person does not count (``seats.moved_after_draft`` is set by a
  person's own move only). A game played out by the rules counts, however fast it was won.
- **The repeat cap**: rated games between the same two accounts count towards their ratings in an
  edition at most :data:`REPEAT_CAP` times in any :data:`REPEAT_WINDOW`; a game beyond that is
  played and recorded as rated but *capped*: nobody's rating moves. With more than two people
  the cap is per pair: the game counts only if every two accounts at the table have counted fewer
  than :data:`REPEAT_CAP` games together in the window; otherwise it moves nobody's rating.

The counted games are exactly those with ``rating_history`` rows (one per account), which is what
the cap counts; the decision holds both accounts' rows locked (``FOR NO KEY UPDATE`` on PostgreSQL;
SQLite has one writer at a time), so two games of one pair finishing at once in two processes are
decided one after the other, and only one of them can be the last that counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from itertools import combinations
from typing import Protocol

from sqlalchemy import and_, func, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import aliased

from ..storage.schema import AccountTable, GameTable, RatingHistoryTable
from ..vocabulary import SeatKind

__all__ = [
    "REPEAT_CAP",
    "REPEAT_WINDOW",
    "RatedOutcome",
    "SeatFacts",
    "counted_together",
    "judge",
    "stored_outcome",
]

#: Rated games between the same two accounts that count, per edition, in any
#: :data:`REPEAT_WINDOW`. A game of 10 Days takes a quarter of an hour to half an hour; an evening
#: of honest play between two people is two to four games, and three counted wins in a row against
#: an equal newcomer take a rating from 25 to 31.2 (still provisional), which is all that one pair
#: can move a rating in a day.
REPEAT_CAP = 3

#: The rolling window of the repeat cap, in seconds (24 hours).
REPEAT_WINDOW = 24 * 3600.0


class RatedOutcome(StrEnum):
    """What a rated game's result did to ratings (``games.rated_outcome``)."""

    COUNTED = "counted"  # it moved its people's ratings (rating history rows)
    CAPPED = "capped"  # rated, but the repeat cap kept it from moving any rating
    ABORTED = "aborted"  # ended before every seat had moved after the draft: not rated
    ANNULLED = "annulled"  # counted once, then annulled by the operator (ratings recomputed)


class SeatFacts(Protocol):
    """What the judge reads of a seat's row."""

    kind: str
    account_id: int | None
    moved_after_draft: bool | None


def judge(
    db: Connection,
    edition: str,
    ended_early: bool,
    seats: Sequence[SeatFacts],
    at: float,
) -> RatedOutcome:
    """Whether a rated game that ended at ``at`` counts, in ``db``'s transaction (which rates it).

    Aborted if it ended early before every person's seat had moved after the draft; capped if two
    of its accounts have already counted :data:`REPEAT_CAP` games together in the edition in the
    last :data:`REPEAT_WINDOW`; else counted. The accounts' rows stay locked until the transaction
    ends, so the games rated meanwhile for the same people wait for this one's history rows.
    """
    if ended_early and any(s.kind == SeatKind.HUMAN and not s.moved_after_draft for s in seats):
        return RatedOutcome.ABORTED
    accounts = sorted({s.account_id for s in seats if s.account_id is not None})
    # In account order, as every rating does: two games locking the same people cannot deadlock.
    db.execute(
        select(AccountTable.id)
        .where(AccountTable.id.in_(accounts))
        .order_by(AccountTable.id)
        .with_for_update(key_share=True)
    ).all()
    since = at - REPEAT_WINDOW
    for first, second in combinations(accounts, 2):
        if counted_together(db, first, second, edition, since) >= REPEAT_CAP:
            return RatedOutcome.CAPPED
    return RatedOutcome.COUNTED


def counted_together(db: Connection, first: int, second: int, edition: str, since: float) -> int:
    """How many games of ``edition`` rated after ``since`` moved both accounts' ratings."""
    mine, theirs = aliased(RatingHistoryTable), aliased(RatingHistoryTable)
    return int(
        db.scalar(
            select(func.count())
            .select_from(mine)
            .join(
                theirs,
                and_(
                    theirs.game_id == mine.game_id,
                    theirs.account_id == second,
                    theirs.edition == edition,
                ),
            )
            .where(mine.account_id == first, mine.edition == edition, mine.at > since)
        )
        or 0
    )


def stored_outcome(engine: Engine, game_id: str) -> RatedOutcome | None:
    """What the game's result did to ratings, as stored; None if unrated or not decided yet."""
    with engine.connect() as db:
        value = db.scalar(select(GameTable.rated_outcome).where(GameTable.id == game_id))
    return None if value is None else RatedOutcome(value)
