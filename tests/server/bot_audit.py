"""The audit of a game stream: every frame a seat's stream carried, checked against the finished
game's record, so that the stream is shown to carry nothing the seat could not see.

The record (edition, options, seed, moves) replays every position of the game; the engine's
``view(state, seat)`` is what the seat may know there. A frame (a ``gameFull`` or ``gameState`` line
of the Bot API's game stream, or any table object of the seat) is matched to the position it shows,
by its version when it carries one, else by its public fields (phase, turn, player to move, piles,
draw-pile size and rack counts, which every move changes), and then checked:

- its engine fields (its own rack, the tile in hand, every rack, the piles, the sizes) equal the
  view's, so other racks are null while the game is played and the draw pile is only a number;
- it names no seed and no draw order;
- its legal moves are the view's (or none, while the server plays the seat);
- its journey is the verdict on the seat's own rack (its days and links; the words may be in any
  language);
- no tile id the seat cannot know at that position (another rack's, the draw pile's, a tile drawn by
  someone else) appears anywhere in it as a value, and no such region's name appears in a sentence
  of its log (the journey's sentences are left out: they name regions of the map, such as the one
  a car stands for, that are no tile of anyone's).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from tendays.engine import GameRecord, PlayerView, Role, State, checker_for, view
from tendays.engine.wire import view_to_json

__all__ = ["Breach", "audit_frames"]

# The engine fields a frame must carry exactly as the seat's view has them.
VIEW_FIELDS = ("rack", "in_hand", "racks", "piles", "draw_pile", "rack_counts")
# Fields that place a frame in the game: every move changes one of them.
PUBLIC_FIELDS = ("phase", "current", "turn", "piles", "draw_pile", "rack_counts", "taken_from")
# Names no frame may carry: they would tell the order of the tiles to come.
SECRET_KEYS = frozenset({"seed", "draw_order", "deck", "draw_pile_tiles", "bag"})
LANGUAGES = ("en", "de")


@dataclass(frozen=True)
class Breach:
    """One thing a frame carried that its seat could not see (``frame``: its place in the stream)."""

    frame: int
    version: int | None
    problem: str


def audit_frames(record: GameRecord, seat: int, frames: Sequence[dict[str, Any]]) -> list[Breach]:
    """Every breach in ``frames`` (stream lines ``{"type", "game"}``, or table objects), in order;
    an empty list when each frame shows exactly what ``seat`` may see."""
    states = [record.replay(0)]
    for move in record.moves:
        states.append(states[-1].apply(move))
    views = [view(state, seat) for state in states]
    shown = [view_to_json(seen, events=False) for seen in views]
    breaches: list[Breach] = []
    after = 0
    for number, line in enumerate(frames):
        game = line.get("game", line)
        version = _version_of(line, game, shown, after)
        if version is None:
            breaches.append(Breach(number, None, "the frame matches no position of the game"))
            continue
        after = version
        for problem in _problems(game, seat, states[version], views[version], shown[version]):
            breaches.append(Breach(number, version, problem))
    return breaches


def _version_of(line: dict[str, Any], game: dict[str, Any], shown: Sequence[dict[str, Any]], after: int) -> int | None:
    """The number of moves played at the frame: its own word, else the first position from
    ``after`` on whose public fields it shows."""
    stated = line.get("version", game.get("version"))
    if isinstance(stated, int):
        return stated if 0 <= stated < len(shown) else None
    for version in range(after, len(shown)):
        if all(game.get(key) == shown[version][key] for key in PUBLIC_FIELDS):
            return version
    return None


def _problems(
    game: dict[str, Any], seat: int, state: State, seen: PlayerView, expected: dict[str, Any]
) -> Iterator[str]:
    if "you" in game and game["you"] != seat:
        yield f"the frame is for seat {game['you']}, not seat {seat}"
    for key in VIEW_FIELDS:
        if game.get(key) != expected[key]:
            yield f"{key} is {game.get(key)!r} where the seat sees {expected[key]!r}"
    for path, key in _keys(game):
        if key in SECRET_KEYS:
            yield f"{path} names a secret ({key})"
    moves = [move.get("text") for move in game.get("legal_moves") or []]
    allowed = [move["text"] for move in expected["legal_moves"]]
    if moves and moves != allowed:
        yield f"legal_moves are {moves} where the seat may play {allowed}"
    journey = game.get("journey")
    if journey is not None and seen.rack is not None:
        own = checker_for(state.edition).check(seen.rack).to_json()
        if _verdict_shape(journey) != _verdict_shape(own):
            yield f"the journey {journey!r} is not the verdict on the seat's own rack"
    hidden = _hidden_ids(state, seat, seen, expected)
    for path, value in _values(game):
        if value in hidden:
            yield f"{path} holds {value!r}, a tile the seat cannot see"
    yield from _hidden_names(game, state, hidden)


def _verdict_shape(verdict: dict[str, Any]) -> tuple[Any, ...]:
    """A verdict without its words: whether it holds, and each problem's and link's days."""
    problems = tuple((p.get("day"), p.get("to_day")) for p in verdict.get("problems") or [])
    links = tuple(
        (k.get("from_day"), k.get("to_day"), k.get("via_day"), k.get("ok")) for k in verdict.get("links") or []
    )
    return verdict.get("valid"), problems, links


def _hidden_ids(state: State, seat: int, seen: PlayerView, expected: dict[str, Any]) -> set[str]:
    """The ids of tiles the seat cannot know now: other racks, the draw pile, another's drawn tile,
    less every id the view shows somewhere (a kind of tile may have several copies)."""
    tiles = state.edition.tiles
    secret = [t for other, rack in enumerate(state.racks) if other != seat for t in rack]
    secret += list(state.draw_pile)
    if state.in_hand is not None and seen.in_hand is None:
        secret.append(state.in_hand)
    visible = {value for _, value in _values(expected)}
    visible |= {tiles[event.tile].id for event in seen.events if event.tile is not None}
    return {tiles[t].id for t in secret if t is not None} - visible


def _hidden_names(game: dict[str, Any], state: State, hidden: set[str]) -> Iterator[str]:
    """Sentences of the log that name a hidden region (a visible region's name is taken out first:
    "West Virginia" seen does not reveal "Virginia")."""
    edition = state.edition
    regions = [t for t in edition.tiles if t.role is Role.REGION]
    secret = [t for t in regions if t.id in hidden]
    if not secret:
        return
    sentences = [entry.get("text", "") for entry in game.get("log") or []]
    for lang in LANGUAGES:
        words = edition.words(lang)
        shown = sorted((words.name(t.index) for t in regions if t.id not in hidden), key=len, reverse=True)
        for sentence in sentences:
            rest = sentence
            for name in shown:
                rest = rest.replace(name, "")
            for tile in secret:
                if words.name(tile.index) in rest:
                    name = words.name(tile.index)
                    yield f"{sentence!r} names {name}, a tile the seat cannot see"


def _values(data: Any, path: str = "game") -> Iterator[tuple[str, str]]:
    """Every string value in ``data`` with where it lies."""
    if isinstance(data, str):
        yield path, data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _values(value, f"{path}.{key}")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _values(value, f"{path}[{index}]")


def _keys(data: Any, path: str = "game") -> Iterator[tuple[str, str]]:
    """Every key in ``data`` with where it lies."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield f"{path}.{key}", key
            yield from _keys(value, f"{path}.{key}")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _keys(value, f"{path}[{index}]")
