"""One account's own data, as the JSON its owner downloads: the account, its sessions and known
devices (when they began and end, never their ids or cookies), its API tokens (names, scopes and
dates, never a token or its hash), its seats in games, its ratings and their history, its seeks,
the challenges it sent or received, its inbox, its tournaments and their chat lines, the players
it blocks or follows and the reports it sent. Nothing of any other account (but the names it
blocked, followed, challenged or reported, or that challenged it), and never the password's
hash."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.engine import Connection, Row

from ..storage.schema import (
    AccountTable,
    ApiTokenTable,
    BlockTable,
    ChallengeTable,
    FollowTable,
    GameTable,
    KnownDeviceTable,
    NotificationTable,
    RatingHistoryTable,
    RatingTable,
    ReportTable,
    SeatTable,
    SeekTable,
    SessionTable,
    TournamentChatTable,
    TournamentEntrantTable,
    TournamentTable,
)

__all__ = ["account_data"]


def account_data(db: Connection, account_id: int) -> dict[str, Any]:
    def own(table: Any, by: Any, only: tuple[Any, ...] = ()) -> Sequence[Row[Any]]:
        """The account's rows of ``table`` (its ``only`` columns, or all), in the order ``by``."""
        query = select(*only) if only else select(table)
        return db.execute(query.where(table.account_id == account_id).order_by(by)).all()

    def named(table: Any, mine: Any, theirs: Any) -> Sequence[Row[Any]]:
        """The rows of ``table`` whose ``mine`` is the account, oldest first, each with the
        ``name`` of the account in ``theirs``."""
        query = select(table, AccountTable.name).join(AccountTable, AccountTable.id == theirs)
        return db.execute(query.where(mine == account_id).order_by(table.created)).all()

    account = db.execute(
        select(AccountTable.name, AccountTable.created).where(AccountTable.id == account_id)
    ).one()
    sessions = own(
        SessionTable, SessionTable.created, only=(SessionTable.created, SessionTable.expires)
    )
    devices = own(
        KnownDeviceTable,
        KnownDeviceTable.created,
        only=(KnownDeviceTable.created, KnownDeviceTable.expires),
    )
    seats = db.execute(
        select(
            SeatTable.game_id,
            SeatTable.seat,
            SeatTable.name,
            SeatTable.place,
            GameTable.edition,
            GameTable.created,
            GameTable.finished,
            GameTable.ended,
            GameTable.rated,
            GameTable.rated_outcome,
        )
        .join(GameTable, GameTable.id == SeatTable.game_id)
        .where(SeatTable.account_id == account_id)
        .order_by(GameTable.created)
    ).all()
    ratings = own(RatingTable, RatingTable.edition)
    history = own(RatingHistoryTable, RatingHistoryTable.at)
    seeks = own(SeekTable, SeekTable.created)
    blocks = named(BlockTable, BlockTable.blocker_id, BlockTable.blocked_id)
    follows = named(FollowTable, FollowTable.follower_id, FollowTable.followed_id)
    reports = named(ReportTable, ReportTable.reporter_id, ReportTable.reported_id)
    entries = db.execute(
        select(TournamentEntrantTable, TournamentTable.name.label("tournament_name"))
        .join(TournamentTable, TournamentTable.id == TournamentEntrantTable.tournament_id)
        .where(TournamentEntrantTable.account_id == account_id)
        .order_by(TournamentEntrantTable.joined)
    ).all()
    tournament_lines = own(TournamentChatTable, TournamentChatTable.at)
    challenges = db.execute(
        select(ChallengeTable)
        .where(
            or_(
                ChallengeTable.challenger_id == account_id,
                ChallengeTable.challenged_id == account_id,
                ChallengeTable.accepter_id == account_id,
            )
        )
        .order_by(ChallengeTable.created)
    ).all()
    people = {c.challenger_id for c in challenges} | {
        other for c in challenges for other in (c.challenged_id, c.accepter_id) if other is not None
    }
    known = select(AccountTable.id, AccountTable.name).where(AccountTable.id.in_(people))
    names = dict(db.execute(known).all())
    inbox = own(NotificationTable, NotificationTable.created)
    return {
        "account": {"name": account.name, "created": account.created},
        "sessions": [{"created": s.created, "expires": s.expires} for s in sessions],
        # the browsers it signed in on (people/devices.py): when, and until when they are known
        "known_devices": [{"created": d.created, "expires": d.expires} for d in devices],
        # its API tokens (people/api_tokens.py): never a token or its hash
        "api_tokens": _api_tokens(db, account_id),
        "games": [
            {
                "id": s.game_id,
                "edition": s.edition,
                "seat": s.seat,
                "name": s.name,
                "created": s.created.isoformat(),
                "finished": bool(s.finished),
                "ended": s.ended,
                "rated": bool(s.rated),
                # counted, capped, aborted or annulled: whether the place moved the rating
                "rated_outcome": s.rated_outcome,
                "place": s.place,
            }
            for s in seats
        ],
        "ratings": [
            {
                "edition": r.edition,
                "rating": r.rating,
                "mu": r.mu,
                "sigma": r.sigma,
                "games": r.games,
                "updated": r.updated,
            }
            for r in ratings
        ],
        "rating_history": [
            {
                "edition": h.edition,
                "game": h.game_id,
                "at": h.at,
                "rating": h.rating,
                "deviation": h.deviation,
            }
            for h in history
        ],
        "seeks": [
            {
                "id": s.id,
                "edition": s.edition,
                "pace": json.loads(s.pace) if s.pace else None,
                "rating_min": s.rating_min,
                "rating_max": s.rating_max,
                "created": s.created,
                "status": s.status,
                "game": s.game_id,
            }
            for s in seeks
        ],
        "blocks": [{"name": b.name, "since": b.created} for b in blocks],
        "following": [{"name": f.name, "since": f.created} for f in follows],
        "tournaments": [
            {
                "id": e.tournament_id,
                "name": e.tournament_name,
                "joined": e.joined,
                "rating_when_joined": e.rating,
                "withdrawn": bool(e.withdrawn),
                "paused": bool(e.paused),
            }
            for e in entries
        ],
        "tournament_chat": [
            {"tournament": line.tournament_id, "text": line.text, "at": line.at}
            for line in tournament_lines
        ],
        "challenges": [
            {
                "id": c.id,
                "from": names.get(c.challenger_id),
                "to": names.get(c.challenged_id) if c.challenged_id is not None else None,
                "accepted_by": names.get(c.accepter_id) if c.accepter_id is not None else None,
                "edition": c.edition,
                "options": json.loads(c.options),
                "clock": json.loads(c.clock) if c.clock else None,
                "rated": bool(c.rated),
                "status": c.status,
                "reason": c.reason,
                "created": c.created,
                "answered": c.answered_at,
                "game": c.game_id,
            }
            for c in challenges
        ],
        "notifications": [
            {
                "kind": n.kind,
                "data": json.loads(n.data),
                "created": n.created,
                "read": n.read_at,
            }
            for n in inbox
        ],
        "reports": [
            {
                "player": r.name,
                "reason": r.reason,
                "game": r.game_id,
                "text": r.text,
                "created": r.created,
                "status": r.status,
            }
            for r in reports
        ],
    }


def _api_tokens(db: Connection, account_id: int) -> list[dict[str, Any]]:
    """The account's API tokens, oldest first: name, scopes and dates, never a hash."""
    rows = db.execute(
        select(
            ApiTokenTable.name,
            ApiTokenTable.scopes,
            ApiTokenTable.created,
            ApiTokenTable.last_used,
            ApiTokenTable.revoked_at,
        )
        .where(ApiTokenTable.account_id == account_id)
        .order_by(ApiTokenTable.created, ApiTokenTable.id)
    ).all()
    return [
        {
            "name": t.name,
            "scopes": t.scopes.split(),
            "created": t.created,
            "last_used": t.last_used,
            "revoked": t.revoked_at,
        }
        for t in rows
    ]
