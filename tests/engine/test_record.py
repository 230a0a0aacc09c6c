"""Records: (edition, options, seed, moves) as JSON, replayed exactly;
golden playthroughs; perft counts."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from tendays.engine import (
    RULES_VERSION,
    Game,
    GameRecord,
    IllegalMoveError,
    Move,
    Options,
    RecordError,
    State,
    apply,
    describe_event,
    legal_moves,
    load_edition,
    new_game,
    tile_name,
)
from tendays.engine.record import field_problem

DATA = Path(__file__).parent.parent / "data"


def random_game(edition: str, options: Options, seed: int) -> Game:
    game = Game(edition, options, seed, names=("Ann", "Ben", "Cy", "Di")[: options.players])
    chooser = random.Random(seed)
    while not game.state.is_over:
        game.play(chooser.choice(legal_moves(game.state)))
    return game


def test_record_json_round_trip() -> None:
    game = random_game("usa", Options(players=3, turn_limit=40), seed=5)
    record = game.record
    data = json.loads(record.dumps())
    assert data["format"] == "tendays-record/1"
    assert data["edition"] == "usa" and data["seed"] == 5 and data["names"] == ["Ann", "Ben", "Cy"]
    assert data["options"] == {
        "players": 3,
        "days": 10,
        "swap": False,
        "open_hands": False,
        "turn_limit": 40,
        "first_seat": None,
        "rules": RULES_VERSION,
    }
    assert GameRecord.loads(record.dumps()) == record
    assert GameRecord.loads(record.dumps()).replay() == game.state
    assert Game.from_record(record).state == game.state


def test_game_history_undo() -> None:
    game = Game("germany", Options(), 3)
    start = game.state
    game.play("draft 2")
    game.play(Move.draft(5))
    assert game.undo() == Move.draft(5) and game.undo() == Move.draft(2)
    assert game.state == start
    with pytest.raises(IndexError):
        game.undo()
    with pytest.raises(IllegalMoveError):
        game.play("draw")
    assert game.state == start and game.moves == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not a tendays game record"),
        ('{"edition": "usa"}', "not a tendays game record"),
        (
            '{"format": "chess/1", "edition": "usa", "options": {}, "seed": 1, "moves": []}',
            "unsupported record format",
        ),
        ('{"edition": "usa", "options": {"colour": 1}, "seed": 1, "moves": []}', "unknown options"),
        ('{"edition": "usa", "options": {}, "seed": 1, "moves": ["fly 3"]}', "unknown move 'fly'"),
        (
            '{"edition": "usa", "options": {"players": "3"}, "seed": 1, "moves": []}',
            "'players' must be a whole number",
        ),
        (
            '{"edition": "usa", "options": {"swap": 1}, "seed": 1, "moves": []}',
            "'swap' must be true or false",
        ),
        ('{"edition": "usa", "options": {"days": null}, "seed": 1, "moves": []}', "cannot be null"),
    ],
)
def test_bad_records(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.loads(text)


def test_a_record_with_an_illegal_move_names_it() -> None:
    record = GameRecord("usa", Options(), 1, (Move.draft(1), Move.draft(1), Move.draft(1)))
    with pytest.raises(
        RecordError, match=r"move 3 \(draft 1\) does not replay: day 1 already holds a tile"
    ):
        record.replay()


def test_the_states_of_a_record_are_the_deal_and_each_move_played() -> None:
    game = random_game("germany", Options(players=2, days=5, turn_limit=30), seed=8)
    states = game.record.states()
    assert len(states) == len(game.moves) + 1
    assert states[0] == game.record.replay(0) and states[-1] == game.state
    assert all(states[n] == game.record.replay(n) for n in range(0, len(states), 7))


def test_the_states_of_a_record_stop_at_the_move_that_does_not_replay() -> None:
    record = GameRecord("usa", Options(), 1, (Move.draft(1), Move.draft(1), Move.draft(1)))
    with pytest.raises(RecordError, match=r"move 3 \(draft 1\) does not replay"):
        record.states()
    with pytest.raises(RecordError, match="this record cannot be replayed"):
        GameRecord("usa", Options(players=2, days=99), 1).states()


def test_field_problem_names_the_first_field_of_the_wrong_kind() -> None:
    data = {"seed": "x", "moves": 3}
    checks = [("seed", False, "a whole number"), ("moves", False, "a list of moves")]
    assert field_problem(data, checks) == "'seed' must be a whole number, not \"x\""
    assert field_problem(data, [("moves", True, "a list of moves")]) is None


# -- golden playthroughs: seeded games dumped as text and compared line by line -----------------

GOLDEN = [
    ("usa", Options(players=2, turn_limit=60), 11),
    ("germany", Options(players=3, days=5, turn_limit=60), 12),
    ("usa", Options(players=1, days=5, swap=True, turn_limit=40), 13),
    # long enough for a reshuffle at the moment the draw pile runs out, with the first seat chosen
    ("germany", Options(players=3, turn_limit=90, first_seat=2), 14),
]


def playthrough(game: Game) -> str:
    """The whole game, public log and secret racks, in text."""
    state: State = game.record.replay(0)
    edition = state.edition
    names = game.names
    lines = [f"{edition.id} {json.dumps(state.options.to_json())} seed {state.seed}"]
    for number, move in enumerate(game.moves, 1):
        before = len(state.events)
        state = apply(state, move)
        lines.append(f"{number:4d} {move}")
        lines += [f"       {describe_event(edition, e, names)}" for e in state.events[before:]]
        if state.phase.name in ("DRAW", "OVER") and move.kind.value != "draft":
            racks = " | ".join(
                " ".join(edition.tiles[t].id if t is not None else "--" for t in r)
                for r in state.racks
            )
            lines.append(
                f"       racks: {racks}; piles: "
                f"{' / '.join(tile_name(edition, p[-1]) for p in state.piles)}"
            )
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("edition", "options", "seed"), GOLDEN)
def test_golden_playthrough(edition: str, options: Options, seed: int) -> None:
    path = DATA / "golden" / f"{edition}-{options.players}p-{options.days}d-seed{seed}.txt"
    text = playthrough(random_game(edition, options, seed))
    if os.environ.get("TENDAYS_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


# -- perft: the number of decision sequences of a given length from known positions --------------


def perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(apply(state, move), depth - 1) for move in legal_moves(state))


def test_perft_counts() -> None:
    cases = json.loads((DATA / "perft.json").read_text(encoding="utf-8"))
    for case in cases:
        state = new_game(
            load_edition(case["edition"]), Options.from_json(case["options"]), case["seed"]
        )
        for move in case["moves"]:
            state = apply(state, Move.from_text(move))
        for depth, expected in enumerate(case["counts"], 1):
            assert perft(state, depth) == expected, (case["name"], depth)


def test_a_game_that_keeps_only_its_current_state_undoes_by_replaying() -> None:
    full = random_game("usa", Options(players=2, turn_limit=30), seed=8)
    lean = Game("usa", Options(players=2, turn_limit=30), 8, keep_states=False)
    for move in full.moves:
        lean.play(move)
    assert lean.state == full.state and len(lean._states) == 1
    assert lean.undo() == full.undo() and lean.state == full.state


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "not a tendays game record: it has no 'edition', 'options', 'seed' or 'moves'"),
        ("de", "keine Spielaufzeichnung"),
    ],
)
def test_a_record_missing_its_fields_says_so_in_words(language: str, said: str) -> None:
    from tendays.engine.i18n import use_language

    with use_language(language), pytest.raises(RecordError) as refused:
        GameRecord.loads('{"not": "a record"}')
    assert said in str(refused.value)
    assert "fehlt" in str(refused.value) or language == "en"
    with pytest.raises(RecordError, match="'options' must be an object such as"):
        GameRecord.from_json({"edition": "usa", "options": [1], "seed": 1, "moves": []})
