"""The analysis of a finished game, one move at a time, as the bot workers compute it.

For each move: the mover's journey distance (the fewest tiles to change for a complete journey,
:func:`tendays.bots.distance.journey_distance`) before and after it, and the move the hard bot would
have made in its place, with the distance that move would have left. A move that lengthened the
journey is marked. :func:`analyse_move` is a plain function of plain data, so it runs in a worker
process (:meth:`tendays.server.matches.thinking.Thinker.compute`); each worker keeps its own bot.
:class:`AnalysisCache` keeps a process's analyses and runs them, one game at a time.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tendays.bots import LEVELS, Bot, make_bot
from tendays.bots.distance import journey_distance
from tendays.engine import GameRecord, State, apply, view
from tendays.engine.chance import Purpose, stream
from tendays.engine.i18n import gettext as _

from ...vocabulary import AnalysisStatus

if TYPE_CHECKING:
    from ...matches.lobby import Lobby

__all__ = ["ANALYST", "Analysis", "AnalysisCache", "analyse_move"]

ANALYST = "hard"  # the level whose moves the analysis compares with
_BOTS: dict[str, Bot] = {}
KEPT = 64  # games whose analysis a process keeps


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


@dataclass
class Analysis:
    """One game's analysis: the moves analysed so far, of ``total``."""

    total: int
    moves: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    task: asyncio.Task[None] | None = None

    def to_json(self) -> dict[str, Any]:
        status = (
            AnalysisStatus.FAILED
            if self.error
            else AnalysisStatus.READY
            if len(self.moves) == self.total
            else AnalysisStatus.RUNNING
        )
        return {
            "status": status,
            "analyst": ANALYST,
            "done": len(self.moves),
            "total": self.total,
            "error": self.error,
            "moves": self.moves if status == AnalysisStatus.READY else [],
        }


class AnalysisCache:
    """The analyses of this process, per game (the newest :data:`KEPT`); one game is analysed at a
    time, a move at a time, in the bot workers."""

    def __init__(self) -> None:
        self._analyses: OrderedDict[str, Analysis] = OrderedDict()
        self._turn = asyncio.Lock()

    def get(self, game_id: str) -> Analysis | None:
        return self._analyses.get(game_id)

    def start(self, lobby: Lobby, game_id: str, record: GameRecord) -> Analysis:
        analysis = self._analyses.get(game_id)
        if analysis is not None and not analysis.error:
            self._analyses.move_to_end(game_id)
            return analysis
        analysis = self._analyses[game_id] = Analysis(len(record.moves))
        analysis.task = asyncio.create_task(
            self._run(lobby, analysis, record.to_json()), name=f"analysis of game {game_id}"
        )
        while len(self._analyses) > KEPT:
            _old, dropped = self._analyses.popitem(last=False)
            if dropped.task is not None:
                dropped.task.cancel()
        return analysis

    async def _run(self, lobby: Lobby, analysis: Analysis, record: dict[str, Any]) -> None:
        async with self._turn:
            try:
                for number in range(1, analysis.total + 1):
                    analysis.moves.append(await lobby.thinker.compute(analyse_move, record, number))
            # a worker that failed: say so, and let a new request try again
            except Exception as error:
                analysis.error = _("the analysis failed: {error}").format(error=error)
