"""Persistence: game records in any SQLAlchemy database, written before anything is acknowledged.

A game is determined by (edition, options, seed, moves), so that is what the store keeps, plus the
seats (names, kinds, bot levels, the SHA-256 hashes of their secret tokens, what is left of each
bank, whether the person left), the pace and the turn's deadline, the table's chat, and when the
game last moved or ended. The options carry the rules version the game is played under; rows written
before rules versions existed are read as rules 1, the rules they were played under. The tables and
their upgrade are in :mod:`tendays.server.storage.schema`, the reading of games in
:mod:`~tendays.server.storage.game_reads` and the storing of moves in
:mod:`~tendays.server.storage.move_writes`; every write goes through the
:class:`~tendays.server.storage.journal.Journal`.

On PostgreSQL several server processes share the database (:mod:`tendays.server.storage.cluster`):
every write also tells the others (``pg_notify``, sent when the transaction commits), a move stored
by the process that drives the game is fenced by the game's lease epoch, and a move's number (the
key of its row) is taken only once, whoever writes it.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ..vocabulary import ChangeKind
from .database import (
    DatabaseBusy,
    DatabaseLock,
    MissingDriver,
    database_url,
    make_engine,
    redact_url,
)
from .game_reads import (
    load_stored_game,
    load_stored_games,
    open_game_page,
    operator_game_page,
)
from .leases import LeaseStore
from .move_writes import write_moves
from .notices import notify, notify_all
from .rows import (
    ChatRow,
    MoveConflict,
    MoveRow,
    SeatRefused,
    SeatRule,
    SeatTaken,
    StoredGame,
)
from .schema import AccountTable, ChatLineTable, GameTable, MoveTable, SeatTable, upgrade

# A chat line's row (one a few moves): built once, so that SQLAlchemy compiles it once and each
# line is only its values.
_INSERT_CHAT = insert(ChatLineTable)

__all__ = [
    "DatabaseBusy",
    "DatabaseLock",
    "MissingDriver",
    "Store",
    "database_url",
    "redact_url",
]


class Store:
    """Synchronous access to the game tables. Use it from one thread (the Journal's). Its ``leases``
    (PostgreSQL) say which server process drives each unfinished game."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(database_url(url))
        # several server processes may use it
        self.shared = self.engine.dialect.name == "postgresql"
        # This process, as lease owner and as the sender of notifications.
        self.owner = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.leases = LeaseStore(self.engine, self.owner, self._announce)
        self._held: Connection | None = None
        upgrade(self.engine)

    def _announce(self, db: Connection, game_id: str, what: str) -> None:
        """Tell the other server processes, once this transaction
        commits, that ``game_id`` changed."""
        notify(db, self.owner, game_id, what)

    def _announce_all(self, db: Connection, changes: list[tuple[str, str]]) -> None:
        """:meth:`_announce` of every (game id, what), with one statement."""
        notify_all(db, self.owner, changes)

    def close(self) -> None:
        if self._held is not None:
            self._held.close()
            self._held = None
        self.engine.dispose()

    def _writer(self) -> Connection:
        """The connection the moves and chat lines are written on, kept between transactions: a
        checkout and a checkin of the pool for each batch (and on PostgreSQL the pool's ping) cost
        more than the batch's statements. Used by one thread, the Journal's; one that failed is
        replaced."""
        held = self._held
        if held is None or held.closed or held.invalidated:
            if held is not None:
                held.close()
            held = self._held = self.engine.connect()
        return held

    # -- writing ---------------------------------------------------------------------------

    def create_game(self, game: StoredGame, lease: float | None = None) -> None:
        """Store a new game; ``lease``: this process drives it for that many seconds (epoch 1).

        :class:`SeatRefused` if its seats' names look alike, or its anonymous creator's name looks
        like a registered account's."""
        leased: dict[str, Any] = (
            {}
            if lease is None
            else {
                "lease_owner": self.owner,
                "lease_epoch": 1,
                "lease_expires": self.leases.now() + lease,
            }
        )
        try:
            with self.engine.begin() as db:
                self._insert_game(db, game, leased)
        except IntegrityError:
            raise SeatRefused(SeatRule.DISTINCT_NAMES) from None

    def _insert_game(self, db: Connection, game: StoredGame, leased: dict[str, Any]) -> None:
        # the one who creates it is the person whose seat has a token: no account's look-alike
        creators = [s for s in game.seats if s.token_hash is not None and s.account_id is None]
        self._refuse_account_names(db, [s.name_skeleton for s in creators])
        db.execute(
            insert(GameTable).values(
                id=game.id,
                edition=game.edition,
                options=json.dumps(game.options.to_json()),
                seed=game.seed,
                created=game.created,
                finished=game.finished,
                last_move_at=game.last_move_at,
                clock=json.dumps(game.pace.to_json()) if game.pace else None,
                deadline=game.deadline,
                turn_started=game.turn_started,
                rated=game.rated,
                **leased,
            )
        )
        db.execute(
            insert(SeatTable),
            [
                {
                    "game_id": game.id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "bank": s.bank,
                    "timeouts": 0,
                    "away": False,
                    "left": False,
                    "reserved": s.reserved,
                    "account_id": s.account_id,
                    "name_skeleton": s.name_skeleton,
                }
                for s in game.seats
            ],
        )

    def take_seat(
        self,
        game_id: str,
        seat: int,
        name: str,
        token_hash: str,
        at: float,
        deadline: float | None = None,
        account_id: int | None = None,
        name_skeleton: str | None = None,
    ) -> None:
        """A person (signed in to ``account_id``, or anonymous) takes a free seat under ``name``
        (whose look-alike key is ``name_skeleton``); ``deadline``: the game starts now, and its
        first turn ends then.

        :class:`SeatTaken` if the seat was taken meanwhile (through another server process);
        :class:`SeatRefused` if the account has a seat of this game already, someone at the table
        has a name that looks alike, or (for an anonymous person) a registered account does."""
        try:
            with self.engine.begin() as db:
                if account_id is None:
                    self._refuse_account_names(db, [name_skeleton])
                taken = db.execute(
                    update(SeatTable)
                    .where(
                        SeatTable.game_id == game_id,
                        SeatTable.seat == seat,
                        SeatTable.token_hash.is_(None),
                    )
                    .values(
                        name=name,
                        token_hash=token_hash,
                        reserved=False,
                        account_id=account_id,
                        name_skeleton=name_skeleton,
                    )
                )
                if taken.rowcount != 1:
                    raise SeatTaken(f"seat {seat + 1} of game {game_id} was taken meanwhile")
                values: dict[str, Any] = {"last_move_at": at}
                if deadline is not None:
                    values.update(deadline=deadline, turn_started=at)
                db.execute(update(GameTable).where(GameTable.id == game_id).values(**values))
                self._announce(db, game_id, ChangeKind.SEAT)
        except IntegrityError:  # one of the seats' unique indexes: which rule, read once it failed
            raise SeatRefused(self._rule_kept(game_id, account_id)) from None

    def _rule_kept(self, game_id: str, account_id: int | None) -> SeatRule:
        if account_id is not None:
            with self.engine.connect() as db:
                seated = db.scalar(
                    select(SeatTable.seat).where(
                        SeatTable.game_id == game_id, SeatTable.account_id == account_id
                    )
                )
            if seated is not None:
                return SeatRule.ONE_SEAT_PER_ACCOUNT
        return SeatRule.DISTINCT_NAMES

    @staticmethod
    def _refuse_account_names(db: Connection, skeletons: list[str | None]) -> None:
        """:class:`SeatRefused` if an anonymous person's name looks like a registered account's."""
        wanted = [key for key in skeletons if key is not None]
        if wanted and db.scalar(
            select(AccountTable.id).where(AccountTable.name_skeleton.in_(wanted)).limit(1)
        ):
            raise SeatRefused(SeatRule.ACCOUNT_NAME)

    def append_moves(self, rows: list[MoveRow]) -> None:
        """Store moves of any number of games, with their clocks, in one transaction (one statement
        each).

        :class:`MoveConflict` if a move's number is taken or its game's lease epoch moved on: then
        none is stored. The epoch is checked by updating the game's row, which holds it locked until
        the commit, so a takeover (which raises the epoch) comes wholly before
        or wholly after these moves."""
        try:
            db = self._writer()
            with db.begin():
                write_moves(db, rows, self._announce_all, self.owner)
        except IntegrityError as error:
            raise MoveConflict(f"a move of this number is already stored: {error.orig}") from None

    def update_seat(self, game_id: str, seat: int, **values: Any) -> None:
        """Change a seat's kind, bot, timeouts, ``away``, ``left`` or ``end_vote``."""
        with self.engine.begin() as db:
            db.execute(
                update(SeatTable)
                .where(SeatTable.game_id == game_id, SeatTable.seat == seat)
                .values(**values)
            )
            self._announce(db, game_id, ChangeKind.SEAT)

    def end_game(self, game_id: str, ended: str, at: float) -> None:
        """The game is over without being played out: ``ended`` says why ("abandoned", "closed")."""
        with self.engine.begin() as db:
            db.execute(
                update(GameTable)
                .where(GameTable.id == game_id)
                .values(
                    finished=True, finished_at=at, ended=ended, deadline=None, turn_started=None
                )
            )
            self._announce(db, game_id, ChangeKind.ENDED)

    def set_rematch(self, game_id: str, rematch: str) -> None:
        with self.engine.begin() as db:
            db.execute(update(GameTable).where(GameTable.id == game_id).values(rematch=rematch))
            self._announce(db, game_id, ChangeKind.REMATCH)

    def add_chat(self, game_id: str, row: ChatRow) -> None:
        """Store a line; :class:`MoveConflict` if its number was taken
        (by another server process)."""
        try:
            db = self._writer()
            with db.begin():
                db.execute(
                    _INSERT_CHAT,
                    {
                        "game_id": game_id,
                        "number": row.number,
                        "seat": row.seat,
                        "kind": row.kind,
                        "text": row.text,
                        "at": row.at,
                    },
                )
                self._announce(db, game_id, ChangeKind.CHAT)
        except IntegrityError as error:
            raise MoveConflict(
                f"chat line {row.number} of game {game_id} is already stored"
            ) from error

    def forget_account_seats(self, db: Connection, account_id: int, name: str) -> list[str]:
        """An account is being deleted (in ``db``'s transaction): its seats keep their games but no
        longer name it, and read as ``name``. The ids of those games (their
        other processes hear of it)."""
        games = list(
            db.scalars(
                select(SeatTable.game_id).where(SeatTable.account_id == account_id).distinct()
            )
        )
        db.execute(
            update(SeatTable)
            .where(SeatTable.account_id == account_id)
            .values(account_id=None, name=name, name_skeleton=None)
        )
        for game_id in games:
            self._announce(db, game_id, ChangeKind.SEAT)
        return games

    # -- expiry ----------------------------------------------------------------------------

    def expire_idle(self, before: float, at: float) -> list[str]:
        """Close every unfinished game with no move since ``before`` as abandoned; their ids."""
        with self.engine.begin() as db:
            ids = list(
                db.scalars(
                    select(GameTable.id).where(
                        GameTable.finished.is_(False), GameTable.last_move_at < before
                    )
                )
            )
            for start in range(0, len(ids), 500):
                db.execute(
                    update(GameTable)
                    .where(GameTable.id.in_(ids[start : start + 500]))
                    .values(
                        finished=True,
                        finished_at=at,
                        ended="abandoned",
                        deadline=None,
                        turn_started=None,
                    )
                )
            for game_id in ids:
                self._announce(db, game_id, ChangeKind.ENDED)
        return ids

    def purge_finished(self, before: float, limit: int = 1000) -> list[str]:
        """Delete up to ``limit`` games that ended before ``before``, with
        their seats, moves and chat."""
        with self.engine.begin() as db:
            ids = list(
                db.scalars(
                    select(GameTable.id)
                    .where(GameTable.finished.is_(True), GameTable.finished_at < before)
                    .limit(limit)
                )
            )
            if ids:
                for table in (ChatLineTable, MoveTable, SeatTable):
                    db.execute(delete(table).where(table.game_id.in_(ids)))
                db.execute(delete(GameTable).where(GameTable.id.in_(ids)))
        return ids

    # -- reading ---------------------------------------------------------------------------

    def load_game(self, game_id: str) -> StoredGame | None:
        return load_stored_game(self.engine, game_id)

    def load_unfinished(self) -> list[StoredGame]:
        return self._load(GameTable.finished.is_(False))

    def load_games(self, ids: list[str]) -> list[StoredGame]:
        """The games named (their whole records), in the order of creation."""
        return [
            game
            for start in range(0, len(ids), 500)
            for game in self._load(GameTable.id.in_(ids[start : start + 500]))
        ]

    def load_changes(self, game_id: str, moves_known: int, chat_known: int) -> StoredGame | None:
        """The game's row and seats, with only the moves after the first ``moves_known`` and the
        chat lines numbered above ``chat_known``: what another server process
        added since this one last looked."""
        return load_stored_game(self.engine, game_id, moves_known, chat_known)

    def page_ids(self, show: str, offset: int, limit: int) -> tuple[list[str], int]:
        """One page of open games' ids and their count (:func:`~.game_reads.open_game_page`)."""
        return open_game_page(self.engine, show, offset, limit)

    def list_games(
        self, finished: bool | None, offset: int, limit: int
    ) -> tuple[list[dict[str, Any]], int]:
        """The operator's page of games (:func:`~.game_reads.operator_game_page`)."""
        return operator_game_page(self.engine, finished, offset, limit)

    def _load(self, where: Any, moves_known: int = 0, chat_known: int = 0) -> list[StoredGame]:
        return load_stored_games(self.engine, where, moves_known, chat_known)
