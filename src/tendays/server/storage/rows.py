"""What the store reads and writes: a game with its seats and chat, one stored move, the two ways a
write can lose a race (:class:`MoveConflict`, :class:`SeatTaken`), and the seat the database refuses
by one of its rules (:class:`SeatRefused`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum

from tendays.engine import Options

from ..settings import Pace
from ..vocabulary import ChatKind
from .notices import MoveNotice

__all__ = [
    "ChatRow",
    "MoveConflict",
    "MoveRow",
    "SeatRefused",
    "SeatRule",
    "SeatTaken",
    "StoredGame",
    "StoredSeat",
    "read_options",
]


@dataclass
class StoredSeat:
    seat: int
    kind: str
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    bank: float | None = None
    timeouts: int = 0
    away: bool = False
    left: bool = False
    reserved: bool = False
    end_vote: bool = False  # asked to end the game (after someone left)
    # the account that took the seat (null: anonymous, a bot, a deleted account)
    account_id: int | None = None
    # the person has made a move after the draft (a bot standing in does not count)
    moved_after_draft: bool = False
    # the look-alike key of a person's name (tendays.server.matches.lookalikes); None for a free
    # seat, a bot and a deleted account's seat
    name_skeleton: str | None = None
    # the account is a bot account (it plays through the Bot API): read from the account on load
    bot_account: bool = False


@dataclass(frozen=True, slots=True)
class ChatRow:
    """One line of the table's talk (``seat``) or one of its notices
    (``seat`` None, kind :attr:`~tendays.server.vocabulary.ChatKind.NOTICE`)."""

    number: int
    seat: int | None
    kind: ChatKind
    text: str
    at: float


@dataclass
class StoredGame:
    id: str
    edition: str
    options: Options
    seed: int
    created: datetime
    seats: list[StoredSeat]
    moves: list[str] = field(default_factory=list)
    finished: bool = False
    pace: Pace | None = None
    deadline: float | None = None
    turn_started: float | None = None
    last_move_at: float | None = None
    finished_at: float | None = None
    ended: str | None = None
    rematch: str | None = None
    chat: list[ChatRow] = field(default_factory=list)
    rated: bool = False  # only signed-in people sit at it, and its result moves their ratings
    # what its result did to ratings ("counted", "capped", "aborted", "annulled"); null: unrated or
    # not decided yet
    rated_outcome: str | None = None


@dataclass(frozen=True)
class MoveRow:
    """One accepted move to store, with the clock as it stands after it.

    ``finished`` marks the move that ended the game; ``bank`` and ``timeouts`` are the mover's,
    given (both) only when either changed. The game's row (its deadline, whose turn it is, and when
    it last moved, for expiry) is written only when ``touch`` says so: a move within a turn stores
    one row.
    """

    game_id: str
    number: int
    seat: int
    move: str
    finished: bool = False
    at: float = 0.0
    deadline: float | None = None
    turn_started: float | None = None
    bank: float | None = None
    timeouts: int | None = None
    # write the game's row (its deadline changed, or its last move time is a minute old)
    touch: bool = True
    # the lease epoch the mover holds (PostgreSQL), checked in the same transaction
    epoch: int | None = None
    # the person at the seat made their first move after the draft: the seat's row says so
    first_after_draft: bool = False
    # the seat whose turn it is after the move (written with the game's row); None: game over
    to_move: int | None = None

    def notice(self) -> str:
        """The move as the other server processes hear of it
        (:class:`~tendays.server.storage.notices.MoveNotice`)."""
        return MoveNotice(
            self.number,
            self.seat,
            self.move,
            self.at,
            self.deadline,
            self.turn_started,
            self.bank,
            self.timeouts,
        ).text()

    @staticmethod
    def from_notice(game_id: str, text: str) -> MoveRow:
        """The move of a :meth:`notice`; ``ValueError`` if it is not one."""
        heard = MoveNotice.read(text)
        return MoveRow(
            game_id,
            heard.number,
            heard.seat,
            heard.move,
            at=heard.at,
            deadline=heard.deadline,
            turn_started=heard.turn_started,
            bank=heard.bank,
            timeouts=heard.timeouts,
        )


def read_options(text: str) -> Options:
    """Stored options. Rows from before rules versions existed name none:
    they were played under rules 1."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"options must be a JSON object, not {text[:40]!r}")
    return Options.from_json(data, rules_if_missing=1)


class MoveConflict(RuntimeError):
    """The move was not stored: its number is taken (another process stored a move first), or the
    game's lease was taken over (``lease_lost``: its epoch moved on), so this process no longer
    drives the game."""

    def __init__(self, message: str, lease_lost: bool = False) -> None:
        super().__init__(message)
        self.lease_lost = lease_lost


class SeatTaken(RuntimeError):
    """Someone (perhaps through another server process) took the seat first."""


class SeatRule(Enum):
    """A rule of who may sit at a table that the database itself enforces (revision 0007)."""

    # one account holds at most one seat of a game
    ONE_SEAT_PER_ACCOUNT = "one seat per account"
    # no two people's names at a table look alike
    DISTINCT_NAMES = "distinct names"
    # nobody takes a name that looks like a registered account's, unless signed in to it
    ACCOUNT_NAME = "account name"


class SeatRefused(RuntimeError):
    """The database refused to seat a person: ``rule`` says which of its rules it kept."""

    def __init__(self, rule: SeatRule) -> None:
        super().__init__(rule.value)
        self.rule = rule
