"""The tables of what people do about each other and the operator about them: seeks,
reports, blocks, follows and the moderation audit."""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


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
