"""The batched engine: the rules of ``tendays.engine`` for many games at once, on arrays, in JAX.

A :class:`BatchEnv` fixes one edition and one set of options; its ``init``, ``step``,
``legal_action_mask`` and ``observe`` are pure jit-compiled functions over a :class:`BatchState` (a
frozen pytree with the batch axis first), with actions numbered exactly as
``tendays.engine.ActionCodec``. The game is the scalar engine's (rules version 2), checked move for
move by a differential test; see docs/batch.md.

Needs the ``batch`` extra (``pip install -e ".[batch]"`` in a clone: jax and numpy).
"""

from .config import Config
from .convert import from_scalar, game_of, game_of_scalar, games_of, known_racks
from .env import BatchEnv
from .observe import Block
from .sample import choose_actions, random_actions
from .state import DRAFT_PHASE, DRAW_PHASE, OVER_PHASE, PLACE_PHASE, BatchState

__all__ = [
    "DRAFT_PHASE",
    "DRAW_PHASE",
    "OVER_PHASE",
    "PLACE_PHASE",
    "BatchEnv",
    "BatchState",
    "Block",
    "Config",
    "choose_actions",
    "from_scalar",
    "game_of",
    "game_of_scalar",
    "games_of",
    "known_racks",
    "random_actions",
]
