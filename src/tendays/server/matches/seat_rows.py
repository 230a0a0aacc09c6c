"""A match's seats from their stored rows: when the match is read, and when other server processes
changed them.

The store keeps more of a seat than the match holds in its :class:`~.seats.Seat` (the clock's bank,
the request to end, the look-alike key); these functions copy the part a seat holds, in one place.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..storage.rows import StoredSeat
from .seats import Seat

__all__ = ["seat_of_row", "take_rows"]


def seat_of_row(row: StoredSeat) -> Seat:
    """The seat a stored row describes."""
    return Seat(
        row.seat,
        row.kind,
        row.bot,
        row.name,
        row.token_hash,
        row.timeouts,
        row.away,
        row.left,
        row.reserved,
        row.account_id,
        moved_after_draft=row.moved_after_draft,
        bot_account=row.bot_account,
    )


def _shown(seat: Seat) -> tuple[object, ...]:
    """What the table shows of a seat, or its log names."""
    return (
        seat.name,
        seat.token_hash,
        seat.kind,
        seat.away,
        seat.left,
        seat.reserved,
        seat.timeouts,
    )


def take_rows(seats: Sequence[Seat], rows: Sequence[StoredSeat]) -> bool:
    """Give each seat what its stored row says now (a move after the draft, once made, stays
    made); True if what the table shows of a seat changed."""
    before = [_shown(seat) for seat in seats]
    for seat, row in zip(seats, rows, strict=False):
        seat.kind, seat.bot, seat.name, seat.token_hash = (
            row.kind,
            row.bot,
            row.name,
            row.token_hash,
        )
        seat.timeouts, seat.away, seat.left, seat.reserved = (
            row.timeouts,
            row.away,
            row.left,
            row.reserved,
        )
        seat.account_id, seat.bot_account = row.account_id, row.bot_account
        seat.moved_after_draft = seat.moved_after_draft or row.moved_after_draft
    return before != [_shown(seat) for seat in seats]
