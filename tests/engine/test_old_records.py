"""Records keep their meaning: games recorded under earlier rules replay as they were played.

``tests/data/records/rules1.json`` holds games recorded before rules versions existed (their options
name no rules version), played by random players long enough to reshuffle the draw pile several
times, with the table as that version of tendays left it at the end.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tendays.engine import (
    GameRecord,
    IllegalMoveError,
    RecordError,
    State,
    apply,
    load_edition,
    new_game,
)

RECORDS = json.loads(
    (Path(__file__).parent.parent / "data" / "records" / "rules1.json").read_text("utf-8")
)


def table(state: State) -> dict[str, object]:
    edition = state.edition

    def ids(tiles: tuple[int | None, ...]) -> list[str | None]:
        return [None if t is None else edition.tiles[t].id for t in tiles]

    return {
        "racks": [ids(r) for r in state.racks],
        "piles": [ids(p) for p in state.piles],
        "draw_pile": ids(state.draw_pile),
        "reshuffles": state.reshuffles,
        "turn": state.turn,
        "winner": state.winner,
        "events": len(state.events),
    }


@pytest.mark.parametrize("data", RECORDS, ids=[r["edition"] for r in RECORDS])
def test_a_record_without_a_rules_version_replays_under_rules_1(data: dict) -> None:
    assert "rules" not in data["options"]
    record = GameRecord.from_json(data)
    assert record.options.rules == 1
    assert table(record.replay()) == data["expected"]
    assert data["expected"]["reshuffles"] >= 2
    # Written again, the record names its rules, and still replays the same game.
    again = GameRecord.loads(record.dumps())
    assert again.to_json()["options"]["rules"] == 1 and table(again.replay()) == data["expected"]


@pytest.mark.parametrize("data", RECORDS, ids=[r["edition"] for r in RECORDS])
def test_the_same_moves_under_the_current_rules_are_another_game(data: dict) -> None:
    # The check above could not fail if the rule change did not matter to these games.
    record = GameRecord.from_json(data)
    options = record.options.__class__(**{**record.options.to_json(), "rules": 2})
    state = new_game(load_edition(record.edition), options, record.seed)
    try:
        for move in record.moves:
            state = apply(state, move)
    except IllegalMoveError:
        return
    assert table(state) != data["expected"]


def test_a_record_under_unknown_rules_is_refused() -> None:
    data = dict(RECORDS[0], options={**RECORDS[0]["options"], "rules": 99})
    with pytest.raises(
        RecordError, match="played under rules version 99, which this version of tendays does not"
    ):
        GameRecord.from_json(data)


def test_a_record_with_options_the_tiles_cannot_support_is_refused() -> None:
    data = dict(
        RECORDS[0], options={"players": 3, "days": 17, "rules": 2}, edition="germany", moves=[]
    )
    with pytest.raises(
        RecordError, match="cannot be replayed: .*too few for every player to draw once"
    ):
        GameRecord.from_json(data).replay()


def test_rules_1_games_keep_the_option_limits_they_were_created_under() -> None:
    # Rules 1 accepted any racks that could be dealt; such records still replay.
    data = dict(
        RECORDS[0], options={"players": 3, "days": 17}, edition="germany", moves=["draft 1"]
    )
    assert GameRecord.from_json(data).replay().racks[0][0] is not None
