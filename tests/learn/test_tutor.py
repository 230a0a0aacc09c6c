"""The tutor: what each step says and points at, a wrong move explained (never
applied), and both languages."""

from __future__ import annotations

import pytest

from tendays.engine import Move, MoveKind, Phase, use_language
from tendays.learn import Pointer, Topic, Tutor, load_lesson


@pytest.fixture(scope="module")
def tutor() -> Tutor:
    return Tutor(load_lesson("usa"))


def test_the_expected_move_passes_and_the_step_points_at_it(tutor: Tutor) -> None:
    for number in range(tutor.total):
        step = tutor.step(number)
        move = step.expected
        assert move is not None and tutor.check(number, move).ok
        assert step.view.player == tutor.lesson.seat and step.view.is_my_turn
        if move.kind is MoveKind.DRAFT:
            assert step.pointer == Pointer("rack", day=move.a)
            assert f"day {move.a}" in step.instruction
        elif move.kind is MoveKind.DRAW:
            assert step.pointer == Pointer("draw") and "draw pile" in step.instruction
        elif move.kind is MoveKind.REPLACE:
            assert step.pointer == Pointer("rack", day=move.a, pile=move.b)
            assert (
                f"day {move.a}" in step.instruction and f"discard pile {move.b}" in step.instruction
            )
        else:
            assert (
                step.pointer == Pointer("pile", pile=move.a)
                and f"discard pile {move.a}" in step.instruction
            )
    end = tutor.step(tutor.total)
    assert end.done and end.view.winner == tutor.lesson.seat and "won" in end.instruction


def test_the_newcomer_is_spoken_to_when_winning(tutor: Tutor) -> None:
    assert tutor.step(tutor.total).news[-1] == "You complete the journey and win"
    with use_language("de"):
        assert tutor.step(tutor.total).news[-1] == "Du vollendest die Reise und gewinnst"


def test_each_topic_is_explained_once_with_its_link_on_the_map(tutor: Tutor) -> None:
    seen: list[Topic] = []
    for number in range(tutor.total + 1):
        step = tutor.step(number)
        assert len(step.lessons) == len(step.topics)
        seen.extend(step.topics)
        for topic, text in zip(step.topics, step.lessons, strict=True):
            if topic in (Topic.NEIGHBOURS, Topic.LINK, Topic.SKIP):
                assert step.map_days, topic
                assert "Here: " in text
    assert sorted(seen) == sorted(Topic)


def test_a_wrong_legal_move_is_explained_and_the_lesson_stays(tutor: Tutor) -> None:
    for number in range(tutor.total):
        step = tutor.step(number)
        others = [m for m in step.view.legal_moves() if m != step.expected]
        for move in others:
            check = tutor.check(number, move)
            assert not check.ok
            assert check.message.endswith(step.instruction), check.message
            assert "Try this: " in check.message
    # The step is still where it was.
    assert tutor.step(0).expected == load_lesson("usa").moves[0]


def test_a_wrong_day_names_the_link_it_would_break(tutor: Tutor) -> None:
    messages = []
    for number in range(tutor.total):
        step = tutor.step(number)
        if step.expected is not None and step.expected.kind is MoveKind.DRAFT:
            for move in step.view.legal_moves():
                if move != step.expected:
                    messages.append(tutor.check(number, move).message)
    assert any("would break your journey" in m and "→" in m for m in messages)


def test_an_illegal_move_gets_the_engines_reason(tutor: Tutor) -> None:
    check = tutor.check(0, Move.draw())
    assert not check.ok and "racks are still being filled" in check.message
    turn = next(n for n in range(tutor.total) if tutor.step(n).view.phase is Phase.DRAW)
    assert "first take a tile" in tutor.check(turn, Move.discard(1)).message
    assert "over" in tutor.check(tutor.total, Move.draw()).message
    with pytest.raises(IndexError, match="steps 0 to"):
        tutor.step(tutor.total + 1)


def test_the_emptied_pile_rule_is_taught_where_the_discard_is_forced(tutor: Tutor) -> None:
    number = next(n for n in range(tutor.total) if Topic.EMPTIED_PILE in tutor.step(n).topics)
    taken = tutor.step(number).expected
    assert taken is not None and taken.kind is MoveKind.TAKE
    after = tutor.step(number + 1)
    assert after.view.forced_pile == taken.a
    other = 1 if taken.a != 1 else 2
    assert "always three discard piles" in tutor.check(number + 1, Move.discard(other)).message


def test_the_newcomer_sees_only_their_own_view(tutor: Tutor) -> None:
    for number in range(tutor.total):
        step = tutor.step(number)
        assert step.view.racks is None  # no other rack
        assert all("drew" not in line or "?" not in line for line in step.news)


@pytest.mark.parametrize("edition", ["usa", "germany"])
def test_every_sentence_speaks_german(edition: str) -> None:
    german = Tutor(load_lesson(edition))
    with use_language("de"):
        texts = [
            t
            for n in range(german.total + 1)
            for t in (german.step(n).instruction, *german.step(n).lessons)
        ]
        wrong = german.check(
            0, next(m for m in german.step(0).view.legal_moves() if m != german.step(0).expected)
        )
    assert any(text.startswith("Lege") for text in texts)
    assert all("Put " not in text and "Here: " not in text for text in texts)
    assert "Versuch" in wrong.message
