"""The terminal's keys and clicks, without a terminal: what each comes to at each point of a turn.

A :class:`Keyboard` stands where the game screen stands: it hands the model the view of the person
to move, plays the moves the model returns in an engine game, and gives the engine's refusals back
to it.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from arrows import next_arrow_keys

from tendays.bots import GreedyBot
from tendays.cli.tui.input_model import (
    OFFERED_WHEN_USABLE,
    InputModel,
    Pending,
    Reply,
    key_usable,
)
from tendays.engine import (
    Game,
    IllegalMoveError,
    Move,
    Options,
    Phase,
    PlayerView,
    next_decision,
    view,
)


class Keyboard:
    """The person to move at ``game``, pressing keys and clicking as on the game screen."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.model = InputModel()

    @property
    def view(self) -> PlayerView:
        return view(self.game.state, self.game.state.current)

    def press(self, key: str) -> Reply:
        pv, model = self.view, self.model
        if key.isdigit():
            reply = model.digit(pv, int(key))
        elif key == "d":
            reply = model.choose_pile(pv, 0)
        elif key == "x":
            reply = model.discard(pv)
        elif key == "w":
            reply = model.swap(pv)
        elif key == "enter":
            reply = model.enter(pv)
        elif key == "escape":
            reply = model.cancel() or Reply()
        elif key in ("up", "down"):
            model.move_cursor(
                -1 if key == "up" else 1, pv.options.days, holding=pv.phase is Phase.PLACE
            )
            reply = Reply()
        elif key in ("left", "right"):
            model.point_at_piles(key == "right", pv)
            reply = Reply()
        else:
            raise AssertionError(f"no key {key!r} on the game screen")
        return self.answer(pv, reply)

    def click_day(self, day: int) -> Reply:
        pv = self.view
        return self.answer(pv, self.model.choose_day(pv, day))

    def click_pile(self, pile: int) -> Reply:
        pv = self.view
        return self.answer(pv, self.model.choose_pile(pv, pile))

    def type(self, text: str) -> Reply:
        return self.answer(self.view, self.model.typed(text))

    def answer(self, pv: PlayerView, reply: Reply) -> Reply:
        if reply.move is None:
            return reply
        try:
            self.game.play(reply.move, pv.current)
        except IllegalMoveError as error:
            return self.model.refused(pv, reply.move, error)
        # the next person to move: here, whoever it is, at the same keyboard
        self.model.reset(self.view)
        return reply


def new_table(days: int = 5, swap: bool = False, seed: int = 3) -> Keyboard:
    keyboard = Keyboard(Game("usa", Options(players=2, days=days, swap=swap, first_seat=0), seed))
    keyboard.model.reset(keyboard.view)
    return keyboard


def after_the_draft(days: int = 5, swap: bool = False) -> Keyboard:
    """The first turn after the draft: seat 0 to draw, one tile on each discard pile."""
    keyboard = new_table(days, swap)
    game, bot = keyboard.game, GreedyBot()
    while game.state.phase is Phase.DRAFT:
        decision = next_decision(game)
        assert decision is not None
        game.play(bot.choose(decision.view, decision.rng), decision.seat)
    assert game.state.current == 0 and all(len(pile) == 1 for pile in game.state.piles)
    keyboard.model.reset(keyboard.view)
    return keyboard


def refusal(message: str) -> Reply:
    return Reply(message=message, error=True)


def test_the_model_needs_no_terminal() -> None:
    code = (
        "import sys, tendays.cli.tui.input_model, tendays.cli.tui.table, "
        "tendays.cli.tui.seats, tendays.cli.tui.save_file; "
        "assert 'textual' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_drafting_puts_the_tile_on_the_day_chosen() -> None:
    keyboard = new_table()
    assert keyboard.press("3") == Reply(Move.draft(3))
    assert keyboard.click_day(1) == Reply(Move.draft(1))  # seat 1 drafts by a click
    assert keyboard.game.moves == (Move.draft(3), Move.draft(1))
    assert keyboard.press("9") == refusal("there is no day 9; the rack has days 1-5")
    assert keyboard.press("d") == refusal(
        "While drafting, put the tile on an empty day of your rack."
    )
    assert keyboard.press("x") == refusal("While drafting, every tile goes onto an empty day.")
    assert keyboard.press("3") == refusal(
        "draft 3: day 3 already holds a tile; drafted tiles go on empty days and never move"
    )
    assert keyboard.game.move_count == 2


def test_the_cursor_wraps_and_enter_chooses_its_day() -> None:
    keyboard = new_table()
    keyboard.press("up")
    assert keyboard.model.cursor == 5
    keyboard.press("down")
    keyboard.press("down")
    assert keyboard.model.cursor == 2
    assert keyboard.press("enter") == Reply(Move.draft(2))


def test_after_a_draft_the_cursor_moves_to_an_empty_day() -> None:
    keyboard = new_table()
    keyboard.press("enter")  # seat 0 drafts day 1
    assert keyboard.model.cursor == 1  # seat 1, at the same keyboard: its day 1 is still empty
    keyboard.press("enter")  # seat 1 drafts day 1
    # seat 0 again: day 1 is taken, day 2 is the nearest empty day
    assert keyboard.model.cursor == 2
    keyboard.press("up")
    keyboard.press("up")
    assert keyboard.press("enter") == Reply(Move.draft(5))
    assert keyboard.model.cursor == 5  # seat 1: its day 5 is empty, so the cursor stays there


def test_drawing_with_the_arrow_keys() -> None:
    keyboard = after_the_draft()
    # the turn starts on the draw pile
    assert keyboard.model.on_piles and keyboard.model.pile_cursor == 0
    keyboard.press("up")
    assert keyboard.model.pile_cursor == 3  # ↑ from the draw pile wraps to discard pile 3
    keyboard.press("down")
    keyboard.press("down")
    assert keyboard.press("enter") == Reply(Move.take(1))
    assert not keyboard.model.on_piles  # placing: the cursor is back on the rack


def test_placing_with_the_arrow_keys_chooses_a_day_then_a_pile() -> None:
    keyboard = after_the_draft()
    keyboard.press("enter")  # draw
    keyboard.press("down")
    keyboard.press("down")
    assert keyboard.model.cursor == 3
    assert keyboard.press("enter") == Reply() and keyboard.model.pending == Pending("place", 3)
    # any pile will do: pile 1 first
    assert keyboard.model.on_piles and keyboard.model.pile_cursor == 1
    keyboard.press("down")
    assert keyboard.press("enter") == Reply(Move.replace(3, 2))


def test_right_goes_to_the_piles_to_discard_and_left_comes_back() -> None:
    keyboard = after_the_draft()
    keyboard.press("enter")  # draw
    keyboard.press("right")
    assert keyboard.model.on_piles
    keyboard.press("left")
    assert not keyboard.model.on_piles and keyboard.model.cursor == 1
    keyboard.press("right")
    keyboard.press("up")
    assert keyboard.model.pile_cursor == 3
    assert keyboard.press("enter") == Reply(Move.discard(3))


def test_enter_on_the_draw_pile_while_holding_a_tile_says_why_not() -> None:
    keyboard = after_the_draft()
    keyboard.press("enter")  # draw
    keyboard.press("right")
    keyboard.model.pile_cursor = 0
    assert keyboard.press("enter") == refusal(
        "You already hold a tile: put it on a day or discard it."
    )


def test_a_whole_game_with_the_arrow_keys_and_enter_alone() -> None:
    keyboard = new_table(days=5, seed=8)
    greedy, rng = GreedyBot(), random.Random(4)
    presses = 0
    while not keyboard.game.state.is_over:
        pv = keyboard.view
        move = greedy.choose(pv, rng)
        moves_before = keyboard.game.move_count
        while keyboard.game.move_count == moves_before:
            for key in next_arrow_keys(keyboard.model, move, pv.options.days):
                reply = keyboard.press(key)
                assert not reply.error, reply.message
                presses += 1
    assert keyboard.game.state.winner is not None and presses > keyboard.game.move_count


def test_day_zero_is_day_ten() -> None:
    keyboard = new_table(days=10)
    assert keyboard.press("0") == Reply(Move.draft(10))


@pytest.mark.parametrize(
    ("key", "move"), [("d", Move.draw()), ("1", Move.take(1)), ("3", Move.take(3))]
)
def test_drawing_or_taking_from_a_pile(key: str, move: Move) -> None:
    keyboard = after_the_draft()
    assert keyboard.press(key) == Reply(move)
    assert keyboard.view.phase is Phase.PLACE


def test_before_taking_a_tile_the_keys_say_what_comes_first() -> None:
    keyboard = after_the_draft()
    assert keyboard.press("7") == refusal("there is no discard pile 7; the piles are 1-3")
    assert keyboard.press("x") == refusal(
        "There is nothing to discard: first take a tile (d, or 1-3)."
    )
    keyboard.press("left")
    assert keyboard.press("enter") == refusal(
        "Choose where to take a tile from: d for the draw pile, 1-3 for a "
        "discard pile (or → and ↑↓ to a pile, then Enter)."
    )
    assert keyboard.click_day(2) == refusal(
        "First take a tile: d draws from the draw pile, 1-3 takes the top of a discard pile."
    )
    assert keyboard.press("w") == refusal(
        "tiles in a rack never move: swapping is only allowed with the swap variant (--swap)"
    )
    assert keyboard.type("replace 2 1") == refusal(
        "replace 2 1: first take a tile ('draw' or 'take PILE'); 'replace 2 1' comes after drawing"
    )
    assert keyboard.type("fly 3").message.startswith("unknown move 'fly'")
    assert keyboard.game.state.phase is Phase.DRAW and keyboard.game.move_count == 10


def test_choosing_a_day_then_a_pile_replaces_that_day() -> None:
    keyboard = after_the_draft()
    keyboard.press("d")
    assert keyboard.press("4") == Reply()
    assert keyboard.model.pending == Pending("place", 4)
    assert keyboard.press("0") == refusal("there is no discard pile 0; the piles are 1-3")
    assert keyboard.click_pile(0) == refusal(
        "You already hold a tile: put it on a day or discard it."
    )
    assert keyboard.model.pending == Pending("place", 4)  # the day stays chosen
    assert keyboard.press("2") == Reply(Move.replace(4, 2))
    assert keyboard.game.moves[-1] == Move.replace(4, 2) and keyboard.model.pending is None


def test_discarding_the_held_tile() -> None:
    keyboard = after_the_draft()
    keyboard.press("d")
    assert keyboard.press("x") == Reply() and keyboard.model.pending == Pending("place", 0)
    assert keyboard.press("3") == Reply(Move.discard(3))
    # A discard pile clicked before any day means: discard the held tile there.
    keyboard.press("d")
    assert keyboard.click_pile(2) == Reply(Move.discard(2))


def test_after_emptying_a_discard_pile_the_discard_must_go_back_onto_it() -> None:
    keyboard = after_the_draft()
    keyboard.press("1")  # pile 1 held one tile: now it is empty
    assert keyboard.view.forced_pile == 1
    keyboard.press("3")
    assert keyboard.press("2") == refusal(
        "replace 3 2: you took the last tile of discard pile 1, so your discard "
        "must go onto pile 1: there are always three discard piles"
    )
    # the chosen day stays: only the pile was wrong
    assert keyboard.model.pending == Pending("place", 3)
    assert keyboard.game.state.phase is Phase.PLACE
    # Enter chooses the one pile allowed
    assert keyboard.press("enter") == Reply(Move.replace(3, 1))
    assert keyboard.game.moves[-1] == Move.replace(3, 1)


def test_a_wrong_pile_for_a_discard_keeps_the_discard_chosen() -> None:
    keyboard = after_the_draft()
    keyboard.press("2")
    keyboard.press("x")
    assert keyboard.press("1").error and keyboard.model.pending == Pending("place", 0)
    assert keyboard.press("2") == Reply(Move.discard(2))


def test_swapping_two_days() -> None:
    keyboard = after_the_draft(swap=True)
    before = keyboard.view.rack
    assert keyboard.press("w") == Reply() and keyboard.model.pending == Pending("swap")
    assert keyboard.press("d") == refusal("Choose days to swap, or Esc to cancel the swap.")
    assert keyboard.press("2") == Reply() and keyboard.model.pending == Pending("swap", 2)
    assert keyboard.press("2") == refusal("swap 2 2: a swap needs two different days")
    assert keyboard.model.pending is None  # a refused swap starts over
    keyboard.press("w")
    keyboard.press("2")
    assert keyboard.click_day(4) == Reply(Move.swap(2, 4))
    after = view(keyboard.game.state, 0).rack
    assert (
        before is not None and after is not None and (after[1], after[3]) == (before[3], before[1])
    )


def test_a_swap_only_replaces_drawing() -> None:
    keyboard = after_the_draft(swap=True)
    keyboard.press("d")
    assert keyboard.press("w") == refusal(
        "A swap replaces drawing: it is only possible at the start of your turn."
    )


def test_escape_cancels_a_half_made_choice() -> None:
    keyboard = after_the_draft(swap=True)
    assert keyboard.model.cancel() is None  # nothing to cancel
    keyboard.press("w")
    assert keyboard.press("escape") == Reply(message="Cancelled.")
    assert keyboard.model.pending is None
    assert keyboard.press("1") == Reply(Move.take(1))  # a digit takes from a pile again
    keyboard.press("5")
    keyboard.press("escape")
    assert keyboard.press("5") == Reply() and keyboard.model.pending == Pending("place", 5)


def test_a_typed_move_is_played_as_typed() -> None:
    keyboard = after_the_draft()
    keyboard.press("d")
    keyboard.press("2")
    assert keyboard.type("discard 3") == Reply(Move.discard(3))
    assert keyboard.model.pending is None and keyboard.game.moves[-1] == Move.discard(3)


def test_right_then_enter_discards_the_held_tile_as_the_prompt_says() -> None:
    keyboard = after_the_draft()
    keyboard.press("d")
    # "discard it (x; →↑↓ Enter; ...)": → stands on a discard pile, never the draw pile
    keyboard.press("right")
    assert keyboard.model.on_piles and keyboard.model.pile_cursor == 1
    assert keyboard.press("enter") == Reply(Move.discard(1))


def test_the_arrows_pass_the_draw_pile_by_while_a_tile_is_held() -> None:
    keyboard = after_the_draft()
    keyboard.press("d")
    keyboard.press("right")
    seen = []
    for _press in range(4):
        keyboard.press("down")
        seen.append(keyboard.model.pile_cursor)
    assert seen == [2, 3, 1, 2]
    keyboard.press("up")
    keyboard.press("up")
    assert keyboard.model.pile_cursor == 3


def test_the_move_box_takes_the_readers_verbs_and_the_notation() -> None:
    from tendays.engine import use_language

    with use_language("de"):
        assert InputModel().typed("ersetzen 5 1") == Reply(Move.replace(5, 1))
        assert InputModel().typed("Ziehen") == Reply(Move.draw())
        # the notation, in every language
        assert InputModel().typed("replace 5 1") == Reply(Move.replace(5, 1))
    reply = InputModel().typed("draw " * 1000)
    assert reply.error and len(reply.message) < 120 and "is not a move" in reply.message


@pytest.mark.parametrize("swap", [False, True])
def test_the_footer_offers_a_game_key_only_in_the_phase_it_belongs_to(swap: bool) -> None:
    drafting = new_table(swap=swap).view
    keyboard = after_the_draft(swap=swap)
    drawing = keyboard.view
    assert keyboard.press("d").move == Move.draw()
    placing = keyboard.view
    usable = {
        phase: {a for a in OFFERED_WHEN_USABLE if key_usable(a, False, pv)}
        for phase, pv in (("draft", drafting), ("draw", drawing), ("place", placing))
    }
    assert usable == {
        "draft": set(),
        "draw": {"draw", "swap"} if swap else {"draw"},
        "place": {"discard"},
    }
    assert {a for a in OFFERED_WHEN_USABLE if key_usable(a, False, None)} == set()
    assert {a for a in OFFERED_WHEN_USABLE if key_usable(a, True, None)} == {"show_end"}
    assert key_usable("hint", False, None)  # a key not offered by phase always answers
