"""The audit log: every operator action, who took it, on whom, when, with the operator's note and
what it changed. A row is written in the same transaction as the action it records (so an action
that did not happen leaves no row, and one that did always leaves one), and the operator's view
(``/admin``, ``tendays admin audit``) reads it newest first.

Who: the admin token's fingerprint (the first 12 hex digits of its SHA-256: it names which token
acted without revealing it), with the operator's name when one was given (``tendays admin
--operator``, the ``X-Tendays-Operator`` header).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from tendays.engine.i18n import gettext as _

from ..matches.text import clean_name
from ..storage.schema import AuditTable
from .accounts import AccountError
from .moderation_types import OperatorAction

__all__ = ["MAX_NOTE", "Operator", "audit_page", "clean_note", "record"]

#: The most characters an operator's note may have.
MAX_NOTE = 1000


@dataclass(frozen=True, slots=True)
class Operator:
    """Who took an action: the fingerprint of the admin token, and the name the operator gave."""

    fingerprint: str
    name: str | None = None

    @classmethod
    def of(cls, token: str, name: str | None) -> Operator:
        """The operator holding ``token``; :class:`AccountError` (422) for a name that cannot
        be (the names of seats' rules)."""
        fingerprint = hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()[:12]
        if name is None or not name.strip():
            return cls(fingerprint)
        try:
            return cls(fingerprint, clean_name(name))
        except ValueError as error:
            raise AccountError(422, str(error)) from None

    def __str__(self) -> str:
        token = _("token {fingerprint}").format(fingerprint=self.fingerprint)
        return f"{self.name} ({token})" if self.name else token


def clean_note(note: str) -> str:
    """An operator's note, trimmed; control characters other than line breaks become spaces, and
    :class:`AccountError` (422) for more than :data:`MAX_NOTE` characters."""
    note = "".join(
        c if c == "\n" or c.isprintable() else " " for c in note.replace("\r\n", "\n")
    ).strip()
    if len(note) > MAX_NOTE:
        raise AccountError(
            422,
            _("a note may have at most {most} characters").format(most=MAX_NOTE),
        )
    return note


def record(
    db: Connection,
    operator: Operator,
    action: OperatorAction,
    at: float,
    *,
    account_id: int | None = None,
    account_name: str | None = None,
    report_id: int | None = None,
    note: str = "",
    outcome: dict[str, Any] | None = None,
) -> None:
    """Write one audit row in ``db``'s transaction (the action's own). ``outcome``: what the action
    changed (the games annulled, the seats given to bots), kept as JSON."""
    db.execute(
        insert(AuditTable).values(
            at=at,
            operator=str(operator)[:80],
            action=action.value,
            account_id=account_id,
            account_name=account_name,
            report_id=report_id,
            note=note,
            outcome=json.dumps(outcome or {}, sort_keys=True),
        )
    )


def audit_page(db: Connection, page: int, per_page: int) -> dict[str, Any]:
    """One page of the audit log, newest first, as ``GET /api/admin/audit`` answers it."""
    total = int(db.scalar(select(func.count()).select_from(AuditTable)) or 0)
    rows = db.execute(
        select(AuditTable)
        .order_by(AuditTable.at.desc(), AuditTable.id.desc())
        .offset((page - 1) * per_page)
        .limit(per_page)
    ).all()
    entries = [
        {
            "id": r.id,
            "at": r.at,
            "operator": r.operator,
            "action": r.action,
            "account": r.account_name,
            "report": r.report_id,
            "note": r.note,
            "outcome": json.loads(r.outcome or "{}"),
        }
        for r in rows
    ]
    return {
        "entries": entries,
        "page": page,
        "per_page": per_page,
        "total": total,
        "pages": max(1, -(-total // per_page)),
    }
