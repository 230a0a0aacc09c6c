"""Following: a signed-in person keeps a list of players to follow, and sees which of them are
online (an open page of the site: :mod:`~tendays.server.people.presence`) and which are playing,
with their game to watch.

A follow is a row of ``follows`` (revision 0011) keyed by the pair, so following twice is one
follow. A person follows at most :data:`FOLLOWING_CAP` players. The cap, the refusals of a blocked
pair and of an account the operator suspended or closed are decided in the one statement that writes
the follow (``INSERT ... SELECT ... WHERE``): SQLite runs a writing statement under its write lock,
and on PostgreSQL the statement runs after the follower's account row is locked (``SELECT ... FOR
UPDATE``), so a burst of requests, on any number of server processes, never passes the cap.

The list shows nothing a profile does not: the name, the rating of the edition the person played
most, and the unfinished game a profile links to. A pair that either person blocks is left off it.
The functions are synchronous: run them on the journal's database thread.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from sqlalchemy import and_, delete, exists, func, insert, literal, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import aliased

from tendays.engine.i18n import gettext as _

from ..storage.schema import AccountTable, FollowTable, GameTable, RatingTable, SeatTable
from ..vocabulary import SeatKind
from .accounts import Account, AccountError
from .blocks import blocked_between, named_account
from .moderation_types import AccountStatus

__all__ = ["FOLLOWING_CAP", "Followed", "follow", "following", "playing_now", "unfollow"]

#: The most players one person may follow.
FOLLOWING_CAP = 500

#: Who is online among some accounts at a moment: ``people.presence.online_among``'s shape.
OnlineAmong = Callable[[Connection, Collection[int], float], set[int]]


@dataclass(frozen=True, slots=True)
class Followed:
    """A followed player as the list shows them: online, the game they are playing (its id, or
    None), and their rating in the edition they played most (None: no rated game yet)."""

    name: str
    online: bool
    playing: str | None
    rating: float | None
    edition: str | None


def _followed_account(db: Connection, me: Account, name: str) -> Account:
    other = named_account(db, name)
    if other is None:
        raise AccountError(404, _("there is no player called '{name}'").format(name=name[:64]))
    return other


def follow(engine: Engine, me: Account, name: str, now: float) -> Account:
    """``me`` follows the player called ``name``: the followed account. Following someone already
    followed changes nothing. 404 in words for nobody of that name; 409 for oneself, a pair that
    either blocks, an account suspended or closed by the operator, or a full list."""
    with engine.begin() as db:
        other = _followed_account(db, me, name)
        if other.id == me.id:
            raise AccountError(409, _("you cannot follow yourself"))
        # Every follow of one person waits for the others' (on SQLite the statement's write lock
        # does the same), so the count below is the count when the row is written.
        db.execute(select(AccountTable.id).where(AccountTable.id == me.id).with_for_update())
        same = and_(FollowTable.follower_id == me.id, FollowTable.followed_id == other.id)
        count = (
            select(func.count())
            .select_from(FollowTable)
            .where(FollowTable.follower_id == me.id)
            .scalar_subquery()
        )
        active = exists().where(
            AccountTable.id == other.id, AccountTable.status == AccountStatus.ACTIVE.value
        )
        written = db.execute(
            insert(FollowTable)
            .from_select(
                ["follower_id", "followed_id", "created"],
                select(literal(me.id), literal(other.id), literal(now)).where(
                    count < FOLLOWING_CAP,
                    active,
                    ~blocked_between(me.id, other.id),
                    ~exists().where(same),
                ),
            )
            .returning(FollowTable.followed_id)
        ).first()
        if written is not None:
            return other
        # Followed already: the same follow again, unless a block came between them since.
        blocked = db.scalar(select(blocked_between(me.id, other.id)))
        if not blocked and db.scalar(select(exists().where(same))):
            return other
        raise AccountError(409, _refusal(db, me, other, blocked=bool(blocked)))


def _refusal(db: Connection, me: Account, other: Account, blocked: bool) -> str:
    """Why the follow was not written, in words."""
    if blocked:
        return _("you cannot follow {name}: one of you blocks the other").format(name=other.name)
    status = db.scalar(select(AccountTable.status).where(AccountTable.id == other.id))
    if status == AccountStatus.SUSPENDED:
        return _("{name} is suspended by the server's operator and cannot be followed").format(
            name=other.name
        )
    if status == AccountStatus.CLOSED:
        return _("{name}'s account is closed and cannot be followed").format(name=other.name)
    return _(
        "you follow {cap} players already, the most one may; unfollow someone to follow {name}"
    ).format(cap=FOLLOWING_CAP, name=other.name)


def unfollow(engine: Engine, me: Account, name: str) -> Account:
    """``me`` no longer follows the player called ``name`` (nothing changes if they did not). 404
    in words for nobody of that name."""
    with engine.begin() as db:
        other = _followed_account(db, me, name)
        db.execute(
            delete(FollowTable).where(
                FollowTable.follower_id == me.id, FollowTable.followed_id == other.id
            )
        )
    return other


def playing_now(db: Connection, account_ids: Collection[int]) -> dict[int, str]:
    """For each account that plays one, its newest unfinished game with every seat taken (a game a
    profile links to as "playing"), by account id; a seat the person left does not count."""
    if not account_ids:
        return {}
    other = aliased(SeatTable)
    free_seat = exists().where(
        other.game_id == GameTable.id, other.kind == SeatKind.HUMAN, other.token_hash.is_(None)
    )
    rows = db.execute(
        select(SeatTable.account_id, GameTable.id)
        .join(GameTable, GameTable.id == SeatTable.game_id)
        .where(
            SeatTable.account_id.in_(list(account_ids)),
            SeatTable.left.is_not(True),
            GameTable.finished.is_(False),
            GameTable.ended.is_(None),
            ~free_seat,
        )
        .order_by(GameTable.created.desc(), GameTable.id)
    )
    newest: dict[int, str] = {}
    for row in rows:
        newest.setdefault(int(row.account_id), str(row.id))
    return newest


def following(engine: Engine, me: Account, now: float, online_among: OnlineAmong) -> list[Followed]:
    """The players ``me`` follows: those playing first, then those online, then the others, each
    part by name. ``online_among`` says who has an open page of the site at ``now``."""
    with engine.connect() as db:
        rows = db.execute(
            select(AccountTable.id, AccountTable.name, AccountTable.name_key)
            .join(FollowTable, FollowTable.followed_id == AccountTable.id)
            .where(FollowTable.follower_id == me.id, ~blocked_between(me.id, AccountTable.id))
        ).all()
        ids = [int(row.id) for row in rows]
        online = online_among(db, ids, now) if ids else set()
        playing = playing_now(db, ids)
        ratings = _most_played_ratings(db, ids)
    people = [
        Followed(
            name=str(row.name),
            online=int(row.id) in online,
            playing=playing.get(int(row.id)),
            rating=ratings[int(row.id)][1] if int(row.id) in ratings else None,
            edition=ratings[int(row.id)][0] if int(row.id) in ratings else None,
        )
        for row in rows
    ]
    keys = {str(row.name): str(row.name_key) for row in rows}
    return sorted(people, key=lambda p: (p.playing is None, not p.online, keys[p.name]))


def _most_played_ratings(
    db: Connection, account_ids: Collection[int]
) -> dict[int, tuple[str, float]]:
    """Each account's edition with the most rated games and its rating there, as its profile shows
    it."""
    if not account_ids:
        return {}
    best: dict[int, tuple[int, str, float]] = {}
    for row in db.execute(
        select(RatingTable.account_id, RatingTable.edition, RatingTable.mu, RatingTable.games)
        .where(RatingTable.account_id.in_(list(account_ids)))
        .order_by(RatingTable.edition)
    ):
        account = int(row.account_id)
        if account not in best or row.games > best[account][0]:
            best[account] = (int(row.games), str(row.edition), round(float(row.mu), 2))
    return {account: (edition, rating) for account, (_games, edition, rating) in best.items()}
