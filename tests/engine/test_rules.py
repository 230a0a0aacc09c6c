"""A game as the rules describe it: setup, the draft, turns, the
emptied-pile rule, reshuffles, the end."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tendays.engine import (
    EventKind,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Options,
    OutOfTurnError,
    Phase,
    State,
    apply,
    legal_moves,
    load_edition,
    new_game,
)

USA = load_edition("usa")
GERMANY = load_edition("germany")


def drafted(options: Options | None = None, seed: int = 1, edition=USA) -> State:
    """A game right after the draft: every rack full, three discard piles turned up."""
    state = new_game(edition, options or Options(), seed)
    while state.phase is Phase.DRAFT:
        state = apply(state, legal_moves(state)[0])
    return state


def ids(*names: str) -> tuple[int, ...]:
    return tuple(USA.tile(n).index for n in names)


def all_tiles(state: State) -> list[int]:
    tiles = [t for rack in state.racks for t in rack if t is not None]
    tiles += list(state.draw_pile) + [t for pile in state.piles for t in pile]
    if state.in_hand is not None:
        tiles.append(state.in_hand)
    return sorted(tiles)


def test_components() -> None:
    assert USA.tile_count == 66 and GERMANY.tile_count == 54
    assert len(USA.regions) == 50 and len(GERMANY.regions) == 38
    assert GERMANY.tile("BE").count == 2
    assert [t.id for t in USA.tiles if not t.is_region] == [
        "plane-blue",
        "plane-green",
        "plane-orange",
        "plane-pink",
        "plane-yellow",
        "car",
    ]
    assert USA.tile("car").count == 6 and GERMANY.tile("bus").count == 5
    assert USA.tile("plane-pink").count == 2 and GERMANY.tile("TRAIN-GREEN").count == 2


def test_setup_deals_a_seeded_shuffle_and_drafts_round_robin() -> None:
    state = new_game(USA, Options(players=3), seed=7)
    assert state == new_game(USA, Options(players=3), seed=7)
    assert state.draw_pile != new_game(USA, Options(players=3), seed=8).draw_pile
    assert state.phase is Phase.DRAFT and state.current == 0
    assert len(legal_moves(state)) == 10  # any empty day
    order = []
    for _ in range(30):
        order.append(state.current)
        state = apply(state, legal_moves(state)[-1])
    assert order[:6] == [0, 1, 2, 0, 1, 2]
    assert state.phase is Phase.DRAW
    assert all(None not in rack for rack in state.racks)
    assert [len(p) for p in state.piles] == [1, 1, 1]
    assert len(state.draw_pile) == 66 - 30 - 3
    assert all_tiles(state) == sorted(USA.all_tiles())
    assert [e.kind for e in state.events[-4:]] == [EventKind.REVEAL] * 3 + [EventKind.START]


def test_drafted_tiles_never_move() -> None:
    state = apply(new_game(USA, Options(), 1), Move.draft(4))
    state = apply(state, Move.draft(4))  # player 2's day 4 is still empty
    with pytest.raises(IllegalMoveError, match="day 4 already holds a tile"):
        apply(state, Move.draft(4))
    assert len(legal_moves(state)) == 9


# Legal-move counts in known positions: 4 sources to draw from, 10 days x 3
# piles + 3 discards to place.
def test_legal_move_counts() -> None:
    state = drafted()
    assert [str(m) for m in legal_moves(state)] == ["draw", "take 1", "take 2", "take 3"]
    placed = apply(state, Move.draw())
    assert len(legal_moves(placed)) == 10 * 3 + 3
    # Taking the last tile of a pile forces the discard onto that pile: 10 replaces + 1 discard.
    taken = apply(state, Move.take(2))
    assert {m.pile for m in legal_moves(taken)} == {2}
    assert len(legal_moves(taken)) == 11
    # The swap variant adds every pair of days: 45 swaps.
    swap_state = drafted(Options(swap=True))
    assert len(legal_moves(swap_state)) == 4 + 45
    # Five days: 5 x 3 + 3.
    assert len(legal_moves(apply(drafted(Options(days=5)), Move.draw()))) == 18


def test_emptied_pile_rule() -> None:
    state = apply(drafted(), Move.take(1))
    with pytest.raises(
        IllegalMoveError, match="last tile of discard pile 1, so your discard must go onto pile 1"
    ):
        apply(state, Move.discard(2))
    with pytest.raises(IllegalMoveError, match="must go onto pile 1"):
        apply(state, Move.replace(3, 3))
    after = apply(state, Move.discard(1))
    assert all(after.piles)


def test_discarding_onto_the_pile_just_drawn_from_is_allowed() -> None:
    state = drafted()
    state = replace(state, piles=(state.piles[0] + ids("OH"), state.piles[1], state.piles[2]))
    taken = apply(state, Move.take(1))
    assert taken.in_hand == ids("OH")[0]
    assert len(legal_moves(taken)) == 33  # pile 1 still has a tile: every pile is open
    after = apply(taken, Move.discard(1))
    assert after.piles[0][-1] == ids("OH")[0]


def test_replace_discards_the_replaced_tile_face_up() -> None:
    state = drafted()
    player = state.current
    drawn = apply(state, Move.draw())
    old = state.racks[player][2]
    after = apply(drawn, Move.replace(3, 2))
    assert after.racks[player][2] == drawn.in_hand
    assert after.piles[1][-1] == old
    assert after.events[-1].kind is EventKind.REPLACE and after.events[-1].tile == old
    assert after.current == (player + 1) % 2 and after.phase is Phase.DRAW and after.turn == 1


def test_errors_name_the_rule() -> None:
    state = drafted()
    with pytest.raises(OutOfTurnError, match=f"it is player {state.current + 1}'s turn"):
        apply(state, Move.draw(), player=1 - state.current)
    with pytest.raises(IllegalMoveError, match="first take a tile"):
        apply(state, Move.discard(1))
    with pytest.raises(IllegalMoveError, match="there is no discard pile 4"):
        apply(state, Move.take(4))
    with pytest.raises(IllegalMoveError, match="swapping is only allowed with the swap variant"):
        apply(state, Move.swap(1, 2))
    drawn = apply(state, Move.draw())
    with pytest.raises(IllegalMoveError, match="there is no day 11"):
        apply(drawn, Move.replace(11, 1))
    with pytest.raises(IllegalMoveError, match="you already hold a tile"):
        apply(drawn, Move.draw())
    with pytest.raises(IllegalMoveError, match="the racks are still being filled"):
        apply(new_game(USA, Options(), 1), Move.draw())
    empty = replace(state, draw_pile=())
    with pytest.raises(IllegalMoveError, match="the draw pile is empty"):
        apply(empty, Move.draw())
    assert "draw" not in [str(m) for m in legal_moves(empty)]


@pytest.mark.parametrize("text", ["", "fly 3", "replace 4", "take x", "draw 1", "discard -1"])
def test_bad_notation(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_text(text)


@pytest.mark.parametrize(
    "text", ["draft 4", "draw", "take 2", "swap 3 7", "replace 5 1", "discard 3"]
)
def test_notation_round_trips(text: str) -> None:
    move = Move.from_text(text)
    assert str(move) == text
    assert eval(repr(move)) == move
    assert Move.from_text(f"  {text.upper()} ") == move


def test_drawing_the_last_tile_reshuffles_before_placing() -> None:
    # Printed: "If the player depletes the draw pile, all tiles in the three discard piles, EXCEPT
    # the top tile on each pile, are shuffled together to form a new
    # draw pile" (step 1 of the turn).
    state = drafted()
    last = state.draw_pile[-1:]
    piles = (state.piles[0] + ids("OH", "IN"), state.piles[1] + ids("KY"), state.piles[2])
    state = replace(state, draw_pile=last, piles=piles)
    drawn = apply(state, Move.draw())
    assert drawn.in_hand == last[0] and drawn.phase is Phase.PLACE
    assert sorted(drawn.draw_pile) == sorted(piles[0][:-1] + piles[1][:-1])
    assert drawn.piles == (piles[0][-1:], piles[1][-1:], piles[2])
    assert (
        drawn.reshuffles == 1
        and drawn.events[-1].kind is EventKind.RESHUFFLE
        and drawn.events[-1].count == 3
    )
    # The tile discarded afterwards stays on top: it was never part of the reshuffle.
    after = apply(drawn, Move.discard(3))
    assert after.piles[2][-1] == last[0] and sorted(after.draw_pile) == sorted(drawn.draw_pile)


def test_rules_1_reshuffled_at_the_end_of_the_turn() -> None:
    # Games recorded under rules version 1 replay as they were played: the discard of the turn that
    # emptied the draw pile became a top tile, and the old top was shuffled away.
    state = drafted(Options(rules=1))
    last = state.draw_pile[-1:]
    piles = (state.piles[0] + ids("OH", "IN"), state.piles[1] + ids("KY"), state.piles[2])
    state = replace(state, draw_pile=last, piles=piles)
    drawn = apply(state, Move.draw())
    assert drawn.draw_pile == () and drawn.reshuffles == 0
    after = apply(drawn, Move.discard(3))
    assert sorted(after.draw_pile) == sorted(piles[0][:-1] + piles[1][:-1] + (state.piles[2][-1],))
    assert after.reshuffles == 1 and after.piles[2] == last


def test_nothing_to_reshuffle_leaves_the_draw_pile_empty_until_a_turn_starts() -> None:
    state = drafted()
    state = replace(state, draw_pile=state.draw_pile[-1:])
    drawn = apply(state, Move.draw())
    assert drawn.draw_pile == () and drawn.reshuffles == 0  # every pile holds only its top tile
    after = apply(drawn, Move.replace(1, 1))
    # pile 1 now holds two tiles: the next turn starts with the one below its top as the draw pile
    assert len(after.draw_pile) == 1 and after.reshuffles == 1 and len(after.piles[0]) == 1
    state = replace(drafted(), draw_pile=())
    after = apply(apply(state, Move.take(2)), Move.discard(2))
    assert after.draw_pile == () and after.reshuffles == 0
    assert [str(m) for m in legal_moves(after)] == ["take 1", "take 2", "take 3"]


def test_reshuffles_are_seeded() -> None:
    state = drafted()
    piles = (
        state.piles[0] + ids("OH", "IN", "KS", "NE"),
        state.piles[1] + ids("KY"),
        state.piles[2],
    )
    state = replace(state, draw_pile=state.draw_pile[-1:], piles=piles)
    first = apply(state, Move.draw())
    assert apply(state, Move.draw()).draw_pile == first.draw_pile
    assert apply(replace(state, seed=state.seed + 1), Move.draw()).draw_pile != first.draw_pile


def test_a_complete_journey_wins_at_the_end_of_the_own_turn() -> None:
    state = drafted()
    player = state.current
    journey = ids("WA", "OR", "CA", "NV", "UT", "CO", "NM", "TX", "OK", "OH")
    racks = tuple(journey if p == player else r for p, r in enumerate(state.racks))
    draw_pile = tuple(t for t in state.draw_pile if t not in journey) + ids("KS")
    state = replace(state, racks=racks, draw_pile=draw_pile)
    won = apply(apply(state, Move.draw()), Move.replace(10, 1))
    assert won.phase is Phase.OVER and won.winner == player
    assert won.events[-1].kind is EventKind.WIN
    assert legal_moves(won) == ()
    with pytest.raises(IllegalMoveError, match="the game is over"):
        apply(won, Move.draw())


def test_an_incomplete_journey_does_not_win() -> None:
    state = drafted()
    after = apply(apply(state, Move.draw()), Move.discard(1))
    assert after.winner is None and after.phase is Phase.DRAW


def test_turn_limit_ends_without_a_winner() -> None:
    state = drafted(Options(turn_limit=3))
    for _ in range(3):
        state = apply(apply(state, Move.take(1)), Move.discard(1))
    assert state.phase is Phase.OVER and state.winner is None and state.turn == 3
    assert state.events[-1].kind is EventKind.LIMIT


def test_swap_variant_swaps_two_days_and_ends_the_turn() -> None:
    state = drafted(Options(swap=True))
    player = state.current
    rack = state.racks[player]
    after = apply(state, Move.swap(2, 9))
    assert after.racks[player][1] == rack[8] and after.racks[player][8] == rack[1]
    assert after.current != player and after.turn == 1
    with pytest.raises(IllegalMoveError, match="two different days"):
        apply(state, Move.swap(3, 3))


@pytest.mark.parametrize(
    ("edition", "options", "message"),
    [
        (USA, Options(players=5), "1 to 4 players"),
        (USA, Options(players=0), "1 to 4 players"),
        (USA, Options(days=1), "2 to 20 days"),
        (USA, Options(days=21), "2 to 20 days"),
        (USA, Options(players=4, days=16), "would leave 0 in the draw pile.*at most 14 days"),
        (
            USA,
            Options(players=4, days=15),
            "would leave 3 in the draw pile, too few for every player to draw once",
        ),
        (
            GERMANY,
            Options(players=3, days=17),
            "54 tiles.*would leave 0 in the draw pile.*at most 16 days",
        ),
        (GERMANY, Options(players=4, days=12), "would leave 3 in the draw pile"),
        (USA, Options(turn_limit=0), "turn limit must be at least 1"),
        (USA, Options(first_seat=2), "the first player must be one of the 2 seats, not seat 3"),
        (USA, Options(first_seat=-1), "the first player must be one of the 2 seats"),
        (USA, Options(rules=9), "rules version 9 is unknown"),
    ],
)
def test_options_that_cannot_be_played_are_refused(edition, options: Options, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new_game(edition, options, 1)


@pytest.mark.parametrize(
    ("edition", "players", "days"), [(USA, 4, 14), (GERMANY, 3, 16), (GERMANY, 4, 11), (USA, 1, 20)]
)
def test_the_largest_playable_racks_are_accepted(edition, players: int, days: int) -> None:
    state = drafted(Options(players=players, days=days), edition=edition)
    assert len(state.draw_pile) >= players


def test_the_first_seat_can_be_chosen() -> None:
    for seat in range(3):
        state = drafted(Options(players=3, first_seat=seat))
        assert (
            state.current == seat
            and state.events[-1].kind is EventKind.START
            and state.events[-1].player == seat
        )
    chosen_by_chance = {drafted(Options(players=3), seed=seed).current for seed in range(12)}
    assert chosen_by_chance == {0, 1, 2}


def test_options_json_round_trip_and_missing_rules() -> None:
    options = Options(players=3, days=5, first_seat=1, turn_limit=50)
    assert Options.from_json(options.to_json()) == options
    old = {"players": 2, "days": 10, "swap": False, "open_hands": False, "turn_limit": None}
    assert Options.from_json(old).rules == 2
    assert Options.from_json(old, rules_if_missing=1).rules == 1
    with pytest.raises(ValueError, match="'first_seat' must be a whole number"):
        Options.from_json({"first_seat": "1"})


def test_solo_and_germany() -> None:
    state = drafted(Options(players=1, days=5), edition=GERMANY)
    assert state.current == 0 and len(state.draw_pile) == 54 - 5 - 3
    state = apply(apply(state, Move.draw()), Move.discard(1))
    assert state.current == 0
