"""An arena's scores and last opponents as the director pairs by them, kept between its steps by
the lease holder (:func:`~.tournament_state.read_state`): each entrant's closed tables, and their
score worked out again (with the rules' ``arena_standings``) only once a table of theirs closed, so
a step costs what changed, not the games played so far.

Exact because an arena score is a sum over the entrant's own games in the order they ended (a
win, a tie, and the double points of a streak: tournament_rules/arena.py): no one else's game
changes it. The pages' standings (with the tie-breaks, which depend on the opponents) are worked
out whole, from the database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .tournament_rows import EntrantRow, TableRow
from .tournament_rules import Entrant, arena_standings

__all__ = ["ArenaScores"]


class ArenaScores:
    """Each entrant's closed tables, score and latest opponent."""

    def __init__(self, tables: Iterable[TableRow]) -> None:
        self._tables: dict[int, list[TableRow]] = {}  # entrant: closed tables
        self._latest: dict[int, TableRow] = {}  # entrant: the closed table of two paired last
        self._scores: dict[int, float] = {}  # entrant: score, for those worked out since
        for table in tables:
            if not table.playing:
                self.add(table)

    def add(self, table: TableRow) -> None:
        """A table closed: its entrants' scores are worked out again when next asked."""
        for entrant in table.entrants:
            self._tables.setdefault(entrant, []).append(table)
            self._scores.pop(entrant, None)
            latest = self._latest.get(entrant)
            if len(table.entrants) == 2 and (latest is None or table.id > latest.id):
                self._latest[entrant] = table

    def last_opponent(self, entrant: int) -> int | None:
        """Whom the entrant met at their latest table (in the order paired), if any."""
        table = self._latest.get(entrant)
        if table is None:
            return None
        return next(e for e in table.entrants if e != entrant)

    def scores(self, entrants: Mapping[int, EntrantRow]) -> dict[int, float]:
        """Each entrant's score (those with no closed table: absent, no points)."""
        stale = [e for e in self._tables if e not in self._scores]
        if stale:
            tables = {t.id: t for e in stale for t in self._tables[e]}
            in_order = sorted(tables.values(), key=lambda t: t.id)  # as the whole reading's
            results = [r for t in in_order if (r := t.result) is not None]
            people = {e for t in in_order for e in t.entrants}
            lines = arena_standings(
                [Entrant(e, entrants[e].name, entrants[e].rating) for e in sorted(people)], results
            )
            wanted = set(stale)
            self._scores.update((s.entrant, s.score) for s in lines if s.entrant in wanted)
        return dict(self._scores)
