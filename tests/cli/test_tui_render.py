"""The words and marks the terminal shows for tiles, links and the other seats' turns."""

from __future__ import annotations

from rich.text import Text

from tendays.cli.tui.palettes import PaletteChoice, use_palette
from tendays.cli.tui.render import day_marks, last_actions, swatch, tile_text
from tendays.engine import (
    Event,
    EventKind,
    Move,
    Options,
    apply,
    load_edition,
    new_game,
    use_language,
    view,
)


def test_swatches_show_each_colours_shape_and_word() -> None:
    usa = load_edition("usa")
    assert swatch(usa, usa.tile("OH").index).plain == "★ yellow"
    assert swatch(usa, usa.tile("CA").index).plain == "●  blue "
    assert swatch(usa, usa.tile("AK").index).plain.split() == ["✱", "any"]
    assert swatch(usa, usa.tile("car").index).plain.strip() == "car"
    assert tile_text(usa, usa.tile("plane-pink").index).plain == "◆  pink  pink airplane"
    assert "(empty)" in tile_text(usa, None).plain
    # every coloured tile shows its colour's shape from the edition data, in every width
    for tile in usa.tiles:
        if tile.color is not None:
            assert swatch(usa, tile.index).plain.startswith(usa.symbols[tile.color])
            letter = usa.words("en").letter(tile.color)
            assert swatch(usa, tile.index, 3).plain == usa.symbols[tile.color] + letter + " "
    with use_language("de"):
        germany = load_edition("germany")
        assert swatch(germany, germany.tile("DA").index).plain == "●  blau "
        assert swatch(germany, germany.tile("BE").index).plain.split() == ["✱", "jede"]
        assert swatch(germany, germany.tile("train-pink").index, 3).plain == "◆R "
        assert swatch(germany, germany.tile("bus").index).plain.strip() == "Bus"


def background(text: Text) -> str:
    style = text.spans[0].style
    assert isinstance(style, str)
    return style.split(" on ")[1]


def test_swatches_take_their_colours_from_the_edition_palette() -> None:
    usa = load_edition("usa")
    ohio = usa.tile("OH").index
    assert background(swatch(usa, ohio)) == usa.palette["yellow"]
    with use_palette(PaletteChoice("cb")):
        assert background(swatch(usa, ohio)) == usa.palette_cb["yellow"]
        assert background(swatch(usa, usa.tile("AK").index)) == usa.palette_cb["any"]
    assert background(swatch(usa, usa.tile("AK").index)) == usa.palette["any"]
    choice = PaletteChoice()
    assert choice.toggle() == "cb" and choice.toggle() == "normal"


def test_day_marks_give_each_link_its_verdict() -> None:
    usa = load_edition("usa")
    rack = [usa.tile(t).index for t in ("WA", "OR", "plane-blue", "UT", "NM")]
    marks = day_marks(usa, rack)
    assert (
        marks[1].ok is True
        and marks[1].symbol == "✓→2"
        and "Washington borders Oregon" in marks[1].message
    )
    assert marks[3].ok is None and marks[3].symbol == "┆"
    assert marks[4].ok is False and "only touch at a corner" in marks[4].message
    assert marks[5].symbol == "⚑"


def test_empty_days_during_the_draft_are_not_marked_as_mistakes() -> None:
    usa = load_edition("usa")
    marks = day_marks(usa, [usa.tile("WA").index, None, None])
    assert marks == {}


def test_last_actions_tell_what_a_seat_took_and_discarded() -> None:
    state = new_game(load_edition("usa"), Options(players=2, days=2), seed=4)
    while state.phase.name == "DRAFT":
        state = apply(state, state.legal_moves()[0])
    mover = state.current
    top = state.piles[1][-1]
    state = apply(state, Move.take(2))
    state = apply(state, Move.replace(1, 2))
    pv = view(state, 1 - mover)
    edition = state.edition
    replaced = state.events[-1]
    assert replaced == Event(EventKind.REPLACE, mover, day=1, pile=2, tile=replaced.tile)
    assert last_actions(pv, mover) == (
        f"took {edition.tiles[top].name} (pile 2); day 1: "
        f"{edition.tiles[replaced.tile].name} → pile 2"
    )  # type: ignore[index]
    assert last_actions(pv, 1 - mover) == ""


def test_every_day_of_a_full_rack_is_marked_even_behind_two_transports_in_a_row() -> None:
    usa = load_edition("usa")
    rack = [usa.tile(t).index for t in ("WA", "car", "plane-blue", "OR", "CA")]
    marks = day_marks(usa, rack)
    assert sorted(marks) == [1, 2, 3, 4, 5]
    assert (
        marks[1].ok is False
        and "day 1: its link is blocked further on, at day 2 → 3: two transport tiles"
        in marks[1].message
    )
    assert (
        marks[2].ok is False
        and marks[3].ok is False
        and "two transport tiles in a row" in marks[3].message
    )
    assert "once the days around it are filled" not in " ".join(m.message for m in marks.values())


def test_a_skip_tile_is_named_once() -> None:
    usa = load_edition("usa")
    assert " ".join(tile_text(usa, usa.tile("car").index).plain.split()) == "car"
    assert tile_text(usa, usa.tile("OH").index).plain.split()[-1] == "Ohio"


def test_the_marks_of_the_board_are_no_colours_shape() -> None:
    """The last day's mark and the hint's mark are glyphs no colour uses, so
    neither reads as a tile's colour."""
    from tendays.cli.tui.widgets import HINT_MARK

    for edition in (load_edition("usa"), load_edition("germany")):
        shapes = set(edition.symbols.values())
        last_day = day_marks(edition, (0, 1, 2, 3, 4))[5].symbol
        assert last_day not in shapes and HINT_MARK not in shapes and last_day != HINT_MARK


def test_the_turn_on_the_status_line_at_the_end_is_the_end_screens_count() -> None:
    from tendays.bots import GreedyBot
    from tendays.cli.tui.captions import status_text
    from tendays.engine import Game, play_bots

    game = Game("usa", Options(players=2, days=5), 3, ("You", "Bot 2"))
    play_bots(game, [GreedyBot(), GreedyBot()])
    pv = view(game.state, None)
    # "after {turns} turns"
    assert pv.is_over and f"turn {pv.turn} ·" in status_text(pv, game.names).plain


def test_the_hint_says_where_the_tile_in_hand_goes() -> None:
    from tendays.bots import GreedyBot
    from tendays.bots.distance import journey_distance
    from tendays.bots.hint import hand_advice
    from tendays.engine import Game, Move, Phase, next_decision

    game = Game("usa", Options(players=2, days=5, first_seat=0), 7)
    bot = GreedyBot()
    placed = discarded = drafted = 0
    while not game.state.is_over and (not placed or not discarded):
        decision = next_decision(game)
        assert decision is not None
        pv = decision.view
        advice = hand_advice(pv)
        if pv.phase is Phase.PLACE:
            assert advice is not None and pv.rack is not None and pv.in_hand is not None
            before = journey_distance(pv.edition, pv.rack)
            if advice.day:
                rack = pv.rack[: advice.day - 1] + (pv.in_hand,) + pv.rack[advice.day :]
                assert (
                    journey_distance(pv.edition, rack) < before
                    and f"day {advice.day}" in advice.message
                )
                placed += 1
            else:
                assert "discard it" in advice.message
                discarded += 1
        elif pv.phase is Phase.DRAFT:
            # the draft: an empty day, said in words, and the day greedy drafts onto
            assert advice is not None and Move.draft(advice.day) in pv.legal_moves()
            assert f"put it on day {advice.day}, where" in advice.message or (
                advice.message.startswith(f"put the drafted tile on day {advice.day}: it fits")
            )
            drafted += 1
        else:
            assert advice is None
        move = Move.draw() if pv.phase is Phase.DRAW else bot.choose(pv, decision.rng)
        game.play(move, decision.seat)
    assert placed and discarded and drafted == 10  # five days, two seats
