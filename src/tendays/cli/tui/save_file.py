"""Save files of the terminal game: a game record, plus the seats, a fingerprint and the palette.

A save file may come from anyone, so it is read as anything from outside (:mod:`..record_file`):
a file that is not a record of the right shape, whose moves do not replay, or whose moves no longer
lead to the position it was saved at (an edited edition, options or seed), is refused with a
``RecordError`` naming the problem. :meth:`.table.Table.save` writes them.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tendays.engine import GameRecord, RecordError, State, json_text, view
from tendays.engine.i18n import gettext as _
from tendays.engine.plain_text import shown, text_problem
from tendays.engine.record import field_problem, shape_problem
from tendays.engine.wire import view_to_json

from ..record_file import read_record_bytes
from .palettes import PALETTES

__all__ = ["load_save", "position_digest", "saved_palette"]


def position_digest(state: State) -> str:
    """A short fingerprint of a position: every seat's view of it
    (racks, piles, history), hashed."""
    views = [view_to_json(view(state, seat)) for seat in range(state.options.players)]
    return hashlib.sha256(json.dumps(views, sort_keys=True).encode()).hexdigest()[:16]


def _shape_problem(data: object) -> str | None:
    """What keeps ``data`` from being a save file's JSON object, in words; None if it has the
    right shape: a game record's (:func:`tendays.engine.record.shape_problem`) and the save's own
    fields."""
    problem = shape_problem(data)
    if problem is not None or not isinstance(data, dict):
        return problem
    seats = data.get("seats", [])
    checks = [
        (
            "seats",
            isinstance(seats, list) and all(isinstance(n, str) for n in seats),
            _("a list of seat specs"),
        ),
        ("position", isinstance(data.get("position", ""), str), _("a fingerprint")),
        ("palette", data.get("palette", PALETTES[0]) in PALETTES, " or ".join(map(repr, PALETTES))),
    ]
    problem = field_problem(data, checks)
    if problem is not None:
        return problem
    # a seat spec without a saved name becomes the seat's name
    for number, spec in enumerate(seats, 1):
        problem = text_problem(spec, _("seat {number}").format(number=number))
        if problem is not None:
            return problem
    return None


def load_save(path: Path) -> tuple[GameRecord, list[str] | None]:
    """Read a save file (or any game record): the record and, if present, the seat specs.

    Anything that is not a record that replays is refused with a ``RecordError`` naming the problem:
    a file that is not UTF-8 JSON, JSON of the wrong shape, options that make no game, a move that
    does not replay, or a saved position the moves no longer lead to (an edited edition or seed).
    """
    raw = read_record_bytes(path)
    path = Path(shown(str(path)))  # as the refusals below name it
    try:
        data = json_text.loads(raw.decode("utf-8"))
    except json_text.NumberTooLongError as error:
        raise RecordError(
            _("{path} is not a tendays game record: it holds {error}").format(
                path=path, error=error
            )
        ) from None
    except UnicodeDecodeError:
        raise RecordError(
            _("{path} is not a tendays game record: it is not UTF-8 text").format(path=path)
        ) from None
    except json.JSONDecodeError as error:
        raise RecordError(
            _("{path} is not a tendays game record: not JSON ({error})").format(
                path=path, error=error
            )
        ) from None
    problem = _shape_problem(data)
    if problem is not None:
        raise RecordError(
            _("{path} is not a tendays game record: {problem}").format(path=path, problem=problem)
        )
    try:
        record = GameRecord.from_json(data)
        state = record.replay()
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
    if len(record.names) not in (0, record.options.players):
        raise RecordError(
            _("{path}: the record names {names} players for a game of {players}").format(
                path=path, names=len(record.names), players=record.options.players
            )
        )
    if "position" in data and data["position"] != position_digest(state):
        raise RecordError(
            _(
                "{path}: the moves no longer lead to the game that was saved (its edition, options "
                "or seed were changed); it is refused rather than replayed as another game"
            ).format(path=path)
        )
    return record, data.get("seats")


def saved_palette(path: Path) -> str | None:
    """The palette a save file was drawn in, or None when it names none (an
    older save, any game record)."""
    try:
        data = json_text.loads(read_record_bytes(path).decode("utf-8"))
    except (RecordError, ValueError):
        return None
    palette = data.get("palette") if isinstance(data, dict) else None
    return palette if palette in PALETTES else None
