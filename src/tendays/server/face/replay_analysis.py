"""The analysis of a finished game, one move at a time, as the bot workers compute it.

For each move: the mover's journey distance (the fewest tiles to change for a complete journey,
:func:`tendays.bots.distance.journey_distance`) before and after it, and the move the hard bot would
have made in its place, with the distance that move would have left. A move that lengthened the
journey is marked. :func:`analyse_move` is a plain function of plain data, so it runs in a worker
process (:meth:`tendays.server.matches.thinking.Thinker.compute`); each worker keeps its own bot.
"""

from __future__ import annotations

from typing import Any

from tendays.bots import LEVELS, Bot, make_bot
from tendays.bots.distance import journey_distance
from tendays.engine import GameRecord, State, apply, view
from tendays.engine.chance import Purpose, stream

__all__ = ["ANALYST", "analyse_move"]

ANALYST = "hard"  # the level whose moves the analysis compares with
_BOTS: dict[str, Bot] = {}


def _distance(state: State, seat: int) -> int:
    return journey_distance(state.edition, state.racks[seat])


def analyse_move(record_json: dict[str, Any], number: int, level: str = ANALYST) -> dict[str, Any]:
    """Move ``number`` (from 1) of the record: who made it, the mover's distance before and after
    it, and the move the bot of ``level`` would have made (``better``: it leaves a shorter journey
    than the move made)."""
    record = GameRecord.from_json(record_json)
    before = record.replay(number - 1)
    seat = before.current
    move = record.moves[number - 1]
    after = apply(before, move)
    spec = LEVELS[level].bot
    bot = _BOTS.get(spec)
    if bot is None:
        bot = _BOTS[spec] = make_bot(spec)
    choice = bot.choose(view(before, seat), stream(Purpose.ANALYSIS, record.seed, number))
    distance_before, distance_after = _distance(before, seat), _distance(after, seat)
    bot_after = distance_after if choice == move else _distance(apply(before, choice), seat)
    return {
        "n": number,
        "seat": seat,
        "move": move.to_json(),
        "before": distance_before,
        "after": distance_after,
        "lengthened": distance_after > distance_before,
        "bot_move": choice.to_json(),
        "bot_after": bot_after,
        "better": bot_after < distance_after,
    }
