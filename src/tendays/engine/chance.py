"""Seeded random streams: the one place that turns a seed into a ``random.Random``.

Every use of chance in the project (a game's deal, its first seat and reshuffles, a bot's dice, a
simulated tournament's deals, a puzzle pick) draws from its own named stream. A stream's name is
its :class:`Purpose` followed by the parts that tell it apart
(``tendays-bot/<seed>/<seat>/<move>``), and the name alone seeds it. So a stream never depends on
how many numbers another one drew, and a record replays with the same tiles and the same bot moves
on any machine, in any front end.

The names are part of every stored record and golden file: changing one changes every game dealt
from a seed, so they are spelled here once and never change.
"""

from __future__ import annotations

import random
from enum import StrEnum

__all__ = [
    "GameStream",
    "Purpose",
    "decision_rng",
    "first_seat",
    "game_stream",
    "stream",
]


class Purpose(StrEnum):
    """What a family of streams decides; its value begins the name of each of them."""

    GAME = "tendays"  # a game's deal, first seat and reshuffles (:class:`GameStream`)
    BOT = "tendays-bot"  # a computer player's dice for one move of one game
    ANALYSIS = "tendays-analysis"  # the analysing bot's dice for one move of a replay
    NEXT_PUZZLE = "tendays-next"  # the server's pick of the next shipped puzzle
    PUZZLES = "tendays-puzzles"  # the sample of shipped puzzles for one edition and seed
    SIMULATION = "tendays-sim"  # the seed of each deal of a simulated tournament
    ENGINE_MATCH = "tendays-engine"  # the seeds of a match between engine programs
    CLONING = "tendays-clone"  # the deals and greedy's tie-breaks of the cloned policy's games
    TRAINING = "tendays-train"  # the deals the policy's training curve is measured on


class GameStream(StrEnum):
    """The streams of one game, each derived from the game's seed."""

    DEAL = "deal"  # the shuffle of the tiles before the draft
    FIRST = "first"  # the seat that takes the first turn, when the options leave it to chance
    RESHUFFLE = "reshuffle"  # followed by how many reshuffles came before


def stream(purpose: Purpose, *parts: object) -> random.Random:
    """The stream named ``purpose/part/part/...`` (each part as an f-string writes it)."""
    return random.Random("/".join([purpose.value, *(f"{part}" for part in parts)]))


def game_stream(seed: int, which: GameStream, *parts: object) -> random.Random:
    """The stream of one use of chance in the game dealt from ``seed``."""
    return stream(Purpose.GAME, seed, which.value, *parts)


def first_seat(seed: int, players: int) -> int:
    """The seat (0-based) that takes the first turn in a game dealt from ``seed`` whose options
    leave it to chance."""
    return game_stream(seed, GameStream.FIRST).randrange(players)


def decision_rng(seed: int, seat: int, number: int) -> random.Random:
    """The random stream of the computer player at ``seat`` for the game's move ``number``
    (0-based).

    The seed is secret, so the stream is too; it depends on nothing else, so a restart, a replay or
    another front end gives the bot the same dice.
    """
    return stream(Purpose.BOT, seed, seat, number)
