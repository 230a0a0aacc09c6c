"""Rich text for tiles, racks, piles, seats and the log, built from player views only.

Colours never come alone: a tile's swatch shows its colour's shape (from the edition data: ● blue, ▲
green, ■ orange, ◆ pink, ★ yellow, ✱ any colour) and its name in words, in the colour of the
edition's palette (or its colour-blind palette), and a link's mark is a symbol as well as a colour.
Every word is in the current language (``tendays.engine.use_language``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tendays.engine import (
    Edition,
    Event,
    EventKind,
    Move,
    MoveKind,
    PlayerView,
    Verdict,
    checker_for,
    current_language,
    describe_event,
)
from tendays.engine.edition import Role
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext, pgettext
from tendays.engine.plain_text import shown

from .palettes import PALETTES, PaletteChoice, palette_choice, use_palette

__all__ = [
    "PALETTES",
    "SWATCH_WIDTH",
    "YOU",
    "DayMark",
    "PaletteChoice",
    "bullets",
    "day_marks",
    "journey_report",
    "TransportWords",
    "last_actions",
    "link_and_skip",
    "log_line",
    "move_words",
    "name_width",
    "palette_choice",
    "person",
    "pile_text",
    "rack_line",
    "swatch",
    "tile_name",
    "tile_text",
    "transport_words",
    "use_palette",
]

# the name of the one person at a table of bots; shown in the reader's language (:func:`person`)
YOU = "You"

SKIP_COLOUR = "#8d8d8d"  # cars and buses have no colour of the game: a neutral grey
# an any-colour region where the edition's palette gives it no colour of its own
ANY_COLOUR = "#c9c9c9"
SWATCH_WIDTH = 8  # the shape, a space and the colour's word in six letters


def _ink(background: str) -> str:
    """Black or white, whichever reads better on ``background`` (#rrggbb),
    by WCAG relative luminance."""

    def channel(hex_pair: str) -> float:
        value = int(hex_pair, 16) / 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(background[i : i + 2]) for i in (1, 3, 5))
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return "#000000" if (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) else "#ffffff"


def person(name: str) -> str:
    """A seat's name as shown: "You" in the reader's language for the one person at a table of
    bots; any control or formatting character is replaced (:func:`tendays.engine.plain_text.shown`),
    whoever gave the name."""
    return _("You") if name == YOU else shown(name)


def swatch(edition: Edition, tile: int | None, width: int = SWATCH_WIDTH) -> Text:
    """A block in the tile's colour with the colour's shape and word ("● blue"), or in fewer than
    :data:`SWATCH_WIDTH` columns its shape and letter ("●B"); a car or bus says what it is where
    its name fits."""
    if tile is None:
        return Text(" " * width)
    t = edition.tiles[tile]
    words = edition.words(current_language())
    if t.role is Role.SKIP:
        # its name when the name fits, else a plain grey block that the name follows ("Auto" cut
        # to "Aut" would read "Aut Auto")
        name = t.name_in(current_language())
        background, label = SKIP_COLOUR, f"{name if len(name) <= width else '':^{width}}"
    else:
        key = "any" if t.color is None else t.color
        palette = (
            edition.palette_cb
            if palette_choice().name == "cb" and edition.palette_cb
            else edition.palette
        )
        background = palette.get(key, ANY_COLOUR)
        symbol = edition.symbols.get(key, "")
        if width >= SWATCH_WIDTH:
            # TRANSLATORS: the word on the swatch of an any-colour region (Alaska, Berlin): six
            # letters at most.
            word = pgettext("swatch", "any") if t.color is None else words.color(t.color)
            label = f"{symbol} {word[: width - 2]:^{width - 2}}"
        else:
            label = f"{symbol}{words.letter(t.color)}"[:width].ljust(width)
    # The colour goes on a span, not on the Text itself, so text appended
    # after the swatch stays plain.
    block = Text()
    block.append(label, style=f"bold {_ink(background)} on {background}")
    return block


def name_width(edition: Edition) -> int:
    """Room for the longest tile name of ``edition``, so no name on a rack is ever cut."""
    return max(len(tile.name_in(current_language())) for tile in edition.tiles)


def tile_name(edition: Edition, tile: int, label: str) -> str:
    """The name written after a swatch labelled ``label``: none when the
    swatch already says it (``car``)."""
    name = edition.tiles[tile].name_in(current_language())
    return "" if name == label.strip() else name


def tile_text(edition: Edition, tile: int | None, width: int | None = None) -> Text:
    """Swatch and full name, e.g. ``[◆ pink ] Ohio``, or the swatch alone when it names the tile
    (``[ car ]``); "(empty)" for an empty day."""
    if tile is None:
        text = Text(" " * SWATCH_WIDTH + " " + _("(empty)"), style="dim")
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
    """For each day, the verdict on the link leaving it (or the problem at it), as ``tendays check``
    says.

    A filled day whose link the verdict cannot judge because a problem after it breaks the way (two
    transport tiles in a row) is marked with that problem; a day is left unmarked only while a day
    around it is still empty.
    """
    verdict: Verdict = checker_for(edition).check(rack)
    marks: dict[int, DayMark] = {}
    for link in verdict.links:
        symbol = f"{'✓' if link.ok else '✗'}→{link.to_day}"
        marks[link.from_day] = DayMark(
            symbol,
            link.ok,
            _("day {day} → {to_day}: {message}").format(
                day=link.from_day, to_day=link.to_day, message=link.message
            ),
        )
        if link.via_day is not None:
            marks[link.via_day] = DayMark(
                "┆",
                None,
                _("day {day}: between days {from_day} and {to_day} ({message})").format(
                    day=link.via_day,
                    from_day=link.from_day,
                    to_day=link.to_day,
                    message=link.message,
                ),
            )
    for problem in verdict.problems:
        if rack[problem.day - 1] is None:
            continue  # an empty day during the draft is not a mistake
        if problem.to_day is None or problem.day not in marks or marks[problem.day].ok is not False:
            marks[problem.day] = DayMark("✗", False, str(problem))
    if len(rack) and rack[-1] is not None and len(rack) not in marks:
        marks[len(rack)] = DayMark(
            "⚑", True, _("day {day}: the journey ends here").format(day=len(rack))
        )
    for day in range(1, len(rack) + 1):
        if day in marks or rack[day - 1] is None:
            continue
        inside = [p for p in verdict.problems if p.to_day is not None and p.day <= day <= p.to_day]
        if inside:
            marks[day] = DayMark("✗", False, str(inside[0]))
            continue
        later = [p for p in verdict.problems if p.day > day]
        filled = all(
            tile is not None for tile in rack[day - 1 : later[0].day if later else len(rack)]
        )
        if later and filled:
            marks[day] = DayMark(
                "✗",
                False,
                _("day {day}: its link is blocked further on, at {problem}").format(
                    day=day, problem=later[0]
                ),
            )
    return marks


def rack_line(
    edition: Edition, day: int, tile: int | None, mark: DayMark | None, name_width: int
) -> Text:
    """One day of a rack: number, swatch, name and the mark of its link."""
    line = Text(f"{day:>2} ")
    line.append_text(tile_text(edition, tile, SWATCH_WIDTH + 1 + name_width))
    if mark is not None:
        style = "green" if mark.ok else ("red" if mark.ok is False else "dim")
        line.append(f" {mark.symbol}", style=f"bold {style}" if mark.ok is not None else style)
    return line


def bullets(lines: Sequence[str], symbol: str, style: str) -> Table:
    """Lines each after ``symbol``, wrapped with a hanging indent so a
    long explanation stays readable."""
    grid = Table.grid(padding=0)
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    for line in lines:
        grid.add_row(Text(f"  {symbol} ", style=style), Text(line, style=style))
    return grid


def journey_report(
    edition: Edition, rack: Sequence[int | None], name_width: int, with_days: bool = True
) -> Group:
    """Every day of a rack with the verdict on its link (unless not ``with_days``), then each
    problem and each good link in words, as ``tendays check`` gives them."""
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
        parts.append(
            Text(_("A complete {days}-day journey.").format(days=len(rack)), style="bold green")
        )
    else:
        count = len(verdict.problems)
        parts.append(
            Text(
                ngettext(
                    "Not complete yet ({count} problem):",
                    "Not complete yet ({count} problems):",
                    count,
                ).format(count=count),
                style="bold",
            )
        )
        parts.append(bullets([str(p) for p in verdict.problems], "✗", "red"))
    good = [link for link in verdict.links if link.ok]
    if good:
        parts.append(Text(_("Connected:"), style="bold"))
        parts.append(
            bullets(
                [
                    _("day {day} → {to_day}: {message}").format(
                        day=link.from_day, to_day=link.to_day, message=link.message
                    )
                    for link in good
                ],
                "✓",
                "green",
            )
        )
    return Group(*parts)


def pile_text(edition: Edition, pile: Sequence[int], number: int, width: int) -> Text:
    """A discard pile: its number, top tile and how many tiles lie in it."""
    line = Text()
    line.append(f"{number} ", style="bold")
    if pile:
        line.append_text(tile_text(edition, pile[-1], max(SWATCH_WIDTH + 2, width - 8)))
        line.append(f" ({len(pile)})", style="dim")
    else:
        line.append(_("(empty)"), style="dim")
    line.truncate(width, pad=True)
    return line


@dataclass(frozen=True)
class TransportWords:
    """A kind of transport in words, for sentences about every tile of its kind."""

    one: str  # "airplane"
    many: str  # "airplanes"
    a: str  # "an airplane"


def transport_words(kind: str) -> TransportWords:
    """The words for a kind of transport tile (``plane``, ``train``, ``car``, ``bus``) in the
    current language."""
    if kind == "plane":
        return TransportWords(_("airplane"), _("airplanes"), _("an airplane"))
    if kind == "train":
        return TransportWords(_("train"), _("trains"), _("a train"))
    if kind == "car":
        return TransportWords(_("car"), _("cars"), _("a car"))
    if kind == "bus":
        return TransportWords(_("bus"), _("buses"), _("a bus"))
    return TransportWords(kind, kind, kind)


def link_and_skip(edition: Edition) -> tuple[TransportWords, TransportWords]:
    """The words for the edition's colour link and its skip (airplane and car, train and bus)."""
    link = next(t for t in edition.tiles if t.role is Role.LINK)
    skip = next(t for t in edition.tiles if t.role is Role.SKIP)
    return transport_words(link.kind), transport_words(skip.kind)


def move_words(move: Move) -> str:
    """A move in the reader's words ("replace day 5, discard onto pile 1"); the notation (``replace
    5 1``) is what is typed, saved and sent, the words are what is read."""
    # TRANSLATORS: a move that was played, after "You played:" or a seat's name ("Bot 2: ...").
    if move.kind is MoveKind.DRAFT:
        return pgettext("move", "draft onto day {day}").format(day=move.a)
    if move.kind is MoveKind.DRAW:
        return pgettext("move", "draw")
    if move.kind is MoveKind.TAKE:
        return pgettext("move", "take from pile {pile}").format(pile=move.a)
    if move.kind is MoveKind.REPLACE:
        return pgettext("move", "replace day {day}, discard onto pile {pile}").format(
            day=move.a, pile=move.b
        )
    if move.kind is MoveKind.DISCARD:
        return pgettext("move", "discard onto pile {pile}").format(pile=move.a)
    return pgettext("move", "swap days {day} and {day2}").format(day=move.a, day2=move.b)


_TURN_KINDS = (EventKind.DRAW, EventKind.TAKE, EventKind.SWAP, EventKind.REPLACE, EventKind.DISCARD)


def last_actions(pv: PlayerView, seat: int) -> str:
    """What ``seat`` did on its latest turn, in short public words ("took Ohio (pile 2); discarded
    car (pile 1)")."""
    parts: list[str] = []
    for event in reversed(pv.events):
        if event.player != seat or event.kind not in _TURN_KINDS:
            if parts and event.kind in _TURN_KINDS:
                break  # another player's turn: the seat's latest turn is complete
            continue
        parts.append(_short(pv.edition, event))
        if event.kind in (EventKind.DRAW, EventKind.TAKE, EventKind.SWAP):
            break
    return "; ".join(reversed(parts))


def _short(edition: Edition, event: Event) -> str:
    tile = edition.tiles[event.tile].name_in(current_language()) if event.tile is not None else ""
    # TRANSLATORS: what another seat did on its latest turn, in a few words under its name.
    if event.kind is EventKind.DRAW:
        return _("drew")
    if event.kind is EventKind.TAKE:
        return _("took {tile} (pile {pile})").format(tile=tile, pile=event.pile)
    if event.kind is EventKind.SWAP:
        return _("swapped days {day} and {day2}").format(day=event.day, day2=event.day2)
    if event.kind is EventKind.REPLACE:
        return _("day {day}: {tile} → pile {pile}").format(
            day=event.day, tile=tile, pile=event.pile
        )
    return _("discarded {tile} → pile {pile}").format(tile=tile, pile=event.pile)


def log_line(edition: Edition, event: Event, names: Sequence[str]) -> str:
    """One line of the game log; the person called "You" is spoken to ("You begin", "Du ziehst")."""
    if event.player is None or event.player >= len(names) or names[event.player] != YOU:
        return describe_event(edition, event, names)
    tile = edition.words(current_language()).tile(event.tile) if event.tile is not None else None
    day, day2, pile = event.day, event.day2, event.pile
    # TRANSLATORS: lines of the game log about the one person at a table of bots, spoken to ("you").
    if event.kind is EventKind.DRAFT:
        return _("You put a tile on day {day}").format(day=day)
    if event.kind is EventKind.START:
        return _("You begin")
    if event.kind is EventKind.DRAW:
        return _("You drew from the draw pile")
    if event.kind is EventKind.TAKE:
        return _("You took {tile} from discard pile {pile}").format(tile=tile, pile=pile)
    if event.kind is EventKind.SWAP:
        return _("You swapped days {day} and {day2}").format(day=day, day2=day2)
    if event.kind is EventKind.REPLACE:
        return _("You replaced day {day}, discarding {tile} onto pile {pile}").format(
            day=day, tile=tile, pile=pile
        )
    if event.kind is EventKind.DISCARD:
        return _("You discarded {tile} onto pile {pile}").format(tile=tile, pile=pile)
    if event.kind is EventKind.WIN:
        return _("You complete the journey and win")
    return describe_event(edition, event, names)
