"""The one JSON form of each thing a player may be told: views, events, moves (and, in ``journey``,
verdicts).

Tiles travel as their ids, moves as structured data with their notation (:meth:`Move.to_json`),
phases as lower-case words. The engine protocol sends these objects as they are; the server sends
the same view inside its table message, with the seats and the log's sentences around it.
``view_from_json(view_to_json(v))`` gives back an equal view, so a bot behind the protocol decides
exactly as it would in process.
"""

from __future__ import annotations

from typing import Any

from .edition import Edition, load_edition
from .history import Event, EventKind
from .i18n import gettext as _
from .moves import InvalidMoveError, Move
from .state import Options, Phase
from .view import PlayerView

__all__ = [
    "PHASE_NAMES",
    "event_from_json",
    "event_to_json",
    "move_from_json",
    "view_from_json",
    "view_to_json",
]

#: The word for each phase on the wire.
PHASE_NAMES = {Phase.DRAFT: "draft", Phase.DRAW: "draw", Phase.PLACE: "place", Phase.OVER: "over"}
_PHASE_OF = {name: phase for phase, name in PHASE_NAMES.items()}

Rack = tuple[int | None, ...]
_EVENT_KINDS = frozenset(kind.value for kind in EventKind)


# The fields of a view and of one of its events on the wire, in view_to_json's order
# (docs/engine-protocol.md, "The view"): what a view made elsewhere, from a table, must carry.
VIEW_FIELDS = (
    "edition",
    "options",
    "player",
    "phase",
    "current",
    "turn",
    "rack",
    "in_hand",
    "taken_from",
    "forced_pile",
    "piles",
    "draw_pile",
    "rack_counts",
    "racks",
    "winner",
    "events",
    "legal_moves",
)
EVENT_FIELDS = ("kind", "player", "day", "day2", "pile", "tile", "count")


def _tile_id(edition: Edition, tile: int | None) -> str | None:
    return None if tile is None else edition.tiles[tile].id


def _tile_index(edition: Edition, tile_id: str | None) -> int | None:
    return None if tile_id is None else edition.tile(tile_id).index


def event_to_json(edition: Edition, event: Event) -> dict[str, Any]:
    """An event with its tile as an id; absent days and piles are ``None``."""
    return {
        "kind": event.kind.value,
        "player": event.player,
        "day": event.day or None,
        "day2": event.day2 or None,
        "pile": event.pile or None,
        "tile": _tile_id(edition, event.tile),
        "count": event.count,
    }


def event_from_json(edition: Edition, data: dict[str, Any]) -> Event:
    if data["kind"] not in _EVENT_KINDS:
        raise ValueError(
            _("not a tendays view: unknown event kind '{kind}'").format(kind=data["kind"])
        )
    return Event(
        EventKind(data["kind"]),
        data["player"],
        int(data["day"] or 0),
        int(data["day2"] or 0),
        int(data["pile"] or 0),
        _tile_index(edition, data["tile"]),
        int(data["count"]),
    )


def move_from_json(data: dict[str, Any] | str) -> Move:
    """A move from :meth:`Move.to_json`'s object or from its notation."""
    if isinstance(data, str):
        return Move.from_text(data)
    try:
        return Move.from_text(str(data["text"]))
    except (KeyError, TypeError):
        raise InvalidMoveError(_("not a move: {data}").format(data=repr(data))) from None


def view_to_json(view: PlayerView, *, events: bool = True, moves: bool = True) -> dict[str, Any]:
    """A view as a JSON object: every field public to the viewer, nothing more.

    ``events=False`` leaves out the public history (``"events": null``), for senders that send it
    apart, a piece at a time; ``moves=False`` the legal moves (``"legal_moves": []``), for senders
    that write their own.
    """
    edition = view.edition
    ids = edition.tile_ids

    def rack(r: Rack | None) -> list[str | None] | None:
        return None if r is None else [None if t is None else ids[t] for t in r]

    in_hand = view.in_hand
    return {
        "edition": edition.id,
        "options": view.options.to_json(),
        "player": view.player,
        "phase": PHASE_NAMES[view.phase],
        "current": view.current,
        "turn": view.turn,
        "rack": rack(view.rack),
        "in_hand": None if in_hand is None else ids[in_hand],
        "taken_from": view.taken_from,
        "forced_pile": view.forced_pile,
        "piles": [[ids[t] for t in pile] for pile in view.piles],
        "draw_pile": view.draw_pile_size,
        "rack_counts": list(view.rack_counts),
        "racks": None if view.racks is None else [rack(r) for r in view.racks],
        "winner": view.winner,
        "events": [event_to_json(edition, e) for e in view.events] if events else None,
        "legal_moves": [m.to_json() for m in view.legal_moves()] if moves else [],
    }


def view_from_json(data: dict[str, Any]) -> PlayerView:
    """Rebuild a view from :func:`view_to_json`'s object; raises
    ``ValueError`` if it is malformed."""
    try:
        edition = load_edition(str(data["edition"]))

        def tile(t: str | None) -> int | None:
            return _tile_index(edition, t)

        def rack(r: list[str | None] | None) -> Rack | None:
            return None if r is None else tuple(tile(t) for t in r)

        racks = data["racks"]
        return PlayerView(
            edition=edition,
            options=Options.from_json(dict(data["options"])),
            player=data["player"],
            phase=_PHASE_OF[data["phase"]],
            current=int(data["current"]),
            turn=int(data["turn"]),
            rack=rack(data["rack"]),
            in_hand=tile(data["in_hand"]),
            taken_from=int(data["taken_from"]),
            forced_pile=int(data["forced_pile"]),
            piles=tuple(
                tuple(t for t in (tile(x) for x in pile) if t is not None) for pile in data["piles"]
            ),
            draw_pile_size=int(data["draw_pile"]),
            rack_counts=tuple(int(c) for c in data["rack_counts"]),
            racks=None
            if racks is None
            else tuple(r for r in (rack(x) for x in racks) if r is not None),
            winner=data["winner"],
            events=tuple(event_from_json(edition, e) for e in data["events"] or ()),
            legal=tuple(move_from_json(m) for m in data["legal_moves"]),
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(_("not a tendays view: {error}").format(error=repr(error))) from None
