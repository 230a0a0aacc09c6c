"""Challenges: a signed-in person asks a named player (or, with an open link, whoever takes it
first) to play one game of an edition, options and clock, rated or not.

Every rule is decided by the database, so that strangers who send everything at once, to any
number of server processes, cannot break one:

- **Accepting** is one ``UPDATE .. WHERE status = 'open' AND expires_at > now .. RETURNING``: of
  two accepts (or an accept and a cancel, or a decline) exactly one changes the row, and only the
  accept that claimed it makes the game (:mod:`~tendays.server.people.challenge_games`). The same
  statement refuses a challenger and a taker of whom either blocks the other
  (:func:`~tendays.server.people.blocks.blocked_between`), and a challenger whose account is no
  longer active.
- **At most :data:`OPEN_TO_ONE` open challenges from one person to another**: each open one takes
  one of as many slots, and the unique partial index ``ux_challenges_open_slot`` keeps two open ones
  out of one slot.
- **At most :data:`HOURLY` challenges an hour per account**, and at most the server's
  ``--challenges-per-minute`` a minute, counted with :func:`~tendays.server.people.limits.count`
  in the transaction that stores the challenge.
- **A challenge lapses** after :data:`LIVE_EXPIRY` with a live clock (it is for playing now) and
  after :data:`LONG_EXPIRY` with a correspondence clock or none; a lapsed one cannot be accepted.

The challenged person hears of a new challenge, and the challenger of the answer, through
:func:`~tendays.server.people.notifications.notify`, in the transaction that makes the change. The
statements are synchronous: run them on the journal's database thread.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from sqlalchemy import and_, exists, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import ColumnElement

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from ..settings import MasterSettings, Pace
from ..storage.schema import AccountTable, BlockTable, ChallengeTable
from .accounts import Account, AccountError
from .blocks import blocked_between, named_account
from .bot_accounts import refuse_when_busy
from .challenge_types import Challenge, ChallengeStatus, DeclineReason
from .limits import count
from .moderation_types import AccountStatus
from .notifications import NotificationKind, announce_inbox, notify
from .seeks import pace_text

__all__ = [
    "CLAIM_GRACE",
    "HOURLY",
    "LIVE_EXPIRY",
    "LONG_EXPIRY",
    "OPEN_TO_ONE",
    "RECENT",
    "ChallengeBook",
    "expiry_of",
]

#: How long a challenge with a live clock stays open (seconds): it asks to play now.
LIVE_EXPIRY = 10 * 60.0
#: How long a challenge with a correspondence clock, or with none, stays open (seconds).
LONG_EXPIRY = 3 * 86400.0
#: Challenges one account may make in :data:`HOURLY_WINDOW`.
HOURLY = 20
HOURLY_WINDOW = 3600.0
#: The window of the per-minute limit (the server's ``--challenges-per-minute``).
MINUTE_WINDOW = 60.0
#: Open challenges one account may have to one other.
OPEN_TO_ONE = 3
#: How long an answered or lapsed challenge stays in its challenger's list (seconds), so that the
#: challenger's page learns the answer.
RECENT = 10 * 60.0
#: An accepted challenge with no game this long after its acceptance lost its game to a process that
#: died making it (games are made within a second): it may be accepted again.
CLAIM_GRACE = 30.0
LISTED = 50  # challenges per list, newest first


def expiry_of(pace: Pace | None) -> float:
    """Seconds a challenge of this clock stays open."""
    return LIVE_EXPIRY if pace is not None and pace.kind == "live" else LONG_EXPIRY


_CHALLENGER = aliased(AccountTable)
_CHALLENGED = aliased(AccountTable)
_OPEN = ChallengeTable.status == ChallengeStatus.OPEN


def _upsert(db: Connection) -> Any:
    """The dialect's INSERT, which knows ON CONFLICT."""
    return postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert


def _active(account: Any) -> ColumnElement[bool]:
    return exists().where(AccountTable.id == account, AccountTable.status == AccountStatus.ACTIVE)


class ChallengeBook:
    """The challenges table."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- making and reading -------------------------------------------------------------------

    def post(
        self,
        me: Account,
        to: str | None,
        edition: str,
        options: dict[str, Any],
        pace: Pace | None,
        rated: bool,
        now: float,
        per_minute: int = 0,
    ) -> Challenge:
        """Store an open challenge from ``me`` to the player called ``to`` (None: an open link) and
        tell them. :class:`AccountError` in words: 404 for nobody of that name, 409 for oneself, an
        account that is not active, a block either way, or :data:`OPEN_TO_ONE` challenges open to
        them already; 429 (with the wait) past ``per_minute`` challenges a minute (0: no such
        limit) or :data:`HOURLY` an hour. A refused challenge counts for neither: the transaction
        that counted it rolls back."""
        with self.engine.begin() as db:
            target = None if to is None else self._challengeable(db, me, to)
            wait = (
                count(db, [(f"challenge-minute:{me.id}", per_minute)], MINUTE_WINDOW, now)
                if per_minute
                else 0.0
            )
            if wait:
                raise AccountError(
                    429,
                    ngettext(
                        "you have made {most} challenge within the minute; wait a moment",
                        "you have made {most} challenges within the minute; wait a moment",
                        per_minute,
                    ).format(most=per_minute),
                    retry_after=wait,
                )
            wait = count(db, [(f"challenge:{me.id}", HOURLY)], HOURLY_WINDOW, now)
            if wait:
                raise AccountError(
                    429,
                    _("you have made {most} challenges within the hour; wait a while").format(
                        most=HOURLY
                    ),
                    retry_after=wait,
                )
            if target is not None:  # lapsed ones give their slots back
                db.execute(
                    update(ChallengeTable)
                    .where(
                        ChallengeTable.challenger_id == me.id,
                        ChallengeTable.challenged_id == target.id,
                        _OPEN,
                        ChallengeTable.expires_at <= now,
                    )
                    .values(status=ChallengeStatus.EXPIRED)
                )
            challenge_id = secrets.token_urlsafe(9)
            for slot in range(OPEN_TO_ONE):
                stored = db.execute(
                    _upsert(db)(ChallengeTable)
                    .values(
                        id=challenge_id,
                        challenger_id=me.id,
                        challenged_id=None if target is None else target.id,
                        edition=edition,
                        options=json.dumps(options, sort_keys=True),
                        clock=pace_text(pace),
                        rated=rated,
                        status=ChallengeStatus.OPEN,
                        slot=slot,
                        created=now,
                        expires_at=now + expiry_of(pace),
                    )
                    .on_conflict_do_nothing()  # the slot is taken by another open challenge
                    .returning(ChallengeTable.id)
                ).first()
                if stored is not None:
                    break
            else:
                assert target is not None  # an open link has no slots to fill
                raise AccountError(
                    409,
                    _(
                        "you already have {most} open challenges to {name}: wait for their answer "
                        "or cancel one"
                    ).format(most=OPEN_TO_ONE, name=target.name),
                )
            challenge = self._read(db, challenge_id)
            assert challenge is not None
            if target is not None:
                notify(
                    db,
                    target.id,
                    NotificationKind.CHALLENGE,
                    {
                        "id": challenge.id,
                        "from": me.name,
                        "edition": edition,
                        "clock": None if pace is None else pace.to_json(),
                        "rated": rated,
                        "url": challenge.url,
                    },
                )
        return challenge

    def get(self, challenge_id: str) -> Challenge | None:
        with self.engine.connect() as db:
            return self._read(db, challenge_id)

    def listing(self, account_id: int, now: float) -> tuple[list[Challenge], list[Challenge]]:
        """The account's challenges: (incoming, outgoing). Incoming: the open ones to it. Outgoing:
        its open ones, and those answered or lapsed within :data:`RECENT` (not those it cancelled),
        newest first."""
        with self.engine.connect() as db:
            incoming = self._many(
                db,
                ChallengeTable.challenged_id == account_id,
                _OPEN,
                ChallengeTable.expires_at > now,
            )
            outgoing = self._many(
                db,
                ChallengeTable.challenger_id == account_id,
                ChallengeTable.status != ChallengeStatus.CANCELLED,
                func.coalesce(ChallengeTable.answered_at, ChallengeTable.expires_at) > now - RECENT,
            )
        return incoming, outgoing

    # -- answering ----------------------------------------------------------------------------

    def claim(
        self,
        challenge_id: str,
        me: Account,
        now: float,
        bot_games: int = MasterSettings.bot_games,
    ) -> Challenge:
        """``me`` accepts: the challenge is theirs to make the game of (:meth:`settle`), or
        :class:`AccountError` says why not (404: not theirs to read; 409: answered, lapsed, their
        own, a block either way, or a bot account of the two already playing ``bot_games`` games:
        counted with its row locked, :func:`~tendays.server.people.bot_accounts.refuse_when_busy`).
        """
        with self.engine.begin() as db:
            challenger = db.scalar(
                select(ChallengeTable.challenger_id).where(ChallengeTable.id == challenge_id)
            )
            if challenger is not None:
                refuse_when_busy(db, (int(challenger), me.id), bot_games, now - CLAIM_GRACE)
            claimed = db.execute(
                update(ChallengeTable)
                .where(
                    ChallengeTable.id == challenge_id,
                    or_(
                        ChallengeTable.challenged_id == me.id,
                        and_(
                            ChallengeTable.challenged_id.is_(None),
                            ChallengeTable.challenger_id != me.id,
                        ),
                    ),
                    or_(
                        and_(_OPEN, ChallengeTable.expires_at > now),
                        and_(  # the accepting process died before the game was made
                            ChallengeTable.status == ChallengeStatus.ACCEPTED,
                            ChallengeTable.game_id.is_(None),
                            ChallengeTable.answered_at < now - CLAIM_GRACE,
                        ),
                    ),
                    ~blocked_between(ChallengeTable.challenger_id, me.id),
                    _active(ChallengeTable.challenger_id),
                )
                .values(status=ChallengeStatus.ACCEPTED, accepter_id=me.id, answered_at=now)
                .returning(ChallengeTable.id)
            ).first()
            challenge = self._read(db, challenge_id)
        if claimed is None or challenge is None:
            raise self._refusal(challenge, me, now, accepting=True)
        return challenge

    def settle(self, challenge: Challenge, game_id: str, accepter: Account) -> bool:
        """Write the game of a claimed challenge and tell the challenger; False if another claim
        wrote one first (this game stays unplayed and lapses)."""
        with self.engine.begin() as db:
            done = db.execute(
                update(ChallengeTable)
                .where(
                    ChallengeTable.id == challenge.id,
                    ChallengeTable.status == ChallengeStatus.ACCEPTED,
                    ChallengeTable.accepter_id == accepter.id,
                    ChallengeTable.game_id.is_(None),
                )
                .values(game_id=game_id)
            )
            if done.rowcount != 1:
                return False
            notify(
                db,
                challenge.challenger_id,
                NotificationKind.CHALLENGE_ANSWERED,
                {
                    "id": challenge.id,
                    "by": accepter.name,
                    "answer": ChallengeStatus.ACCEPTED.value,
                    "game": game_id,
                    "url": f"/play/{game_id}",
                },
            )
        return True

    def reopen(self, challenge: Challenge, accepter: Account) -> None:
        """Give back a claimed challenge whose game could not be made (the server was full): it is
        open again, or lapsed if the challenger filled its slot meanwhile."""
        claimed = and_(
            ChallengeTable.id == challenge.id,
            ChallengeTable.status == ChallengeStatus.ACCEPTED,
            ChallengeTable.accepter_id == accepter.id,
            ChallengeTable.game_id.is_(None),
        )
        with self.engine.begin() as db:
            try:
                with db.begin_nested():
                    db.execute(
                        update(ChallengeTable)
                        .where(claimed)
                        .values(status=ChallengeStatus.OPEN, accepter_id=None, answered_at=None)
                    )
            except IntegrityError:
                db.execute(
                    update(ChallengeTable).where(claimed).values(status=ChallengeStatus.EXPIRED)
                )

    def decline(
        self, challenge_id: str, me: Account, reason: DeclineReason, now: float
    ) -> Challenge:
        """The challenged person declines, for ``reason``, and the challenger is told. 404 in words
        if it is not to them (an open link is not declined: its challenger cancels it), 409 if it is
        answered or lapsed."""
        with self.engine.begin() as db:
            declined = db.execute(
                update(ChallengeTable)
                .where(
                    ChallengeTable.id == challenge_id,
                    ChallengeTable.challenged_id == me.id,
                    _OPEN,
                    ChallengeTable.expires_at > now,
                )
                .values(status=ChallengeStatus.DECLINED, reason=reason, answered_at=now)
                .returning(ChallengeTable.challenger_id)
            ).first()
            challenge = self._read(db, challenge_id)
            if declined is not None and challenge is not None:
                notify(
                    db,
                    challenge.challenger_id,
                    NotificationKind.CHALLENGE_ANSWERED,
                    {
                        "id": challenge.id,
                        "by": me.name,
                        "answer": ChallengeStatus.DECLINED.value,
                        "reason": reason.value,
                        "url": challenge.url,
                    },
                )
        if declined is None or challenge is None:
            raise self._refusal(challenge, me, now, accepting=False)
        return challenge

    def cancel(self, challenge_id: str, me: Account, now: float) -> Challenge:
        """The challenger takes an open challenge back. 404 in words if it is not theirs, 409 if it
        is answered or lapsed."""
        with self.engine.begin() as db:
            cancelled = db.execute(
                update(ChallengeTable)
                .where(
                    ChallengeTable.id == challenge_id,
                    ChallengeTable.challenger_id == me.id,
                    _OPEN,
                    ChallengeTable.expires_at > now,
                )
                .values(status=ChallengeStatus.CANCELLED, answered_at=now)
                .returning(ChallengeTable.id)
            ).first()
            challenge = self._read(db, challenge_id)
            if cancelled is not None and challenge is not None and challenge.challenged_id:
                # its event streams tell the challenged account (nothing goes in the inbox)
                announce_inbox(db, challenge.challenged_id)
        if cancelled is None or challenge is None:
            mine = challenge is not None and challenge.challenger_id == me.id
            raise self._refusal(challenge if mine else None, me, now, accepting=False)
        return challenge

    # -- the rules in words -------------------------------------------------------------------

    @staticmethod
    def _challengeable(db: Connection, me: Account, to: str) -> Account:
        target = named_account(db, to)
        if target is None:
            raise AccountError(404, _("there is no player called '{name}'").format(name=to[:64]))
        if target.id == me.id:
            raise AccountError(409, _("you cannot challenge yourself"))
        status = AccountStatus(
            db.scalar(select(AccountTable.status).where(AccountTable.id == target.id))
            or AccountStatus.ACTIVE
        )
        if status is AccountStatus.SUSPENDED:
            raise AccountError(
                409,
                _("{name}'s account is suspended: they cannot be challenged").format(
                    name=target.name
                ),
            )
        if status is AccountStatus.CLOSED:
            raise AccountError(
                409,
                _("{name}'s account is closed: they cannot be challenged").format(name=target.name),
            )
        blocker = db.scalar(
            select(BlockTable.blocker_id).where(
                or_(
                    and_(BlockTable.blocker_id == me.id, BlockTable.blocked_id == target.id),
                    and_(BlockTable.blocker_id == target.id, BlockTable.blocked_id == me.id),
                )
            )
        )
        if blocker is not None:
            raise _block_refusal(blocker == me.id, target.name)
        return target

    def _refusal(
        self, challenge: Challenge | None, me: Account, now: float, accepting: bool
    ) -> AccountError:
        """Why ``me`` could not accept (or decline, or cancel) the challenge, read after the
        statement that decided it changed nothing."""
        if challenge is None or not challenge.shown_to(me.id):
            return AccountError(404, _("there is no challenge here for you"))
        status = challenge.status_at(now)
        if status is ChallengeStatus.ACCEPTED:
            return AccountError(409, _("this challenge was accepted already"))
        if status is ChallengeStatus.DECLINED:
            return AccountError(409, _("this challenge was declined already"))
        if status is ChallengeStatus.CANCELLED:
            return AccountError(409, _("this challenge was cancelled by its challenger"))
        if status is ChallengeStatus.EXPIRED:
            return AccountError(409, _("this challenge has expired: ask for a new one"))
        if accepting and challenge.challenger_id == me.id:
            return AccountError(409, _("you cannot accept your own challenge"))
        if not accepting:  # a decline of an open link, which only its challenger may cancel
            return AccountError(404, _("there is no challenge here for you"))
        with self.engine.connect() as db:
            blocker = db.scalar(
                select(BlockTable.blocker_id).where(
                    blocked_between(challenge.challenger_id, me.id),
                    or_(
                        BlockTable.blocker_id == me.id,
                        BlockTable.blocker_id == challenge.challenger_id,
                    ),
                )
            )
            active = db.scalar(select(_active(challenge.challenger_id)))
        if blocker is not None:
            return _block_refusal(blocker == me.id, challenge.challenger)
        if not active:
            return AccountError(
                409,
                _("{name}'s account is no longer active: the challenge cannot be accepted").format(
                    name=challenge.challenger
                ),
            )
        return AccountError(409, _("this challenge was just taken by someone else"))

    # -- reading rows -------------------------------------------------------------------------

    def _read(self, db: Connection, challenge_id: str) -> Challenge | None:
        found = self._many(db, ChallengeTable.id == challenge_id)
        return found[0] if found else None

    @staticmethod
    def _many(db: Connection, *where: ColumnElement[bool]) -> list[Challenge]:
        rows = db.execute(
            select(
                ChallengeTable,
                _CHALLENGER.name.label("challenger_name"),
                _CHALLENGER.bot.label("challenger_bot"),
                _CHALLENGED.name.label("challenged_name"),
            )
            .join(_CHALLENGER, _CHALLENGER.id == ChallengeTable.challenger_id)
            .outerjoin(_CHALLENGED, _CHALLENGED.id == ChallengeTable.challenged_id)
            .where(*where)
            .order_by(ChallengeTable.created.desc(), ChallengeTable.id)
            .limit(LISTED)
        )
        return [_challenge(row) for row in rows.all()]


def _challenge(stored: Any) -> Challenge:
    """A row of :meth:`ChallengeBook._many` as a challenge."""
    return Challenge(
        id=stored.id,
        challenger_id=int(stored.challenger_id),
        challenger=str(stored.challenger_name),
        challenged_id=None if stored.challenged_id is None else int(stored.challenged_id),
        challenged=None if stored.challenged_name is None else str(stored.challenged_name),
        edition=stored.edition,
        options=json.loads(stored.options),
        pace=Pace.from_json(json.loads(stored.clock)) if stored.clock else None,
        rated=bool(stored.rated),
        status=ChallengeStatus(stored.status),
        reason=None if stored.reason is None else DeclineReason(stored.reason),
        created=float(stored.created),
        expires_at=float(stored.expires_at),
        answered_at=None if stored.answered_at is None else float(stored.answered_at),
        accepter_id=None if stored.accepter_id is None else int(stored.accepter_id),
        game_id=stored.game_id,
        challenger_bot=bool(stored.challenger_bot),
    )


def _block_refusal(by_me: bool, name: str) -> AccountError:
    if by_me:
        return AccountError(
            409,
            _("you blocked {name}: unblock them on their profile to play with them").format(
                name=name
            ),
        )
    # the other's block is theirs to keep private: not said as such
    return AccountError(409, _("{name} does not take challenges from you").format(name=name))
