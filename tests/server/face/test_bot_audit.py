"""The game-stream audit (bot_audit.py) passes honest frames and catches every kind of doctored one:
another seat's rack injected, another rack's tile in a chat line, a hidden region named in the log,
a seed, the seat's own rack changed, a frame of the wrong seat, a frame that is no position."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from bot_audit import audit_frames

from tendays.bots.registry import make_bot
from tendays.engine import GameRecord, Options, Role, State, checker_for, describe_event, view
from tendays.engine.wire import event_to_json, view_to_json

SEAT = 1
NAMES = ("Ann", "Bot")
Frame = dict[str, Any]


def played() -> tuple[GameRecord, list[State]]:
    """A whole game between two greedy bots: its record and every position of it."""
    state = GameRecord("usa", Options(), seed=36).replay()
    states, moves = [state], []
    bots, rng = [make_bot("greedy"), make_bot("greedy")], random.Random(36)
    while not state.is_over:
        move = bots[state.current].choose(view(state, state.current), rng)
        state = state.apply(move)
        states.append(state)
        moves.append(move)
    return GameRecord("usa", Options(), 36, tuple(moves)), states


RECORD, STATES = played()


def stream_line(version: int, log_from: int, with_version: bool) -> Frame:
    """The seat's table at ``version`` as a stream line: the view, the seat, the seats' names and
    counts, and the log from ``log_from`` with its sentences."""
    state = STATES[version]
    seen = view(state, SEAT)
    game = view_to_json(seen, events=False)
    del game["events"], game["player"]
    log = [
        {"text": describe_event(state.edition, event, NAMES), **event_to_json(state.edition, event)}
        for event in seen.events[log_from:]
    ]
    game.update(
        journey=checker_for(state.edition).check(seen.rack).to_json() if seen.rack is not None else None,
        you=SEAT,
        log_from=log_from,
        log=log,
        chat=[],
        seats=[
            {"seat": n, "name": name, "tiles": count}
            for n, (name, count) in enumerate(zip(NAMES, seen.rack_counts, strict=True))
        ],
    )
    line: Frame = {"type": "gameFull" if version == 0 else "gameState", "game": game}
    if with_version:
        line["version"] = version
    return line


def honest_stream(with_version: bool = False) -> list[Frame]:
    """A frame at every position (each carrying the log since the one before)."""
    frames, logged = [], 0
    for version, state in enumerate(STATES):
        frames.append(stream_line(version, logged, with_version))
        logged = len(state.events)
    return frames


def mid_game() -> int:
    """A position in the middle of the play, after the draft."""
    return next(n for n, s in enumerate(STATES) if s.turn == 4)


def other_rack_tile(version: int) -> str:
    """The id of a tile in the other seat's rack that the seat cannot see at ``version``."""
    state = STATES[version]
    seen = json.dumps(view_to_json(view(state, SEAT)))
    other = [state.edition.tiles[t] for t in state.racks[1 - SEAT] if t is not None]
    return next(t.id for t in other if f'"{t.id}"' not in seen and t.role is Role.REGION)


def test_an_honest_stream_passes_with_or_without_versions() -> None:
    assert len(STATES) > 30 and STATES[-1].is_over
    assert audit_frames(RECORD, SEAT, honest_stream()) == []
    assert audit_frames(RECORD, SEAT, honest_stream(with_version=True)) == []
    # frames skipped (a stream may skip tables it had not sent yet) pass too
    assert audit_frames(RECORD, SEAT, honest_stream()[::3]) == []


def inject_rack(game: Frame, version: int) -> None:
    game["racks"] = [[state_tile(t) for t in rack] for rack in STATES[version].racks]


def state_tile(tile: int | None) -> str | None:
    return None if tile is None else STATES[0].edition.tiles[tile].id


def rack_in_chat(game: Frame, version: int) -> None:
    game["chat"] = [{"n": 0, "seat": 0, "name": "Ann", "text": other_rack_tile(version)}]


def named_in_log(game: Frame, version: int) -> None:
    tile = next(t for t in STATES[0].edition.tiles if t.id == other_rack_tile(version))
    game["log"].append({"text": f"Ann holds {tile.name}", "kind": "draw", "tile": None})


def own_rack_changed(game: Frame, version: int) -> None:
    game["rack"] = list(reversed(game["rack"]))


def the_seed(game: Frame, version: int) -> None:
    game["clock"] = {"seed": RECORD.seed}


def other_seat(game: Frame, version: int) -> None:
    game["you"] = 1 - SEAT


def journey_of_another_rack(game: Frame, version: int) -> None:
    game["journey"] = checker_for(STATES[0].edition).check(STATES[version].racks[1 - SEAT]).to_json()


def drawn_by_the_other(game: Frame, version: int) -> None:
    game["in_hand"] = state_tile(STATES[version].draw_pile[-1])


@pytest.mark.parametrize(
    "doctor",
    [
        inject_rack,
        rack_in_chat,
        named_in_log,
        own_rack_changed,
        the_seed,
        other_seat,
        drawn_by_the_other,
        journey_of_another_rack,
    ],
    ids=lambda doctor: doctor.__name__,
)
def test_a_doctored_frame_is_caught_and_named(doctor: Callable[[Frame, int], None]) -> None:
    frames = honest_stream()
    version = mid_game()
    doctored = copy.deepcopy(frames[version])
    doctor(doctored["game"], version)
    frames[version] = doctored
    breaches = audit_frames(RECORD, SEAT, frames)
    assert breaches, doctor.__name__
    assert {breach.frame for breach in breaches} == {version}
    assert all(breach.version == version for breach in breaches)


def test_a_frame_that_is_no_position_of_the_game_is_a_breach() -> None:
    frames = honest_stream()
    frames[5] = copy.deepcopy(frames[5])
    frames[5]["game"]["draw_pile"] = 1000
    breaches = audit_frames(RECORD, SEAT, frames)
    assert [(b.frame, b.problem) for b in breaches] == [(5, "the frame matches no position of the game")]
