"""Bot accounts: an account that a program plays through the Bot API (docs/protocol.md), marked
BOT wherever its name shows, and the rules that keep it to that API.

- **Becoming one** (:func:`upgrade`) is one ``UPDATE accounts SET bot = true WHERE bot = false AND
  NOT EXISTS (a seat of the account) AND NOT EXISTS (an open seek) AND NOT EXISTS (an entry in a
  tournament not over) RETURNING``, with the account's row locked first: a game, seek or entry
  that lands at the same moment either comes first (and the upgrade is refused) or waits for it.
  Nothing sets it back: a bot account stays one (as on lichess), so its games and rating always
  belong to a program.
- **It plays only through the Bot API**: the site's own ways to play (a seek, creating or joining
  a game in the lobby, opening its seat on the table socket) refuse it in words
  (:func:`bot_only_refusal`); it may still sign in to manage its tokens and profile, and watch.
- **Games at once**: where a challenge's game is made for a bot account, the bot's unfinished games
  and the challenges claimed for it whose game is being made are counted with the account's row
  locked (``FOR UPDATE`` on PostgreSQL; SQLite has one writer at a time), in the transaction that
  claims the challenge (:func:`refuse_when_busy`): two accepts at once cannot pass the most.

The statements are synchronous: run them on the journal's database thread.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import exists, func, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.expression import Exists

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from ..storage.schema import (
    AccountTable,
    ChallengeTable,
    GameTable,
    SeatTable,
    SeekTable,
    TournamentEntrantTable,
    TournamentTable,
)
from .accounts import Account, AccountError
from .challenge_types import ChallengeStatus
from .seeks import SeekStatus
from .tournament_spec import TournamentStatus

__all__ = [
    "bot_only_refusal",
    "refuse_when_busy",
    "unfinished_games",
    "upgrade",
]


def bot_only_refusal() -> AccountError:
    """403 in words: the site's own ways to play are not for a bot account."""
    return AccountError(403, _("a bot account plays only through the Bot API (docs/protocol.md)"))


def _open_seek(account_id: int) -> Exists:
    return exists().where(SeekTable.account_id == account_id, SeekTable.status == SeekStatus.OPEN)


def upgrade(db: Connection, account_id: int) -> Account:
    """Make the account a bot account, for good; :class:`AccountError` (409) in words when it is
    one already, has had a seat in any game, or has an open seek or a tournament entry."""
    # Locked first: a seat, seek or entry being written for the account holds its key (their
    # foreign keys), so this waits for them to commit, and the statement below, which reads the
    # database anew, sees them; one written after waits for this change (PostgreSQL; SQLite has
    # one writer at a time).
    db.execute(select(AccountTable.id).where(AccountTable.id == account_id).with_for_update())
    has_seat = exists().where(SeatTable.account_id == account_id)
    has_seek = _open_seek(account_id)
    has_entry = exists().where(
        TournamentEntrantTable.account_id == account_id,
        TournamentEntrantTable.withdrawn.is_(False),
        TournamentTable.id == TournamentEntrantTable.tournament_id,
        TournamentTable.status.in_([TournamentStatus.UPCOMING, TournamentStatus.RUNNING]),
    )
    made = db.execute(
        update(AccountTable)
        .where(
            AccountTable.id == account_id,
            AccountTable.bot.is_(False),
            ~has_seat,
            ~has_seek,
            ~has_entry,
        )
        .values(bot=True)
        .returning(AccountTable.name)
    ).first()
    if made is not None:
        return Account(account_id, str(made.name), bot=True)
    raise _upgrade_refusal(db, account_id)


def _upgrade_refusal(db: Connection, account_id: int) -> AccountError:
    """Why :func:`upgrade` changed nothing, read after the statement that decided it."""
    row = db.execute(
        select(AccountTable.name, AccountTable.bot).where(AccountTable.id == account_id)
    ).first()
    if row is None:
        return AccountError(404, _("this account no longer exists"))
    if row.bot:
        return AccountError(409, _("{name} is already a bot account").format(name=row.name))
    played = db.scalar(
        select(func.count(func.distinct(SeatTable.game_id))).where(
            SeatTable.account_id == account_id
        )
    )
    if played:
        return AccountError(
            409,
            ngettext(
                "only an account that has never played may become a bot account: "
                "{name} has played {games} game",
                "only an account that has never played may become a bot account: "
                "{name} has played {games} games",
                played,
            ).format(name=row.name, games=played),
        )
    seeking = db.scalar(select(_open_seek(account_id)))
    if seeking:
        return AccountError(
            409,
            _("{name} is looking for a game: cancel the seek before becoming a bot account").format(
                name=row.name
            ),
        )
    return AccountError(
        409,
        _("{name} has entered a tournament: withdraw from it before becoming a bot account").format(
            name=row.name
        ),
    )


def unfinished_games(db: Connection, account_id: int, claimed_since: float) -> int:
    """The account's unfinished games (seats it has not left), and the challenges claimed for it
    whose game is being made (accepted at ``claimed_since`` or later, no game written yet: an older
    claim's process died, :data:`~tendays.server.people.challenges.CLAIM_GRACE`)."""
    games = db.scalar(
        select(func.count(func.distinct(SeatTable.game_id)))
        .join(GameTable, GameTable.id == SeatTable.game_id)
        .where(
            SeatTable.account_id == account_id,
            func.coalesce(SeatTable.left, False).is_(False),
            GameTable.finished.is_(False),
        )
    )
    being_made = db.scalar(
        select(func.count()).where(
            ChallengeTable.status == ChallengeStatus.ACCEPTED,
            ChallengeTable.game_id.is_(None),
            ChallengeTable.answered_at >= claimed_since,
            or_(
                ChallengeTable.challenger_id == account_id,
                ChallengeTable.accepter_id == account_id,
            ),
        )
    )
    return int(games or 0) + int(being_made or 0)


def refuse_when_busy(
    db: Connection, account_ids: Iterable[int], most: int, claimed_since: float
) -> None:
    """Lock the rows of those of ``account_ids`` that are bot accounts (in id order, so two
    transactions never wait on each other) and :class:`AccountError` (409) in words if one of them
    already plays ``most`` games at once. Call it in the transaction that claims the game, before
    the claim: the lock holds every other claim for the bot until this one commits. For the second
    it takes to make a claimed game, the game and its claim are both counted: a burst is refused a
    moment early, never let past the most."""
    bots = db.execute(
        select(AccountTable.id, AccountTable.name)
        .where(AccountTable.id.in_(sorted(set(account_ids))), AccountTable.bot.is_(True))
        .order_by(AccountTable.id)
        .with_for_update()
    ).all()
    for bot in bots:
        playing = unfinished_games(db, int(bot.id), claimed_since)
        if playing >= most:
            raise AccountError(
                409,
                ngettext(
                    "{name} is already playing {games} game, its most at once",
                    "{name} is already playing {games} games, its most at once",
                    most,
                ).format(name=bot.name, games=most),
            )
