"""A tournament's chat: signed-in people write one plain line at a time (the game chat's rules:
:func:`~tendays.server.matches.text.clean_chat` and its length), at most as many lines in a window
as the game chat allows a seat, counted per account in the database (people/limits.py), so every
server process counts together; a reader does not see the lines of people they block. Synchronous:
run it on the journal's database thread.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.engine import Engine

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from ..matches.text import clean_chat
from ..settings import MasterSettings
from ..storage.schema import BlockTable, TournamentChatTable, TournamentTable
from .accounts import Account
from .limits import count
from .tournament_spec import TournamentError

__all__ = ["CHAT_LINES_SHOWN", "chat_lines", "say"]

CHAT_LINES_SHOWN = 100  # the latest lines a reader gets


def _exists(db: Any, tournament_id: int) -> None:
    if db.scalar(select(TournamentTable.id).where(TournamentTable.id == tournament_id)) is None:
        raise TournamentError(404, _("there is no tournament {id}").format(id=tournament_id))


def say(
    engine: Engine,
    tournament_id: int,
    person: Account,
    text: Any,
    settings: MasterSettings,
    now: float,
) -> dict[str, Any]:
    """Store a line from ``person``; the line. 404 for no such tournament, 422 for a line that is
    not plain text or too long, 429 for too many lines."""
    try:
        line = clean_chat(text, settings.chat_length)
    except ValueError as error:
        raise TournamentError(422, str(error)) from None
    if not line:
        raise TournamentError(422, _("a chat message cannot be empty"))
    most, window = settings.chat_lines, settings.chat_window
    with engine.begin() as db:
        _exists(db, tournament_id)
        wait = count(db, [(f"tournament-chat:{person.id}", most)], window, now)
        if wait:
            raise TournamentError(
                429,
                ngettext(
                    "at most {most} chat message in {window} seconds; wait {wait} s before the "
                    "next one",
                    "at most {most} chat messages in {window} seconds; wait {wait} s before the "
                    "next one",
                    most,
                ).format(most=most, window=f"{window:g}", wait=max(1, round(wait))),
                retry_after=wait,
            )
        number = db.execute(
            insert(TournamentChatTable)
            .values(
                tournament_id=tournament_id,
                account_id=person.id,
                name=person.name,
                text=line,
                at=now,
            )
            .returning(TournamentChatTable.id)
        ).scalar_one()
    return {"id": int(number), "name": person.name, "text": line, "at": now}


def chat_lines(engine: Engine, tournament_id: int, reader: int | None) -> list[dict[str, Any]]:
    """The latest lines, oldest first, without those of people ``reader`` blocks."""
    query = select(TournamentChatTable).where(TournamentChatTable.tournament_id == tournament_id)
    if reader is not None:
        blocked = select(BlockTable.blocked_id).where(BlockTable.blocker_id == reader)
        query = query.where(
            TournamentChatTable.account_id.is_(None)
            | TournamentChatTable.account_id.not_in(blocked)
        )
    with engine.connect() as db:
        _exists(db, tournament_id)
        rows = list(
            db.execute(query.order_by(TournamentChatTable.id.desc()).limit(CHAT_LINES_SHOWN)).all()
        )
    return [
        {"id": row.id, "name": row.name, "text": row.text, "at": row.at} for row in reversed(rows)
    ]
