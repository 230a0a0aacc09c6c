"""The server's closed sets of words, each named once: a game's status, a seat's kind, a game's
pace, why a game ended early, the codes a table refuses with, the kinds of message the table socket
takes and sends, the kinds of chat line (docs/protocol.md names every member; a test holds them
together), how far a game's analysis is, and what one server process tells the others it changed.

Every member is a ``StrEnum`` whose value is the word records, the database and the wire have
always used: a member equals its string and encodes as it, so nothing stored or sent changes. This
module is the server's bottom layer: every room may import it, and it imports nothing of theirs.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "AnalysisStatus",
    "ChangeKind",
    "ChatKind",
    "ClientKind",
    "EndReason",
    "MatchStatus",
    "PaceKind",
    "RejectionCode",
    "SeatKind",
    "ServerKind",
]


class MatchStatus(StrEnum):
    """Where a game stands: the ``status`` of a table, a listed game and a stored one."""

    WAITING = "waiting"  # seats are still free: nobody holds a tile yet
    PLAYING = "playing"
    OVER = "over"  # won, stopped by the turn limit, or ended early (see EndReason)


class SeatKind(StrEnum):
    """Who a seat is for. A person's seat stays ``human`` while a bot stands in for them (away or
    left) and when a program plays it through the Bot API."""

    HUMAN = "human"
    BOT = "bot"


class PaceKind(StrEnum):
    """How a game with a clock is played: the ``kind`` of a game's ``pace`` (a challenge's and a
    tournament's ``clock``)."""

    LIVE = "live"  # seconds a move, and a bank
    CORRESPONDENCE = "correspondence"  # hours or days a move; turns are told by notification


class EndReason(StrEnum):
    """Why a game ended before it was played out: a game's ``ended`` (None: played out, its
    winner or the turn limit said by the engine's events ``win`` and ``limit``)."""

    ABANDONED = "abandoned"  # the players chose to, nobody was left, or nobody moved for too long
    CLOSED = "closed"  # the server's operator closed it
    FORFEIT = "forfeit"  # a rated game left to one person: it ends in their favour


class RejectionCode(StrEnum):
    """The ``code`` of the table's ``error`` message: which rule a refused message broke."""

    ILLEGAL = "illegal"  # the rules or the game's stage do not allow it
    OUT_OF_TURN = "out_of_turn"
    STALE = "stale"  # made on an older table; the current one follows the error
    MALFORMED = "malformed"
    FORBIDDEN = "forbidden"  # not for this connection (a spectator, a wrong seat link, a block)
    RATE_LIMITED = "rate_limited"
    TOO_LARGE = "too_large"
    UNAVAILABLE = "unavailable"  # the server cannot take it now (full, shutting down)
    NOT_FOUND = "not_found"  # no such game
    SIGNED_OUT = "signed_out"  # the session the connection was signed in to ended
    LINK_REVOKED = "link_revoked"  # the seat link that opened the seat no longer does


class ClientKind(StrEnum):
    """The ``type`` of a message a client sends to the table socket; ``hello`` comes first and
    only once, the others in any order after it."""

    HELLO = "hello"
    MOVE = "move"
    HINT = "hint"
    CHAT = "chat"
    LEAVE = "leave"
    BACK = "back"
    END = "end"
    REMATCH = "rematch"
    SYNC = "sync"
    LANGUAGE = "language"
    PING = "ping"


class ServerKind(StrEnum):
    """The ``type`` of a message the table socket sends."""

    STATE = "state"  # the table as the connection's seat sees it
    CHAT = "chat"  # chat lines (and notices) the connection does not have yet
    HINT = "hint"  # the verdict on the connection's rack, for it alone
    SEAT = "seat"  # the seat of the rematch the connection asked for
    ERROR = "error"  # a refused message: a RejectionCode and the reason in words
    PONG = "pong"  # the answer to a ping


class ChatKind(StrEnum):
    """The ``kind`` of a chat line: what a seat wrote, or the table's own notice (stored as data,
    read in each reader's language)."""

    CHAT = "chat"
    NOTICE = "notice"


class AnalysisStatus(StrEnum):
    """The ``status`` of a finished game's analysis, asked for again until it is not running."""

    RUNNING = "running"
    READY = "ready"
    FAILED = "failed"


class ChangeKind(StrEnum):
    """What a server process tells the others it changed: the first word of a notice's WHAT
    (:func:`~tendays.server.storage.cluster.announcement`). Never sent to a browser."""

    MOVE = "move"  # a stored move, with the clock after it
    SEAT = "seat"
    CHAT = "chat"
    ENDED = "ended"
    REMATCH = "rematch"
    RELEASED = "released"  # game "*": the process gave its leases back
    TAKEN = "taken"  # "taken EPOCH": the sender took the game's lease; its holder stops driving
    SESSIONS = "sessions"  # game "*": sessions of an account ended
    INBOX = "inbox"  # game "*": an account's inbox changed
