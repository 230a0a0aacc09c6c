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
statements are synchronous: run them on the journal's database thread. The rules said in words
live in :mod:`~tendays.server.people.challenge_refusals`, the reading of rows in
:mod:`~tendays.server.people.challenge_rows`.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from ..settings import MasterSettings, Pace
from ..storage.schema import ChallengeTable
from ..vocabulary import PaceKind
from .accounts import Account, AccountError
from .blocks import blocked_between
from .bot_accounts import refuse_when_busy
from .challenge_refusals import active, challengeable, refusal
from .challenge_rows import read_challenge, read_challenges
from .challenge_types import Challenge, ChallengeStatus, DeclineReason
from .limits import count
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


def expiry_of(pace: Pace | None) -> float:
    """Seconds a challenge of this clock stays open."""
    return LIVE_EXPIRY if pace is not None and pace.kind == PaceKind.LIVE else LONG_EXPIRY


_OPEN = ChallengeTable.status == ChallengeStatus.OPEN


def _upsert(db: Connection) -> Any:
    """The dialect's INSERT, which knows ON CONFLICT."""
    return postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert


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
            target = None if to is None else challengeable(db, me, to)
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
            challenge = read_challenge(db, challenge_id)
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
            return read_challenge(db, challenge_id)

    def listing(self, account_id: int, now: float) -> tuple[list[Challenge], list[Challenge]]:
        """The account's challenges: (incoming, outgoing). Incoming: the open ones to it. Outgoing:
        its open ones, and those answered or lapsed within :data:`RECENT` (not those it cancelled),
        newest first."""
        with self.engine.connect() as db:
            incoming = read_challenges(
                db,
                ChallengeTable.challenged_id == account_id,
                _OPEN,
                ChallengeTable.expires_at > now,
            )
            outgoing = read_challenges(
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
                    active(ChallengeTable.challenger_id),
                )
                .values(status=ChallengeStatus.ACCEPTED, accepter_id=me.id, answered_at=now)
                .returning(ChallengeTable.id)
            ).first()
            challenge = read_challenge(db, challenge_id)
        if claimed is None or challenge is None:
            raise refusal(self.engine, challenge, me, now, accepting=True)
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
            challenge = read_challenge(db, challenge_id)
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
            raise refusal(self.engine, challenge, me, now, accepting=False)
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
            challenge = read_challenge(db, challenge_id)
            if cancelled is not None and challenge is not None and challenge.challenged_id:
                # its event streams tell the challenged account (nothing goes in the inbox)
                announce_inbox(db, challenge.challenged_id)
        if cancelled is None or challenge is None:
            mine = challenge is not None and challenge.challenger_id == me.id
            raise refusal(self.engine, challenge if mine else None, me, now, accepting=False)
        return challenge
