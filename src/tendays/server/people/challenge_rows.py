"""The challenges as read from their table: a challenge with its players' names, one by its id or
the newest of many (:data:`LISTED` at most)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import ColumnElement

from ..settings import Pace
from ..storage.schema import AccountTable, ChallengeTable
from .challenge_types import Challenge, ChallengeStatus, DeclineReason

__all__ = ["LISTED", "read_challenge", "read_challenges"]

LISTED = 50  # challenges per list, newest first

_CHALLENGER = aliased(AccountTable)
_CHALLENGED = aliased(AccountTable)


def read_challenge(db: Connection, challenge_id: str) -> Challenge | None:
    found = read_challenges(db, ChallengeTable.id == challenge_id)
    return found[0] if found else None


def read_challenges(db: Connection, *where: ColumnElement[bool]) -> list[Challenge]:
    """The challenges ``where`` says, newest first."""
    rows = db.execute(
        select(
            ChallengeTable,
            _CHALLENGER.name.label("challenger_name"),
            _CHALLENGER.bot.label("challenger_bot"),
            _CHALLENGED.name.label("challenged_name"),
        )
        .join(_CHALLENGER, _CHALLENGER.id == ChallengeTable.challenger_id)
        .outerjoin(_CHALLENGED, _CHALLENGED.id == ChallengeTable.challenged_id)
        .where(*where)
        .order_by(ChallengeTable.created.desc(), ChallengeTable.id)
        .limit(LISTED)
    )
    return [_challenge(row) for row in rows.all()]


def _challenge(stored: Any) -> Challenge:
    """A row of :func:`read_challenges` as a challenge."""
    return Challenge(
        id=stored.id,
        challenger_id=int(stored.challenger_id),
        challenger=str(stored.challenger_name),
        challenged_id=None if stored.challenged_id is None else int(stored.challenged_id),
        challenged=None if stored.challenged_name is None else str(stored.challenged_name),
        edition=stored.edition,
        options=json.loads(stored.options),
        pace=Pace.from_json(json.loads(stored.clock)) if stored.clock else None,
        rated=bool(stored.rated),
        status=ChallengeStatus(stored.status),
        reason=None if stored.reason is None else DeclineReason(stored.reason),
        created=float(stored.created),
        expires_at=float(stored.expires_at),
        answered_at=None if stored.answered_at is None else float(stored.answered_at),
        accepter_id=None if stored.accepter_id is None else int(stored.accepter_id),
        game_id=stored.game_id,
        challenger_bot=bool(stored.challenger_bot),
    )
