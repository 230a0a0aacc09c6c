"""The fixed action layout: every move has one index, and back."""

import random

import pytest

from tendays.engine import ActionCodec, Move, Options, apply, legal_moves, load_edition, new_game

# (days, move, index): the documented layout for 10 and 5 days.
LAYOUT = [
    (10, "draft 1", 0),
    (10, "draft 10", 9),
    (10, "draw", 10),
    (10, "take 1", 11),
    (10, "take 3", 13),
    (10, "replace 1 1", 14),
    (10, "replace 1 3", 16),
    (10, "replace 2 1", 17),
    (10, "replace 10 3", 43),
    (10, "discard 1", 44),
    (10, "discard 3", 46),
    (10, "swap 1 2", 47),
    (10, "swap 1 10", 55),
    (10, "swap 2 3", 56),
    (10, "swap 9 10", 91),
    (5, "draw", 5),
    (5, "replace 5 3", 23),
    (5, "discard 3", 26),
    (5, "swap 4 5", 36),
]


@pytest.mark.parametrize(("days", "text", "index"), LAYOUT)
def test_layout(days: int, text: str, index: int) -> None:
    codec = ActionCodec(days)
    assert codec.encode(Move.from_text(text)) == index
    assert codec.describe(index) == text


@pytest.mark.parametrize(("days", "size"), [(2, 16), (5, 37), (10, 92), (20, 277)])
def test_size_is_4d_plus_7_plus_pairs(days: int, size: int) -> None:
    assert ActionCodec(days).size == size == 4 * days + 7 + days * (days - 1) // 2


def test_every_index_round_trips() -> None:
    codec = ActionCodec(10)
    assert [codec.encode(codec.decode(i)) for i in range(codec.size)] == list(range(codec.size))


def test_swap_days_in_either_order() -> None:
    codec = ActionCodec(10)
    assert codec.encode(Move.swap(7, 3)) == codec.encode(Move.swap(3, 7))


class _Index:
    """An integer-like action index, as array libraries hand out (``numpy.int64`` and the like)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __int__(self) -> int:
        return self.value


def test_integer_like_actions_decode() -> None:
    codec = ActionCodec(10)
    assert codec.decode(_Index(10)) == Move.draw()  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 92, 1000])
def test_out_of_range_action_is_refused(bad: int) -> None:
    with pytest.raises(ValueError, match="outside the action space 0-91"):
        ActionCodec(10).decode(bad)


def test_move_beyond_the_rack_is_refused() -> None:
    with pytest.raises(ValueError, match="has no action in a game of 5 days"):
        ActionCodec(5).encode(Move.draft(6))


def test_mask_marks_exactly_the_legal_moves() -> None:
    edition = load_edition("usa")
    codec = ActionCodec(10)
    state = new_game(edition, Options(players=2, swap=True), seed=3)
    rng = random.Random(0)
    for _ in range(120):
        moves = legal_moves(state)
        mask = codec.mask(moves)
        assert isinstance(mask, bytes) and len(mask) == codec.size and set(mask) <= {0, 1}
        assert [i for i, on in enumerate(mask) if on] == sorted(codec.encode(m) for m in moves)
        assert codec.mask(list(moves)) == mask  # any iterable of moves, remembered or not
        state = apply(state, rng.choice(moves))
