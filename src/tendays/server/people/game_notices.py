"""The notifications about a person's games: "your move" when the turn of a correspondence game
passes to a signed-in person, "game ended" with each place; and the lobby's list of the games where
it is one's turn.

The lobby knows nothing of people, so the face installs :func:`turn_hook` as the lobby's
``on_turn``: the process that stored a move that passed the turn (or the join that started a game)
tells it the game and the seat to play. In a correspondence game the account at that seat gets one
"your move" notification (refreshed, never doubled, while unread), and the account whose turn ended
finds its own one read. A live game notifies nobody: its players are at the table.

Whose turn it is is stored with the game (``games.to_move``, written with the move), so the list
reads it from the database on any process.

"Game ended" is written by :func:`~.ratings.rate_game` in the transaction that writes the places,
which happens once per game whichever process sees it end, so each person is told once.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import aliased
from sqlalchemy.sql.selectable import ScalarSelect

from ..matches.master import Match
from ..storage.journal import Journal
from ..storage.schema import GameTable, SeatTable
from ..vocabulary import PaceKind, SeatKind
from .notifications import NotificationKind, notify, read_your_move

__all__ = [
    "YourMoveGame",
    "game_ended",
    "game_url",
    "games_to_play",
    "turn_hook",
    "turn_passed",
]

log = logging.getLogger("tendays.server")


def game_url(game_id: str) -> str:
    return f"/play/{game_id}"


def game_ended(db: Connection, game_id: str, seat_places: Sequence[int]) -> None:
    """In ``db``'s transaction (the one that writes the places): every account seated at the game
    is told that it ended and its place."""
    seats = db.execute(
        select(SeatTable.seat, SeatTable.account_id, SeatTable.name).where(
            SeatTable.game_id == game_id
        )
    ).all()
    names = {row.seat: row.name or "" for row in seats}
    for row in seats:
        if row.account_id is None or row.seat >= len(seat_places):
            continue
        notify(
            db,
            row.account_id,
            NotificationKind.GAME_ENDED,
            {
                "game": game_id,
                "place": seat_places[row.seat],
                "players": len(seat_places),
                "opponents": [n for seat, n in sorted(names.items()) if seat != row.seat],
                "url": game_url(game_id),
            },
        )


def turn_passed(
    engine: Engine,
    game_id: str,
    to_seat: int,
    to_account: int | None,
    from_account: int | None,
    opponents: list[str],
) -> None:
    """In one transaction: ``to_account`` (if any) is told it is its move in ``game_id``, and the
    "your move" of ``from_account`` (whose turn ended) is read."""
    now = time.time()
    with engine.begin() as db:
        if from_account is not None and from_account != to_account:
            read_your_move(db, from_account, game_id, now)
        if to_account is not None:
            notify(
                db,
                to_account,
                NotificationKind.YOUR_MOVE,
                {
                    "game": game_id,
                    "seat": to_seat,
                    "opponents": opponents,
                    "url": game_url(game_id),
                },
            )


def turn_hook(
    journal: Journal,
) -> Callable[[Match, int, int | None], Coroutine[Any, Any, None] | None]:
    """The lobby's ``on_turn``: the turn of ``match`` passed to ``seat`` from ``mover`` (None: the
    game just started). It answers at once, with the notification's writing to run, or None when
    there is none to write (a live game's turns, every move of them, start nothing)."""

    def told(match: Match, seat: int, mover: int | None) -> Coroutine[Any, Any, None] | None:
        if match.clock is None or match.clock.pace.kind != PaceKind.CORRESPONDENCE:
            return None
        seats = match.seats
        to_account = seats[seat].account_id if not seats[seat].played_by_bot else None
        from_account = None if mover is None else seats[mover].account_id
        if to_account is None and from_account is None:
            return None
        opponents = [s.shown_name for s in seats if s.index != seat]
        return write(match.id, seat, to_account, from_account, opponents)

    async def write(
        game_id: str,
        seat: int,
        to_account: int | None,
        from_account: int | None,
        opponents: list[str],
    ) -> None:
        try:
            await journal.run(
                turn_passed,
                journal.store.engine,
                game_id,
                seat,
                to_account,
                from_account,
                opponents,
            )
        except Exception:  # the move stands; only its notification is lost
            log.exception("game %s: the 'your move' notification could not be written", game_id)

    return told


@dataclass(frozen=True)
class YourMoveGame:
    """A correspondence game where it is the account's turn."""

    game: str
    seat: int
    edition: str
    opponents: list[str]
    deadline: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "edition": self.edition,
            "opponents": self.opponents,
            "deadline": self.deadline,
            "url": game_url(self.game),
        }


def free_person_seats() -> ScalarSelect[int]:
    """The number of a game's person seats nobody has taken yet, as a subquery correlated to
    ``GameTable``: 0 once the game has started."""
    others = aliased(SeatTable)
    return (
        select(func.count())
        .select_from(others)
        .where(
            others.game_id == GameTable.id,
            others.kind == SeatKind.HUMAN,
            others.token_hash.is_(None),
        )
        .scalar_subquery()
    )


def games_to_play(db: Connection, account_id: int) -> list[YourMoveGame]:
    """The account's unfinished correspondence games that have started and wait for its move,
    the nearest deadline first."""
    mine = aliased(SeatTable)
    free = free_person_seats()
    rows = db.execute(
        select(GameTable.id, GameTable.edition, GameTable.clock, GameTable.deadline, mine.seat)
        .join(mine, and_(mine.game_id == GameTable.id, mine.account_id == account_id))
        .where(
            GameTable.finished.is_(False),
            GameTable.clock.is_not(None),
            func.coalesce(GameTable.to_move, 0) == mine.seat,
            free == 0,
        )
    ).all()
    games = [row for row in rows if _pace_kind(row.clock) == PaceKind.CORRESPONDENCE]
    if not games:
        return []
    names: dict[str, list[tuple[int, str]]] = {}
    for game_id, seat, name in db.execute(
        select(SeatTable.game_id, SeatTable.seat, SeatTable.name).where(
            SeatTable.game_id.in_([row.id for row in games])
        )
    ):
        names.setdefault(game_id, []).append((seat, name or ""))
    found = [
        YourMoveGame(
            row.id,
            row.seat,
            row.edition,
            [name for seat, name in sorted(names.get(row.id, [])) if seat != row.seat],
            row.deadline,
        )
        for row in games
    ]
    return sorted(found, key=lambda g: (g.deadline is None, g.deadline or 0.0, g.game))


def _pace_kind(clock: str | None) -> str | None:
    try:
        pace = json.loads(clock or "null")
    except ValueError:
        return None
    return pace.get("kind") if isinstance(pace, dict) else None
