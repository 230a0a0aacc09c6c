"""What one player may see. Every consumer (bots, terminal, server, RL) works from a view.

A view holds the viewer's own rack, the tile they hold if they drew it, the discard piles (all
face up, and their contents follow from the public history), the size of the draw pile, how many
tiles each rack holds, and the public history. Other racks appear only with open hands or once
the game is over; the draw-pile order and the seed never appear.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .edition import Edition
from .history import Event
from .i18n import ngettext
from .moves import Move
from .state import Options, Phase, Rack, State, legal_moves

__all__ = ["PlayerView", "view"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """The table as seen by ``player`` (``None``: a spectator, who sees no rack at all)."""

    edition: Edition
    options: Options
    player: int | None
    phase: Phase
    current: int
    turn: int
    rack: Rack | None  # the viewer's own rack
    in_hand: int | None  # the tile the viewer is placing, if it is the viewer's to see
    # where the current player's held tile came from (0: draw pile, 1..3: a discard pile)
    taken_from: int
    forced_pile: int  # the pile the current player must discard onto (emptied-pile rule), or 0
    piles: tuple[tuple[int, ...], ...]
    draw_pile_size: int
    rack_counts: tuple[int, ...]  # tiles placed in each rack
    racks: tuple[Rack, ...] | None  # every rack: only with open hands or after the game
    winner: int | None
    events: Sequence[Event]  # the public history, oldest first
    legal: tuple[Move, ...]  # the viewer's legal moves; empty when it is not the viewer's turn

    @property
    def is_my_turn(self) -> bool:
        return self.player == self.current and self.phase is not Phase.OVER

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the viewer may make now (empty when it is not the viewer's turn)."""
        return self.legal if self.is_my_turn else ()


def view(state: State, player: int | None) -> PlayerView:
    """The part of ``state`` that ``player`` may know (``None`` for a spectator)."""
    if player is not None and not 0 <= player < state.options.players:
        players = state.options.players
        raise ValueError(
            ngettext(
                "there is no player {player} in a game of {players}",
                "there is no player {player} in a game of {players}",
                players,
            ).format(player=player + 1, players=players)
        )
    phase = state.phase
    in_hand = state.in_hand
    if (
        in_hand is not None
        and player != state.current
        and not (phase is Phase.PLACE and state.taken_from > 0)
    ):
        # a tile from the draw pile is seen only by its drawer; one taken from a pile is public
        in_hand = None
    reveal = state.options.open_hands or phase is Phase.OVER
    return PlayerView(
        edition=state.edition,
        options=state.options,
        player=player,
        phase=phase,
        current=state.current,
        turn=state.turn,
        rack=state.racks[player] if player is not None else None,
        in_hand=in_hand,
        taken_from=state.taken_from,
        forced_pile=state.forced_pile,
        piles=state.piles,
        draw_pile_size=len(state.draw_pile),
        rack_counts=tuple(len(r) - r.count(None) for r in state.racks),
        racks=state.racks if reveal else None,
        winner=state.winner,
        events=state.events,
        legal=legal_moves(state) if player == state.current else (),
    )
