"""The tables that reach a person: challenges, the notification inbox and presence."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base

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
