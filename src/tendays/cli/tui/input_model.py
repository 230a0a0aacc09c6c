"""What a person's keys and clicks mean at the table: a move to play, or words saying why not.

The model reads only the view of the person to move (never the full state) and knows nothing of the
terminal, so it is tested on its own. It remembers a choice half made (a day chosen, waiting for the
pile its tile goes onto; the first day of a swap) and the cursor. The cursor stands on a day of the
rack or on a pile (the draw pile or a discard pile): the arrow keys move it, Enter chooses what it
stands on, and after each step it moves to where the next choice is made, so a whole game can be
played with the arrow keys and Enter alone. The screen plays each move the model returns; when the
engine refuses one, :meth:`InputModel.refused` gives the engine's reason back in the words to show,
keeping the chosen day when only the pile was wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tendays.engine import PILES, InvalidMoveError, Move, MoveKind, Phase, PlayerView
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import pgettext

__all__ = [
    "OFFERED_WHEN_USABLE",
    "TYPED_LIMIT",
    "InputModel",
    "Pending",
    "PendingKind",
    "Reply",
    "key_usable",
    "move_verbs",
    "typed_example",
]

# the longest move ("replace 10 3") is far shorter: anything longer is a stray paste
TYPED_LIMIT = 40


# The keys offered (in the footer) only when they can be used now: each also has a hidden binding
# that always answers, so a key pressed at the wrong moment says why instead of doing nothing.
OFFERED_WHEN_USABLE = ("draw", "discard", "swap", "show_end")


def key_usable(action: str, over: bool, pv: PlayerView | None) -> bool:
    """Whether the key for ``action`` can be used now: the end screen once the game is over, Draw,
    Discard and Swap on the turn (``pv``) of the person at the keyboard, in the phase they belong
    to; every other key always answers."""
    if action not in OFFERED_WHEN_USABLE:
        return True
    if action == "show_end":
        return over
    if pv is None:
        return False
    if action == "discard":
        return pv.phase is Phase.PLACE
    return pv.phase is Phase.DRAW and (action == "draw" or pv.options.swap)


def move_verbs() -> dict[str, str]:
    """The verbs of the move notation in the reader's language, by the notation's own word: the
    ``:`` box takes either ("ziehen" or "draw"); files and the wire keep the notation."""
    # TRANSLATORS: the verbs a person may type in the move box (":"), one word
    # each, lower case, all different.
    return {
        "draw": pgettext("typed move", "draw"),
        "take": pgettext("typed move", "take"),
        "replace": pgettext("typed move", "replace"),
        "discard": pgettext("typed move", "discard"),
        "draft": pgettext("typed move", "draft"),
        "swap": pgettext("typed move", "swap"),
    }


def typed_example(move: Move) -> str:
    """``move`` as a person types it in the reader's language ("ersetzen 5 1")."""
    verb, _space, numbers = str(move).partition(" ")
    return " ".join(part for part in (move_verbs().get(verb, verb), numbers) if part)


def typed_form(kind: MoveKind) -> str:
    """The form of a move of ``kind`` as a person types it in the reader's language
    ("ersetzen TAG STAPEL")."""
    # TRANSLATORS: the placeholders in the form of a typed move: "replace DAY PILE"
    day, pile = pgettext("typed move", "DAY"), pgettext("typed move", "PILE")
    numbers = {
        MoveKind.DRAFT: [day],
        MoveKind.DRAW: [],
        MoveKind.TAKE: [pile],
        MoveKind.SWAP: [day, day],
        MoveKind.REPLACE: [day, pile],
        MoveKind.DISCARD: [pile],
    }[kind]
    return " ".join([move_verbs()[kind.value], *numbers])


class PendingKind(StrEnum):
    """What a half-made choice is for."""

    PLACE = "place"
    SWAP = "swap"


@dataclass(frozen=True, slots=True)
class Pending:
    """A choice half made: where to place the held tile (``day`` 0: discard it) or which days to
    swap (``day`` 0: no day yet)."""

    kind: PendingKind
    day: int = 0


@dataclass(frozen=True, slots=True)
class Reply:
    """What a key or click comes to: a ``move`` to play, or a ``message`` to show (``error`` when
    refused).

    With neither, only the half-made choice changed; the prompt tells what comes next.
    """

    move: Move | None = None
    message: str = ""
    error: bool = False


def _refuse(message: str) -> Reply:
    return Reply(message=message, error=True)


class InputModel:
    """The keys and clicks of the person to move, turned into moves. Each
    method takes that person's view."""

    def __init__(self) -> None:
        self.pending: Pending | None = None
        self.cursor = 1  # the day the cursor stands on (or last stood on, while it is on the piles)
        # the pile it stands on in the piles column: 0 the draw pile, 1-3 a discard pile
        self.pile_cursor = 0
        self.on_piles = False  # True: the cursor is in the piles column, not on the rack

    @property
    def swapping(self) -> bool:
        return self.pending is not None and self.pending.kind == PendingKind.SWAP

    def reset(self, pv: PlayerView | None = None) -> None:
        """Forget a half-made choice (after a move was played) and, given the view of the person
        whose turn it now is, put the cursor where their next choice is made."""
        self.pending = None
        if pv is None or not pv.is_my_turn:
            return
        if pv.phase is Phase.DRAW:
            self.on_piles, self.pile_cursor = True, 0
        elif pv.phase is Phase.DRAFT and pv.rack is not None:
            self.on_piles = False
            days = len(pv.rack)
            empty = [day for day in range(1, days + 1) if pv.rack[day - 1] is None]
            if empty and self.cursor not in empty:
                self.cursor = min(empty, key=lambda day: (day - self.cursor) % days)
        else:
            self.on_piles = False

    def move_cursor(self, step: int, days: int, holding: bool = False) -> None:
        """↑/↓: the next day, or the next pile when the cursor is on the piles; both wrap around.

        While a tile is ``holding`` (in hand), only the discard piles can be chosen, so the draw
        pile is passed by.
        """
        if not self.on_piles:
            self.cursor = (self.cursor - 1 + step) % days + 1
        elif holding:
            self.pile_cursor = (max(self.pile_cursor, 1) - 1 + step) % PILES + 1
        else:
            self.pile_cursor = (self.pile_cursor + step) % (PILES + 1)

    def point_at_piles(self, piles: bool, pv: PlayerView | None = None) -> None:
        """→ moves the cursor to the piles, ← back to the rack. With a tile in hand (``pv``
        placing), → stands on a discard pile, so Enter discards the tile there; while drafting the
        piles cannot be chosen."""
        if pv is not None and pv.phase is Phase.DRAFT:
            self.on_piles = False
            return
        self.on_piles = piles
        if piles and pv is not None and pv.phase is Phase.PLACE:
            self.pile_cursor = pv.forced_pile or self.pile_cursor or 1

    def _to_discard_piles(self, pv: PlayerView) -> None:
        """The held tile's day is chosen: the cursor goes to the pile it may go
        onto (pile 1 if any will do)."""
        self.on_piles = True
        self.pile_cursor = pv.forced_pile or (self.pile_cursor if self.pile_cursor else 1)

    # -- days and piles ----------------------------------------------------------------------

    def choose_day(self, pv: PlayerView, day: int) -> Reply:
        """A day key or click: draft onto it, choose it as a swap's day, or
        choose it to place the held tile."""
        days = pv.options.days
        if not 1 <= day <= days:
            return _refuse(
                _("there is no day {day}; the rack has days 1-{days}").format(day=day, days=days)
            )
        self.cursor = day
        self.on_piles = False
        if pv.phase is Phase.DRAFT:
            return Reply(Move.draft(day))
        if pv.phase is Phase.DRAW:
            if self.pending is not None and self.pending.kind == PendingKind.SWAP:
                if not self.pending.day:
                    self.pending = Pending(PendingKind.SWAP, day)
                    return Reply()
                return Reply(Move.swap(self.pending.day, day))
            self.on_piles = True
            return _refuse(
                _(
                    "First take a tile: d draws from the draw pile, 1-3 takes the top of a discard "
                    "pile (or w to swap two days)."
                )
                if pv.options.swap
                else _(
                    "First take a tile: d draws from the draw pile, 1-3 takes the top of a discard "
                    "pile."
                )
            )
        self.pending = Pending(PendingKind.PLACE, day)
        self._to_discard_piles(pv)
        return Reply()

    def choose_pile(self, pv: PlayerView, pile: int) -> Reply:
        """A pile key or click (``pile`` 0: the draw pile): take from it,
        or send the discard onto it."""
        if pv.phase is Phase.DRAFT:
            self.on_piles = False
            return _refuse(_("While drafting, put the tile on an empty day of your rack."))
        self.pile_cursor = pile
        self.on_piles = True
        if pv.phase is Phase.DRAW:
            if self.swapping:
                self.on_piles = False
                return _refuse(_("Choose days to swap, or Esc to cancel the swap."))
            return Reply(Move.draw() if pile == 0 else Move.take(pile))
        if pile == 0:
            return _refuse(_("You already hold a tile: put it on a day or discard it."))
        if self.pending is None:
            # A discard pile chosen before a day means: discard the held tile there.
            return Reply(Move.discard(pile))
        day = self.pending.day
        return Reply(Move.replace(day, pile) if day else Move.discard(pile))

    def digit(self, pv: PlayerView, number: int) -> Reply:
        """A digit key: a pile when a pile is what comes next, else a day (0 is day 10)."""
        choosing_pile = (pv.phase is Phase.DRAW and not self.swapping) or (
            pv.phase is Phase.PLACE and self.pending is not None
        )
        if choosing_pile:
            if not 1 <= number <= PILES:
                return _refuse(
                    _("there is no discard pile {number}; the piles are 1-{piles}").format(
                        number=number, piles=PILES
                    )
                )
            return self.choose_pile(pv, number)
        return self.choose_day(pv, 10 if number == 0 else number)

    # -- the other keys ----------------------------------------------------------------------

    def discard(self, pv: PlayerView) -> Reply:
        """x: discard the held tile; the pile comes next."""
        if pv.phase is not Phase.PLACE:
            return _refuse(
                _("There is nothing to discard: first take a tile (d, or 1-3).")
                if pv.phase is Phase.DRAW
                else _("While drafting, every tile goes onto an empty day.")
            )
        self.pending = Pending(PendingKind.PLACE, 0)
        self._to_discard_piles(pv)
        return Reply()

    def swap(self, pv: PlayerView) -> Reply:
        """w: swap two days instead of drawing (swap variant); the two days come next."""
        if not pv.options.swap:
            return _refuse(
                _(
                    "tiles in a rack never move: swapping is only allowed with the swap variant "
                    "(--swap)"
                )
            )
        if pv.phase is not Phase.DRAW:
            return _refuse(
                _("A swap replaces drawing: it is only possible at the start of your turn.")
            )
        self.pending = Pending(PendingKind.SWAP)
        self.on_piles = False
        return Reply()

    def enter(self, pv: PlayerView) -> Reply:
        """Enter: what the cursor stands on, a day or a pile."""
        if self.on_piles:
            return self.choose_pile(pv, self.pile_cursor)
        if pv.phase is Phase.DRAW and not self.swapping:
            return _refuse(
                _(
                    "Choose where to take a tile from: d for the draw pile, 1-3 for a discard pile "
                    "(or → and ↑↓ to a pile, then Enter)."
                )
            )
        return self.choose_day(pv, self.cursor)

    def cancel(self) -> Reply | None:
        """Esc: drop the half-made choice, the cursor back on its day; None when there was none."""
        if self.pending is None:
            return None
        if self.pending.kind == PendingKind.PLACE:
            self.on_piles = False
        self.pending = None
        return Reply(message=_("Cancelled."))

    def typed(self, text: str) -> Reply:
        """A move typed in the notation (``replace 5 1``); a long paste is refused without being
        echoed in full."""
        if len(text.strip()) > TYPED_LIMIT:
            return _refuse(
                _(
                    "{start}… is not a move: a move is a few words, such as 'draw' or 'replace 5 1'"
                ).format(start=text.strip()[:20])
            )
        verb, space, numbers = text.strip().partition(" ")
        verbs = move_verbs()
        notation = {word: own for own, word in verbs.items()}.get(verb.lower(), verb.lower())
        if verb and notation not in verbs:  # named with the verbs the reader types
            return _refuse(
                _("unknown move {word}; moves are: {kinds}").format(
                    word=repr(verb[:20]), kinds=", ".join(verbs.values())
                )
            )
        try:
            move = Move.from_text(notation + space + numbers)
        except InvalidMoveError as error:
            if not verb:
                return _refuse(str(error))
            return _refuse(
                _("{text}: expected {form}").format(
                    text=repr(text.strip()), form=f"'{typed_form(MoveKind(notation))}'"
                )
            )
        self.pending = None
        return Reply(move)

    def refused(self, pv: PlayerView, move: Move, reason: Exception) -> Reply:
        """The engine refused ``move`` for ``reason``: say so, keeping a chosen day when only the
        pile was wrong (the emptied-pile rule), so choosing the right pile (the cursor is back on
        it) completes the move."""
        if pv.forced_pile and move.kind in (MoveKind.REPLACE, MoveKind.DISCARD):
            self.on_piles, self.pile_cursor = True, pv.forced_pile
        else:
            self.pending = None
        return _refuse(f"{move}: {reason}")
