"""The tournaments in the database: creating one (by a person or the operator), joining,
withdrawing, pausing and coming back, cancelling, and the operator's repeating series.

Every rule that strangers could race is decided by the database in the statement that acts:
one entry per person (``ux_tournament_entrants_account``: a burst of joins makes one entry and the
others are told they already joined), a person's creations per day (people/limits.py, counted in
the creating transaction), a join against the event's state (the event's row is read under a
share lock, so a Swiss round cannot be paired between the check and the entry). The functions are
synchronous: run them on the journal's database thread.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from tendays import bots
from tendays.engine.i18n import gettext as _

from ..matches.wire import stored_bot_name
from ..storage.schema import (
    AccountTable,
    RatingTable,
    TournamentEntrantTable,
    TournamentSeriesTable,
    TournamentTable,
)
from .audit import Operator, record
from .limits import count
from .moderation_types import AccountStatus, OperatorAction
from .ratings import START
from .tournament_rules import TournamentKind
from .tournament_spec import EventSpec, TournamentError, TournamentStatus

__all__ = [
    "CREATE_WINDOW",
    "cancel",
    "create",
    "join",
    "make_series_events",
    "pause",
    "schedule",
    "series_list",
    "unschedule",
    "withdraw",
]

CREATE_WINDOW = 86400.0  # a person's creations are counted per day
SERIES_AHEAD = 3600.0  # a series' next event is made this long before it starts
Entrants = TournamentEntrantTable


def _upsert(db: Connection) -> Callable[..., Any]:
    """The dialect's INSERT, which knows ON CONFLICT."""
    return postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert


def bot_rating(level: str) -> float:
    """A ladder bot's rating, as the published ladder measured it."""
    ratings = bots.ladder_ratings().get("ratings", {})
    return float(ratings.get(level, {}).get("mu", START.mu))


def _insert_event(
    db: Connection,
    spec: EventSpec,
    starts_at: float,
    now: float,
    created_by: int | None,
    series_id: int | None = None,
) -> int | None:
    """Store an event and its bot entrants; its id, or None when its series already has an event
    at that time (made by another process a moment ago)."""
    ends_at = (
        starts_at + spec.minutes * 60
        if spec.kind is TournamentKind.ARENA and spec.minutes
        else None
    )
    values = {
        **spec.row(),
        "starts_at": starts_at,
        "ends_at": ends_at,
        "status": TournamentStatus.UPCOMING.value,
        "round": 0,
        "created_by": created_by,
        "created": now,
        "series_id": series_id,
        "reminded": False,
        "lease_epoch": 0,
    }
    statement = _upsert(db)(TournamentTable).values(**values)
    if series_id is not None:
        statement = statement.on_conflict_do_nothing(
            index_elements=[TournamentTable.series_id, TournamentTable.starts_at]
        )
    tournament_id = db.execute(statement.returning(TournamentTable.id)).scalar()
    if tournament_id is None:
        return None
    for level in spec.bots:
        db.execute(
            insert(Entrants).values(
                tournament_id=tournament_id,
                account_id=None,
                bot=level,
                name=stored_bot_name(level),
                rating=bot_rating(level),
                joined=now,
                first_round=1,
                withdrawn=False,
                paused=False,
                free_since=starts_at,
            )
        )
    return int(tournament_id)


def create(
    engine: Engine,
    spec: EventSpec,
    starts_at: float,
    now: float,
    created_by: int | None,
    per_day: int = 0,
    operator: Operator | None = None,
) -> int:
    """Store a checked event (:func:`~.tournament_spec.check_spec`); its id. ``created_by``: the
    person (whose creations are limited to ``per_day`` a day, counted in the same transaction;
    429 over it), None for the operator (``operator``: who, for the audit log). 422 for a start
    in the past or too far ahead."""
    if starts_at < now - 60:
        raise TournamentError(422, _("a tournament cannot start in the past"))
    if starts_at > now + 30 * 86400:
        raise TournamentError(422, _("a tournament starts within 30 days"))
    with engine.begin() as db:
        if created_by is not None and per_day > 0:
            wait = count(db, [(f"tournaments:{created_by}", per_day)], CREATE_WINDOW, now)
            if wait:
                raise TournamentError(
                    429,
                    _("you have created {most} tournaments today; try again later").format(
                        most=per_day
                    ),
                    retry_after=wait,
                )
        made = _insert_event(db, spec, max(starts_at, now), now, created_by)
        assert made is not None  # only a series' event can meet another at its time
        _audit(db, operator, OperatorAction.CREATE_TOURNAMENT, now, tournament=made, name=spec.name)
    return made


def _audit(
    db: Connection, operator: Operator | None, action: OperatorAction, now: float, **what: Any
) -> None:
    """The operator's action on tournaments in the audit log, in the action's transaction."""
    if operator is not None:
        record(db, operator, action, now, outcome=what)


def _event(db: Connection, tournament_id: int, lock: bool = False) -> Any:
    query = select(TournamentTable).where(TournamentTable.id == tournament_id)
    if lock and db.dialect.name == "postgresql":
        query = query.with_for_update(read=True)
    row = db.execute(query).first()
    if row is None:
        raise TournamentError(404, _("there is no tournament {id}").format(id=tournament_id))
    return row


def _shared_lock(db: Connection, query: Any) -> Any:
    """``query`` with its rows locked against change (``FOR SHARE``) on PostgreSQL; SQLite has
    one writer at a time."""
    return query.with_for_update(read=True) if db.dialect.name == "postgresql" else query


def _rating(db: Connection, account_id: int, edition: str) -> float:
    mu = db.scalar(
        select(RatingTable.mu).where(
            RatingTable.account_id == account_id, RatingTable.edition == edition
        )
    )
    return START.mu if mu is None else float(mu)


def join(engine: Engine, tournament_id: int, account_id: int, now: float) -> None:
    """The person joins (or comes back after withdrawing). 404 for no such tournament; 409 in words
    for a finished or cancelled one, a Swiss event past the start of its last round, a suspended
    account, a rating outside the limits, or an entry that stands already."""
    with engine.begin() as db:
        event = _event(db, tournament_id, lock=True)
        status = TournamentStatus(event.status)
        if status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise TournamentError(409, _("this tournament is over: nobody joins it any more"))
        if event.kind == TournamentKind.SWISS and event.round >= (event.rounds or 0):
            raise TournamentError(
                409, _("this Swiss tournament has started its last round: nobody joins it now")
            )
        if event.ends_at is not None and now >= event.ends_at:
            raise TournamentError(409, _("this arena's time is up: nobody joins it now"))
        person = db.execute(
            # locked (PostgreSQL): an upgrade to a bot account at this moment waits, or is seen
            _shared_lock(
                db,
                select(AccountTable.name, AccountTable.status, AccountTable.bot).where(
                    AccountTable.id == account_id
                ),
            )
        ).one()
        if person.bot and not event.bots_allowed:
            raise TournamentError(
                409, _("this tournament does not allow bot accounts: only people may enter")
            )
        if person.status == AccountStatus.SUSPENDED:
            raise TournamentError(409, _("a suspended account cannot join a tournament"))
        if person.status != AccountStatus.ACTIVE:
            raise TournamentError(409, _("a closed account cannot join a tournament"))
        rating = _rating(db, account_id, event.edition)
        low, high = event.rating_min, event.rating_max
        if (low is not None and rating < low) or (high is not None and rating > high):
            raise TournamentError(
                409,
                _(
                    "your rating ({rating}) is outside this tournament's limits ({low} to {high})"
                ).format(
                    rating=f"{rating:.1f}",
                    low="-" if low is None else f"{low:g}",
                    high="-" if high is None else f"{high:g}",
                ),
            )
        entry = (
            _upsert(db)(Entrants)
            .values(
                tournament_id=tournament_id,
                account_id=account_id,
                bot=None,
                name=person.name,
                rating=rating,
                joined=now,
                # the Swiss rounds paired before, missed, count as half-point byes
                first_round=event.round + 1,
                withdrawn=False,
                paused=False,
                free_since=now,
            )
            .on_conflict_do_update(
                index_elements=[Entrants.tournament_id, Entrants.account_id],
                set_={"withdrawn": False, "paused": False, "free_since": now},
                where=Entrants.withdrawn.is_(True),
            )
            .returning(Entrants.id)
        )
        if db.execute(entry).first() is None:
            raise TournamentError(409, _("you have already joined this tournament"))


def _change_entry(
    engine: Engine,
    tournament_id: int,
    account_id: int,
    now: float,
    where: list[Any],
    values: dict[str, Any],
    arena_only: bool,
    refusal: str,
) -> None:
    with engine.begin() as db:
        event = _event(db, tournament_id, lock=True)  # not moved on meanwhile
        if event.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise TournamentError(409, _("this tournament is over"))
        if arena_only and event.kind != TournamentKind.ARENA:
            raise TournamentError(409, _("only an arena has pauses: withdraw instead"))
        changed = db.execute(
            update(Entrants)
            .where(
                Entrants.tournament_id == tournament_id,
                Entrants.account_id == account_id,
                *where,
            )
            .values(**values)
            .returning(Entrants.id)
        ).first()
        if changed is None:
            in_it = db.scalar(
                select(func.count())
                .select_from(Entrants)
                .where(
                    Entrants.tournament_id == tournament_id,
                    Entrants.account_id == account_id,
                    Entrants.withdrawn.is_(False),
                )
            )
            raise TournamentError(409, refusal if in_it else _("you are not in this tournament"))


def withdraw(engine: Engine, tournament_id: int, account_id: int, now: float) -> None:
    """The person leaves the tournament: never paired again (a game being played goes on and
    counts); their results stay. 409 if they are not in it or it is over."""
    _change_entry(
        engine,
        tournament_id,
        account_id,
        now,
        [Entrants.withdrawn.is_(False)],
        {"withdrawn": True},
        arena_only=False,
        refusal=_("you are not in this tournament"),
    )


def pause(engine: Engine, tournament_id: int, account_id: int, now: float, paused: bool) -> None:
    """An arena entrant stops being paired (``paused``) or comes back. 409 for a Swiss event, one
    they are not in, or a pause that already stands (or a return from none)."""
    _change_entry(
        engine,
        tournament_id,
        account_id,
        now,
        [Entrants.withdrawn.is_(False), Entrants.paused.is_(not paused)],
        {"paused": paused, **({} if paused else {"free_since": now})},
        arena_only=True,
        refusal=_("you have paused already") if paused else _("you are not paused"),
    )


def cancel(
    engine: Engine, tournament_id: int, operator: Operator | None = None, now: float = 0.0
) -> bool:
    """The operator ends a tournament that has not finished: nobody is paired any more (games
    being played go on). False if it had finished or been cancelled. ``operator``: who, for the
    audit log (at ``now``)."""
    with engine.begin() as db:
        event = _event(db, tournament_id)
        done = db.execute(
            update(TournamentTable)
            .where(
                TournamentTable.id == tournament_id,
                TournamentTable.status.in_(
                    [TournamentStatus.UPCOMING.value, TournamentStatus.RUNNING.value]
                ),
            )
            .values(status=TournamentStatus.CANCELLED.value, lease_owner=None)
        ).rowcount
        if done:
            _audit(
                db,
                operator,
                OperatorAction.CANCEL_TOURNAMENT,
                now,
                tournament=tournament_id,
                name=event.name,
            )
    return bool(done)


def schedule(
    engine: Engine,
    spec: EventSpec,
    every: float,
    first_start: float,
    now: float,
    operator: Operator | None = None,
) -> int:
    """A repeating site event: one tournament of ``spec`` every ``every`` seconds from
    ``first_start``; each is made an hour before it starts. The series' id. ``operator``: who,
    for the audit log."""
    if every < 600:
        raise TournamentError(422, _("a series repeats every 10 minutes or more"))
    with engine.begin() as db:
        made = db.execute(
            insert(TournamentSeriesTable)
            .values(**spec.row(), every=every, first_start=first_start, active=True, created=now)
            .returning(TournamentSeriesTable.id)
        ).scalar_one()
        _audit(db, operator, OperatorAction.SCHEDULE_SERIES, now, series=made, name=spec.name)
    return int(made)


def unschedule(
    engine: Engine, series_id: int, operator: Operator | None = None, now: float = 0.0
) -> bool:
    """Stop a series (its events already made stay); False if there was no such active series.
    ``operator``: who, for the audit log (at ``now``)."""
    with engine.begin() as db:
        done = db.execute(
            update(TournamentSeriesTable)
            .where(TournamentSeriesTable.id == series_id, TournamentSeriesTable.active.is_(True))
            .values(active=False)
        ).rowcount
        if done:
            _audit(db, operator, OperatorAction.STOP_SERIES, now, series=series_id)
    return bool(done)


def make_series_events(engine: Engine, now: float) -> int:
    """Make each active series' events that start within the next hour; how many were made here.
    Any number of processes may do it at once: ``ux_tournaments_series_start`` keeps one event per
    series and time (INSERT .. ON CONFLICT DO NOTHING)."""
    made = 0
    with engine.begin() as db:
        for series in db.execute(
            select(TournamentSeriesTable).where(TournamentSeriesTable.active.is_(True))
        ).all():
            spec = EventSpec.of_row(series)
            step = max(0, math.ceil((now - series.first_start) / series.every))
            start = series.first_start + step * series.every
            while start <= now + SERIES_AHEAD:
                if _insert_event(db, spec, start, now, None, series.id) is not None:
                    made += 1
                step += 1
                start = series.first_start + step * series.every
    return made


def series_list(engine: Engine) -> list[dict[str, Any]]:
    """Every series, active first, newest first (for the operator)."""
    with engine.connect() as db:
        rows = db.execute(
            select(TournamentSeriesTable).order_by(
                TournamentSeriesTable.active.desc(), TournamentSeriesTable.id.desc()
            )
        ).all()
    return [
        {
            "id": row.id,
            "name": row.name,
            "kind": row.kind,
            "edition": row.edition,
            "minutes": row.minutes,
            "rounds": row.rounds,
            "every_minutes": row.every / 60,
            "first_start": row.first_start,
            "active": row.active,
        }
        for row in rows
    ]
