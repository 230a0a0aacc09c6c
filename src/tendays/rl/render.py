"""The "ansi" rendering: the table as one player sees it, in plain text."""

from __future__ import annotations

from tendays.engine import Phase, PlayerView, checker_for, describe_event, tile_name

__all__ = ["render_view"]

_RECENT_EVENTS = 4


def render_view(view: PlayerView) -> str:
    """A few lines describing ``view``: turn, own rack, held tile, piles and the latest events."""
    edition = view.edition
    me = view.player
    lines = [
        f"{edition.name}, turn {view.turn}, {view.phase.name.lower()}, player {view.current + 1} "
        f"to move"
    ]
    if me is not None and view.rack is not None:
        days = "  ".join(
            f"{d}:{tile_name(edition, t) if t is not None else '-'}"
            for d, t in enumerate(view.rack, 1)
        )
        lines.append(f"player {me + 1}'s rack  {days}")
        if None not in view.rack:
            verdict = checker_for(edition).check(view.rack)
            count = len(verdict.problems)
            lines.append(
                "  complete journey"
                if verdict.valid
                else f"  {count} problem{'s' if count > 1 else ''}, first: {verdict.problems[0]}"
            )
    if view.in_hand is not None:
        lines.append(f"held tile  {tile_name(edition, view.in_hand)}")
    tops = "  ".join(
        f"{p}:{tile_name(edition, pile[-1]) if pile else '(empty)'} ({len(pile)})"
        for p, pile in enumerate(view.piles, 1)
    )
    lines.append(f"discard piles  {tops}   draw pile: {view.draw_pile_size} tiles")
    for event in view.events[-_RECENT_EVENTS:]:
        lines.append(f"  {describe_event(edition, event)}")
    if view.phase is Phase.OVER:
        lines.append(
            "game over: "
            + (f"player {view.winner + 1} wins" if view.winner is not None else "nobody wins")
        )
    return "\n".join(lines) + "\n"
