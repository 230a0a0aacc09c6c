"""The closed sets of moderation, each in one place: why a person reports a player, where a report
stands, where an account stands, and what an operator did. The tables that store them are in
``storage/schema.py`` (``ReportTable``, ``BlockTable``, ``AuditTable``, ``accounts.status``)."""

from __future__ import annotations

from enum import StrEnum

from tendays.engine.i18n import gettext as _

__all__ = ["AccountStatus", "OperatorAction", "ReportReason", "ReportStatus"]


class ReportReason(StrEnum):
    """Why a person reports a player (``reports.reason``)."""

    CHEATING = "cheating"
    ABUSE = "abuse"
    FARMING = "farming"
    NAME = "name"
    OTHER = "other"


class ReportStatus(StrEnum):
    """Where a report stands (``reports.status``): open until an operator closes it with a note."""

    OPEN = "open"
    CLOSED = "closed"


class AccountStatus(StrEnum):
    """Where an account stands (``accounts.status``). Only an active account may sign in; a
    suspension can be lifted, a closure is for good (the account keeps its name so nobody takes
    it)."""

    ACTIVE = "active"
    SUSPENDED = "suspended"
    CLOSED = "closed"

    def sign_in_refusal(self) -> str | None:
        """Why an account in this state cannot sign in, in the asker's words; None if it can."""
        if self is AccountStatus.SUSPENDED:
            return _(
                "this account is suspended by the server's operator; it can sign in again once "
                "the suspension is lifted"
            )
        if self is AccountStatus.CLOSED:
            return _("this account was closed by the server's operator; it cannot sign in")
        return None


class OperatorAction(StrEnum):
    """What an operator did, as the audit log (``audit_log.action``) records it."""

    SUSPEND = "suspend"
    CLOSE = "close"
    REINSTATE = "reinstate"
    HIDE = "hide"
    UNHIDE = "unhide"
    ANNUL = "annul"
    CLOSE_REPORT = "close-report"
    # site tournaments (people/tournaments.py)
    CREATE_TOURNAMENT = "create-event"
    CANCEL_TOURNAMENT = "cancel-event"
    SCHEDULE_SERIES = "schedule-series"
    STOP_SERIES = "stop-series"
