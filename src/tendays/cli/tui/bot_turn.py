"""A bot's turn at the terminal table: a pause a person can follow, then the bot's move.

The decision (the seat, its view and its random stream) comes from the engine's turn loop through
:meth:`.table.Table.next_decision`, so a bot chooses here as it would in any other front end.
"""

from __future__ import annotations

import asyncio

from tendays.engine import Phase
from tendays.engine.i18n import gettext as _

from .table import Table

__all__ = ["DRAFT_PACE", "play_bot_turn"]

# a draft move is a quick choice: its pause is a quarter of a turn's
DRAFT_PACE = 0.25


async def play_bot_turn(table: Table, delay: float) -> str | None:
    """Play the move of the bot whose turn it is, after ``delay`` seconds; what went wrong, in
    words, when the bot (possibly an outside program) could not move, else None."""
    decision = table.next_decision()
    assert decision is not None
    seat = table.seats[decision.seat]
    assert seat.bot is not None
    pause = delay * (DRAFT_PACE if decision.view.phase is Phase.DRAFT else 1.0)
    if pause > 0:
        await asyncio.sleep(pause)
    try:
        # Slow bots think in a thread so the screen keeps answering keys and resizes.
        move = await asyncio.to_thread(seat.bot.choose, decision.view, decision.rng)
        table.play(move, decision.seat)
    # a bot (possibly an external program) failed: report it, keep the game
    except Exception as error:
        return _("{name} could not move: {error}").format(name=seat.name, error=error)
    return None
