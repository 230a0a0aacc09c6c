"""The bot registry: every computer player a person can choose, registered once.

The terminal, ``tendays simulate``, the server and (over ``GET /api/bots``) the browser all read
this list, so a new bot or level is added here and nowhere else. A *level* is what a person picks at
the table (easy, normal, hard); each names a bot. Bots may also be named directly (``greedy``), with
a budget where they take one (``expert:48`` rollouts, ``expert:0.5s`` seconds), or as ``cmd:<command
line>`` for an external program speaking the engine protocol (``docs/engine-protocol.md``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from tendays.engine.i18n import gettext

from .base import Bot, RandomBot
from .expert import DEFAULT_ITERATIONS, READING_ITERATIONS, ExpertBot
from .fallible import FallibleBot
from .greedy import GreedyBot

if TYPE_CHECKING:
    import random

    from tendays.engine import Move, Options, State

    from .opponent_model import OpponentModel


def N_(message: str) -> str:  # noqa: N802 (gettext's name for a message marked for the catalogues)
    """Mark a description for the catalogues; it is translated where it
    is shown (the setup screen)."""
    return message


__all__ = [
    "BOTS",
    "LEVELS",
    "BotEntry",
    "Level",
    "bot_names",
    "ladder_ratings",
    "level_names",
    "make_bot",
    "refusal",
]


@dataclass(frozen=True, slots=True)
class BotEntry:
    """A bot that can be named: how to build it, and whether it takes a budget after a colon."""

    name: str
    description: str
    build: Callable[[str], Bot]  # called with the budget text ("" for none)
    budget: str = ""  # the form of the budget, e.g. "ROLLOUTS or SECONDSs"; "" if it takes none
    # Why it cannot play a game of this edition id and these options (a sentence), or None: for a
    # bot made for some games only, so a front end refuses the game before it starts instead of the
    # bot failing in it.
    refuses: Callable[[str, Options], str | None] | None = None


@dataclass(frozen=True, slots=True)
class Level:
    """A difficulty a person chooses at the table, and the bot that plays it."""

    name: str
    bot: str
    description: str
    # the level's name as players read it, marked for the catalogues; "" for the name itself
    word: str = ""

    @property
    def said(self) -> str:
        """The level's name in the reader's language ("leicht" for easy)."""
        return gettext(self.word or self.name)

    @property
    def rating(self) -> float | None:
        """The level's openskill rating (mu) in the published ladder tournament, if it has one."""
        entry = ladder_ratings()["ratings"].get(self.name)
        return None if entry is None else float(entry["mu"])


def _plain(name: str, make: Callable[[], Bot]) -> Callable[[str], Bot]:
    def build(budget: str) -> Bot:
        if budget:
            raise ValueError(f"the {name} bot takes no budget, so {name}:{budget} means nothing")
        return make()

    return build


def _expert_modelled(budget: str) -> Bot:
    from .opponent_model import OpponentModel

    return _expert(budget, "expert+model", OpponentModel.shipped())


def _expert_drafting(budget: str) -> Bot:
    return _expert(budget, "expert+draft", draft_search=True)


def _expert_reading(budget: str) -> Bot:
    return _expert(budget, "expert+rivals", read_rivals=True)


def _expert_learned(budget: str) -> Bot:
    return _expert(budget, "expert+learned", read_rivals=True, learned_start=True)


def _expert_valued(budget: str) -> Bot:
    return _expert(budget, "expert+value", read_rivals=True, learned_start=True, value_leaf=4)


def _apprentice(budget: str) -> Bot:
    if budget:
        raise ValueError(f"the apprentice takes no budget, so apprentice:{budget} means nothing")
    from .apprentice import ApprenticeBot

    return ApprenticeBot()


def _expert_apprenticed(budget: str) -> Bot:
    from .apprentice import ApprenticeBot
    from .race import RaceBot

    policy = ApprenticeBot().policy
    return _expert(
        budget,
        "expert+apprentice",
        read_rivals=True,
        learned_start=True,
        start=RaceBot(),
        playout=policy.state_move,
    )


def _expert(
    budget: str,
    name: str = "expert",
    model: OpponentModel | None = None,
    draft_search: bool = False,
    read_rivals: bool = False,
    learned_start: bool = False,
    value_leaf: int | None = None,
    start: Bot | None = None,
    playout: Callable[[State, random.Random], Move] | None = None,
) -> Bot:
    iterations: int | None = READING_ITERATIONS if read_rivals else DEFAULT_ITERATIONS
    think: float | None = None
    if budget:
        seconds = budget.endswith("s")
        try:
            if seconds:
                iterations, think = None, float(budget[:-1])
            else:
                iterations = int(budget)
        except ValueError:
            raise ValueError(
                f"bad expert budget {budget!r}: give rollouts per decision (expert:48) "
                f"or seconds per decision (expert:0.5s)"
            ) from None
        name = f"{name}:{budget}"
    return ExpertBot(
        iterations=iterations,
        think=think,
        name=name,
        opponent_model=model,
        draft_search=draft_search,
        read_rivals=read_rivals,
        learned_start=learned_start,
        value_leaf=value_leaf,
        start=start,
        playout=playout,
    )


def _learned(budget: str) -> Bot:
    if budget:
        raise ValueError(f"the learned bot takes no budget, so learned:{budget} means nothing")
    try:
        from .learned import LearnedBot
    except ImportError:
        raise ValueError("the learned bot needs numpy: pip install numpy") from None
    return LearnedBot()


def _learned_refuses(edition: str, options: Options) -> str | None:
    try:
        from .learned import refusal
    except ImportError:
        return "the learned bot needs numpy: pip install numpy"
    return refusal(edition, options)


def _race(budget: str) -> Bot:
    if budget:
        raise ValueError(f"the race bot takes no budget, so race:{budget} means nothing")
    from .race import RaceBot

    return RaceBot()


def _race_searching(budget: str) -> Bot:
    from .race import RaceBot

    # Alone, the search starting from the solo race's move took fewer turns than the race alone
    # (docs/bots.md, "The solo bound"); at a table the race bot's own move was the stronger.
    solo = _expert(budget, "expert+learned", read_rivals=True, learned_start=True)
    return RaceBot(name="race+search", alone=solo)


def _fallible(budget: str) -> Bot:
    try:
        miss = float(budget) if budget else 0.5
    except ValueError:
        raise ValueError(
            f"bad share of overlooked moves {budget!r}: give a number from 0 to 1 (fallible:0.3)"
        ) from None
    return FallibleBot(miss, name=f"fallible:{budget}" if budget else "fallible")


#: Every bot, by name.
BOTS: dict[str, BotEntry] = {
    entry.name: entry
    for entry in (
        BotEntry("random", "plays a random legal move", _plain("random", RandomBot)),
        BotEntry(
            "greedy",
            "takes and places the tile that brings its journey closest to complete, "
            "weighing which tiles may still come",
            _plain("greedy", GreedyBot),
        ),
        BotEntry(
            "fallible",
            "plays like greedy but overlooks its best move in a share of its decisions, playing "
            "another plausible one",
            _fallible,
            budget="MISS (a share from 0 to 1)",
        ),
        BotEntry(
            "expert",
            "the greedy bot with a look-ahead: plays many possible futures of each promising move",
            _expert,
            budget="ROLLOUTS or SECONDSs",
        ),
        BotEntry(
            "learned",
            "weighs each move by the greedy bot's yardstick with multiples tuned in play, and a "
            "small neural network trained by self-play breaks near-ties (10-day USA games only)",
            _learned,
            refuses=_learned_refuses,
        ),
        BotEntry(
            "race",
            "judges a rack by every journey it could become, each weighed by how soon its tiles "
            "may come, and minds what its discards give the next player",
            _race,
        ),
        BotEntry(
            "race+search",
            "the race bot at a table; alone, the expert's search starting from the solo race's "
            "move",
            _race_searching,
            budget="ROLLOUTS or SECONDSs",
        ),
        BotEntry(
            "expert+model",
            "the expert, dealing the other players' hidden days of its sampled worlds by the "
            "learned opponent model",
            _expert_modelled,
            budget="ROLLOUTS or SECONDSs",
        ),
        BotEntry(
            "expert+rivals",
            "the expert, imagining the other players' racks as near-journeys their public "
            "history allows, which play back in its look-ahead",
            _expert_reading,
            budget="ROLLOUTS or SECONDSs",
        ),
        BotEntry(
            "expert+learned",
            "expert+rivals starting from the learned bot's move (greedy's in games the learned "
            "bot does not play), which its look-ahead must clearly beat",
            _expert_learned,
            budget="ROLLOUTS or SECONDSs",
        ),
        BotEntry(
            "expert+value",
            "expert+learned judging each look-ahead four turns on by a learned chance to finish "
            "first (two-player 10-day USA games; elsewhere it plays to the end)",
            _expert_valued,
            budget="ROLLOUTS or SECONDSs",
        ),
        BotEntry(
            "apprentice",
            "a fast move scorer fitted to imitate the race bot and then the search's own choices",
            _apprentice,
        ),
        BotEntry(
            "expert+apprentice",
            "the search with plausible rival racks starting from the race bot's move, every "
            "player's look-ahead played by the apprentice",
            _expert_apprenticed,
            budget="ROLLOUTS or SECONDSs",
        ),
        BotEntry(
            "expert+draft",
            "the expert, placing each drafted tile where sampled futures of the draft end "
            "closest to a journey",
            _expert_drafting,
            budget="ROLLOUTS or SECONDSs",
        ),
    )
}

#: The difficulty levels offered to people, easiest first. Their miss rates were chosen on one
#: range of deals and their ratings measured on others (``benchmarks/ladder.py``, docs/bots.md).
LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "beginner",
            "fallible:0.5",
            N_(
                "knows the rules and never spoils its own journey, but overlooks half of "
                "its best moves"
            ),
            N_("beginner"),
        ),
        Level(
            "easy",
            "fallible:0.25",
            N_("plays sensibly but overlooks a quarter of its best moves"),
            N_("easy"),
        ),
        Level(
            "normal",
            "greedy",
            N_("builds its journey steadily and watches the piles"),
            N_("normal"),
        ),
        Level(
            "hard",
            "race+search",
            N_("weighs every journey its rack could become and what it gives away"),
            N_("hard"),
        ),
    )
}


_RATINGS: dict[str, Any] = {}


def ladder_ratings() -> dict[str, Any]:
    """The published ladder tournament (``bots/ratings.json``): how it was
    played, and each level's rating."""
    if not _RATINGS:
        text = resources.files("tendays.bots").joinpath("ratings.json").read_text("utf-8")
        _RATINGS.update(json.loads(text))
    return _RATINGS


def level_names() -> tuple[str, ...]:
    """The levels, easiest first."""
    return tuple(LEVELS)


def bot_names() -> tuple[str, ...]:
    """Every plain name :func:`make_bot` accepts: the levels, then the bots."""
    return (*LEVELS, *BOTS)


def _forms() -> str:
    forms = [
        *LEVELS,
        *(f"{e.name}" + (f", {e.name}:{e.budget}" if e.budget else "") for e in BOTS.values()),
    ]
    return ", ".join([*forms, "cmd:COMMAND LINE"])


def _entry(spec: str) -> tuple[BotEntry | None, str]:
    """The registry entry a spec names (None for an unknown one) and its budget text."""
    name, _, budget = spec.strip().partition(":")
    name = name.lower()
    level = LEVELS.get(name)
    if level is not None and not budget:
        name, _, budget = level.bot.partition(":")
    return BOTS.get(name), budget.strip()


def refusal(spec: str, edition: str, options: Options) -> str | None:
    """Why the bot ``spec`` cannot play a game of ``edition`` (an id) with
    ``options``, or None if it can."""
    if spec.strip().startswith("cmd:"):
        return None
    entry, _ = _entry(spec)
    if entry is None or entry.refuses is None:
        return None
    return entry.refuses(edition, options)


def make_bot(spec: str) -> Bot:
    """The bot a spec names; raises ``ValueError`` listing the choices for an unknown spec."""
    text = spec.strip()
    if text.startswith("cmd:"):
        from .engine_client import EngineBot

        return EngineBot(text[len("cmd:") :].strip())
    entry, budget = _entry(text)
    if entry is None:
        raise ValueError(f"unknown bot {spec!r}; choose one of: {_forms()}")
    return entry.build(budget)
