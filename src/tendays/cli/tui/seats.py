"""The seats of a terminal game: who sits where, read from ``--players`` or a save file.

A seat is a person at the keyboard or a bot of the registry (:func:`tendays.bots.bot_names`, or a
program, ``cmd:PROGRAM``). A lower-case word one slip away from a bot's name is refused as a likely
typo, naming the bot it is like and the way to seat a person of that name.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field

from tendays.bots import BOTS, LEVELS, Bot, bot_names, make_bot
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import pgettext
from tendays.engine.plain_text import shown, text_problem

from .render import YOU

__all__ = [
    "HUMAN_WORDS",
    "PERSON_PREFIX",
    "SeatError",
    "TerminalSeat",
    "is_bot_spec",
    "make_seat_bot",
    "parse_seats",
    "saved_seats_problem",
]

HUMAN_WORDS = ("me", "human", "you")
# "human:Norma": a person called Norma, even when the name looks like a bot's
PERSON_PREFIX = "human:"


class SeatError(ValueError):
    """A ``--players`` list that does not describe the seats of a game."""


def make_seat_bot(spec: str) -> Bot:
    """The bot for a seat spec: a level or bot of the registry (``tendays.bots.bot_names()``),
    or ``cmd:...``."""
    try:
        return make_bot(spec)
    except (ValueError, OSError) as error:
        raise SeatError(_("bot {spec!r}: {error}").format(spec=spec, error=error)) from error


@dataclass
class TerminalSeat:
    """One seat at the table: a person at the keyboard or a bot."""

    name: str
    spec: str  # "human", or the bot spec it was made from
    bot: Bot | None = field(default=None, repr=False)

    @property
    def is_human(self) -> bool:
        return self.bot is None

    @property
    def level(self) -> str:
        """How the seat is described to players: "human", "hard bot", "engine bot"."""
        if self.bot is None:
            return _("human")
        if self.spec.startswith("cmd:"):
            return _("engine bot")
        # a bot named directly (greedy, expert:48) keeps its name
        level = LEVELS.get(self.spec.lower())
        # TRANSLATORS: a bot seat's level after its name, "Bot 2 (normal
        # bot)": no brackets of its own.
        return pgettext("seat", "{level} bot").format(
            level=self.spec if level is None else level.said
        )


def is_bot_spec(word: str) -> bool:
    """Bot specs are the registry's levels and bots, optionally with a budget (``expert:48``), and
    ``cmd:PROGRAM``."""
    return word.lower().partition(":")[0] in bot_names() or word.lower().startswith("cmd:")


def _misspelt_bot(word: str) -> str | None:
    """The bot name ``word`` is one slip away from ("hrad": "hard"), if any.

    A slip (a letter added, left out, changed, or two swapped) leaves a word within a letter of the
    name's length and at least three quarters like it, as :mod:`difflib` measures likeness.
    """
    low = word.lower()
    if len(low) < 3:
        return None
    near = [name for name in bot_names() if abs(len(name) - len(low)) <= 1]
    matches = difflib.get_close_matches(low, near, n=1, cutoff=0.75)
    return matches[0] if matches else None


def _person(word: str, number: int, people: int) -> str:
    """The name of the person a ``--players`` word seats, or SeatError for a
    word that looks like a slip."""
    if word.lower().startswith(PERSON_PREFIX):
        name = word[len(PERSON_PREFIX) :].strip()
        if not name:
            raise SeatError(
                _("{word!r}: write the person's name after {prefix}, e.g. {prefix}Ann").format(
                    word=word, prefix=PERSON_PREFIX
                )
            )
        return name
    if word.lower() in HUMAN_WORDS:
        return YOU if people == 1 else _("Player {number}").format(number=number)
    levels = ", ".join(LEVELS)
    bots = ", ".join(BOTS)
    head, colon, tail = word.partition(":")
    # "Norma" is a name; "norma", a slip
    slip = None if head != head.lower() else _misspelt_bot(head)
    if slip is not None:
        raise SeatError(
            _(
                "{word!r} is not a bot: did you mean {slip!r}? Bot levels: {levels} (bots: "
                "{bots}). For a person called {word}, write {prefix}{word} (or {name})"
            ).format(
                word=word,
                slip=slip + colon + tail,
                levels=levels,
                bots=bots,
                prefix=PERSON_PREFIX,
                name=word.capitalize(),
            )
        )
    if colon:
        raise SeatError(
            _(
                "{word!r} is not a seat: bots are {levels} (levels), {bots}, a budget such as "
                "expert:48, or cmd:PROGRAM; a person is a name, or {prefix}NAME"
            ).format(word=word, levels=levels, bots=bots, prefix=PERSON_PREFIX)
        )
    return word


def parse_seats(text: str, names: Sequence[str] = ()) -> list[TerminalSeat]:
    """Seats from a ``--players`` list such as ``"me,hard,normal"`` or ``"Ann,Bob,easy"``.

    Bot specs are bots (in any case: ``Hard`` is the level); ``me``/``human``/``you``,
    ``human:NAME`` and any other name are people. A lower-case word one slip away from a bot's name
    (``hrad``, ``nromal``) is refused as a likely typo: ``Hrad`` or ``human:hrad`` seats a person of
    that name. ``names`` (from a save file) overrides the names of the seats. A seat that holds a
    control or formatting character (:func:`tendays.engine.plain_text.text_problem`) is refused.
    """
    words = [w.strip() for w in text.split(",")]
    if not text.strip() or any(not w for w in words):
        raise SeatError(
            _(
                "--players {text!r}: give 1 to 4 comma-separated seats, e.g. 'me,hard,normal'"
            ).format(text=text)
        )
    for number, word in enumerate(words, 1):
        problem = text_problem(word, _("seat {number} of --players").format(number=number))
        if problem is not None:
            raise SeatError(problem)
    people = sum(1 for w in words if not is_bot_spec(w))
    seats: list[TerminalSeat] = []
    used: set[str] = set()
    for number, word in enumerate(words, 1):
        if is_bot_spec(word):
            spec = word if word.lower().startswith("cmd:") else word.lower()
            seat = TerminalSeat(_("Bot {number}").format(number=number), spec, make_seat_bot(spec))
        else:
            name = _person(word, number, people)
            if name in used:
                raise SeatError(
                    _("two seats are called {name!r}; give each person a different name").format(
                        name=name
                    )
                )
            seat = TerminalSeat(name, "human")
        used.add(seat.name)
        seats.append(seat)
    for seat, name in zip(seats, names, strict=False):
        seat.name = shown(name)  # read from a save file: checked there, made safe here
    return seats


def saved_seats_problem(specs: Sequence[str]) -> str | None:
    """What is wrong with the seat specs a save file holds, in words; None when each is a person
    (``human``, as :meth:`Table.save` writes one) or a bot of the registry. A name that is neither
    (a bot of another version, a typo in an edited file) is refused rather than seated as a person.
    """
    for number, spec in enumerate(specs, 1):
        word = spec.strip().lower()
        if word in HUMAN_WORDS or word.startswith(PERSON_PREFIX) or is_bot_spec(word):
            continue
        return _(
            "the save file seats {spec!r} at seat {number}, which is neither a person ('human') "
            "nor a bot ({levels}); give the seats with --players to resume it"
        ).format(spec=spec, number=number, levels=", ".join(bot_names()))
    return None
