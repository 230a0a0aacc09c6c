"""The challenge rules in words: whom a person may challenge, and why an accept, a decline or a
cancel that the database refused changed nothing (read after the statement that decided it)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, exists, or_, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql.elements import ColumnElement

from tendays.engine.i18n import gettext as _

from ..storage.schema import AccountTable, BlockTable
from .accounts import Account, AccountError
from .blocks import blocked_between, named_account
from .challenge_types import Challenge, ChallengeStatus
from .moderation_types import AccountStatus

__all__ = ["active", "challengeable", "refusal"]


def active(account: Any) -> ColumnElement[bool]:
    """The account (an id, or a column of ids) is active."""
    return exists().where(AccountTable.id == account, AccountTable.status == AccountStatus.ACTIVE)


def challengeable(db: Connection, me: Account, to: str) -> Account:
    """The account called ``to``, whom ``me`` may challenge; :class:`AccountError` in words: 404
    for nobody of that name, 409 for oneself, an account that is not active or a block either
    way."""
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
            _("{name}'s account is suspended: they cannot be challenged").format(name=target.name),
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


def refusal(
    engine: Engine, challenge: Challenge | None, me: Account, now: float, accepting: bool
) -> AccountError:
    """Why ``me`` could not accept (or decline, or cancel) the challenge, read after the statement
    that decided it changed nothing."""
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
    with engine.connect() as db:
        blocker = db.scalar(
            select(BlockTable.blocker_id).where(
                blocked_between(challenge.challenger_id, me.id),
                or_(
                    BlockTable.blocker_id == me.id,
                    BlockTable.blocker_id == challenge.challenger_id,
                ),
            )
        )
        still_active = db.scalar(select(active(challenge.challenger_id)))
    if blocker is not None:
        return _block_refusal(blocker == me.id, challenge.challenger)
    if not still_active:
        return AccountError(
            409,
            _("{name}'s account is no longer active: the challenge cannot be accepted").format(
                name=challenge.challenger
            ),
        )
    return AccountError(409, _("this challenge was just taken by someone else"))


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
