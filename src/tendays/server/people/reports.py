"""Reports: a signed-in person tells the operator about a player (a reason, perhaps the game it
happened in, a few words), for the operator's view to list (``/admin``, ``tendays admin``).

A person may send at most :data:`REPORTS_PER_DAY` reports in any 24 hours, and a second report of
the same player for the same game (or with no game) while the first is still open is the same
report. Both are decided in the one statement that writes the report (``INSERT ... SELECT ...
WHERE`` the count is below the limit and no such report is open): SQLite runs a writing statement
under its write lock, and on PostgreSQL the statement runs after the reporter's account row is
locked (``SELECT ... FOR UPDATE``), so a burst of requests, on any number of server processes,
writes at most the limit. The functions are synchronous: run them on the journal's database thread.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from sqlalchemy import and_, exists, func, insert, literal, select
from sqlalchemy.engine import Connection, Engine

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from ..storage.schema import AccountTable, ReportTable, SeatTable
from .accounts import Account, AccountError
from .blocks import named_account
from .moderation_types import ReportReason, ReportStatus

__all__ = [
    "REPORTS_PER_DAY",
    "REPORT_TEXT",
    "REPORT_WINDOW",
    "Filed",
    "clean_report_text",
    "report",
]

#: Reports one person may send in any :data:`REPORT_WINDOW` seconds.
REPORTS_PER_DAY = 10
REPORT_WINDOW = 24 * 3600.0
#: The most characters a report's text may have.
REPORT_TEXT = 500

# Format characters that turn text around (bidirectional embeddings, overrides and isolates).
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)}


@dataclass(frozen=True, slots=True)
class Filed:
    """A report as its sender learns of it: its id, and whether this request wrote it (False: the
    same report was already open)."""

    id: int
    new: bool


def clean_report_text(text: str) -> str:
    """A report's words: normalised (NFC), line breaks kept, at most :data:`REPORT_TEXT`
    characters; :class:`AccountError` (422) in words for control characters or more."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n")).strip()
    for char in text:
        category = unicodedata.category(char)
        if (category == "Cc" and char != "\n") or category in ("Cs", "Co", "Cn") or char in _BIDI:
            raise AccountError(
                422,
                _("a report cannot contain the character {code}").format(code=f"U+{ord(char):04X}"),
            )
    if len(text) > REPORT_TEXT:
        raise AccountError(
            422,
            ngettext(
                "a report has at most {most} character, not {count}",
                "a report has at most {most} characters, not {count}",
                REPORT_TEXT,
            ).format(most=REPORT_TEXT, count=len(text)),
        )
    return text


def report(
    engine: Engine,
    me: Account,
    name: str,
    reason: str,
    game_id: str | None,
    text: str,
    now: float,
) -> Filed:
    """``me`` reports the player called ``name`` for a :class:`ReportReason`. Refused in words:
    nobody of that name (404), oneself, an unknown reason or a game the player did not sit at
    (422), or the day's reports sent (429, with the seconds until the next may be sent)."""
    if reason not in {known.value for known in ReportReason}:
        raise AccountError(
            422,
            _("unknown reason '{reason}'; known: {known}").format(
                reason=reason[:16], known=", ".join(ReportReason)
            ),
        )
    text = clean_report_text(text)
    with engine.connect() as db:
        other = named_account(db, name)
        if other is None:
            raise AccountError(404, _("there is no player called '{name}'").format(name=name[:64]))
        if other.id == me.id:
            raise AccountError(422, _("you cannot report yourself"))
        if game_id is not None and not _sat_at(db, other.id, game_id):
            raise AccountError(
                422,
                _("{name} did not play in game '{game}'; choose one of their games").format(
                    name=other.name, game=game_id
                ),
            )
    with engine.begin() as db:
        # Every report of one person waits for the others' (on SQLite the statement's write lock
        # does the same).
        db.execute(select(AccountTable.id).where(AccountTable.id == me.id).with_for_update())
        same = and_(
            ReportTable.reporter_id == me.id,
            ReportTable.reported_id == other.id,
            ReportTable.game_id.is_not_distinct_from(game_id),
            ReportTable.status == ReportStatus.OPEN,
        )
        recent = (
            select(func.count())
            .select_from(ReportTable)
            .where(ReportTable.reporter_id == me.id, ReportTable.created > now - REPORT_WINDOW)
            .scalar_subquery()
        )
        written = db.execute(
            insert(ReportTable)
            .from_select(
                ["reporter_id", "reported_id", "game_id", "reason", "text", "created", "status"],
                select(
                    literal(me.id),
                    literal(other.id),
                    literal(game_id, ReportTable.game_id.type),
                    literal(str(reason)),
                    literal(text),
                    literal(now),
                    literal(str(ReportStatus.OPEN)),
                ).where(recent < REPORTS_PER_DAY, ~exists().where(same)),
            )
            .returning(ReportTable.id)
        ).first()
        if written is not None:
            return Filed(int(written.id), True)
        open_report = db.scalar(select(ReportTable.id).where(same))
        if open_report is not None:
            return Filed(int(open_report), False)
        oldest = db.scalar(
            select(func.min(ReportTable.created)).where(
                ReportTable.reporter_id == me.id, ReportTable.created > now - REPORT_WINDOW
            )
        )
    wait = max(1.0, (oldest or now) + REPORT_WINDOW - now)
    raise AccountError(
        429,
        ngettext(
            "at most {most} report a day; the next can be sent in {hours} h",
            "at most {most} reports a day; the next can be sent in {hours} h",
            REPORTS_PER_DAY,
        ).format(most=REPORTS_PER_DAY, hours=max(1, round(wait / 3600))),
        retry_after=wait,
    )


def _sat_at(db: Connection, account_id: int, game_id: str) -> bool:
    """Whether the account took a seat at the game."""
    return (
        db.scalar(
            select(SeatTable.seat)
            .where(SeatTable.game_id == game_id, SeatTable.account_id == account_id)
            .limit(1)
        )
        is not None
    )
