"""The pure rules engine: editions and their tables, journeys, game state, moves, views, what a view
reveals, the action numbering, the turn loop, the wire forms and records.

It imports only the standard library and does no I/O beyond reading its own edition files and
message catalogues. Every rule and every table lives here once; the bots, the terminal, the server
and the RL environments use it. Its sentences come in the reader's language: see
:mod:`tendays.engine.i18n`.
"""

from .actions import ActionCodec
from .connections import EditionTables
from .describe import describe_event, tile_name
from .edition import (
    Edition,
    EditionError,
    Region,
    Role,
    Tile,
    available_editions,
    default_edition,
    load_edition,
)
from .history import Event, EventKind, EventLog
from .i18n import Term, available_languages, current_language, match_language, use_language
from .journey import JourneyChecker, Link, Problem, Verdict, checker_for
from .knowledge import Knowledge, knowledge_of, known_racks
from .moves import InvalidMoveError, Move, MoveKind
from .record import Game, GameRecord, RecordError
from .state import (
    MAX_DAYS,
    MAX_PLAYERS,
    MAX_SEED,
    MIN_DAYS,
    MIN_SEED,
    PILES,
    RULES_VERSION,
    IllegalMoveError,
    Options,
    OutOfTurnError,
    Phase,
    State,
    apply,
    legal_moves,
    new_game,
    parse_seed,
    seed_problem,
)
from .turns import Decision, Player, decision_rng, next_decision, play_bots
from .view import PlayerView, view
from .words import Words

__all__ = [
    "MAX_DAYS",
    "MAX_PLAYERS",
    "MAX_SEED",
    "MIN_DAYS",
    "MIN_SEED",
    "PILES",
    "RULES_VERSION",
    "ActionCodec",
    "Decision",
    "Edition",
    "EditionError",
    "EditionTables",
    "Event",
    "EventKind",
    "EventLog",
    "Game",
    "GameRecord",
    "IllegalMoveError",
    "InvalidMoveError",
    "JourneyChecker",
    "Knowledge",
    "Link",
    "Move",
    "MoveKind",
    "Options",
    "OutOfTurnError",
    "Phase",
    "Player",
    "PlayerView",
    "Problem",
    "RecordError",
    "Region",
    "Role",
    "State",
    "Term",
    "Tile",
    "Verdict",
    "Words",
    "apply",
    "available_editions",
    "available_languages",
    "checker_for",
    "current_language",
    "decision_rng",
    "default_edition",
    "describe_event",
    "knowledge_of",
    "known_racks",
    "legal_moves",
    "load_edition",
    "match_language",
    "new_game",
    "next_decision",
    "parse_seed",
    "play_bots",
    "seed_problem",
    "tile_name",
    "use_language",
    "view",
]
