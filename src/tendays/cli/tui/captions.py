"""What the game screen says: the status line, the hand, the other seats and
what to do next, from one view."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from tendays.bots import hint
from tendays.bots.hint import hand_advice
from tendays.engine import Phase, PlayerView
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext

from .input_model import Pending, PendingKind
from .render import YOU, last_actions, person, tile_text
from .seats import TerminalSeat

__all__ = [
    "day_keys",
    "hand_text",
    "handover_words",
    "hint_words",
    "instruction",
    "journey_of",
    "not_your_turn",
    "rack_on_board",
    "seats_text",
    "status_text",
    "turn_prompt",
    "verdict_title",
]


def journey_of(name: str) -> str:
    """The heading of a seat's rack: "Your journey", or "Ann's journey"."""
    return _("Your journey") if name == YOU else _("{name}'s journey").format(name=name)


def verdict_title(name: str, own: bool) -> str:
    """The heading of a journey's verdict, link by link: ``own`` for the reader's own rack."""
    if own or name == YOU:
        return _("Your journey, link by link")
    return _("{name}'s journey, link by link").format(name=name)


def day_keys(days: int) -> str:
    """The keys that choose a day, in words: "1-5", or "1-9, 0 = day 10" (a
    longer rack: arrows or a click)."""
    return f"1-{days}" if days < 10 else _("1-9, 0 = day 10")


def status_text(pv: PlayerView, names: Sequence[str]) -> Text:
    """The top line: the edition, the turn, whose turn it is and the draw pile's size."""
    if pv.is_over:
        if pv.winner is None:
            whose = _("game over")
        else:
            whose = (
                _("you won")
                if names[pv.winner] == YOU
                else _("{name} won").format(name=names[pv.winner])
            )
    elif pv.phase is Phase.DRAFT:
        whose = _("drafting: {name}").format(name=person(names[pv.current]))
    else:
        whose = (
            _("your turn")
            if pv.is_my_turn
            else _("{name}'s turn").format(name=person(names[pv.current]))
        )
    # once over, the last turn played (the end screen's count)
    turn = pv.turn if pv.is_over else pv.turn + 1
    return Text.assemble(
        (pv.edition.name, "bold"),
        " · ",
        _("turn {turn}").format(turn=turn),
        " · ",
        (whose, "bold"),
        " · ",
        _("draw pile {size}").format(size=pv.draw_pile_size),
    )


def hand_text(pv: PlayerView, holder: str) -> Text:
    """The tile the player to move holds and where it came from, as far as the view shows it."""
    if pv.phase is Phase.PLACE or pv.phase is Phase.DRAFT:
        if pv.in_hand is not None:
            if pv.is_my_turn:
                what = (
                    _("You hold {tile} (from the draw pile)")
                    if pv.taken_from == 0
                    else _("You hold {tile} (from discard pile {pile})")
                )
            else:
                what = (
                    _("{name} holds {tile} (from the draw pile)")
                    if pv.taken_from == 0
                    else _("{name} holds {tile} (from discard pile {pile})")
                )
            before, _tile, after = what.partition("{tile}")
            return Text.assemble(
                before.format(name=person(holder)),
                tile_text(pv.edition, pv.in_hand),
                after.format(pile=pv.taken_from),
            )
        hidden = (
            _("{name} holds a tile from the draw pile")
            if pv.taken_from == 0
            else _("{name} holds a tile from discard pile {pile}")
        )
        return Text(hidden.format(name=person(holder), pile=pv.taken_from), style="dim")
    if pv.is_over:
        return Text("")
    if pv.is_my_turn:
        return Text(_("Your hand is empty: take a tile"), style="dim")
    return Text(_("{name} is about to take a tile").format(name=person(holder)), style="dim")


def seats_text(pv: PlayerView, seats: Sequence[TerminalSeat]) -> Table:
    """Every other seat: its name and level (and, while drafting, how many tiles it placed), and
    under it its latest turn; a long line wraps under its own start."""
    grid = Table.grid(padding=0)
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    for seat_index, seat in enumerate(seats):
        if seat_index == pv.player:
            continue
        marker = "▶ " if seat_index == pv.current and not pv.is_over else "  "
        line = Text.assemble((person(seat.name), "bold"), f" ({seat.level})")
        if pv.phase is Phase.DRAFT:
            count = pv.rack_counts[seat_index]
            line.append(" " + ngettext("{count} tile", "{count} tiles", count).format(count=count))
        grid.add_row(Text(marker, style="bold"), line)
        done = last_actions(pv, seat_index)
        if done:
            grid.add_row("", Text(done, style="dim"))
    return grid


def _with_tile(message: str, tile: Text, **fields: object) -> Text:
    """``message`` with the swatch and name of a tile where it says
    ``{tile}``, its other fields filled in."""
    before, _tile, after = message.partition("{tile}")
    return Text.assemble(before.format(**fields), tile, after.format(**fields))


def turn_prompt(pv: PlayerView, pending: Pending | None) -> Text:
    """What the person to move can do now, with the keys for it;
    ``pending`` is their half-made choice."""
    edition = pv.edition
    keys = day_keys(pv.options.days)
    if pv.phase is Phase.DRAFT:
        return _with_tile(
            _(
                "Drafting: put {tile} on an empty day ({keys}; ↑↓ Enter; or click a day). It stays "
                "there."
            ),
            tile_text(edition, pv.in_hand),
            keys=keys,
        )
    if pv.phase is Phase.DRAW:
        if pending is not None and pending.kind == PendingKind.SWAP:
            if pending.day:
                return Text(
                    _(
                        "Swap day {day} with which day? ({keys}; ↑↓ Enter; or click; Esc cancels)"
                    ).format(day=pending.day, keys=keys)
                )
            return Text(
                _("Swap: choose the first day ({keys}; ↑↓ Enter; or click; Esc cancels)").format(
                    keys=keys
                )
            )
        if pv.options.swap:
            return Text(
                _(
                    "Your turn: d draws from the draw pile, 1-3 takes the top of a discard pile "
                    "(or →↑↓ Enter, or a click); w swaps two days."
                )
            )
        return Text(
            _(
                "Your turn: d draws from the draw pile, 1-3 takes the top of a discard pile "
                "(or →↑↓ Enter, or a click)."
            )
        )
    held = tile_text(edition, pv.in_hand)
    if pending is None:
        return _with_tile(
            _(
                "Put {tile} on a day ({keys}; ←↑↓ Enter; or click a day), or discard it (x; →↑↓ "
                "Enter; or click a discard pile)."
            ),
            held,
            keys=keys,
        )
    forced = pv.forced_pile
    if pending.day:
        assert pv.rack is not None
        old = tile_text(edition, pv.rack[pending.day - 1])
        what = (
            _(
                "Day {day}: {tile} goes onto a discard pile: you took the last tile of pile "
                "{pile}, so it must go onto pile {pile} (there are always three discard piles): "
                "press {pile} or Enter."
            )
            if forced
            else _(
                "Day {day}: {tile} goes onto a discard pile: 1-3, ↑↓ Enter, or click a pile (Esc "
                "cancels)."
            )
        )
        return _with_tile(what, old, day=pending.day, pile=forced)
    what = (
        _(
            "Discard {tile} onto a discard pile: you took the last tile of pile {pile}, so it must "
            "go onto pile {pile} (there are always three discard piles): press {pile} or Enter."
        )
        if forced
        else _("Discard {tile} onto a discard pile: 1-3, ↑↓ Enter, or click a pile (Esc cancels).")
    )
    return _with_tile(what, held, pile=forced)


def instruction(
    over: bool,
    seat: TerminalSeat,
    pv: PlayerView | None,
    pending: Pending | None,
    bot_busy: bool,
    bot_failed: bool,
) -> Text:
    """What the person at the keyboard can do now, with the keys for it: ``seat`` is the seat to
    move, ``pv`` the view of the person at the keyboard when it is their turn."""
    if over:
        return Text(_("The game is over: e shows the end, s saves, q quits."))
    if bot_failed:
        return Text(_("The game cannot go on with this bot: s saves it, q quits."))
    if bot_busy or not seat.is_human:
        return Text(
            _("{name} ({level}) is playing…").format(name=seat.name, level=seat.level),
            style="italic",
        )
    if pv is None:
        return Text(_("Waiting for {name}.").format(name=person(seat.name)))
    return turn_prompt(pv, pending)


def handover_words(seat: TerminalSeat, drafting: bool) -> str:
    """What the privacy screen tells the person the keyboard passes to, at ``seat``."""
    if drafting:
        return _("Time to put a drafted tile on your rack.")
    # a seat named "You" (resumed from a game against bots) is spoken to
    if seat.name == YOU:
        return _("It is your turn.")
    return _("It is {name}'s turn.").format(name=seat.name)


def not_your_turn(over: bool, seat: TerminalSeat, bot_error: str | None) -> str:
    """Why a game key does nothing now: the game is over, a bot failed (``bot_error``), or it is
    the turn of ``seat``, the seat to move."""
    if over:
        return _("The game is over: press e for the end screen, or q to quit.")
    if bot_error is not None:
        return bot_error
    return _("It is {name}'s turn ({level}); wait for your turn.").format(
        name=person(seat.name), level=seat.level
    )


def hint_words(pv: PlayerView) -> tuple[str, set[int]]:
    """The hint for the rack of ``pv`` and the days of the rack it marks: the advice on the
    journey, and on the tile in hand when one is held (while drafting only the tile matters, as
    every empty day is still to fill)."""
    advice = hint(pv)
    hand = hand_advice(pv)
    if hand is None:
        return _("Hint: {advice}").format(advice=advice.message), set(advice.days)
    if pv.phase is Phase.DRAFT:
        return _("Hint: {advice}").format(advice=hand.message), {hand.day}
    words = _("Hint: {advice}; {hand}").format(advice=advice.message, hand=hand.message)
    return words, {hand.day} if hand.day else set()


def rack_on_board(
    pv: PlayerView, humans: Sequence[int]
) -> tuple[int, tuple[int | None, ...]] | None:
    """Whose rack the board shows and that rack: the viewer's own, or after the game the winner's
    (or, with no winner, the first person's)."""
    if pv.rack is not None and pv.player is not None:
        return pv.player, pv.rack
    if pv.racks is not None and pv.is_over:
        shown = pv.winner if pv.winner is not None else (list(humans) or [0])[0]
        return shown, pv.racks[shown]
    return None
