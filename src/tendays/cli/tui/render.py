"""Rich text for tiles, racks, piles, seats and the log, built from player views only.

Colours always come with words: a tile's swatch carries its colour's name on its own background
(readable on dark and light themes alike), and a link's mark is a symbol as well as a colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tendays.engine import Edition, Event, PlayerView, Verdict, checker_for, current_language, describe_event
from tendays.engine.edition import Role

__all__ = [
    "DayMark",
    "bullets",
    "day_marks",
    "journey_report",
    "last_actions",
    "log_line",
    "name_width",
    "pile_text",
    "rack_line",
    "swatch",
    "tile_name",
    "tile_text",
    "transport_names",
]

# Background and text colour for each swatch; each pair has good contrast on its own.
_SWATCHES = {
    "blue": ("#2f6fd6", "#ffffff"),
    "green": ("#3c9d4a", "#000000"),
    "orange": ("#f08a24", "#000000"),
    "pink": ("#f29ac4", "#000000"),
    "yellow": ("#f0d43a", "#000000"),
    "purple": ("#8a55cc", "#ffffff"),
    "any": ("#c9c9c9", "#000000"),
    "skip": ("#8d8d8d", "#000000"),
}
SWATCH_WIDTH = 6


def swatch(edition: Edition, tile: int | None, width: int = SWATCH_WIDTH) -> Text:
    """A block in the tile's colour, labelled with the colour's name (or the skip's kind)."""
    if tile is None:
        return Text(" " * width)
    t = edition.tiles[tile]
    if t.role is Role.SKIP:
        key, label = "skip", t.kind
    elif t.color is None:
        key = edition.any_color_name if edition.any_color_name in _SWATCHES else "any"
        label = "any"
    else:
        key, label = t.color, edition.words(current_language()).color(t.color)
    background, foreground = _SWATCHES.get(key, _SWATCHES["any"])
    # The colour goes on a span, not on the Text itself, so text appended after the swatch stays plain.
    block = Text()
    block.append(f"{label[:width]:^{width}}", style=f"bold {foreground} on {background}")
    return block


def name_width(edition: Edition) -> int:
    """Room for the longest tile name of ``edition``, so no name on a rack is ever cut."""
    return max(len(tile.name_in(current_language())) for tile in edition.tiles)


def tile_name(edition: Edition, tile: int, label: str) -> str:
    """The name written after a swatch labelled ``label``: none when the swatch already says it (``car``)."""
    name = edition.tiles[tile].name_in(current_language())
    return "" if name == label.strip() else name


def tile_text(edition: Edition, tile: int | None, width: int | None = None) -> Text:
    """Swatch and full name, e.g. ``[ pink ] Ohio``, or the swatch alone when it names the tile (``[ car ]``);
    "(empty)" for an empty day."""
    if tile is None:
        text = Text(" " * SWATCH_WIDTH + " (empty)", style="dim")
        if width is not None:
            text.truncate(width, pad=True)
        return text
    text = swatch(edition, tile)
    text.append(" ")
    text.append(tile_name(edition, tile, text.plain))
    if width is not None:
        text.truncate(width, overflow="ellipsis", pad=True)
    return text


@dataclass(frozen=True)
class DayMark:
    """How one day of a rack joins the journey: ``ok`` None for a day in the middle of a hop."""

    symbol: str
    ok: bool | None
    message: str


def day_marks(edition: Edition, rack: Sequence[int | None]) -> dict[int, DayMark]:
    """For each day, the verdict on the link leaving it (or the problem at it), as ``tendays check`` says.

    A filled day whose link the verdict cannot judge because a problem after it breaks the way (two
    transport tiles in a row) is marked with that problem; a day is left unmarked only while a day
    around it is still empty.
    """
    verdict: Verdict = checker_for(edition).check(rack)
    marks: dict[int, DayMark] = {}
    for link in verdict.links:
        symbol = f"{'✓' if link.ok else '✗'}→{link.to_day}"
        marks[link.from_day] = DayMark(symbol, link.ok, f"day {link.from_day} → {link.to_day}: {link.message}")
        if link.via_day is not None:
            marks[link.via_day] = DayMark("┆", None, f"day {link.via_day}: between days {link.from_day} and "
                                                     f"{link.to_day} ({link.message})")
    for problem in verdict.problems:
        if rack[problem.day - 1] is None:
            continue  # an empty day during the draft is not a mistake
        if problem.to_day is None or problem.day not in marks or marks[problem.day].ok is not False:
            marks[problem.day] = DayMark("✗", False, str(problem))
    if len(rack) and rack[-1] is not None and len(rack) not in marks:
        marks[len(rack)] = DayMark("■", True, f"day {len(rack)}: the journey ends here")
    for day in range(1, len(rack) + 1):
        if day in marks or rack[day - 1] is None:
            continue
        inside = [p for p in verdict.problems if p.to_day is not None and p.day <= day <= p.to_day]
        if inside:
            marks[day] = DayMark("✗", False, str(inside[0]))
            continue
        later = [p for p in verdict.problems if p.day > day]
        filled = all(tile is not None for tile in rack[day - 1:later[0].day if later else len(rack)])
        if later and filled:
            marks[day] = DayMark("✗", False, f"day {day}: its link is blocked further on, at {later[0]}")
    return marks


def rack_line(edition: Edition, day: int, tile: int | None, mark: DayMark | None, name_width: int) -> Text:
    """One day of a rack: number, swatch, name and the mark of its link."""
    line = Text(f"{day:>2} ")
    line.append_text(tile_text(edition, tile, SWATCH_WIDTH + 1 + name_width))
    if mark is not None:
        style = "green" if mark.ok else ("red" if mark.ok is False else "dim")
        line.append(f" {mark.symbol}", style=f"bold {style}" if mark.ok is not None else style)
    return line


def bullets(lines: Sequence[str], symbol: str, style: str) -> Table:
    """Lines each after ``symbol``, wrapped with a hanging indent so a long explanation stays readable."""
    grid = Table.grid(padding=0)
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    for line in lines:
        grid.add_row(Text(f"  {symbol} ", style=style), Text(line, style=style))
    return grid


def journey_report(edition: Edition, rack: Sequence[int | None], name_width: int, with_days: bool = True) -> Group:
    """Every day of a rack with the verdict on its link (unless not ``with_days``), then each problem and
    each good link in words, as ``tendays check`` gives them."""
    parts: list[RenderableType] = []
    if with_days:
        marks = day_marks(edition, rack)
        days = Text()
        for day, tile in enumerate(rack, 1):
            days.append_text(rack_line(edition, day, tile, marks.get(day), name_width))
            days.append("\n")
        parts.append(days)
    verdict = checker_for(edition).check(rack)
    if verdict.valid:
        parts.append(Text(f"A complete {len(rack)}-day journey.", style="bold green"))
    else:
        count = len(verdict.problems)
        parts.append(Text(f"Not complete yet ({count} problem{'s' if count != 1 else ''}):", style="bold"))
        parts.append(bullets([str(p) for p in verdict.problems], "✗", "red"))
    good = [link for link in verdict.links if link.ok]
    if good:
        parts.append(Text("Connected:", style="bold"))
        parts.append(bullets([f"day {link.from_day} → {link.to_day}: {link.message}" for link in good], "✓",
                             "green"))
    return Group(*parts)


def pile_text(edition: Edition, pile: Sequence[int], number: int, width: int) -> Text:
    """A discard pile: its number, top tile and how many tiles lie in it."""
    line = Text()
    line.append(f"{number} ", style="bold")
    if pile:
        line.append_text(tile_text(edition, pile[-1], max(SWATCH_WIDTH + 2, width - 8)))
        line.append(f" ({len(pile)})", style="dim")
    else:
        line.append("(empty)", style="dim")
    line.truncate(width, pad=True)
    return line


def transport_names(edition: Edition) -> tuple[str, str]:
    """The edition's words for its colour link and its skip, e.g. ("airplane", "car")."""
    link = next(t for t in edition.tiles if t.role is Role.LINK)
    skip = next(t for t in edition.tiles if t.role is Role.SKIP)
    return link.name.removeprefix(f"{link.color} "), skip.name


_TURN_KINDS = ("draw", "take", "swap", "replace", "discard")


def last_actions(pv: PlayerView, seat: int) -> str:
    """What ``seat`` did on its latest turn, in short public words ("took Ohio (pile 2); discarded car (pile 1)")."""
    parts: list[str] = []
    for event in reversed(pv.events):
        if event.player != seat or event.kind not in _TURN_KINDS:
            if parts and event.kind in _TURN_KINDS:
                break  # another player's turn: the seat's latest turn is complete
            continue
        parts.append(_short(pv.edition, event))
        if event.kind in ("draw", "take", "swap"):
            break
    return "; ".join(reversed(parts))


def _short(edition: Edition, event: Event) -> str:
    tile = edition.tiles[event.tile].name_in(current_language()) if event.tile is not None else ""
    if event.kind == "draw":
        return "drew"
    if event.kind == "take":
        return f"took {tile} (pile {event.pile})"
    if event.kind == "swap":
        return f"swapped days {event.day} and {event.day2}"
    if event.kind == "replace":
        return f"day {event.day}: {tile} → pile {event.pile}"
    return f"discarded {tile} → pile {event.pile}"


def log_line(edition: Edition, event: Event, names: Sequence[str]) -> str:
    """One line of the game log; "You begin" rather than "You begins" for the person called "You"."""
    if event.player is not None and event.player < len(names) and names[event.player] == "You":
        if event.kind == "start":
            return "You begin"
        if event.kind == "win":
            return "You complete the journey and win"
    return describe_event(edition, event, names)
