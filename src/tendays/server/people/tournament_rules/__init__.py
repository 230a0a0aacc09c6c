"""Tournament rules: how an arena or a Swiss event pairs its players and ranks them.

Pure code: no database, no I/O, no clock (the time is passed in), no randomness; every answer
depends only on the arguments, ties broken by entrant id. The tournament director reads the state
from the database, asks these functions, and writes their answers back atomically. Bad input (a
table size out of range, an entrant twice, a game naming a stranger) is a ValueError in words.

- :mod:`.values`: what the rules read and answer; :mod:`.ranking`: place points, shared ranks.
- :mod:`.arena`: pairing whoever is free, scores with streaks, performance.
- :mod:`.swiss`: a round at tables of two (:mod:`.swiss_pairs`, a weighted matching over a field
  in groups, :mod:`.matching`) or of three or four (:mod:`.swiss_tables`: every split weighed for
  a small field, :mod:`.table_search`; cut in standings order and mended by swaps for a large one,
  :mod:`.table_mending`; a table's cost, :mod:`.table_cost`).
- :mod:`.swiss_scores`: points, Buchholz and Sonneborn-Berger.
"""

from __future__ import annotations

from .arena import ArenaCandidate, arena_standings, pair_arena
from .swiss import pair_swiss
from .swiss_field import SwissCandidate, SwissRound
from .swiss_scores import swiss_standings
from .values import Bye, Entrant, Standing, TableResult, TournamentKind

__all__ = [
    "ArenaCandidate",
    "Bye",
    "Entrant",
    "Standing",
    "SwissCandidate",
    "SwissRound",
    "TableResult",
    "TournamentKind",
    "arena_standings",
    "pair_arena",
    "pair_swiss",
    "swiss_standings",
]
