"""The tournament a game was played in, if any: a game's own pages name the event with a link back
to it (a tournament's tables hold the ids of their games)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, select

from ..storage.schema import TournamentTable, TournamentTableTable

__all__ = ["tournament_of_game"]


def tournament_of_game(engine: Engine, game_id: str) -> dict[str, Any] | None:
    """``{"id", "name", "url"}`` of the tournament whose table is the game ``game_id``; None for
    a game played outside any tournament."""
    with engine.connect() as db:
        row = db.execute(
            select(TournamentTable.id, TournamentTable.name)
            .join(TournamentTableTable, TournamentTableTable.tournament_id == TournamentTable.id)
            .where(TournamentTableTable.game_id == game_id)
        ).first()
    if row is None:
        return None
    return {"id": row.id, "name": row.name, "url": f"/tournaments/{row.id}"}
