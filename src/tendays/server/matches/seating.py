"""Who may sit at a table: one seat per account in a game, and no two names that look alike.

The database enforces both (the unique indexes of revision 0007, see
:mod:`tendays.server.storage.schema`), however many requests arrive at once and through however
many server processes; it also refuses an anonymous person a name that looks like a registered
account's. What is checked here, inside the match's lock, is the same rule read from the seats the
match knows, so that the usual refusal names the person already at the table; a refusal by the
database (:class:`~tendays.server.storage.rows.SeatRefused`) is told in the same words.

Bots are compared too: a person may not sit as "Easy bot" beside an easy bot. Their names are not
in the database's index (two bots of one level share a name), but a bot's seat is made with the game
and never changes, so the check here cannot miss one.
"""

from __future__ import annotations

from collections.abc import Iterable

from tendays.engine.i18n import gettext as _

from ..storage.rows import SeatRefused, SeatRule
from ..vocabulary import SeatKind
from .lookalikes import name_skeleton
from .seats import LobbyError, Seat
from .wire import DELETED_PLAYER, seat_name

__all__ = ["check_seat", "refusal", "refused", "seat_skeleton"]


def seat_skeleton(kind: str, name: str | None) -> str | None:
    """The look-alike key the database keeps for a seat: a person's name's; None for a free seat, a
    bot and a deleted account's seat."""
    if kind != SeatKind.HUMAN or name is None or name == DELETED_PLAYER:
        return None
    return name_skeleton(name)


def check_seat(
    seats: Iterable[Seat], name: str, account_id: int | None, taking: int | None = None
) -> None:
    """:class:`LobbyError` if ``name`` (signed in to ``account_id``, or anonymous) may not take seat
    ``taking`` among ``seats``: 409 if the account holds another seat, 422 if someone else there
    (a person or a bot) has a name that looks like it."""
    others = [s for s in seats if s.index != taking]
    if account_id is not None and any(s.account_id == account_id for s in others):
        raise refusal(SeatRule.ONE_SEAT_PER_ACCOUNT, name)
    key = name_skeleton(name)
    for seat in others:
        if seat.name is None or seat.name == DELETED_PLAYER:
            continue
        shown = seat_name(seat.index, seat.kind, seat.name, seat.bot)
        if key in (name_skeleton(seat.name), name_skeleton(shown)):
            raise refusal(SeatRule.DISTINCT_NAMES, shown)


def refusal(rule: SeatRule, name: str) -> LobbyError:
    """The refusal of a seat by ``rule``, in words; ``name``: the name at the table (for distinct
    names) or the name asked for."""
    if rule is SeatRule.ONE_SEAT_PER_ACCOUNT:
        return LobbyError(409, _("you already have a seat at this game"))
    if rule is SeatRule.DISTINCT_NAMES:
        return LobbyError(
            422,
            _("someone at this table is already called {name}; choose another name").format(
                name=name
            ),
        )
    return LobbyError(
        422,
        _(
            "{name} is the name of a registered player: sign in to play as {name}, "
            "or choose another name"
        ).format(name=name),
    )


def refused(
    error: SeatRefused,
    seats: Iterable[Seat],
    name: str,
    account_id: int | None,
    taking: int | None = None,
) -> LobbyError:
    """The words for the database's refusal ``error``: those of :func:`check_seat` once the match
    has caught up with what the database holds (they name who is at the table), else the rule's."""
    try:
        check_seat(seats, name, account_id, taking)
    except LobbyError as named:
        return named
    return refusal(error.rule, name)
