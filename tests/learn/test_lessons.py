"""The shipped lessons, proved against the engine: every scripted moment happens, every move is
legal, the gentle bots play their own moves, and the newcomer wins."""

from __future__ import annotations

import pytest

from tendays.bots import make_bot
from tendays.engine import EventKind, Game, MoveKind, available_editions, decision_rng, view
from tendays.learn import LessonError, Topic, Tutor, available_lessons, find_moments, load_lesson
from tendays.learn.script import Lesson

LESSONS = available_lessons()


def test_every_edition_has_a_lesson() -> None:
    assert set(LESSONS) == set(available_editions())


@pytest.mark.parametrize("edition", LESSONS)
def test_every_moment_of_the_script_happens_where_the_script_says(edition: str) -> None:
    lesson = load_lesson(edition)
    assert lesson.notes == find_moments(lesson.record, lesson.seat)
    taught = [t for topics in lesson.notes.values() for t in topics]
    assert sorted(taught) == sorted(Topic), "every topic is taught, once"


@pytest.mark.parametrize("edition", LESSONS)
def test_every_move_is_legal_the_bots_choose_theirs_and_the_newcomer_wins(edition: str) -> None:
    lesson = load_lesson(edition)
    game = Game(lesson.edition, lesson.options, lesson.record.seed)
    gentle = make_bot(lesson.bot)
    for number, move in enumerate(lesson.moves):
        seat = game.state.current
        assert move in game.state.legal_moves(), (number, move)
        if seat != lesson.seat:
            chosen = gentle.choose(
                view(game.state, seat), decision_rng(lesson.record.seed, seat, number)
            )
            assert chosen == move, f"move {number}: the {lesson.bot} bot plays {chosen}, not {move}"
        game.play(move, seat)
    assert game.state.winner == lesson.seat


@pytest.mark.parametrize("edition", LESSONS)
def test_the_guided_game_is_short_and_the_draw_pile_runs_out(edition: str) -> None:
    tutor = Tutor(load_lesson(edition))
    turns = [tutor.step(n).expected for n in range(tutor.total)]
    assert tutor.total <= 40
    assert (
        sum(1 for m in turns if m is not None and m.kind is MoveKind.DRAFT)
        == tutor.lesson.options.days
    )
    assert tutor.step(tutor.total).view.events[-1].kind is EventKind.WIN


def test_moments_are_found_in_any_game() -> None:
    game = Game("usa", load_lesson("usa").options, 5)
    players = [make_bot("greedy") for _ in range(game.options.players)]
    from tendays.engine import play_bots

    play_bots(game, players)
    moments = find_moments(game.record, 0)
    assert moments[0] == (Topic.DRAFT,)
    first_turn = min(n for n, topics in moments.items() if Topic.TURN in topics)
    assert game.moves[first_turn].kind is not MoveKind.DRAFT


def test_a_lesson_that_does_not_replay_is_refused() -> None:
    data = load_lesson("usa").to_json()
    data["moves"] = ["draw", *data["moves"][1:]]
    with pytest.raises(LessonError, match="does not replay"):
        Lesson.from_json(data)
    with pytest.raises(LessonError, match="not a lesson"):
        Lesson.from_json({**data, "format": "something-else"})
    with pytest.raises(LessonError, match="no guided game"):
        load_lesson("atlantis")


def test_a_lesson_round_trips_through_its_json() -> None:
    lesson = load_lesson("germany")
    assert Lesson.from_json(lesson.to_json()) == lesson
