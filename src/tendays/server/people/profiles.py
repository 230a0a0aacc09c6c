"""What the site shows of a person and of the best players: a profile (ratings, their history, the games
played, newest first, a page at a time) and an edition's leaderboard, with the bots' published ratings.

A profile's queries start from an index: a person's seats by ``seats.account_id``, their ratings and
history by the primary keys that begin with ``account_id``; so a profile stays fast however many games
the site holds (``benchmarks/accounts.py``). A leaderboard is read whole per edition and paged from
memory (:class:`Leaderboards`).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from sqlalchemy import bindparam, func, select
from sqlalchemy.engine import Connection, Engine

from tendays.bots import LEVELS, ladder_ratings

from ..matches.text import name_key
from ..storage.schema import AccountTable, GameTable, RatingHistoryTable, RatingTable, SeatTable
from .ratings import PROVISIONAL_SIGMA, START, is_provisional

__all__ = ["HISTORY_POINTS", "Leaderboards", "bot_ratings", "profile"]

#: The most recent rated games drawn on a profile's chart, per edition.
HISTORY_POINTS = 500

# Built once, as the store's statements are: building a statement costs more than running these.
_ACCOUNT = select(AccountTable.id, AccountTable.name, AccountTable.created).where(
    AccountTable.name_key == bindparam("key"))
_RATINGS = select(RatingTable).where(RatingTable.account_id == bindparam("account")).order_by(RatingTable.edition)
_HISTORY = (select(RatingHistoryTable.game_id, RatingHistoryTable.at, RatingHistoryTable.rating,
                   RatingHistoryTable.deviation)
            .where(RatingHistoryTable.account_id == bindparam("account"),
                   RatingHistoryTable.edition == bindparam("edition"))
            .order_by(RatingHistoryTable.at.desc()).limit(HISTORY_POINTS + 1))
_GAMES_COUNT = select(func.count()).select_from(SeatTable).where(SeatTable.account_id == bindparam("account"))
_GAMES = (select(SeatTable.game_id, SeatTable.seat, GameTable.edition, GameTable.rated, GameTable.finished,
                 GameTable.ended, GameTable.created, GameTable.finished_at)
          .join(GameTable, GameTable.id == SeatTable.game_id).where(SeatTable.account_id == bindparam("account"))
          .order_by(GameTable.created.desc(), GameTable.id).offset(bindparam("offset")).limit(bindparam("limit")))
_TABLES = (select(SeatTable.game_id, SeatTable.seat, SeatTable.name, SeatTable.kind, SeatTable.bot, SeatTable.place,
                  SeatTable.account_id)
           .where(SeatTable.game_id.in_(bindparam("games", expanding=True)))
           .order_by(SeatTable.game_id, SeatTable.seat))
_BOARD = (select(AccountTable.name, RatingTable.mu, RatingTable.sigma, RatingTable.games)
          .join(AccountTable, AccountTable.id == RatingTable.account_id)
          .where(RatingTable.edition == bindparam("edition"), RatingTable.sigma <= PROVISIONAL_SIGMA)
          .order_by(RatingTable.rating.desc(), RatingTable.account_id))


@dataclass(frozen=True, slots=True)
class _Seat:
    seat: int
    name: str | None
    kind: str
    bot: str | None
    place: int | None
    account_id: int | None


def profile(engine: Engine, name: str, page: int = 1, per_page: int = 20) -> dict[str, Any] | None:
    """A person's profile as ``GET /api/players/{name}`` answers it; None if nobody has that name."""
    with engine.connect() as db:
        account = db.execute(_ACCOUNT, {"key": name_key(name)}).one_or_none()
        if account is None:
            return None
        ratings = {row.edition: {"rating": round(row.mu, 2), "deviation": round(row.sigma, 2), "games": row.games,
                                 "provisional": is_provisional(row.sigma)}
                   for row in db.execute(_RATINGS, {"account": account.id})}
        history = _history(db, account.id, ratings)
        games, total = _games(db, account.id, page, per_page, history)
    return {"name": account.name, "since": account.created, "ratings": ratings, "history": history,
            "games": games, "page": page, "per_page": per_page, "total": total,
            "pages": max(1, -(-total // per_page))}


def _history(db: Connection, account: int, ratings: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Per edition, the rating after each of the last :data:`HISTORY_POINTS` rated games, oldest first."""
    history: dict[str, list[dict[str, Any]]] = {}
    for edition in ratings:
        rows = db.execute(_HISTORY, {"account": account, "edition": edition}).all()
        points = [{"game": r.game_id, "at": r.at, "rating": round(r.rating, 2), "deviation": round(r.deviation, 2)}
                  for r in reversed(rows)]
        # The first game's change is from the start, unless it is older than the chart.
        before = points.pop(0)["rating"] if len(points) > HISTORY_POINTS else round(START.mu, 2)
        for point in points:
            point["change"] = round(point["rating"] - before, 2)
            before = point["rating"]
        history[edition] = points
    return history


def _games(db: Connection, account: int, page: int, per_page: int,
           history: dict[str, list[dict[str, Any]]]) -> tuple[list[dict[str, Any]], int]:
    """One page of the person's games, newest first, with the others at the table and the result."""
    total = db.scalar(_GAMES_COUNT, {"account": account}) or 0
    rows = db.execute(_GAMES, {"account": account, "offset": (page - 1) * per_page, "limit": per_page}).all()
    tables: dict[str, list[_Seat]] = defaultdict(list)
    if rows:
        for s in db.execute(_TABLES, {"games": [r.game_id for r in rows]}):
            tables[s.game_id].append(_Seat(s.seat, s.name, s.kind, s.bot, s.place, s.account_id))
    changes = {(edition, p["game"]): p for edition, points in history.items() for p in points}
    games = []
    for row in rows:
        seats = tables[row.game_id]
        mine = seats[row.seat] if row.seat < len(seats) else None
        point = changes.get((row.edition, row.game_id))
        games.append({
            "id": row.game_id, "edition": row.edition, "rated": bool(row.rated),
            "result": _result(row.finished, mine.place if mine else None, seats),
            "place": mine.place if mine else None, "players": len(seats),
            "others": [{"name": s.name, "bot": s.bot if s.kind == "bot" else None, "place": s.place,
                        "profile": _profile_link(s)} for s in seats if s.seat != row.seat],
            "ended": row.ended, "created": _utc(row.created).isoformat(), "finished_at": row.finished_at,
            "rating": point["rating"] if point else None, "change": point["change"] if point else None,
            "link": f"/replay/{row.game_id}" if row.finished else f"/play/{row.game_id}",
        })
    return games, int(total)


def _profile_link(seat: _Seat) -> str | None:
    """The profile of the account that took the seat (None: anonymous, a bot, or a deleted account)."""
    return f"/players/{quote(seat.name, safe='')}" if seat.account_id is not None and seat.name else None


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _result(finished: bool, place: int | None, seats: list[_Seat]) -> str:
    """"playing", "won", "drawn" (first, shared), "lost", or "abandoned" (ended early, with no result)."""
    if not finished:
        return "playing"
    if place is None:
        return "abandoned"
    if place > 1:
        return "lost"
    return "drawn" if sum(1 for s in seats if s.place == 1) > 1 else "won"


class Leaderboards:
    """Each edition's settled players (not provisional), best first, read whole from the database at most
    every ``fresh`` seconds and paged from memory: one read of the edition's ratings serves every page asked
    for meanwhile, however few of its players are settled (a filter no index of ``ratings`` serves)."""

    def __init__(self, fresh: float = 10.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.fresh = fresh
        self._clock = clock
        self._read: dict[str, tuple[float, list[dict[str, Any]]]] = {}

    def board(self, engine: Engine, edition: str) -> list[dict[str, Any]]:
        """Every settled player of ``edition``, best first (at most ``fresh`` seconds old)."""
        now = self._clock()
        read = self._read.get(edition)
        if read is None or now - read[0] >= self.fresh:
            with engine.connect() as db:
                rows = db.execute(_BOARD, {"edition": edition}).all()
            players = [{"rank": i + 1, "name": r.name, "rating": round(r.mu, 2), "deviation": round(r.sigma, 2),
                        "games": r.games} for i, r in enumerate(rows)]
            read = self._read[edition] = (now, players)
        return read[1]

    def page(self, engine: Engine, edition: str, page: int = 1, per_page: int = 50) -> dict[str, Any]:
        """One page of the leaderboard, as ``GET /api/leaderboard`` answers it."""
        players = self.board(engine, edition)
        first = (page - 1) * per_page
        return {"edition": edition, "players": players[first:first + per_page], "bots": bot_ratings(),
                "page": page, "per_page": per_page, "total": len(players),
                "pages": max(1, -(-len(players) // per_page))}


def bot_ratings() -> dict[str, Any]:
    """The levels' published ratings (``bots/ratings.json``), on people's scale, and where they were measured."""
    published = ladder_ratings()
    tournament = published.get("tournament", {})
    levels = [{"level": name, "bot": level.bot, "rating": entry["mu"], "deviation": entry["sigma"]}
              for name, level in LEVELS.items() if (entry := published["ratings"].get(name)) is not None]
    return {"levels": levels, "edition": tournament.get("edition"), "players": tournament.get("players")}
