"""The arrow keys and Enter a person presses to make a move, read off the input model's cursor."""

from __future__ import annotations

from tendays.cli.tui.input_model import InputModel
from tendays.engine import PILES, Move, MoveKind


def _steps(start: int, goal: int, size: int) -> list[str]:
    """↑/↓ presses from ``start`` to ``goal`` on a ring of ``size`` places, the short way round."""
    down = (goal - start) % size
    return ["down"] * down if down <= size - down else ["up"] * (size - down)


def next_arrow_keys(model: InputModel, move: Move, days: int) -> list[str]:
    """The keys of the next step towards ``move`` (each step ends with Enter), from where the cursor
    is now.

    A draft, a draw and a discard take one step; a replacement takes two (the day, then the pile).
    """
    kind = move.kind
    if kind is MoveKind.DRAFT or (
        kind is MoveKind.REPLACE and (model.pending is None or model.pending.day != move.a)
    ):
        keys = ["left"] if model.on_piles else []
        return keys + _steps(model.cursor - 1, move.a - 1, days) + ["enter"]
    if kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.DISCARD, MoveKind.REPLACE):
        pile = {MoveKind.DRAW: 0, MoveKind.REPLACE: move.b}.get(kind, move.a)
        if not model.on_piles:
            return ["right"]  # → stands where the model puts it: the next step starts from there
        # holding a tile: ↑↓ go round the discard piles only
        if kind in (MoveKind.DISCARD, MoveKind.REPLACE):
            return _steps(model.pile_cursor - 1, pile - 1, PILES) + ["enter"]
        return _steps(model.pile_cursor, pile, PILES + 1) + ["enter"]
    raise AssertionError(f"{move} is not made with the arrow keys")
