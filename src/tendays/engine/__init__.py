"""The pure rules engine: editions, journeys, game state, moves, views and records.

It imports only the standard library and does no I/O beyond reading its own edition files.
"""

from .edition import Edition, EditionError, Region, Role, Tile, available_editions, load_edition
from .journey import JourneyChecker, Link, Problem, Verdict, checker_for
from .moves import InvalidMoveError, Move, MoveKind
from .record import Game, GameRecord, RecordError
from .state import (
    MAX_PLAYERS,
    PILES,
    Event,
    IllegalMoveError,
    Options,
    OutOfTurnError,
    Phase,
    State,
    apply,
    legal_moves,
    new_game,
)
from .text import describe_event, tile_name
from .view import PlayerView, view

__all__ = [
    "MAX_PLAYERS",
    "PILES",
    "Edition",
    "EditionError",
    "Event",
    "Game",
    "GameRecord",
    "IllegalMoveError",
    "InvalidMoveError",
    "JourneyChecker",
    "Link",
    "Move",
    "MoveKind",
    "Options",
    "OutOfTurnError",
    "Phase",
    "PlayerView",
    "Problem",
    "RecordError",
    "Region",
    "Role",
    "State",
    "Tile",
    "Verdict",
    "apply",
    "available_editions",
    "checker_for",
    "describe_event",
    "legal_moves",
    "load_edition",
    "new_game",
    "tile_name",
    "view",
]
