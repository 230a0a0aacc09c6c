"""The tables of tournaments: series, tournaments, entrants, tables, seats, byes and
chat."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


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
    bots_allowed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))


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
    __table_args__ = (Index("ux_tournaments_series_start", "series_id", "starts_at", unique=True),)

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
