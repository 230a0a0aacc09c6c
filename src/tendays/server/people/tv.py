"""Which game ``/tv`` shows: the best-rated game being played now.

A game is being played when it is unfinished, not ended early, and every seat is taken (a game
starts once it is). Its strength is the mean rating of its seats: an account's rating in the game's
edition (the starting rating if it has none there yet), a bot's the published rating of its ladder
level (``bots/ratings.json``, measured on the USA map: the one figure the site has for a bot); an
anonymous person's seat has no rating and is left out of the mean. The game with the highest mean
wins, a game with no rated seat at all comes last, and among equals the one with the most recent
move. One statement chooses it (grouped by game, over the unfinished games), so every server
process chooses alike. The function is synchronous: run it on the journal's database thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, case, exists, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import ColumnElement

from tendays.bots import LEVELS, ladder_ratings

from ..matches.wire import listed_name
from ..storage.schema import AccountTable, GameTable, RatingTable, SeatTable
from ..vocabulary import SeatKind
from .ratings import START

__all__ = ["TvGame", "TvSeat", "best_game", "bot_rating"]


@dataclass(frozen=True, slots=True)
class TvSeat:
    """A seat of the game shown: the name a spectator reads, and the rating counted (None: an
    anonymous person)."""

    name: str | None
    rating: float | None
    bot_account: bool = False  # the seat's account is a bot account (marked BOT)


@dataclass(frozen=True, slots=True)
class TvGame:
    """The game ``/tv`` shows, with its seats in order."""

    id: str
    edition: str
    seats: tuple[TvSeat, ...]


def _bot_ratings() -> dict[str, float]:
    """A bot seat's rating by what the seat stores as its bot: a level's name, or the bot that
    plays a level."""
    published: Mapping[str, Any] = ladder_ratings()["ratings"]
    ratings: dict[str, float] = {}
    for name, level in LEVELS.items():
        if (entry := published.get(name)) is not None:
            ratings.setdefault(level.bot, float(entry["mu"]))
            ratings[name] = float(entry["mu"])
    return ratings


def bot_rating(bot: str | None) -> float | None:
    """The published rating of a bot seat's level; None for a bot off the ladder."""
    return _bot_ratings().get(bot or "normal")


def _seat_rating() -> ColumnElement[Any]:
    """A seat's rating in SQL: see the module's text (RatingTable joined for the game's edition)."""
    bots = _bot_ratings()
    return case(
        (SeatTable.account_id.is_not(None), func.coalesce(RatingTable.mu, START.mu)),
        (SeatTable.kind == SeatKind.BOT, case(bots, value=func.coalesce(SeatTable.bot, "normal"))),
        else_=None,
    )


def best_game(engine: Engine) -> TvGame | None:
    """The best-rated game being played now, or None when no game is."""
    other = aliased(SeatTable)
    free_seat = exists().where(
        other.game_id == GameTable.id, other.kind == SeatKind.HUMAN, other.token_hash.is_(None)
    )
    by_rating = and_(
        RatingTable.account_id == SeatTable.account_id, RatingTable.edition == GameTable.edition
    )
    mean = func.avg(_seat_rating())
    with engine.connect() as db:
        chosen = db.execute(
            select(GameTable.id, GameTable.edition)
            .join(SeatTable, SeatTable.game_id == GameTable.id)
            .outerjoin(RatingTable, by_rating)
            .where(GameTable.finished.is_(False), GameTable.ended.is_(None), ~free_seat)
            .group_by(GameTable.id, GameTable.edition, GameTable.last_move_at)
            .order_by(
                mean.desc().nulls_last(),
                GameTable.last_move_at.desc().nulls_last(),
                GameTable.id,
            )
            .limit(1)
        ).first()
        if chosen is None:
            return None
        seats = db.execute(
            select(
                SeatTable.seat,
                SeatTable.kind,
                SeatTable.name,
                SeatTable.bot,
                _seat_rating().label("rating"),
                AccountTable.bot.label("bot_account"),
            )
            .join(GameTable, GameTable.id == SeatTable.game_id)
            .outerjoin(RatingTable, by_rating)
            .outerjoin(AccountTable, AccountTable.id == SeatTable.account_id)
            .where(SeatTable.game_id == chosen.id)
            .order_by(SeatTable.seat)
        ).all()
    return TvGame(
        id=str(chosen.id),
        edition=str(chosen.edition),
        seats=tuple(
            TvSeat(
                name=listed_name(s.seat, s.kind, s.name, s.bot),
                rating=None if s.rating is None else round(float(s.rating), 2),
                bot_account=bool(s.bot_account),
            )
            for s in seats
        ),
    )
