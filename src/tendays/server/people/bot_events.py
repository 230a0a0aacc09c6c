"""What an account's event stream (``GET /api/stream/event``) tells a program: the games it sits
at that start and finish, the challenges made to it (and taken back), and the declines of those it
made.

The stream does not keep a log of events: it reads the account's state from the database
(:func:`read_account_events`) when it opens and again whenever it is woken, and
:class:`EventFollower` turns the difference into event lines. So a program that reconnects finds
its unfinished games and open challenges again first, no event written by a transaction that rolled
back is ever told, and a wake that is lost costs only a delay until the next keep-alive, when the
stream reads again.

- ``gameStart``: a game the account sits at (and has not left) whose people's seats are all
  taken and that has not finished: from a challenge, a tournament's pairing, a seek.
- ``gameFinish``: such a game finished, or the account left it.
- ``challenge``: an open challenge to the account (not an open link).
- ``challengeCanceled``: a challenge told as ``challenge`` was cancelled by its challenger or
  lapsed.
- ``challengeDeclined``: a challenge the account made was declined after the stream opened.

Streams are woken through the inbox's path (:func:`wake_accounts` calls
:func:`~tendays.server.people.notifications.announce_inbox`): on PostgreSQL an ``inbox`` notice
every server process hears once the transaction commits, on SQLite the commit of this process.
Making a challenge, declining one and a game's end already notify the account's inbox; the other
changes (a cancel, a game that starts, a seat left) wake it with :func:`wake_accounts`.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import aliased

from ..matches.lobby import Lobby
from ..matches.master import Match
from ..storage.schema import GameTable, SeatTable
from .challenge_types import Challenge, ChallengeStatus
from .challenges import ChallengeBook
from .game_notices import free_person_seats
from .notifications import announce_inbox

__all__ = [
    "AccountEvents",
    "EventFollower",
    "EventType",
    "GameSeat",
    "challenge_statuses",
    "read_account_events",
    "wake_accounts",
    "watch_games",
]

log = logging.getLogger("tendays.server")


class EventType(enum.StrEnum):
    """The ``type`` of an event line."""

    CHALLENGE = "challenge"
    CHALLENGE_CANCELED = "challengeCanceled"
    CHALLENGE_DECLINED = "challengeDeclined"
    GAME_START = "gameStart"
    GAME_FINISH = "gameFinish"


@dataclass(frozen=True, slots=True)
class GameSeat:
    """An unfinished game the account plays: the game, its seat, its edition."""

    id: str
    seat: int
    edition: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "seat": self.seat, "edition": self.edition}


@dataclass(frozen=True)
class AccountEvents:
    """What the account's stream follows, read at one moment: its started unfinished games (oldest
    first), the open challenges to it (oldest first) and its challenges declined since the stream
    opened."""

    games: list[GameSeat]
    incoming: list[Challenge]
    declined: list[Challenge]


def read_account_events(engine: Engine, account_id: int, since: float, now: float) -> AccountEvents:
    """The account's state as its event stream follows it; ``since``: when the stream opened (the
    declines before it are not told)."""
    incoming, outgoing = ChallengeBook(engine).listing(account_id, now)
    declined = [
        c
        for c in outgoing
        if c.status is ChallengeStatus.DECLINED
        and c.answered_at is not None
        and c.answered_at >= since
    ]
    with engine.connect() as db:
        games = _started_games(db, account_id)
    return AccountEvents(
        games,
        sorted(incoming, key=lambda c: (c.created, c.id)),
        sorted(declined, key=lambda c: (c.answered_at or 0.0, c.id)),
    )


def _started_games(db: Connection, account_id: int) -> list[GameSeat]:
    """The unfinished games the account sits at and has not left, every person's seat taken."""
    mine = aliased(SeatTable)
    free = free_person_seats()
    rows = db.execute(
        select(GameTable.id, GameTable.edition, mine.seat)
        .join(mine, and_(mine.game_id == GameTable.id, mine.account_id == account_id))
        .where(
            GameTable.finished.is_(False),
            func.coalesce(mine.left, False).is_(False),
            free == 0,
        )
        .order_by(GameTable.created, GameTable.id)
    ).all()
    return [GameSeat(row.id, int(row.seat), row.edition) for row in rows]


def challenge_statuses(
    engine: Engine, ids: Iterable[str], now: float
) -> dict[str, ChallengeStatus]:
    """The status of each of the challenges ``ids`` at ``now`` (a lapsed open one: expired)."""
    book = ChallengeBook(engine)
    found: dict[str, ChallengeStatus] = {}
    for challenge_id in ids:
        challenge = book.get(challenge_id)
        if challenge is not None:
            found[challenge_id] = challenge.status_at(now)
    return found


def wake_accounts(engine: Engine, account_ids: Iterable[int]) -> None:
    """Wake the event streams (and inbox pages) of the accounts, in every server process, in a
    transaction of its own."""
    wanted = sorted(set(account_ids))
    if not wanted:
        return
    with engine.begin() as db:
        for account_id in wanted:
            announce_inbox(db, account_id)


def watch_games(lobby: Lobby) -> None:
    """Wake the event streams of a game's accounts when it starts here (its last seat taken) and
    when it ends here, beside what the lobby's hooks did already. A game made with every seat taken
    at once is found by the streams' next reading (at the latest at their next keep-alive)."""
    turned, finished = lobby.on_turn, lobby.on_finished
    journal = lobby.journal

    async def wake_seated(match: Match) -> None:
        accounts = [s.account_id for s in match.seats if s.account_id is not None]
        try:
            await journal.run(wake_accounts, journal.store.engine, accounts)
        except Exception:  # the game goes on; its players' streams read again at their keep-alive
            log.exception("game %s: the event streams of its players could not be woken", match.id)

    def turn(match: Match, seat: int, mover: int | None) -> Coroutine[Any, Any, None] | None:
        told = turned(match, seat, mover) if turned is not None else None
        if mover is not None:  # a turn passes: only what the lobby's hook has to do, if anything
            return told
        return started(match, told)

    async def started(match: Match, told: Coroutine[Any, Any, None] | None) -> None:
        if told is not None:
            await told
        await wake_seated(match)

    async def over(match: Match) -> None:
        if finished is not None:
            await finished(match)
        await wake_seated(match)

    lobby.on_turn, lobby.on_finished = turn, over


def challenge_json(challenge: Challenge) -> dict[str, Any]:
    """A challenge as a ``challenge`` event carries it."""
    return {
        "id": challenge.id,
        "from": challenge.challenger,
        "from_bot_account": challenge.challenger_bot,
        "edition": challenge.edition,
        "options": challenge.options,
        "clock": None if challenge.pace is None else challenge.pace.to_json(),
        "rated": challenge.rated,
        "expires_at": challenge.expires_at,
    }


@dataclass
class EventFollower:
    """What one stream has told, and the events that bring it up to a new reading."""

    games: dict[str, GameSeat] = field(default_factory=dict)
    challenges: set[str] = field(default_factory=set)
    declines: set[str] = field(default_factory=set)

    def vanished(self, now: AccountEvents) -> set[str]:
        """The challenges told as open that are no longer: their statuses say what to tell."""
        return self.challenges - {c.id for c in now.incoming}

    def events(
        self, now: AccountEvents, statuses: dict[str, ChallengeStatus]
    ) -> list[dict[str, Any]]:
        """The event lines from what was told to ``now``: games started, then finished, then
        challenges new, taken back and declined. ``statuses``: those of :meth:`vanished`."""
        lines: list[dict[str, Any]] = []
        current = {g.id: g for g in now.games}
        for game in now.games:
            if game.id not in self.games:
                lines.append({"type": EventType.GAME_START.value, "game": game.to_json()})
        for game_id in [g for g in self.games if g not in current]:
            lines.append({"type": EventType.GAME_FINISH.value, "game": {"id": game_id}})
        self.games = current
        for challenge in now.incoming:
            if challenge.id not in self.challenges:
                lines.append(
                    {"type": EventType.CHALLENGE.value, "challenge": challenge_json(challenge)}
                )
        for challenge_id in sorted(self.vanished(now)):
            if statuses.get(challenge_id) in (ChallengeStatus.CANCELLED, ChallengeStatus.EXPIRED):
                lines.append(
                    {
                        "type": EventType.CHALLENGE_CANCELED.value,
                        "challenge": {"id": challenge_id},
                    }
                )
        self.challenges = {c.id for c in now.incoming}
        for challenge in now.declined:
            if challenge.id not in self.declines:
                self.declines.add(challenge.id)
                lines.append(
                    {
                        "type": EventType.CHALLENGE_DECLINED.value,
                        "challenge": {
                            "id": challenge.id,
                            "reason": None if challenge.reason is None else challenge.reason.value,
                        },
                    }
                )
        return lines
