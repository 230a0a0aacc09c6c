"""The operator's moderation of accounts: suspend, close, reinstate, hide from the leaderboards,
annul rated games, and close reports; each action and its audit row in one transaction.

An action on an account first locks the account's row (``SELECT ... FOR UPDATE`` on PostgreSQL;
SQLite has one writer), and a change of status is a conditional ``UPDATE`` (``... WHERE status IN``
the states it may leave), so two operators acting at once, on any number of server processes, do it
once: the second is told in words that it was done already. A report is closed the same way
(``... WHERE status = 'open'``).

Suspending or closing an account ends its sessions everywhere and closes its table connections
(:meth:`~tendays.server.people.accounts.Accounts.end_sessions`), cancels its open seeks, and gives
its seats in unfinished games to bots, as if the person had left (in a rated game, a loss). Only an
active account signs in. A suspension can be lifted; a closure is for good (the name stays taken).

Annulling takes an account's counted rated games (those with ``rating_history`` rows) out of the
ratings: every rating of each edition concerned is recomputed in order without them
(:func:`~tendays.server.people.ratings.recompute_edition`), so the others' ratings lose what they
won or lost against the account too.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, delete, func, select, update
from sqlalchemy.engine import Connection, Row
from sqlalchemy.orm import aliased

from tendays.engine.i18n import gettext as _

from ..matches.text import name_key
from ..storage.schema import (
    AccountTable,
    GameTable,
    RatingHistoryTable,
    ReportTable,
    SeatTable,
    SeekTable,
    SessionTable,
)
from .accounts import AccountError
from .audit import Operator, record
from .moderation_types import AccountStatus, OperatorAction, ReportStatus
from .ratings import recompute_edition
from .seeks import SeekStatus

__all__ = [
    "STATUS_CHANGES",
    "Done",
    "annul",
    "change_status",
    "close_report",
    "reports_page",
    "set_hidden",
]

#: What each status action makes of an account, and the states it may take it from.
STATUS_CHANGES: dict[OperatorAction, tuple[AccountStatus, frozenset[AccountStatus]]] = {
    OperatorAction.SUSPEND: (AccountStatus.SUSPENDED, frozenset({AccountStatus.ACTIVE})),
    OperatorAction.CLOSE: (
        AccountStatus.CLOSED,
        frozenset({AccountStatus.ACTIVE, AccountStatus.SUSPENDED}),
    ),
    OperatorAction.REINSTATE: (AccountStatus.ACTIVE, frozenset({AccountStatus.SUSPENDED})),
}


@dataclass(frozen=True, slots=True)
class Done:
    """An action taken: on which account (id and name), and what it changed (as audited)."""

    account_id: int
    name: str
    outcome: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"account": self.name, **self.outcome}


def _account(db: Connection, name: str) -> Row[int, str, str, bool]:
    """The account called ``name`` (any letter case), its row locked; 404 in words if none."""
    row = db.execute(
        select(AccountTable.id, AccountTable.name, AccountTable.status, AccountTable.hidden)
        .where(AccountTable.name_key == name_key(name))
        .with_for_update()
    ).first()
    if row is None:
        raise AccountError(404, _("there is no account called {name}").format(name=name))
    return row


def _audited(
    db: Connection,
    operator: Operator,
    action: OperatorAction,
    at: float,
    account: Row[int, str, str, bool],
    note: str,
    outcome: dict[str, Any],
) -> Done:
    """Audit the action on ``account`` in the same transaction as the action; what was done."""
    record(
        db,
        operator,
        action,
        at,
        account_id=account.id,
        account_name=account.name,
        note=note,
        outcome=outcome,
    )
    return Done(account.id, account.name, outcome)


def _refusal(action: OperatorAction, name: str, status: str) -> AccountError:
    """Why ``action`` cannot be taken on an account in ``status``, in words (409)."""
    if action is OperatorAction.REINSTATE:
        if status == AccountStatus.CLOSED:
            return AccountError(409, _("{name} is closed for good").format(name=name))
        return AccountError(409, _("{name} is not suspended").format(name=name))
    if status == AccountStatus.CLOSED:
        return AccountError(409, _("{name} is closed already").format(name=name))
    return AccountError(409, _("{name} is suspended already").format(name=name))


def change_status(
    db: Connection,
    operator: Operator,
    action: OperatorAction,
    name: str,
    note: str,
    now: float | None = None,
) -> Done:
    """Suspend, close or reinstate the account (``action``, one of :data:`STATUS_CHANGES`), in
    ``db``'s transaction with its audit row. Suspending or closing also ends its sessions in the
    database and cancels its open seeks; the caller then ends its connections and gives its seats
    to bots (:mod:`~tendays.server.face.routers.admin_moderation`). 409 in words when the account
    is not in a state the action may change."""
    at = time.time() if now is None else now
    target, sources = STATUS_CHANGES[action]
    account = _account(db, name)
    changed = db.execute(
        update(AccountTable)
        .where(AccountTable.id == account.id, AccountTable.status.in_([s.value for s in sources]))
        .values(status=target.value)
    ).rowcount
    if not changed:
        raise _refusal(action, account.name, account.status)
    outcome: dict[str, Any] = {"status": target.value}
    if target is not AccountStatus.ACTIVE:
        db.execute(delete(SessionTable).where(SessionTable.account_id == account.id))
        db.execute(
            update(SeekTable)
            .where(SeekTable.account_id == account.id, SeekTable.status == SeekStatus.OPEN)
            .values(status=SeekStatus.CANCELLED)
        )
        # the games whose seats the caller gives to bots (those being played)
        outcome["unfinished_games"] = unfinished_games(db, account.id)
    return _audited(db, operator, action, at, account, note, outcome)


def unfinished_games(db: Connection, account_id: int) -> list[str]:
    """The unfinished games in which the account holds a seat it has not left."""
    return sorted(
        db.scalars(
            select(SeatTable.game_id)
            .join(GameTable, GameTable.id == SeatTable.game_id)
            .where(
                SeatTable.account_id == account_id,
                GameTable.finished.is_(False),
                SeatTable.left.is_not(True),
            )
            .distinct()
        )
    )


def set_hidden(
    db: Connection, operator: Operator, name: str, hidden: bool, note: str, now: float | None = None
) -> Done:
    """Hide the account from the leaderboards, or show it again; 409 in words if it already is."""
    at = time.time() if now is None else now
    account = _account(db, name)
    changed = db.execute(
        update(AccountTable)
        .where(AccountTable.id == account.id, AccountTable.hidden.is_not(hidden))
        .values(hidden=hidden)
    ).rowcount
    if not changed:
        raise AccountError(
            409,
            (_("{name} is hidden already") if hidden else _("{name} is not hidden")).format(
                name=account.name
            ),
        )
    action = OperatorAction.HIDE if hidden else OperatorAction.UNHIDE
    outcome = {"hidden": hidden}
    return _audited(db, operator, action, at, account, note, outcome)


def annul(
    db: Connection,
    operator: Operator,
    name: str,
    games: list[str] | None,
    note: str,
    now: float | None = None,
    recompute: Callable[[Connection, str, set[str]], None] = recompute_edition,
) -> Done:
    """Annul the account's counted rated games (``games``: only these; None: every one): they stop
    counting for everyone at their tables, and every rating of each edition concerned is recomputed
    in order without them. 409 in words if none of them counts (any longer)."""
    at = time.time() if now is None else now
    account = _account(db, name)
    counted = select(RatingHistoryTable.edition, RatingHistoryTable.game_id).where(
        RatingHistoryTable.account_id == account.id
    )
    if games is not None:
        counted = counted.where(RatingHistoryTable.game_id.in_(sorted(set(games))))
    by_edition: dict[str, set[str]] = defaultdict(set)
    for edition, game_id in db.execute(counted):
        by_edition[edition].add(game_id)
    if not by_edition:
        raise AccountError(
            409, _("{name} has no counted rated game to annul").format(name=account.name)
        )
    for edition in sorted(by_edition):
        recompute(db, edition, by_edition[edition])
    annulled = sorted(g for ids in by_edition.values() for g in ids)
    outcome = {"games": annulled, "editions": sorted(by_edition)}
    return _audited(db, operator, OperatorAction.ANNUL, at, account, note, outcome)


# -- reports ------------------------------------------------------------------------------------

_REPORTER = aliased(AccountTable)
_REPORTED = aliased(AccountTable)


def reports_page(
    db: Connection, status: ReportStatus | None, page: int, per_page: int
) -> dict[str, Any]:
    """One page of reports, open ones first, newest first, as ``GET /api/admin/reports`` answers
    it (``status``: only those)."""
    where = [] if status is None else [ReportTable.status == status.value]
    total = int(db.scalar(select(func.count()).select_from(ReportTable).where(*where)) or 0)
    rows = db.execute(
        select(
            ReportTable,
            _REPORTER.name.label("reporter"),
            _REPORTED.name.label("reported"),
            _REPORTED.status.label("reported_status"),
        )
        .outerjoin(_REPORTER, _REPORTER.id == ReportTable.reporter_id)
        .join(_REPORTED, _REPORTED.id == ReportTable.reported_id)
        .where(*where)
        .order_by(
            case((ReportTable.status == ReportStatus.OPEN.value, 0), else_=1),
            ReportTable.created.desc(),
            ReportTable.id.desc(),
        )
        .offset((page - 1) * per_page)
        .limit(per_page)
    ).all()
    reports = [
        {
            "id": r.id,
            "reporter": r.reporter,
            "reported": r.reported,
            "reported_status": r.reported_status,
            "game": r.game_id,
            "reason": r.reason,
            "text": r.text,
            "created": r.created,
            "status": r.status,
            "closed_note": r.closed_note,
            "closed_at": r.closed_at,
        }
        for r in rows
    ]
    return {
        "reports": reports,
        "open": int(
            db.scalar(
                select(func.count())
                .select_from(ReportTable)
                .where(ReportTable.status == ReportStatus.OPEN.value)
            )
            or 0
        ),
        "page": page,
        "per_page": per_page,
        "total": total,
        "pages": max(1, -(-total // per_page)),
    }


def close_report(
    db: Connection, operator: Operator, report_id: int, note: str, now: float | None = None
) -> dict[str, Any]:
    """Close an open report with the operator's note; 404 for no such report, 409 in words if it is
    closed already (two operators closing it at once: one closes it)."""
    at = time.time() if now is None else now
    closed = db.execute(
        update(ReportTable)
        .where(ReportTable.id == report_id, ReportTable.status == ReportStatus.OPEN.value)
        .values(status=ReportStatus.CLOSED.value, closed_note=note, closed_at=at)
    ).rowcount
    row = db.execute(
        select(ReportTable.reported_id, AccountTable.name)
        .join(AccountTable, AccountTable.id == ReportTable.reported_id)
        .where(ReportTable.id == report_id)
    ).first()
    if row is None:
        raise AccountError(404, _("there is no report {id}").format(id=report_id))
    if not closed:
        raise AccountError(409, _("report {id} is closed already").format(id=report_id))
    record(
        db,
        operator,
        OperatorAction.CLOSE_REPORT,
        at,
        account_id=row.reported_id,
        account_name=row.name,
        report_id=report_id,
        note=note,
    )
    return {"id": report_id, "status": ReportStatus.CLOSED.value, "closed_note": note}
