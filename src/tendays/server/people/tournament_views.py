"""What the pages read of tournaments: the list (upcoming, running, finished) and one tournament
whole (its standings, games, podium, and the reader's own entry), as JSON-ready dicts in the shape
docs/protocol.md gives. Synchronous reads: run them on a journal reader thread.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from tendays.engine.i18n import gettext as _

from ..matches.text import name_key
from ..storage.schema import (
    AccountTable,
    GameTable,
    TournamentEntrantTable,
    TournamentTable,
)
from .tournament_spec import TournamentError, TournamentStatus
from .tournament_state import EventState, read_state

__all__ = [
    "LIST_LENGTH",
    "event_summary",
    "player_tournaments",
    "tournament_page",
    "tournaments_list",
]

LIST_LENGTH = 100  # tournaments in one list


def _event_fields(event: Any, creator: str | None) -> dict[str, Any]:
    return {
        "id": event.id,
        "name": event.name,
        "kind": event.kind,
        "status": event.status,
        "edition": event.edition,
        "options": json.loads(event.options),
        "clock": None if event.clock is None else json.loads(event.clock),
        "minutes": event.minutes,
        "rounds": event.rounds,
        "table_size": event.table_size,
        "rated": event.rated,
        "bots": json.loads(event.bots),
        "rating_min": event.rating_min,
        "rating_max": event.rating_max,
        "bots_allowed": bool(event.bots_allowed),
        "starts_at": event.starts_at,
        "ends_at": event.ends_at,
        "round": event.round,
        "created_by": creator,
        "series": event.series_id,
    }


def event_summary(event: Any, creator: str | None, entrants: int) -> dict[str, Any]:
    """A tournament as the list shows it."""
    return {**_event_fields(event, creator), "entrants": entrants}


def tournaments_list(engine: Engine, status: TournamentStatus | None) -> list[dict[str, Any]]:
    """Tournaments of ``status`` (None: every one not cancelled): upcoming and running soonest
    first, finished latest first; at most :data:`LIST_LENGTH`."""
    entrants = (
        select(func.count())
        .select_from(TournamentEntrantTable)
        .where(
            TournamentEntrantTable.tournament_id == TournamentTable.id,
            TournamentEntrantTable.withdrawn.is_(False),
        )
        .scalar_subquery()
    )
    query = select(
        TournamentTable, AccountTable.name.label("creator"), entrants.label("entrants")
    ).outerjoin(AccountTable, AccountTable.id == TournamentTable.created_by)
    if status is None:
        query = query.where(TournamentTable.status != TournamentStatus.CANCELLED.value)
    else:
        query = query.where(TournamentTable.status == status.value)
    if status is TournamentStatus.FINISHED:
        query = query.order_by(TournamentTable.starts_at.desc(), TournamentTable.id.desc())
    else:
        query = query.order_by(TournamentTable.starts_at, TournamentTable.id)
    with engine.connect() as db:
        rows = db.execute(query.limit(LIST_LENGTH)).all()
    return [event_summary(row, row.creator, int(row.entrants)) for row in rows]


def tournament_page(engine: Engine, tournament_id: int, reader: int | None) -> dict[str, Any]:
    """One tournament whole, for ``reader`` (an account id; None: anonymous, no ``me``); 404 in
    words if there is none."""
    with engine.connect() as db:
        state = read_state(db, tournament_id)
        if state is None:
            raise TournamentError(404, _no_such(tournament_id))
        event = state.event
        creator = (
            None
            if event.created_by is None
            else db.scalar(select(AccountTable.name).where(AccountTable.id == event.created_by))
        )
        ids = [t.game_id for t in state.tables]
        made = set(db.scalars(select(GameTable.id).where(GameTable.id.in_(ids)))) if ids else set()
    page = _event_fields(event, creator)
    standings = _standings(state)
    page["standings"] = standings
    page["entrants"] = sum(not e.withdrawn for e in state.entrants.values())
    page["games"] = [
        {
            "id": t.game_id,
            "seats": [state.entrants[e].name for e in t.entrants],
            "status": "playing" if t.playing else "finished",
            "round": t.round,
            "places": None if t.playing or None in t.places else list(t.places),
            "made": t.game_id in made,
        }
        for t in reversed(state.tables)
    ]
    if event.status == TournamentStatus.FINISHED:
        page["podium"] = standings[:3]
    if reader is not None:
        page["me"] = _me(state, reader)
    return page


def _no_such(tournament_id: int) -> str:
    return _("there is no tournament {id}").format(id=tournament_id)


def _standings(state: EventState) -> list[dict[str, Any]]:
    lines = []
    for standing in state.standings():
        entrant = state.entrants[standing.entrant]
        lines.append(
            {
                "name": standing.name,
                "score": standing.score,
                "games": standing.games,
                "rank": standing.rank,
                "tiebreaks": dict(standing.tiebreaks),
                "fire": standing.fire,
                "account": entrant.account_id is not None,
                "bot": entrant.bot,
                "bot_account": entrant.bot_account,
                "withdrawn": entrant.withdrawn,
                "paused": entrant.paused,
                "rating": entrant.rating,
            }
        )
    return lines


def _me(state: EventState, reader: int) -> dict[str, Any]:
    entrant = next((e for e in state.entrants.values() if e.account_id == reader), None)
    if entrant is None:
        return {"joined": False, "paused": False, "game": None}
    table = state.playing().get(entrant.id)
    return {
        "joined": not entrant.withdrawn,
        "paused": entrant.paused,
        "game": None if table is None else table.game_id,
    }


PLAYER_LIST_LENGTH = 20  # a player's latest tournaments on their profile


def player_tournaments(engine: Engine, name: str) -> list[dict[str, Any]]:
    """The latest tournaments the player called ``name`` entered (withdrawn or not), newest first,
    each with their line of its standings (``standing``: rank, score, games, tie-breaks); 404 in
    words for nobody of that name."""
    with engine.connect() as db:
        account = db.scalar(select(AccountTable.id).where(AccountTable.name_key == name_key(name)))
        if account is None:
            raise TournamentError(
                404, _("there is no player called '{name}'").format(name=name[:64])
            )
        rows = db.execute(
            select(TournamentEntrantTable.tournament_id, TournamentEntrantTable.id)
            .join(TournamentTable, TournamentTable.id == TournamentEntrantTable.tournament_id)
            .where(
                TournamentEntrantTable.account_id == account,
                TournamentTable.status != TournamentStatus.CANCELLED.value,
            )
            .order_by(TournamentTable.starts_at.desc(), TournamentTable.id.desc())
            .limit(PLAYER_LIST_LENGTH)
        ).all()
        found = []
        for tournament_id, entrant in rows:
            state = read_state(db, tournament_id)
            if state is None:
                continue
            creator = (
                None
                if state.event.created_by is None
                else db.scalar(
                    select(AccountTable.name).where(AccountTable.id == state.event.created_by)
                )
            )
            line = next((s for s in _standings_of(state) if s["entrant"] == entrant), None)
            summary = event_summary(
                state.event, creator, sum(not e.withdrawn for e in state.entrants.values())
            )
            if line is not None:
                del line["entrant"]
            found.append({**summary, "standing": line})
    return found


def _standings_of(state: EventState) -> list[dict[str, Any]]:
    return [
        {"entrant": s.entrant, **line}
        for s, line in zip(state.standings(), _standings(state), strict=True)
    ]
