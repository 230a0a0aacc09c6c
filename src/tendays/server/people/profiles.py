"""What the site shows of a person and of the best players: a profile (ratings, their history, the
games played, newest first, a page at a time) and an edition's leaderboard, with the bots' published
ratings.

A profile is three statements, each starting from an index: the account with its ratings (by
``name_key``, then the primary key that begins with ``account_id``), every edition's recent history
at once (the same), and one page of games with everyone at their tables and the number of games (by
``seats.account_id``); so a profile stays fast however many games the site holds, and costs three
round trips to the database whatever the person played (``benchmarks/accounts.py``). A leaderboard
page is read through ``ix_ratings_settled``, the index of the settled players only (revision 0005),
best first: a page costs the rows it shows, however few of an edition's players are settled. The
leaderboards leave off the accounts the operator suspended, closed or hid (revision 0009); their
profiles say so. Bot accounts are listed beside people, marked (``bot_account``), unless the
reader hides them (``bots=false``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from sqlalchemy import Select, bindparam, exists, func, select, text
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.orm import aliased

from tendays.bots import LEVELS, ladder_ratings

from ..matches.text import name_key
from ..matches.wire import seat_name
from ..storage.schema import (
    SETTLED,
    UNLISTED_SQL,
    AccountTable,
    GameTable,
    RatingHistoryTable,
    RatingTable,
    SeatTable,
)
from ..vocabulary import SeatKind
from .rated_rules import RatedOutcome
from .ratings import START, is_provisional

__all__ = ["HISTORY_POINTS", "bot_ratings", "leaderboard", "profile"]

#: The most recent rated games drawn on a profile's chart, per edition.
HISTORY_POINTS = 500

# Built once, as the store's statements are: building a statement costs more than running these.
_ACCOUNT = (
    select(
        AccountTable.id,
        AccountTable.name,
        AccountTable.created,
        AccountTable.status,
        AccountTable.bot,
        RatingTable.edition,
        RatingTable.mu,
        RatingTable.sigma,
        RatingTable.games,
    )
    .outerjoin(RatingTable, RatingTable.account_id == AccountTable.id)
    .where(AccountTable.name_key == bindparam("key"))
    .order_by(RatingTable.edition)
)
_RECENT = (
    select(
        RatingHistoryTable.edition,
        RatingHistoryTable.game_id,
        RatingHistoryTable.at,
        RatingHistoryTable.rating,
        RatingHistoryTable.deviation,
        func.row_number()
        .over(partition_by=RatingHistoryTable.edition, order_by=RatingHistoryTable.at.desc())
        .label("newness"),
    )
    .where(RatingHistoryTable.account_id == bindparam("account"))
    .subquery()
)
_HISTORY = (
    select(_RECENT)
    .where(_RECENT.c.newness <= HISTORY_POINTS + 1)
    .order_by(_RECENT.c.edition, _RECENT.c.at)
)
_GAMES_COUNT = (
    select(func.count()).select_from(SeatTable).where(SeatTable.account_id == bindparam("account"))
)
_PAGE = (
    select(
        SeatTable.game_id,
        SeatTable.seat.label("mine"),
        GameTable.edition,
        GameTable.rated,
        GameTable.rated_outcome,
        GameTable.finished,
        GameTable.ended,
        GameTable.created,
        GameTable.finished_at,
        func.count().over().label("total"),
    )
    .join(GameTable, GameTable.id == SeatTable.game_id)
    .where(SeatTable.account_id == bindparam("account"))
    .order_by(GameTable.created.desc(), GameTable.id)
    .offset(bindparam("offset"))
    .limit(bindparam("limit"))
    .subquery()
)
# The page's games with every seat at their tables, in one round trip.
_GAMES = (
    select(
        _PAGE,
        SeatTable.seat,
        SeatTable.name,
        SeatTable.kind,
        SeatTable.bot,
        SeatTable.place,
        SeatTable.account_id,
        AccountTable.bot.label("bot_account"),
    )
    .join(SeatTable, SeatTable.game_id == _PAGE.c.game_id)
    .outerjoin(AccountTable, AccountTable.id == SeatTable.account_id)
    .order_by(_PAGE.c.created.desc(), _PAGE.c.game_id, SeatTable.seat)
)
# On the leaderboards: the accounts the operator has not suspended, closed or hidden (revision
# 0009), left out through the partial index of those few (``ix_accounts_unlisted``), so the board
# still reads only the settled players' index.
_UNLISTED = aliased(AccountTable, name="unlisted")
_LISTED = ~exists(
    # the condition in brackets and as the index words it (its names are the subquery's own)
    select(_UNLISTED.id).where(_UNLISTED.id == RatingTable.account_id, text(f"({UNLISTED_SQL})"))
)
# The board without the bot accounts (``?bots=false``): a bot account is a program.
_BOT = aliased(AccountTable, name="bot_account")
_NOT_BOT = ~exists(select(_BOT.id).where(_BOT.id == RatingTable.account_id, _BOT.bot.is_(True)))


def _board(hide_bots: bool) -> tuple[Select[Any], Select[Any]]:
    """The board's count and a page of it, counted in the same round trip; without the bot
    accounts if ``hide_bots``."""
    shown = [RatingTable.edition == bindparam("edition"), SETTLED, _LISTED]
    if hide_bots:
        shown.append(_NOT_BOT)
    count = select(func.count()).select_from(RatingTable).where(*shown)
    board = (
        select(
            AccountTable.name,
            AccountTable.bot,
            RatingTable.mu,
            RatingTable.sigma,
            RatingTable.games,
            count.scalar_subquery().label("total"),
        )
        .join(AccountTable, AccountTable.id == RatingTable.account_id)
        .where(*shown)
        .order_by(RatingTable.rating.desc(), RatingTable.account_id.desc())
        .offset(bindparam("offset"))
        .limit(bindparam("limit"))
    )
    return count, board


_BOARDS = {hide_bots: _board(hide_bots) for hide_bots in (False, True)}


@dataclass(frozen=True, slots=True)
class _Seat:
    seat: int
    name: str | None
    kind: str
    bot: str | None
    place: int | None
    account_id: int | None
    bot_account: bool


def profile(engine: Engine, name: str, page: int = 1, per_page: int = 20) -> dict[str, Any] | None:
    """A person's profile as ``GET /api/players/{name}`` answers it;
    None if nobody has that name."""
    with engine.connect() as db:
        rows = db.execute(_ACCOUNT, {"key": name_key(name)}).all()
        if not rows:
            return None
        account = rows[0]
        ratings = {
            row.edition: {
                "rating": round(row.mu, 2),
                "deviation": round(row.sigma, 2),
                "games": row.games,
                "provisional": is_provisional(row.sigma),
            }
            for row in rows
            if row.edition is not None
        }
        history = _history(db, account.id) if ratings else {}
        games, total = _games(db, account.id, page, per_page, history)
    return {
        "name": account.name,
        # a bot account: a program playing through the Bot API, marked BOT
        "bot_account": bool(account.bot),
        "since": account.created,
        # "active", "suspended" or "closed" (by the server's operator)
        "status": account.status,
        "ratings": ratings,
        "history": history,
        "games": games,
        "page": page,
        "per_page": per_page,
        "total": total,
        "pages": max(1, -(-total // per_page)),
    }


def _history(db: Connection, account: int) -> dict[str, list[dict[str, Any]]]:
    """Per edition, the rating after each of the last :data:`HISTORY_POINTS`
    rated games, oldest first."""
    by_edition: dict[str, list[Row[Any]]] = defaultdict(list)
    for row in db.execute(_HISTORY, {"account": account}):
        by_edition[row.edition].append(row)
    history: dict[str, list[dict[str, Any]]] = {}
    for edition, rows in by_edition.items():
        points = [
            {
                "game": r.game_id,
                "at": r.at,
                "rating": round(r.rating, 2),
                "deviation": round(r.deviation, 2),
            }
            for r in rows
        ]
        # The first game's change is from the start, unless it is older than the chart.
        before = points.pop(0)["rating"] if len(points) > HISTORY_POINTS else round(START.mu, 2)
        for point in points:
            point["change"] = round(point["rating"] - before, 2)
            before = point["rating"]
        history[edition] = points
    return history


def _games(
    db: Connection, account: int, page: int, per_page: int, history: dict[str, list[dict[str, Any]]]
) -> tuple[list[dict[str, Any]], int]:
    """One page of the person's games, newest first, with the others at the table and the result."""
    rows: list[Row[Any]] = []  # one per game of the page (its first seat's row), newest first
    tables: dict[str, list[_Seat]] = defaultdict(list)
    for s in db.execute(
        _GAMES, {"account": account, "offset": (page - 1) * per_page, "limit": per_page}
    ):
        if s.game_id not in tables:
            rows.append(s)
        tables[s.game_id].append(
            _Seat(s.seat, s.name, s.kind, s.bot, s.place, s.account_id, bool(s.bot_account))
        )
    # Counted with the page; counted apart only for a page past the last one.
    total = rows[0].total if rows else db.scalar(_GAMES_COUNT, {"account": account}) or 0
    changes = {(edition, p["game"]): p for edition, points in history.items() for p in points}
    games = []
    for row in rows:
        seats = tables[row.game_id]
        mine = next((s for s in seats if s.seat == row.mine), None)
        point = changes.get((row.edition, row.game_id))
        games.append(
            {
                "id": row.game_id,
                "edition": row.edition,
                "rated": bool(row.rated),
                "rated_outcome": row.rated_outcome,
                "result": _result(
                    row.finished, mine.place if mine else None, seats, row.rated_outcome
                ),
                "place": mine.place if mine else None,
                "players": len(seats),
                "others": [
                    {
                        # a bot's name in the reader's language, from its level ("Bot (normal)")
                        "name": seat_name(s.seat, s.kind, s.name, s.bot)
                        if s.kind == SeatKind.BOT
                        else s.name,
                        "bot": s.bot if s.kind == SeatKind.BOT else None,
                        "place": s.place,
                        "bot_account": s.bot_account,
                        "profile": _profile_link(s),
                    }
                    for s in seats
                    if s.seat != row.mine
                ],
                "ended": row.ended,
                "created": _utc(row.created).isoformat(),
                "finished_at": row.finished_at,
                "rating": point["rating"] if point else None,
                "change": point["change"] if point else None,
                "link": f"/replay/{row.game_id}" if row.finished else f"/play/{row.game_id}",
            }
        )
    return games, int(total)


def _profile_link(seat: _Seat) -> str | None:
    """The profile of the account that took the seat (None: anonymous,
    a bot, or a deleted account)."""
    return (
        f"/players/{quote(seat.name, safe='')}"
        if seat.account_id is not None and seat.name
        else None
    )


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _result(finished: bool, place: int | None, seats: list[_Seat], outcome: str | None) -> str:
    """ "playing", "won", "drawn" (first, shared), "lost", "abandoned" (ended early, with no
    result), or "aborted" (a rated game ended before every person's first move after the draft:
    neither won nor lost)."""
    if not finished:
        return "playing"
    if outcome == RatedOutcome.ABORTED:
        return "aborted"
    if place is None:
        return "abandoned"
    if place > 1:
        return "lost"
    return "drawn" if sum(1 for s in seats if s.place == 1) > 1 else "won"


def leaderboard(
    engine: Engine, edition: str, page: int = 1, per_page: int = 50, bots: bool = True
) -> dict[str, Any]:
    """One page of an edition's settled players (not provisional), best first, as ``GET
    /api/leaderboard`` answers it: one statement on the index of the settled players (two for a page
    past the last). ``bots``: with the bot accounts (marked), or without them."""
    first = (page - 1) * per_page
    count, board = _BOARDS[not bots]
    with engine.connect() as db:
        rows = db.execute(board, {"edition": edition, "offset": first, "limit": per_page}).all()
        total = int(rows[0].total if rows else db.scalar(count, {"edition": edition}) or 0)
    players = [
        {
            "rank": first + i + 1,
            "name": r.name,
            "bot_account": bool(r.bot),
            "rating": round(r.mu, 2),
            "deviation": round(r.sigma, 2),
            "games": r.games,
        }
        for i, r in enumerate(rows)
    ]
    return {
        "edition": edition,
        "players": players,
        "bots": bot_ratings(),
        "page": page,
        "per_page": per_page,
        "total": total,
        "pages": max(1, -(-total // per_page)),
    }


def bot_ratings() -> dict[str, Any]:
    """The levels' published ratings (``bots/ratings.json``), on people's scale,
    and where they were measured."""
    published = ladder_ratings()
    tournament = published.get("tournament", {})
    levels = [
        {"level": name, "bot": level.bot, "rating": entry["mu"], "deviation": entry["sigma"]}
        for name, level in LEVELS.items()
        if (entry := published["ratings"].get(name)) is not None
    ]
    return {
        "levels": levels,
        "edition": tournament.get("edition"),
        "players": tournament.get("players"),
    }
