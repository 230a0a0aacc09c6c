"""Walking a newcomer through a lesson: what to do now, where on the screen, why, and what a wrong
move misses.

Step ``n`` is the newcomer's ``n``-th decision (0-based); step ``total`` is the end, after the
winning move. The newcomer sees only their own view; a wrong move is explained (by the engine's
refusal for an illegal one, by what it breaks or misses for a legal one), and the lesson stays where
it was. Sentences are written in the current language (``tendays.engine.use_language``).
"""

from __future__ import annotations

from dataclasses import dataclass

from tendays.engine import (
    Event,
    EventKind,
    IllegalMoveError,
    Move,
    MoveKind,
    PlayerView,
    State,
    checker_for,
    describe_event,
    view,
)
from tendays.engine.i18n import gettext as _

from .script import Lesson, Topic, link_kinds
from .sentences import bot_name, instruction, topic_text

__all__ = ["Check", "Pointer", "Step", "Tutor"]

_LINK_TOPICS = (Topic.NEIGHBOURS, Topic.LINK, Topic.SKIP)


@dataclass(frozen=True, slots=True)
class Pointer:
    """The part of the screen a step is about: ``area`` is "rack" (``day``), "draw", "pile"
    (``pile``) or "" at the end. A replacement points at its day, then at the
    ``pile`` the old tile goes onto."""

    area: str
    day: int = 0
    pile: int = 0


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of the newcomer, with everything a screen says about it."""

    number: int
    total: int
    view: PlayerView
    expected: Move | None  # None at the end
    topics: tuple[Topic, ...]  # the rules first explained here
    lessons: tuple[str, ...]  # their explanations
    news: tuple[str, ...]  # what the others did (and the table did) since the newcomer's last move
    instruction: str
    why: str
    pointer: Pointer
    map_days: tuple[int, ...]  # days of the journey the explanations are about, to show on the map

    @property
    def done(self) -> bool:
        return self.expected is None


@dataclass(frozen=True, slots=True)
class Check:
    """The verdict on a move the newcomer tried: ``ok``, or why not (``message``)."""

    ok: bool
    message: str = ""


class Tutor:
    """The lesson's game, replayed once; steps and checks are asked of it by number."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        state = lesson.record.replay(0)
        self._states: list[State] = [state]
        for move in lesson.moves:
            state = state.apply(move)
            self._states.append(state)
        self._decisions = tuple(
            i for i, s in enumerate(self._states[:-1]) if s.current == lesson.seat
        )
        self._checker = checker_for(state.edition)

    @property
    def total(self) -> int:
        """How many decisions the newcomer makes."""
        return len(self._decisions)

    def names(self) -> tuple[str, ...]:
        """The seats' names in the current language (the newcomer's is "Player 1")."""
        seat = self.lesson.seat
        return tuple(
            _("Player {number}").format(number=s + 1) if s == seat else bot_name(s)
            for s in range(self.lesson.options.players)
        )

    def _number(self, number: int) -> int:
        if not 0 <= number <= self.total:
            raise IndexError(
                _("the guided game has steps 0 to {last}, not {step}").format(
                    last=self.total, step=number
                )
            )
        return number

    def step(self, number: int) -> Step:
        """Step ``number`` (0 to :attr:`total`) in the current language."""
        number = self._number(number)
        seat = self.lesson.seat
        at = self._decisions[number] if number < self.total else len(self.lesson.moves)
        since = self._decisions[number - 1] if number else 0
        state = self._states[at]
        names = self.names()
        news = tuple(
            # The newcomer is spoken to: "You complete the journey and win", not "Player 1 ...".
            _("You complete the journey and win")
            if e.player == seat
            else describe_event(state.edition, e, names)
            for e in self._events(since, at)
            if e.player != seat or e.kind is EventKind.WIN
        )
        expected = self.lesson.moves[at] if number < self.total else None
        # The topics of the others' moves since the last decision (a
        # reshuffle), then those of this move.
        topics = [
            t
            for m in range(since + (number > 0), at + (expected is not None))
            for t in self.lesson.notes.get(m, ())
        ]
        lessons, map_days = self._explain(topics, state, expected)
        seen = view(state, seat)
        if expected is None:
            return Step(
                number,
                self.total,
                seen,
                None,
                tuple(topics),
                lessons,
                news,
                _("You completed your journey and won the guided game. Now play a real one!"),
                "",
                Pointer(""),
                map_days,
            )
        return Step(
            number,
            self.total,
            seen,
            expected,
            tuple(topics),
            lessons,
            news,
            instruction(state.edition, state, expected),
            self._why(state, expected, at),
            _pointer(expected),
            map_days,
        )

    def _events(self, start: int, end: int) -> tuple[Event, ...]:
        events = self._states[end].events
        return tuple(events[len(self._states[start].events) : len(events)])

    def _explain(
        self, topics: list[Topic], state: State, move: Move | None
    ) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The explanation of each topic, and the days of the links they name."""
        seat = self.lesson.seat
        after = state.apply(move) if move is not None else state
        links = link_kinds(after, seat)
        texts: list[str] = []
        days: list[int] = []
        for topic in topics:
            link = ""
            if topic in _LINK_TOPICS:
                on = links[topic]
                link = self._link_sentence(after, on)
                days.extend(on)
            texts.append(topic_text(topic, state, move, link))
        return tuple(texts), tuple(dict.fromkeys(days))

    def _link_sentence(self, state: State, days: tuple[int, ...]) -> str:
        rack = state.racks[self.lesson.seat]
        for link in self._checker.check(rack).links:
            if (link.from_day, link.to_day) == (days[0], days[-1]):
                return link.message
        return ""

    def _why(self, state: State, move: Move, at: int) -> str:
        """Why the lesson makes this move."""
        words = state.edition.words()
        kind = move.kind
        if kind in (MoveKind.DRAFT, MoveKind.REPLACE):
            after = state.apply(move)
            good = [
                link.message
                for link in self._checker.check(after.racks[self.lesson.seat]).links
                if link.ok and link.from_day <= move.a <= link.to_day
            ]
            if good:
                return "; ".join(good) + "."
            if kind is MoveKind.DRAFT:
                return _("It waits there for the days around it to be filled.")
            old = state.racks[state.current][move.a - 1]
            assert old is not None  # a full rack: replacing comes after the draft
            return _("It fits your journey better than {old:the} did.").format(old=words.tile(old))
        if kind is MoveKind.TAKE:
            tile = words.tile(state.piles[move.a - 1][-1])
            later = self.lesson.moves[at + 1]
            if later.kind is MoveKind.REPLACE:
                return _("{tile:The} fits your journey on day {day}.").format(
                    tile=tile, day=later.a
                )
            return _("{tile:The} fits your journey.").format(tile=tile)
        if kind is MoveKind.DRAW:
            return _("None of the open tiles on the discard piles helps your journey now.")
        assert state.in_hand is not None
        return _("{tile:The} does not fit your journey.").format(tile=words.tile(state.in_hand))

    def check(self, number: int, move: Move) -> Check:
        """Whether ``move`` is the move of step ``number``; if not, why, in the current language."""
        step = self._number(number)
        if step == self.total:
            return Check(False, _("The guided game is over: you won it."))
        at = self._decisions[step]
        state = self._states[at]
        expected = self.lesson.moves[at]
        if move == expected:
            return Check(True)
        try:
            after = state.apply(move)
        except IllegalMoveError as error:
            return Check(False, _("Not allowed: {rule}.").format(rule=error))
        return Check(
            False,
            f"{self._miss(state, after, move, expected)} "
            + _("Try this: {instruction}").format(
                instruction=instruction(state.edition, state, expected)
            ),
        )

    def _miss(self, state: State, after: State, move: Move, expected: Move) -> str:
        """What a legal move other than the lesson's misses, in one sentence."""
        words = state.edition.words()
        kind = move.kind
        held = words.tile(state.in_hand) if state.in_hand is not None else None
        if kind in (MoveKind.DRAFT, MoveKind.REPLACE) and move.a != expected.a:
            broken = [
                str(p)
                for p in self._checker.check(after.racks[self.lesson.seat]).problems
                if p.to_day is not None and p.day <= move.a <= p.to_day
            ]
            if broken:
                return _("On day {day}, {tile:the} would break your journey: {problem}.").format(
                    day=move.a, tile=held, problem=broken[0]
                )
            return _(
                "Day {day} is allowed, but {tile:the} fits your journey better on day {expected}."
            ).format(day=move.a, tile=held, expected=expected.a)
        # the same day, another pile
        if kind is expected.kind and kind in (MoveKind.DISCARD, MoveKind.REPLACE):
            return _(
                "Any discard pile is allowed here; the lesson uses the one it names, so the game "
                "goes on as planned."
            )
        if kind is MoveKind.DISCARD:
            return _("{tile:The} is what your journey needs: keep it.").format(tile=held)
        if kind is MoveKind.REPLACE:
            return _(
                "{tile:The} does not fit your journey: it would replace a better tile."
            ).format(tile=held)
        if kind is MoveKind.DRAW:
            top = words.tile(state.piles[expected.a - 1][-1])
            return _(
                "The draw pile is a surprise, but {tile:the} on discard pile {pile} is what your "
                "journey needs."
            ).format(tile=top, pile=expected.a)
        top = words.tile(state.piles[move.a - 1][-1])
        return _("{tile:The} on discard pile {pile} does not help your journey now.").format(
            tile=top, pile=move.a
        )


def _pointer(move: Move) -> Pointer:
    kind = move.kind
    if kind is MoveKind.DRAFT:
        return Pointer("rack", day=move.a)
    if kind is MoveKind.DRAW:
        return Pointer("draw")
    if kind is MoveKind.REPLACE:
        return Pointer("rack", day=move.a, pile=move.b)
    return Pointer("pile", pile=move.a)
