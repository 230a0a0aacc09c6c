"""Text and numbers from outside: control and formatting characters are found and refused or
replaced, and numbers too long to be a seed, a day or a pile are refused in words naming the limit,
never with Python's words."""

from __future__ import annotations

import json

import pytest

from tendays.engine import (
    MAX_SEED,
    MIN_SEED,
    GameRecord,
    InvalidMoveError,
    Move,
    Options,
    RecordError,
    json_text,
    load_edition,
    new_game,
    parse_seed,
    seed_problem,
)
from tendays.engine.plain_text import REPLACEMENT, shown, text_problem, unsafe_character

UNSAFE = {
    "ESC (retitles the terminal)": "\x1b]2;pwned\x07",
    "BEL": "bell\x07",
    "a line end": "two\nlines",
    "a carriage return": "over\rwrite",
    "DEL": "del\x7f",
    "C1 CSI": "c1\x9b31m",
    "C1 NEL": "next\x85line",
    "right-to-left override": "Bob\u202egnp.exe",
    "left-to-right isolate": "\u2066Ann",
    "zero-width space": "Al\u200bice",
    "byte-order mark": "\ufeffAnn",
    "soft hyphen": "An\u00adn",
    "line separator": "line\u2028sep",
    "paragraph separator": "para\u2029sep",
    "an unpaired surrogate": "half\ud800",
}
SAFE = {
    "plain": "Ann",
    "accents": "Zoë Ångström",
    "a family emoji (zero-width joiners)": "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "Persian with a zero-width non-joiner": "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645",
    "the flag of Scotland (tag characters)": (
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    ),
    "Cyrillic": "Алиса",
    "Japanese": "花子",
}


@pytest.mark.parametrize("case", sorted(UNSAFE))
def test_control_and_formatting_characters_are_found_refused_and_replaced(case: str) -> None:
    text = UNSAFE[case]
    char = unsafe_character(text)
    assert char is not None and char in text
    problem = text_problem(text, "the name of player 2")
    assert problem is not None
    assert problem.startswith(f"the name of player 2 holds the character U+{ord(char):04X}")
    safe = shown(text)
    assert unsafe_character(safe) is None and REPLACEMENT in safe


@pytest.mark.parametrize("case", sorted(SAFE))
def test_names_of_every_script_and_emoji_stay_as_they_are(case: str) -> None:
    text = SAFE[case]
    assert unsafe_character(text) is None
    assert text_problem(text, "a name") is None
    assert shown(text) is text


def test_the_problem_names_the_character_by_its_unicode_name() -> None:
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in (text_problem("a\u202eb", "seat 1") or "")


# -- numbers


def record_json(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "format": "tendays-record/1",
        "edition": "usa",
        "options": Options(players=2, days=5).to_json(),
        "seed": 6,
        "moves": ["draft 1"],
    }
    return {**data, **changes}


def test_a_number_of_thousands_of_digits_is_refused_naming_the_limit() -> None:
    with pytest.raises(json_text.NumberTooLongError) as refused:
        json_text.loads('{"seed": ' + "9" * 5000 + "}")
    assert str(refused.value) == (
        "a whole number of 5000 digits: tendays reads numbers of at most 20 digits"
    )
    assert json_text.loads("[-18446744073709551616, 2.5]") == [-18446744073709551616, 2.5]


def test_a_record_with_a_5000_digit_seed_is_a_record_error_in_words() -> None:
    text = json.dumps(record_json()).replace('"seed": 6', '"seed": ' + "9" * 5000)
    with pytest.raises(RecordError, match="tendays reads numbers of at most 20 digits"):
        GameRecord.loads(text)


@pytest.mark.parametrize(
    "seed",
    [MAX_SEED + 1, MIN_SEED - 1, 10**20, -(10**5000)],
    ids=["MAX_SEED + 1", "MIN_SEED - 1", "10**20", "-(10**5000)"],
)
def test_a_seed_beyond_64_bits_deals_no_game(seed: int) -> None:
    range_words = f"a seed is a whole number from {MIN_SEED} to {MAX_SEED}"
    assert (seed_problem(seed) or "").startswith(range_words)
    with pytest.raises(ValueError, match=range_words):
        new_game(load_edition("usa"), Options(), seed)
    with pytest.raises(RecordError, match=range_words):
        GameRecord.from_json(record_json(seed=seed))


def test_the_seeds_at_either_end_of_the_range_deal() -> None:
    for seed in (MIN_SEED, MAX_SEED, 0):
        assert seed_problem(seed) is None
        assert new_game(load_edition("usa"), Options(), seed).seed == seed


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("x", "the seed must be a whole number, not 'x'"),
        ("²", "the seed must be a whole number, not '²'"),
        pytest.param("9" * 5000, "not a number of 5000 digits", id="5000 digits"),
        ("9223372036854775808", "not 9223372036854775808"),
    ],
)
def test_a_typed_seed_is_refused_in_words(typed: str, words: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_seed(typed)
    assert words in str(refused.value) and "4300" not in str(refused.value)


def test_a_typed_seed_in_range_is_read() -> None:
    assert parse_seed(" 77 ") == 77 and parse_seed("-5") == -5
    assert parse_seed(str(MAX_SEED)) == MAX_SEED


@pytest.mark.parametrize(
    "text",
    ["draft ²", "draft 123", "take ٣", "draft " + "9" * 5000],
    ids=["superscript", "three digits", "Arabic-Indic digit", "5000 digits"],
)
def test_a_move_whose_number_is_no_day_or_pile_is_not_in_the_notation(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="expected 'draft DAY'|expected 'take PILE'") as bad:
        Move.from_text(text)
    assert len(str(bad.value)) < 120  # a long move is quoted cut short


def test_a_record_whose_name_holds_an_escape_sequence_is_refused_naming_the_player() -> None:
    data = record_json(names=["Ann", "\x1b]2;pwned\x07"])
    with pytest.raises(RecordError) as refused:
        GameRecord.from_json(data)
    assert "the name of player 2 holds the character U+001B" in str(refused.value)
    assert "\x1b" not in str(refused.value)
