"""One game played by the bridge: its game stream followed, its program asked for each move.

A program that fails (it crashes, stalls past the protocol's deadline, or answers out of turn with
nonsense) is stopped and started again from the current view; a program that answers a move the
rules do not allow now is asked once more. When the second answer is no better, the bridge plays
the first of the view's legal moves and logs it, so a game never stalls on its program. A stream
that ends before the game does is opened again (its ``gameFull`` brings the whole table back).
"""

from __future__ import annotations

import logging

import httpx

from tendays.engine import Move, PlayerView

from .backoff import Backoff
from .program import EngineError, Program
from .site import Answer, Busy, NotFound, Site, SiteError, TokenRefused
from .table_game import LogGap, TableGame

__all__ = ["GamePlayer"]

ASKS_PER_MOVE = 2  # the program's answers tried before the first legal move is played
# The site's codes for a move that came too late: the next table says what to do.
_TOO_LATE = ("stale", "out_of_turn")


class GamePlayer:
    """Plays game ``game_id`` with a fresh process of ``command``."""

    def __init__(
        self, site: Site, game_id: str, command: str, log: logging.Logger, backoff: Backoff
    ) -> None:
        self.site = site
        self.game_id = game_id
        self.program = Program(command)
        self.log = log
        self.backoff = backoff
        self.moves = 0
        self._answered = -1  # the position last answered (TableGame.position)

    async def play(self) -> None:
        """Until the game is over (or the site says the account has no seat there). Raises
        :class:`~tendays.bridge.site.TokenRefused` when the token no longer works."""
        try:
            while not await self._follow_once():
                await self.backoff.wait()
        finally:
            await self.program.stop()

    async def _follow_once(self) -> bool:
        """Follow the game stream until it ends; whether the game is done with."""
        path = f"/api/bot/game/stream/{self.game_id}"
        try:
            async with self.site.stream(path) as messages:
                table: TableGame | None = None
                async for message in messages:
                    kind = message.get("type")
                    game = message.get("game")
                    if not isinstance(game, dict):
                        continue
                    if kind == "gameFull":
                        table = TableGame(game)
                        self.backoff.reset()
                    elif kind == "gameState" and table is not None:
                        table.update(game)
                    else:
                        continue
                    if table.over:
                        self._finished(table)
                        return True
                    if table.to_move and table.position != self._answered:
                        await self._move(table)
        except NotFound as refusal:
            self.log.info("game %s: %s; leaving it", self.game_id, refusal.detail)
            return True
        except Busy as busy:
            self.log.info("game %s: the site is busy (%s)", self.game_id, busy.detail)
            await self.backoff.sleep_for(busy.retry_after)
            return False
        except TokenRefused:
            raise
        except SiteError as error:  # a proxy's 502 while the server restarts, say
            self.log.info("game %s: the site answered %s; trying again", self.game_id, error)
            return False
        except LogGap as gap:
            self.log.info("game %s: %s; opening its stream again", self.game_id, gap)
            return False
        except httpx.HTTPError as error:
            self.log.info(
                "game %s: connection lost (%s); opening it again", self.game_id, _said(error)
            )
            return False
        self.log.info("game %s: its stream ended before the game; opening it again", self.game_id)
        return False

    def _finished(self, table: TableGame) -> None:
        game = table.table
        winner = game.get("winner")
        if game.get("ended") not in (None, "forfeit"):
            result = f"ended early ({game.get('ended')})"
        elif game.get("phase") != "over" and game.get("status") != "over":
            result = "our seat has left it"
        elif winner is None:
            result = "no winner"
        else:
            result = "won" if winner == table.seat else f"lost (seat {winner} won)"
        self.log.info(
            "game %s over: %s, after %d moves of ours, %d program restarts",
            self.game_id,
            result,
            self.moves,
            self.program.restarts,
        )

    async def _move(self, table: TableGame) -> None:
        try:
            seen = table.player_view()
        except ValueError as error:
            self.log.info("game %s: the table is not a view (%s); waiting", self.game_id, error)
            self._answered = table.position
            return
        move = await self._choose(seen)
        answer = await self._send(move)
        if answer.status != 200:
            code = answer.body.get("code")
            self.log.info(
                "game %s: the site refused '%s': %s (%s)", self.game_id, move, answer.detail, code
            )
            first = seen.legal_moves()[0]
            if code not in _TOO_LATE and first != move:
                self.log.info("game %s: playing the first legal move '%s'", self.game_id, first)
                await self._send(first)
        self._answered = table.position

    async def _send(self, move: Move) -> Answer:
        path = f"/api/bot/game/{self.game_id}/move"
        while True:
            try:
                answer = await self.site.post(path, {"move": str(move)})
            except Busy as busy:
                await self.backoff.sleep_for(busy.retry_after)
                continue
            if answer.status == 200:
                self.moves += 1
                self.log.info("game %s: played '%s'", self.game_id, move)
            return answer

    async def _choose(self, seen: PlayerView) -> Move:
        legal = seen.legal_moves()
        for ask in range(1, ASKS_PER_MOVE + 1):
            restarts = self.program.restarts
            try:
                move = await self.program.ask(seen)
            except EngineError as error:
                self.log.info(
                    "game %s: the program failed (%s); starting it again", self.game_id, error
                )
                continue
            finally:
                if self.program.restarts != restarts:
                    self.log.info(
                        "game %s: program restarted (%d so far)",
                        self.game_id,
                        self.program.restarts,
                    )
            if move in legal:
                return move
            self.log.info(
                "game %s: the program answered '%s', which the rules do not allow now%s",
                self.game_id,
                move,
                "; asking again" if ask < ASKS_PER_MOVE else "",
            )
        self.log.info("game %s: playing the first legal move '%s' instead", self.game_id, legal[0])
        return legal[0]


def _said(error: Exception) -> str:
    return str(error) or type(error).__name__
