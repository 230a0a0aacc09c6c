"""The wire's field lists name exactly what ``view_to_json`` writes, in its order."""

from __future__ import annotations

from tendays.engine import Options, load_edition, new_game, view
from tendays.engine.wire import EVENT_FIELDS, VIEW_FIELDS, view_to_json


def test_the_view_fields_are_what_a_view_is_written_with() -> None:
    state = new_game(load_edition("usa"), Options(players=2), seed=3)
    state = state.apply(state.legal_moves()[0])
    written = view_to_json(view(state, 0))
    assert tuple(written) == VIEW_FIELDS
    assert written["events"] and all(tuple(e) == EVENT_FIELDS for e in written["events"])
