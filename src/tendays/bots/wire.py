"""Player views as JSON, for the engine protocol: tiles as ids, moves in the text notation.

``view_from_json(view_to_json(v))`` gives back an equal view, so a bot behind the protocol decides
exactly as it would in process.
"""

from __future__ import annotations

from typing import Any

from tendays.engine import Edition, Event, Move, Options, Phase, PlayerView, load_edition

__all__ = ["view_from_json", "view_to_json"]

_PHASES = {Phase.DRAFT: "draft", Phase.DRAW: "draw", Phase.PLACE: "place", Phase.OVER: "over"}
_PHASE_OF = {name: phase for phase, name in _PHASES.items()}


def _tile_id(edition: Edition, tile: int | None) -> str | None:
    return None if tile is None else edition.tiles[tile].id


def _tile_index(edition: Edition, tile_id: str | None) -> int | None:
    return None if tile_id is None else edition.tile(tile_id).index


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """A view as a JSON object (every field public to the viewer, nothing more)."""
    edition = view.edition

    def rack(r: tuple[int | None, ...] | None) -> list[str | None] | None:
        return None if r is None else [_tile_id(edition, t) for t in r]

    return {
        "edition": edition.id,
        "options": view.options.to_json(),
        "player": view.player,
        "phase": _PHASES[view.phase],
        "current": view.current,
        "turn": view.turn,
        "rack": rack(view.rack),
        "in_hand": _tile_id(edition, view.in_hand),
        "taken_from": view.taken_from,
        "piles": [[_tile_id(edition, t) for t in pile] for pile in view.piles],
        "draw_pile": view.draw_pile_size,
        "rack_counts": list(view.rack_counts),
        "racks": None if view.racks is None else [rack(r) for r in view.racks],
        "winner": view.winner,
        "events": [
            {"kind": e.kind, "player": e.player, "day": e.day, "day2": e.day2, "pile": e.pile,
             "tile": _tile_id(edition, e.tile), "count": e.count}
            for e in view.events
        ],
        "legal_moves": [str(m) for m in view.legal_moves()],
    }


def view_from_json(data: dict[str, Any]) -> PlayerView:
    """Rebuild a view from :func:`view_to_json`'s object; raises ``ValueError`` if it is malformed."""
    try:
        edition = load_edition(str(data["edition"]))

        def tile(t: str | None) -> int | None:
            return _tile_index(edition, t)

        def rack(r: list[str | None] | None) -> tuple[int | None, ...] | None:
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
            piles=tuple(tuple(t for t in (tile(x) for x in pile) if t is not None) for pile in data["piles"]),
            draw_pile_size=int(data["draw_pile"]),
            rack_counts=tuple(int(c) for c in data["rack_counts"]),
            racks=None if racks is None else tuple(r for r in (rack(x) for x in racks) if r is not None),
            winner=data["winner"],
            events=tuple(
                Event(e["kind"], e["player"], int(e["day"]), int(e["day2"]), int(e["pile"]), tile(e["tile"]),
                      int(e["count"]))
                for e in data["events"]
            ),
            _moves=tuple(Move.from_text(m) for m in data["legal_moves"]),
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"not a tendays view: {error!r}") from None
