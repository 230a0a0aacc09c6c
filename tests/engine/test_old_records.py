"""Records keep their meaning: every game stored under tests/data replays as it was played.

``tests/data/records/rules1.json`` holds games recorded before rules versions existed (their options
name no rules version), played by random players long enough to reshuffle the draw pile several
times, with the table as that version of tendays left it at the end. ``tests/data/golden/`` holds
seeded games as text: their stored moves, replayed, must give every event and every table the file
says, to the end of the game (the tests of tests/engine/test_record.py make the same files again
from seeded random players; here they are read as records).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_record import playthrough

from tendays.engine import (
    Game,
    GameRecord,
    IllegalMoveError,
    Options,
    RecordError,
    State,
    apply,
    load_edition,
    new_game,
)

DATA = Path(__file__).parent.parent / "data"
RECORDS = json.loads((DATA / "records" / "rules1.json").read_text("utf-8"))
GOLDEN = sorted((DATA / "golden").glob("*.txt"))
NAMES = ("Ann", "Ben", "Cy", "Di")  # the players' names in the golden files


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


def test_every_stored_record_is_replayed_here() -> None:
    stored = {path.relative_to(DATA).as_posix() for path in DATA.glob("records/*")}
    stored |= {path.relative_to(DATA).as_posix() for path in DATA.glob("golden/*")}
    assert stored == {"records/rules1.json"} | {f"golden/{path.name}" for path in GOLDEN}
    assert len(GOLDEN) >= 4


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.stem)
def test_a_golden_game_replays_from_its_stored_moves(path: Path) -> None:
    header, *body = path.read_text("utf-8").splitlines()
    described, seed = header.rsplit(" seed ", 1)  # "usa {options} seed 11"
    edition, options = described.split(" ", 1)
    moves = [line[5:] for line in body if not line.startswith("       ")]  # "   7 take 2"
    played = Options.from_json(json.loads(options))
    game = Game(edition, played, int(seed), names=NAMES[: played.players])
    for move in moves:
        game.play(move)
    assert game.state.is_over  # the file holds the whole game
    assert playthrough(game) == path.read_text("utf-8")
