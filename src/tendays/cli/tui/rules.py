"""The rules of an edition in its own words (its regions, transports and any-colour regions), as
Markdown, in the current language."""

from __future__ import annotations

from tendays.engine import Edition, Options, Role, current_language
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import join_list, ngettext

from .render import link_and_skip

__all__ = ["keys_help", "rules_markdown"]


def keys_help() -> str:
    """The keys of the game screen as a Markdown table."""
    rows = [
        ("`d`", _("or click the draw pile"), _("draw the top tile of the draw pile")),
        (
            "`1` `2` `3`",
            _("or click a pile"),
            _("drawing: take that discard pile's top tile; placing: put your discard there"),
        ),
        (
            "`1`…`9`, `0`",
            _("(day 10) or click a day"),
            _("put the tile on that day (drafting, placing)"),
        ),
        ("`x`", "", _("discard the tile you hold instead of placing it")),
        ("`w`", "", _("swap two days of your rack instead of drawing (swap variant only)")),
        (
            "`↑` `↓`",
            "",
            _(
                "move the cursor over your rack's days (the line under the rack explains its "
                "link), or the piles"
            ),
        ),
        ("`←` `→`", "", _("move the cursor to your rack, or to the piles")),
        (
            "`Enter`",
            "",
            _("choose what the cursor is on: the arrow keys and Enter alone play a whole game"),
        ),
        ("`Esc`", "", _("cancel a half-made choice")),
        (
            "`:`",
            "",
            _(
                "type a move in the notation (`draw`, `take 2`, `replace 5 1`, `discard 3`, `draft "
                "4`, `swap 3 7`)"
            ),
        ),
        ("`v`", "", _("the verdict on your whole journey, every link explained")),
        (
            "`h`",
            "",
            _(
                "a hint: how far your journey is from complete and which days to change (marked "
                "↻); holding a tile, the day where it does the most good"
            ),
        ),
        (
            "`c`",
            "",
            _(
                "colours for colour-blind players, or back to the edition's own (each colour "
                "always has its shape and its word too)"
            ),
        ),
        ("`s`", "", _("save the game (resume it with `tendays play --resume FILE`)")),
        ("`?` / `F1`", "", _("this help")),
        ("`e`", "", _("the end screen again, once the game is over")),
        (
            "`q`",
            "",
            _(
                "quit (a second `q` confirms when there are unsaved moves; so do Ctrl+Q and the "
                "command palette's Quit)"
            ),
        ),
    ]
    lines = ["## " + _("Keys"), "", "| " + _("key") + " | " + _("what it does") + " |", "|---|---|"]
    lines += [f"| {keys}{' ' + more if more else ''} | {what} |" for keys, more, what in rows]
    return "\n".join(lines) + "\n"


def rules_markdown(edition: Edition, options: Options) -> str:
    """How to play ``edition`` with ``options``: the journey, each kind of link, and a turn."""
    lang = current_language()
    words = edition.words(lang)
    region, regions = words.region_noun, words.region_noun_plural
    link, skip = link_and_skip(edition)
    link_copies = next(t.count for t in edition.tiles if t.role is Role.LINK)
    days = options.days
    colours = join_list([words.color(c) for c in edition.colors])
    any_regions = [
        edition.tiles[i].name_in(lang) for i, r in enumerate(edition.regions) if r.color is None
    ]
    twice = [t.name_in(lang) for t in edition.tiles if t.is_region and t.count > 1]
    examples = []
    for pair, kind in list(edition.contacts.items())[:3]:
        a, b = sorted(edition.by_id[i.upper()].name_in(lang) for i in pair)
        how = _("only a corner") if kind == "corner" else _("only water")
        examples.append(_("{a} and {b} ({how})").format(a=a, b=b, how=how))
    fields = {
        "days": days,
        "region": region,
        "regions": regions,
        "link": link.one,
        "links": link.many,
        "a_link": link.a,
        "skip": skip.one,
        "skips": skip.many,
        "a_skip": skip.a,
        "colours": colours,
    }

    lines = [
        f"# {edition.name}",
        "",
        ngettext(
            "Plan a journey of **{days} day** through the {regions} of the map: one tile per day, "
            "day 1 at the top. The first player whose rack is a complete journey at the end of "
            "their own turn wins at once.",
            "Plan a journey of **{days} days** through the {regions} of the map: one tile per "
            "day, day 1 at the top. The first player whose rack is a complete journey at the "
            "end of their own turn wins at once.",
            days,
        ).format(**fields),
        "",
        "## " + _("A complete journey"),
        "",
        "- "
        + _("Day 1 and day {days} are {regions}, never {a_link} or {a_skip}.").format(**fields),
        "- "
        + _("Two transport tiles ({links}, {skips}) never lie on neighbouring days.").format(
            **fields
        ),
        "- "
        + _(
            "No {region} appears on two days in a row or on both sides of one transport tile."
        ).format(**fields),
        "- " + _("Every step between neighbouring days connects:"),
        "  - "
        + (
            _(
                "**On foot**: two {regions} on consecutive days must share a border. Touching only "
                "at a corner or across water does not count, e.g. {examples}."
            ).format(examples=join_list(examples), **fields)
            if examples
            else _(
                "**On foot**: two {regions} on consecutive days must share a border. Touching only "
                "at a corner or across water does not count."
            ).format(**fields)
        ),
        "  - "
        + _("**By {link}**: {a_link} joins two {regions} of its colour ({colours}).").format(
            **fields
        )
        + " "
        + ngettext(
            "There is {count} {link} in each colour.",
            "There are {count} {links} in each colour.",
            link_copies,
        ).format(count=link_copies, **fields),
        "  - "
        + _(
            "**By {skip}**: {a_skip} stands for one {region} that borders both ends, so the two "
            "ends must have a common neighbour (whether they also border each other does not "
            "matter)."
        ).format(**fields),
    ]
    if any_regions:
        lines.append(
            "- "
            + ngettext(
                "**Any colour**: {names} is {colour} and counts as any colour: {a_link} of every "
                "colour reaches it, and the other end must still match the {link}'s colour.",
                "**Any colour**: {names} are {colour} and count as any colour: {a_link} of every "
                "colour reaches them, and the other end must still match the {link}'s colour.",
                len(any_regions),
            ).format(names=join_list(any_regions), colour=words.color(None), **fields)
        )
        lonely = [
            edition.tiles[i].name_in(lang) for i, r in enumerate(edition.regions) if not r.neighbors
        ]
        if lonely:
            lines.append(
                "  "
                + ngettext(
                    "{names} borders nothing: reach it only by {link}, never on foot or by {skip}.",
                    "{names} border nothing: reach them only by {link}, never on foot or by "
                    "{skip}.",
                    len(lonely),
                ).format(names=join_list(lonely), **fields)
            )
    if twice:
        lines.append(
            "- "
            + ngettext(
                "{names} has two tiles; it may appear twice in a journey, but not on days in a "
                "row.",
                "{names} have two tiles each; each may appear twice in a journey, but not on days "
                "in a row.",
                len(twice),
            ).format(names=join_list(twice))
        )
    if options.first_seat is None:
        begins = _(
            "Then three tiles are turned up as the three discard piles and a random player begins."
        )
    else:
        begins = _(
            "Then three tiles are turned up as the three discard piles and player {number} in turn "
            "order begins (chosen for this game)."
        ).format(number=options.first_seat + 1)
    region_count, tile_count = len(edition.regions), edition.tile_count
    lines += [
        "",
        "## " + _("Setup"),
        "",
        " ".join(
            (
                ngettext(
                    "Each player drafts {days} tile one at a time, putting each on any empty day "
                    "of their own rack.",
                    "Each player drafts {days} tiles one at a time, putting each on any empty day "
                    "of their own "
                    "rack.",
                    days,
                ).format(days=days),
                _("A placed tile never moves (except by a swap).")
                if options.swap
                else _("A placed tile never moves."),
                begins,
            )
        ),
        "",
        "## " + _("A turn"),
        "",
        "1. "
        + _(
            "**Draw**: take the top tile of the draw pile (only you see it) or of one of the three "
            "discard piles."
        ),
        "2. "
        + _(
            "**Place**: put it on any day of your rack, discarding the replaced tile face up onto "
            "a discard pile of your choice, or discard the tile you drew."
        ),
        "   - "
        + _(
            "If you took the **last tile of a discard pile**, your discard must go onto that "
            "emptied pile, so there are always three discard piles."
        ),
        "3. "
        + _(
            "When the draw pile runs out, the discard piles (all but their top tiles) are shuffled "
            "into a new one."
        ),
    ]
    if options.swap:
        lines.append(
            "4. "
            + _(
                "**Swap variant** (on in this game): instead of drawing, you may swap two days of "
                "your rack."
            )
        )
    lines += [
        "",
        _(
            "The game checks every journey with the same verdicts as `tendays check {edition}`: "
            "{regions} and {tiles} in all."
        ).format(
            edition=edition.id,
            regions=f"{region_count} {words.region_nouns(region_count)}",
            tiles=ngettext("{count} tile", "{count} tiles", tile_count).format(count=tile_count),
        ),
        "",
        keys_help(),
    ]
    return "\n".join(lines)
