"""The rules of an edition in its own words (its regions, transports and any-colour regions), as Markdown."""

from __future__ import annotations

from tendays.engine import Edition, Options, Role

from .render import transport_names

__all__ = ["KEYS_HELP", "rules_markdown"]

KEYS_HELP = """\
## Keys

| key | what it does |
|---|---|
| `d` or click the draw pile | draw the top tile of the draw pile |
| `1` `2` `3` or click a pile | drawing: take that discard pile's top tile; placing: put your discard there |
| `1`…`9`, `0` (day 10) or click a day | put the tile on that day (drafting, placing) |
| `x` | discard the tile you hold instead of placing it |
| `w` | swap two days of your rack instead of drawing (swap variant only) |
| `↑` `↓` | move the cursor over your rack's days (the line under the rack explains its link), or the piles |
| `←` `→` | move the cursor to your rack, or to the piles |
| `Enter` | choose what the cursor is on: the arrow keys and Enter alone play a whole game |
| `Esc` | cancel a half-made choice |
| `:` | type a move in the notation (`draw`, `take 2`, `replace 5 1`, `discard 3`, `draft 4`, `swap 3 7`) |
| `v` | the verdict on your whole journey, every link explained |
| `h` | a hint: how far your journey is from complete and which days to change |
| `s` | save the game (resume it with `tendays play --resume FILE`) |
| `?` / `F1` | this help |
| `e` | the end screen again, once the game is over |
| `q` | quit (a second `q` confirms when there are unsaved moves) |
"""


def _plural(word: str) -> str:
    return f"{word}es" if word.endswith("s") else f"{word}s"


def _a(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _names(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def rules_markdown(edition: Edition, options: Options) -> str:
    """How to play ``edition`` with ``options``: the journey, each kind of link, and a turn."""
    noun = edition.region_noun
    nouns = _plural(noun)
    link, skip = transport_names(edition)
    link_copies = next(t.count for t in edition.tiles if t.role is Role.LINK)
    days = options.days
    colours = _names(list(edition.colors))
    any_regions = [r.name for r in edition.regions if r.color is None]
    twice = [t.name for t in edition.tiles if t.is_region and t.count > 1]
    contact_examples = []
    for pair, kind in list(edition.contacts.items())[:3]:
        a, b = sorted(edition.by_id[i.upper()].name for i in pair)
        contact_examples.append(f"{a} and {b} ({'only a corner' if kind == 'corner' else 'only water'})")

    lines = [
        f"# {edition.name}",
        "",
        f"Plan a journey of **{days} days** through the {nouns} of the map: one tile per day, day 1 at the top. "
        f"The first player whose rack is a complete journey at the end of their own turn wins at once.",
        "",
        "## A complete journey",
        "",
        f"- Day 1 and day {days} are {nouns}, never {_a(link)} or {_a(skip)}.",
        f"- Two transport tiles ({_plural(link)}, {_plural(skip)}) never lie on neighbouring days.",
        f"- No {noun} appears on two days in a row or on both sides of one transport tile.",
        "- Every step between neighbouring days connects:",
        f"  - **On foot**: two {nouns} on consecutive days must share a border. Touching only at a corner or across "
        "water does not count" + (f", e.g. {_names(contact_examples)}." if contact_examples else "."),
        f"  - **By {link}**: {_a(link)} joins two {nouns} of its colour ({colours}). "
        f"There are {link_copies} {_plural(link)} in each colour.",
        f"  - **By {skip}**: {_a(skip)} stands for one {noun} that borders both ends, so the two ends must have a "
        f"common neighbour (whether they also border each other does not matter).",
    ]
    if any_regions:
        are, counts = ("is", "counts") if len(any_regions) == 1 else ("are", "count")
        lines.append(
            f"- **Any colour**: {_names(any_regions)} {are} {edition.any_color_name} and {counts} as any colour: "
            f"{_a(link)} of every colour reaches {'it' if len(any_regions) == 1 else 'them'}, and the other end "
            f"must still match the {link}'s colour."
        )
        lonely = [r.name for r in edition.regions if not r.neighbors]
        if lonely:
            lines.append(f"  {_names(lonely)} border{'s' if len(lonely) == 1 else ''} nothing: reach "
                         f"{'it' if len(lonely) == 1 else 'them'} only by {link}, never on foot or by {skip}.")
    if twice:
        lines.append(f"- {_names(twice)} has two tiles; it may appear twice in a journey, but not on days in a row.")
    lines += [
        "",
        "## Setup",
        "",
        f"Each player drafts {days} tiles one at a time, putting each on any empty day of their own rack. "
        "A placed tile never moves" + (" (except by a swap)." if options.swap else ".") +
        " Then three tiles are turned up as the three discard piles and "
        + ("a random player begins." if options.first_seat is None
           else f"player {options.first_seat + 1} in turn order begins (chosen for this game)."),
        "",
        "## A turn",
        "",
        "1. **Draw**: take the top tile of the draw pile (only you see it) or of one of the three discard piles.",
        "2. **Place**: put it on any day of your rack, discarding the replaced tile face up onto a discard pile "
        "of your choice, or discard the tile you drew.",
        "   - If you took the **last tile of a discard pile**, your discard must go onto that emptied pile, so "
        "there are always three discard piles.",
        "3. When the draw pile runs out, the discard piles (all but their top tiles) are shuffled into a new one.",
    ]
    if options.swap:
        lines.append("4. **Swap variant** (on in this game): instead of drawing, you may swap two days of your rack.")
    lines += [
        "",
        f"The game checks every journey with the same verdicts as `tendays check {edition.id}`: "
        f"{len(edition.regions)} {nouns} and {edition.tile_count} tiles in all.",
        "",
        KEYS_HELP,
    ]
    return "\n".join(lines)
