"""The database schema, in one place: the tables, and their migrations (Alembic, run at every
start).

The tables are declared here for the queries; the revisions in
``tendays/server/storage/migrations/versions`` make them. The first revision also upgrades a
database an older tendays made without Alembic, so every database, new or old, SQLite or PostgreSQL,
reaches the newest revision the same way. A new column comes with a new revision (written by hand
beside the others: each names the one it follows), and ``tests/server/test_migrations.py`` checks
that the revisions make exactly these tables.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    literal_column,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "MIGRATIONS",
    "SETTLED",
    "SETTLED_SIGMA",
    "UNLISTED_SQL",
    "UNREAD_YOUR_MOVE_SQL",
    "AccountTable",
    "AttemptCountTable",
    "AuditTable",
    "Base",
    "BlockTable",
    "ChallengeTable",
    "ChatTable",
    "FollowTable",
    "GameTable",
    "KnownDeviceTable",
    "MoveTable",
    "NotificationTable",
    "PresenceTable",
    "RatingHistoryTable",
    "RatingTable",
    "ReportTable",
    "SeatTable",
    "SeekTable",
    "SessionTable",
    "TournamentByeTable",
    "TournamentChatTable",
    "TournamentEntrantTable",
    "TournamentSeatTable",
    "TournamentSeriesTable",
    "TournamentTable",
    "TournamentTableTable",
    "upgrade",
]


class Base(DeclarativeBase):
    pass


class GameTable(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    edition: Mapped[str] = mapped_column(String(32))
    # Options.to_json() as JSON text, rules version included
    options: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)  # secret: never leaves the server
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    # Added by the second schema (all nullable, so older servers still read the table):
    # the pace as JSON; null: no clock
    clock: Mapped[str | None] = mapped_column(Text, nullable=True)
    # the turn's deadline, Unix seconds
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    # when the current turn began
    turn_started: Mapped[float | None] = mapped_column(Float, nullable=True)
    # creation, join or move
    last_move_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    # "abandoned", "closed"; null: played out
    ended: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # the id of the rematch game
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # Revision 0002: the server process that drives the game (its bots and clock), until when (the
    # database's clock, Unix seconds), and the fencing epoch, raised by every takeover.
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    lease_expires: Mapped[float | None] = mapped_column(Float, nullable=True)
    # Revision 0004: a rated game (only signed-in people sit at it; its result moves their ratings).
    rated: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # Revision 0008: what a rated game's result did (people/rated_rules.py's RatedOutcome):
    # "counted", "capped", "aborted" or "annulled"; null: unrated, or not decided yet.
    rated_outcome: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # Revision 0012: the seat whose turn it is, written with every move that passes the turn (the
    # lobby's "your move" list); null before the first move: seat 0 begins.
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)


# The condition of the indexes that hold only the seats that have an account or a compared name.
_HAS_ACCOUNT = "account_id IS NOT NULL"
_HAS_SKELETON = "name_skeleton IS NOT NULL"


class SeatTable(Base):
    """A seat of a game. Revision 0007: one account has at most one seat in a game
    (``ux_seats_game_account``), and no two people's names at a table look alike
    (``ux_seats_game_skeleton``, over :func:`~tendays.server.matches.lookalikes.name_skeleton`),
    decided by the database whoever writes."""

    __tablename__ = "seats"
    __table_args__ = (
        Index(
            "ux_seats_game_account",
            "game_id",
            "account_id",
            unique=True,
            postgresql_where=text(_HAS_ACCOUNT),
            sqlite_where=text(_HAS_ACCOUNT),
        ),
        Index(
            "ux_seats_game_skeleton",
            "game_id",
            "name_skeleton",
            unique=True,
            postgresql_where=text(_HAS_SKELETON),
            sqlite_where=text(_HAS_SKELETON),
        ),
    )

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "bot"
    bot: Mapped[str | None] = mapped_column(String(64))
    name: Mapped[str | None] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64))  # SHA-256 of the seat token, hex
    # Added by the second schema:
    # live clock: seconds of bank left
    bank: Mapped[float | None] = mapped_column(Float, nullable=True)
    # turns in a row played on the clock
    timeouts: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # a bot plays it until the person is back
    away: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # the person left; a bot plays it
    left: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # a rematch seat kept for its player
    reserved: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # Revision 0003: the person asked to end the game (after someone left).
    end_vote: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # Revision 0004: the account that took the seat (null: anonymous, a bot, or a deleted account),
    # and the seat's place once the game is over (1 for the winner; ties share a place).
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id"), nullable=True, index=True
    )
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Revision 0008: the person (not a bot standing in) has made a move here after the draft; a
    # rated game that ends early before every seat has is aborted (people/rated_rules.py).
    moved_after_draft: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # Revision 0007: the look-alike key of a person's name (taken or kept for a rematch); null for
    # a free seat, a bot (two bots of one level share a name) and a deleted account's seat.
    name_skeleton: Mapped[str | None] = mapped_column(String(1024), nullable=True)


class MoveTable(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1 for the first move
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(32))  # the engine's notation


class ChatTable(Base):
    """Table talk and the table's notices (timeouts, a player leaving), stored with the game."""

    __tablename__ = "chat"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1 for the first line
    # null: a notice of the table itself
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(8))  # "chat" or "notice"
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)  # Unix seconds


#: The accounts left off the leaderboards (revision 0009): suspended, closed or hidden by the
#: operator, whom the partial index ``ix_accounts_unlisted`` holds (a handful, however many accounts
#: there are). A query that leaves them out states the condition as the index does.
UNLISTED_SQL = "status <> 'active' OR hidden"


class AccountTable(Base):
    """A person's account (revision 0004). The name is shown as typed; ``name_key`` (its case-folded
    form) keeps names unique regardless of case."""

    __tablename__ = "accounts"
    __table_args__ = (
        Index("ux_accounts_name_skeleton", "name_skeleton", unique=True),
        Index(
            "ix_accounts_unlisted",
            "id",
            postgresql_where=text(UNLISTED_SQL),
            sqlite_where=text(UNLISTED_SQL),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    # Revision 0007: the look-alike key of the name (matches/lookalikes.py), unique: "Аlice" with a
    # Cyrillic А cannot sign up beside "Alice". Null only for an account made before the rule whose
    # name looked like an older account's.
    name_skeleton: Mapped[str | None] = mapped_column(String(1024), nullable=True)
    # Argon2id, PHC string: never leaves the server
    password_hash: Mapped[str] = mapped_column(String(256))
    created: Mapped[float] = mapped_column(Float)  # Unix seconds
    # Revision 0009: moderation. ``status`` is an AccountStatus (people/moderation_types.py);
    # only an active account signs in. A hidden account is left off the leaderboards.
    status: Mapped[str] = mapped_column(String(16), default="active", server_default="active")
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    # Revision 0013: a bot account (people/bot_accounts.py) plays only through the Bot API; set
    # once, never unset.
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))


class ApiTokenTable(Base):
    """A personal API token (revision 0013): ``Authorization: Bearer`` on the Bot API
    (people/api_tokens.py). Only the SHA-256 of the token is stored, so a copy of the database
    plays for nobody; ``scopes`` are TokenScope values separated by spaces; a revoked token keeps
    its row (``revoked_at``) so its owner's list says when."""

    __tablename__ = "api_tokens"
    __table_args__ = (Index("ux_api_tokens_hash", "token_hash", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[str] = mapped_column(String(120))
    created: Mapped[float] = mapped_column(Float)
    last_used: Mapped[float | None] = mapped_column(Float, nullable=True)
    revoked_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class SessionTable(Base):
    """A signed-in browser (revision 0004). Only the SHA-256 of the session id is stored, so a copy
    of the database signs nobody in."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float, index=True)


class AttemptCountTable(Base):
    """Attempts counted per limit key (revision 0006, in place of 0004's ``sign_in_limits``):
    sign-ins per name, address and known device, sign-ups, games created and joined per address. One
    statement counts an attempt and reads the count (people/limits.py), so every server process
    counts together and a burst cannot pass a limit."""

    __tablename__ = "attempt_counts"

    # "name:<name key>", "address:<address>", "device:<hash>", "create:<address>", ...
    key: Mapped[str] = mapped_column(String(160), primary_key=True)
    hits: Mapped[int] = mapped_column(Integer)
    window_end: Mapped[float] = mapped_column(Float, index=True)  # Unix seconds


class KnownDeviceTable(Base):
    """A browser an account signed in on (revision 0006; people/devices.py): its sign-ins are
    limited per device, so strangers cannot lock the owner out. Only the SHA-256 of the device
    cookie is stored."""

    __tablename__ = "known_devices"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float, index=True)


#: A rating whose deviation is at most this is settled (not provisional): the leaderboard's players,
#: whom the partial index ``ix_ratings_settled`` holds (revision 0005; a new value needs a new
#: revision).
SETTLED_SIGMA = 6.0
# The condition as the index states it: a literal, so that both databases
# see that a query implies it.
_SETTLED_SQL = f"sigma <= {SETTLED_SIGMA!r}"


class RatingTable(Base):
    """A person's rating in one edition (revision 0004). The leaderboard reads an edition's settled
    players, best first, from ``ix_ratings_settled`` (revision 0005), which holds only them: a page
    costs its rows, however few of the edition's players are settled."""

    __tablename__ = "ratings"
    __table_args__ = (
        Index(
            "ix_ratings_settled",
            "edition",
            "rating",
            "account_id",
            postgresql_where=text(_SETTLED_SQL),
            sqlite_where=text(_SETTLED_SQL),
        ),
    )

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    edition: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    # the shown rating, kept for the leaderboard's order
    rating: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


#: A query's condition for the settled ratings, written as the index's (so the index serves the
#: query).
SETTLED = RatingTable.sigma <= literal_column(repr(SETTLED_SIGMA))


class RatingHistoryTable(Base):
    """Each counted rated game's effect on a person's rating (revision 0004): the profile's chart,
    and the record of which games moved ratings, in order (one row per account per counted game).
    ``ix_rating_history_recent`` (revision 0008) finds a person's games of the last day, for the
    repeat cap."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_recent", "account_id", "edition", "at"),)

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    edition: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[float] = mapped_column(Float, index=True)
    rating: Mapped[float] = mapped_column(Float)  # after the game
    deviation: Mapped[float] = mapped_column(Float)


class SeekTable(Base):
    """A wish to play someone now (revision 0004), paired with a
    compatible one into a rated game."""

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    edition: Mapped[str] = mapped_column(String(32))
    # the pace as JSON; null: no clock
    pace: Mapped[str | None] = mapped_column(Text, nullable=True)
    rating_min: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating_max: Mapped[float | None] = mapped_column(Float, nullable=True)
    created: Mapped[float] = mapped_column(Float, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)  # "open", "paired", "cancelled"
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # the paired seat's token, for its owner
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ReportTable(Base):
    """A person's report of a player to the operator (revision 0009). ``reason`` is a ReportReason,
    ``status`` a ReportStatus (people/moderation_types.py)."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    # null once the reporter's account is deleted: the report stays
    reporter_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    reported_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    reason: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Float, index=True)
    status: Mapped[str] = mapped_column(String(8))
    closed_note: Mapped[str | None] = mapped_column(Text, nullable=True)
    closed_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class BlockTable(Base):
    """One person blocking another (revision 0009): no challenges or pairings between them, and
    the blocked one's chat hidden from the blocker."""

    __tablename__ = "blocks"

    blocker_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    created: Mapped[float] = mapped_column(Float)


class FollowTable(Base):
    """One person following another (revision 0011; people/follows.py): the follower's list shows
    who is online and who is playing. Keyed by the pair, so following twice is one row."""

    __tablename__ = "follows"

    follower_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    followed_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created: Mapped[float] = mapped_column(Float)


class AuditTable(Base):
    """Every operator action (revision 0009), written in the same transaction as the action.
    ``action`` is an OperatorAction (people/moderation_types.py); the account's name is kept as it
    was, so the record reads the same after the account is deleted."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float, index=True)
    # the operator's name given to the command, or "token:<fingerprint>" of the admin token
    operator: Mapped[str] = mapped_column(String(80))
    action: Mapped[str] = mapped_column(String(16))
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    account_name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # the report an action closed, if any
    report_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    note: Mapped[str] = mapped_column(Text, default="", server_default="")
    # what the action changed, as JSON (e.g. {"games": [...]} for the games annulled)
    outcome: Mapped[str] = mapped_column(Text, default="", server_default="")


# The condition of the index that holds only the open challenges.
_OPEN_CHALLENGE_SQL = "status = 'open'"


class ChallengeTable(Base):
    """A challenge (revision 0011; people/challenges.py): one account asks another (or, for an open
    link, whoever takes it first) to play a game of the given edition, options and clock. ``status``
    is a ChallengeStatus and ``reason`` a DeclineReason (people/challenge_types.py). A challenger's
    open challenges to one person each take one of three slots (``slot``), and
    ``ux_challenges_open_slot`` keeps two open ones out of one slot: at most three open to one
    person, decided by the database whoever writes."""

    __tablename__ = "challenges"
    __table_args__ = (
        Index(
            "ux_challenges_open_slot",
            "challenger_id",
            "challenged_id",
            "slot",
            unique=True,
            postgresql_where=text(_OPEN_CHALLENGE_SQL),
            sqlite_where=text(_OPEN_CHALLENGE_SQL),
        ),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    challenger_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    # null: an open link, accepted by the first signed-in taker
    challenged_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True
    )
    # who accepted it (the challenged account, or an open link's taker)
    accepter_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    edition: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text)  # the rule options asked for, as JSON
    clock: Mapped[str | None] = mapped_column(Text, nullable=True)  # the pace as JSON; null: none
    rated: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(String(16), nullable=True)  # why it was declined
    slot: Mapped[int] = mapped_column(Integer)
    created: Mapped[float] = mapped_column(Float)  # Unix seconds
    expires_at: Mapped[float] = mapped_column(Float, index=True)
    # when it was accepted, declined or cancelled
    answered_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


# Revision 0012: at most one unread "your move" notification per account and game.
UNREAD_YOUR_MOVE_SQL = "kind = 'your_move' AND read_at IS NULL"


class NotificationTable(Base):
    """One notification of an account's inbox (revision 0012): its kind (people/notifications.py's
    NotificationKind), its data as JSON, the game it is about (if any) and when it was read (null:
    unread)."""

    __tablename__ = "notifications"
    __table_args__ = (
        Index("ix_notifications_inbox", "account_id", "id"),
        Index(
            "ux_notifications_your_move",
            "account_id",
            "game_id",
            unique=True,
            postgresql_where=text(UNREAD_YOUR_MOVE_SQL),
            sqlite_where=text(UNREAD_YOUR_MOVE_SQL),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))
    data: Mapped[str] = mapped_column(Text)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[float] = mapped_column(Float)
    read_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class PresenceTable(Base):
    """When an account last had a page of the site open (revision 0012): touched by its ``/ws/me``
    sockets when they open and while they stay open."""

    __tablename__ = "presence"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    seen_at: Mapped[float] = mapped_column(Float)

class _EventColumns:
    """What a tournament and a series of tournaments both say (revision 0010): the kind (a
    TournamentKind of the package people/tournament_rules/), edition, options (JSON), pace (JSON;
    null: no clock), an arena's minutes or a Swiss event's rounds, the table size, whether people's
    games are rated, the ladder bots that play (a JSON list of levels) and the entrants' rating
    limits."""

    name: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(8))
    edition: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text)
    clock: Mapped[str | None] = mapped_column(Text, nullable=True)
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    table_size: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    bots: Mapped[str] = mapped_column(Text)
    rating_min: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating_max: Mapped[float | None] = mapped_column(Float, nullable=True)
    # Revision 0013: bot accounts may enter
    bots_allowed: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=text("false")
    )


class TournamentSeriesTable(_EventColumns, Base):
    """An operator's repeating event (revision 0010): one tournament every ``every`` seconds from
    ``first_start``, each made an hour ahead by whichever process's director gets there first."""

    __tablename__ = "tournament_series"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    every: Mapped[float] = mapped_column(Float)
    first_start: Mapped[float] = mapped_column(Float)
    active: Mapped[bool] = mapped_column(Boolean)
    created: Mapped[float] = mapped_column(Float)


class TournamentTable(_EventColumns, Base):
    """A tournament (revision 0010). ``status`` is a TournamentStatus
    (people/tournaments.py); ``round`` the Swiss round paired last. Like a game, it is run by one
    server process at a time, the holder of its lease (owner, epoch, expiry), and every pairing is
    written with the epoch checked in the same transaction. ``ux_tournaments_series_start`` keeps a
    series from having two events at one time, whoever makes them."""

    __tablename__ = "tournaments"
    __table_args__ = (
        Index("ux_tournaments_series_start", "series_id", "starts_at", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    starts_at: Mapped[float] = mapped_column(Float, index=True)
    # an arena's end (fixed); a Swiss event's once it ended
    ends_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    round: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # null: the operator's
    created_by: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    created: Mapped[float] = mapped_column(Float)
    series_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament_series.id", ondelete="SET NULL"), nullable=True
    )
    # the entrants were told it starts in five minutes
    reminded: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    lease_expires: Mapped[float | None] = mapped_column(Float, nullable=True)


class TournamentEntrantTable(Base):
    """A person or a ladder bot in a tournament (revision 0010): one entry per account
    (``ux_tournament_entrants_account``) and per bot level (``ux_tournament_entrants_bot``), so a
    burst of joins makes one entry. A withdrawn entrant keeps their results and may come back;
    ``first_round`` is the first Swiss round they could be paired in (the ones before count as
    half-point byes)."""

    __tablename__ = "tournament_entrants"
    __table_args__ = (
        Index("ux_tournament_entrants_account", "tournament_id", "account_id", unique=True),
        Index("ux_tournament_entrants_bot", "tournament_id", "bot", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    rating: Mapped[float] = mapped_column(Float)  # in the edition, when they joined
    joined: Mapped[float] = mapped_column(Float)
    first_round: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    paused: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    # arena: since when they wait for an opponent
    free_since: Mapped[float | None] = mapped_column(Float, nullable=True)


class TournamentTableTable(Base):
    """One table of a tournament (revision 0010): written with the id its game will have, before
    the game exists, by the lease holder (``epoch``); ``playing`` until its game ended and its
    places were read."""

    __tablename__ = "tournament_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)  # Swiss: 1-based; arena: 0
    game_id: Mapped[str] = mapped_column(String(32), unique=True)
    created: Mapped[float] = mapped_column(Float)
    epoch: Mapped[int] = mapped_column(Integer)
    playing: Mapped[bool] = mapped_column(Boolean)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


_SWISS_ROUND_SQL = "round > 0"
_PLAYING_SQL = "playing"


class TournamentSeatTable(Base):
    """An entrant's seat at a tournament table (revision 0010), with their place once the game
    ended. ``ux_tournament_seats_round``: one table per entrant per Swiss round;
    ``ux_tournament_seats_playing``: one unfinished table per entrant (an arena's rule)."""

    __tablename__ = "tournament_seats"
    __table_args__ = (
        Index(
            "ux_tournament_seats_round",
            "entrant_id",
            "round",
            unique=True,
            postgresql_where=text(_SWISS_ROUND_SQL),
            sqlite_where=text(_SWISS_ROUND_SQL),
        ),
        Index(
            "ux_tournament_seats_playing",
            "entrant_id",
            unique=True,
            postgresql_where=text(_PLAYING_SQL),
            sqlite_where=text(_PLAYING_SQL),
        ),
    )

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_tables.id", ondelete="CASCADE"), primary_key=True
    )
    entrant_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_entrants.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer)  # the game's seat, from 0
    round: Mapped[int] = mapped_column(Integer)
    playing: Mapped[bool] = mapped_column(Boolean)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)


class TournamentByeTable(Base):
    """A Swiss round an entrant sat out as the odd one out (revision 0010), and its points."""

    __tablename__ = "tournament_byes"

    entrant_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_entrants.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    points: Mapped[float] = mapped_column(Float)


class TournamentChatTable(Base):
    """A line of a tournament's chat (revision 0010); the name is kept as it was written."""

    __tablename__ = "tournament_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


MIGRATIONS = Path(__file__).parent / "migrations"


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision (a new database is made;
    an old one keeps every game)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
