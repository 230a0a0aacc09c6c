"""The bots at a match's table: each bot seat's own bot, and the stand-in that plays a person's
turn.

A bot seat is played by its bot; a person's seat by the stand-in (the operator's ``stand_in`` level)
while its person is away or has left, and for one turn whose time ran out (the match's
``stand_in_turn``). The bots move through the engine's turn loop
(:func:`~tendays.engine.next_decision`), think off the event loop
(:class:`~tendays.server.matches.thinking.Thinker`), and play their moves through the match like
anyone else (:meth:`BotTable.play_in_turn`), so a bot's move is checked, stored and published as a
person's is. Only the process that drives the game runs them
(:mod:`tendays.server.matches.following`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from tendays import bots
from tendays.engine import Decision, Game, Move, Phase, next_decision

from ..settings import MasterSettings
from ..vocabulary import MatchStatus, RejectionCode, SeatKind
from .seats import Rejected, SeatedTable
from .thinking import Thinker

__all__ = ["BotTable", "SeatBots"]

log = logging.getLogger("tendays.server")


class BotTable(SeatedTable, Protocol):
    """What the bots read of their match, and how they move in it."""

    id: str
    game: Game
    lock: asyncio.Lock
    driving: bool
    stand_in_turn: int | None

    async def play_in_turn(
        self, seat: int, move: Move, version: int, by_person: bool = False
    ) -> None: ...


class SeatBots:
    """Runs the bots of one match: one loop at a time, while a bot is to move."""

    def __init__(self, table: BotTable, settings: MasterSettings, thinker: Thinker) -> None:
        self._table = table
        self._settings = settings
        self._thinker = thinker
        self._bots: dict[tuple[int, str], bots.Bot] = {}
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    def to_move(self) -> bool:
        """Whether a bot is to move here: a bot plays the seat whose turn it
        is, and this process drives."""
        table = self._table
        if not table.driving or table.status != MatchStatus.PLAYING:
            return False
        current = table.state.current
        return table.seats[current].played_by_bot or table.stand_in_turn == current

    def wake(self) -> None:
        """Start the bots' loop if a bot is to move and it is not running yet."""
        if self._closed or self._task is not None or not self.to_move():
            return
        self._task = asyncio.create_task(self._run(), name=f"bots of game {self._table.id}")

    def stop(self) -> None:
        """Stop the loop (this process no longer drives the game); a move
        being stored still completes."""
        if self._task is not None:
            self._task.cancel()

    async def close(self) -> None:
        self._closed = True
        task = self._task
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _run(self) -> None:
        """The engine's turn loop, asynchronously: the next decision, a
        bot's answer, the move played."""
        table = self._table
        try:
            while self.to_move():
                timed_out = table.stand_in_turn is not None
                delay = (
                    self._settings.draft_delay
                    if table.state.phase is Phase.DRAFT
                    else self._settings.bot_delay
                )
                if delay > 0 and not timed_out:
                    await asyncio.sleep(delay)
                async with table.lock:  # the game and its table agree while no move is being stored
                    decision, version = next_decision(table.game), table.version
                if decision is None or not self.to_move() or decision.seat != table.state.current:
                    return
                move = await self._move(decision)
                if version != table.version:
                    continue  # a person moved meanwhile (back in time): never play on a stale table
                try:
                    # Like a person's move, a bot's move completes once begun: stopping the bots
                    # (the lease was taken over) must not leave a move in the
                    # game that the database refused.
                    playing = asyncio.ensure_future(
                        table.play_in_turn(decision.seat, move, version)
                    )
                    # a refusal nobody waits for any more is no error
                    playing.add_done_callback(_outcome_seen)
                    await asyncio.shield(playing)
                except Rejected as rejected:
                    if rejected.code == "stale":
                        continue
                    if table.status == MatchStatus.OVER:
                        # the game ended (closed, abandoned) while the bot thought: nothing to play
                        return
                    log.error(
                        "game %s: the bot in seat %d made a move the game refused: %s",
                        table.id,
                        decision.seat + 1,
                        rejected.message,
                    )
                    if rejected.code == RejectionCode.UNAVAILABLE:
                        await asyncio.sleep(1.0)  # the database is down: retry gently
                        continue
                    return
        finally:
            self._task = None

    def _bot_of(self, seat: int) -> tuple[str, bots.Bot]:
        """The bot that plays ``seat``: its own for a bot seat, the stand-in for a person's seat."""
        place = self._table.seats[seat]
        spec = (place.bot or "normal") if place.kind == SeatKind.BOT else self._settings.stand_in
        bot = self._bots.get((seat, spec))
        if bot is None:
            bot = self._bots[seat, spec] = bots.make_bot(spec)
        return spec, bot

    async def _move(self, decision: Decision) -> Move:
        seat, legal = decision.seat, decision.view.legal_moves()
        spec, bot = self._bot_of(seat)
        game_id = self._table.id
        try:
            move = await self._thinker.choose(spec, bot, decision)
        except Exception:
            log.exception(
                "game %s: the %s bot in seat %d failed; it plays a random move",
                game_id,
                spec,
                seat + 1,
            )
            return decision.rng.choice(legal)
        if move not in legal:
            log.error(
                "game %s: the %s bot in seat %d chose %s, which is not legal; it plays a random "
                "move",
                game_id,
                spec,
                seat + 1,
                move,
            )
            return decision.rng.choice(legal)
        return move


def _outcome_seen(task: asyncio.Future[None]) -> None:
    """Mark a move's outcome as seen, so a refusal that came after its
    bots were stopped is not logged."""
    if not task.cancelled():
        task.exception()
