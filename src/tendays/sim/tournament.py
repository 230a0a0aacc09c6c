"""Tournaments: many seeded bot games with seats rotated, played in any order, summed up in order.

Game ``i`` of a tournament is fully determined by the configuration and ``i``: its seed and its
seating (seats rotate, so every player sits in every seat equally often) derive from them, and every
bot's dice from the game's seed (:func:`tendays.engine.decision_rng`). So the games can be played in
one process, across worker processes or on a Ray cluster, and the results (all but the measured
thinking times) are the same. In a *duplicate* tournament each deal is played once per seating
(games ``d*n`` to ``d*n + n - 1`` share deal ``d``), so the luck of the deal cancels between the
players and the result can also be read per deal (:class:`Paired`).

A bot that raises, answers an illegal move or (for external engines) answers too slowly or not at
all loses the game with the reason recorded; the tournament goes on.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tendays.bots import Bot, analyze, make_bot, refusal
from tendays.engine import (
    Game,
    IllegalMoveError,
    Move,
    Options,
    Phase,
    PlayerView,
    load_edition,
    play_bots,
)
from tendays.engine.chance import Purpose, stream

from .stats import Rating, rate_games, wilson

_Z95 = 1.959964

__all__ = [
    "GameResult",
    "Paired",
    "PlayerSummary",
    "Summary",
    "Tournament",
    "paired",
    "play_game",
    "summarize",
]


@dataclass(frozen=True, slots=True)
class Tournament:
    """What to play: the bots (specs, one per player), how many games, and the rules."""

    edition: str
    players: tuple[str, ...]
    games: int = 400
    seed: int = 1
    max_turns: int | None = 300
    days: int = 10
    swap: bool = False
    duplicate: bool = False  # each deal once per seating

    def options(self) -> Options:
        return Options(
            players=len(self.players), days=self.days, swap=self.swap, turn_limit=self.max_turns
        )

    def validate(self) -> None:
        """Raise ``ValueError`` for a tournament that cannot be played, before any game starts."""
        if not self.players:
            raise ValueError("name at least one player")
        if self.games < 1:
            raise ValueError(f"play at least one game, not {self.games}")
        if self.duplicate and self.games % len(self.players):
            raise ValueError(
                f"a duplicate tournament plays each deal once per seating: the number of games "
                f"must be a multiple of the number of players ({len(self.players)}), "
                f"not {self.games}"
            )
        options = self.options()
        options.validate(load_edition(self.edition))
        for spec in self.players:
            if not spec.startswith("cmd:"):
                make_bot(spec)
            reason = refusal(spec, self.edition, options)
            if reason is not None:
                raise ValueError(reason)

    def deal(self, index: int) -> int:
        """The deal game ``index`` is played on: its own, or in a duplicate
        tournament its seatings' shared one."""
        return index // len(self.players) if self.duplicate else index

    def game_seed(self, index: int) -> int:
        return stream(Purpose.SIMULATION, self.seed, self.deal(index)).getrandbits(32)

    def seating(self, index: int) -> tuple[int, ...]:
        """Which player sits in each seat in game ``index`` (seats rotate from game to game)."""
        n = len(self.players)
        return tuple((seat + index) % n for seat in range(n))

    def names(self) -> list[str]:
        """Display names: the specs, numbered where one appears more than once."""
        names = []
        for i, spec in enumerate(self.players):
            same = [j for j, s in enumerate(self.players) if s == spec]
            names.append(spec if len(same) == 1 else f"{spec} #{same.index(i) + 1}")
        return names


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one game went, per player (not per seat)."""

    index: int
    seed: int
    seating: tuple[int, ...]
    winner: int | None  # the winning player, if any
    turns: int
    hit_limit: bool
    think_seconds: tuple[float, ...]
    decisions: tuple[int, ...]
    # each player's journey distance when the draft ended (-1: not reached)
    start_distance: tuple[int, ...]
    forfeit: int | None = None  # the player who lost by a bad answer
    reason: str = ""


class _Failed(Exception):
    """A player's own failure while choosing, told apart from an illegal answer."""

    def __init__(self, seat: int, error: Exception) -> None:
        super().__init__(str(error))
        self.seat = seat
        self.error = error


class _Seat:
    """A bot at one seat of a tournament game: it times its decisions
    and remembers its last answer."""

    def __init__(self, seat: int, bot: Bot) -> None:
        self.seat = seat
        self.bot = bot
        self.think = 0.0
        self.decisions = 0
        self.last: Move | None = None

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        began = time.perf_counter()
        try:
            self.last = self.bot.choose(view, rng)
        except Exception as error:  # any failure of a bot costs it the game, not the tournament
            raise _Failed(self.seat, error) from error
        finally:
            self.think += time.perf_counter() - began
            self.decisions += 1
        return self.last

    def close(self) -> None:
        close = getattr(self.bot, "close", None)
        if close is not None:
            close()


def play_game(tournament: Tournament, index: int) -> GameResult:
    """Play game ``index`` of ``tournament`` through the engine's turn loop
    (:func:`tendays.engine.play_bots`)."""
    edition = load_edition(tournament.edition)
    seed = tournament.game_seed(index)
    seating = tournament.seating(index)
    n = len(seating)
    specs = [tournament.players[seating[seat]] for seat in range(n)]
    seats = [_Seat(seat, make_bot(specs[seat])) for seat in range(n)]
    game = Game(edition, tournament.options(), seed)
    start = [-1] * n

    def after_move(seat: int, move: Move) -> None:
        if start[0] < 0 and game.state.phase is not Phase.DRAFT:  # the move that ended the draft
            start[:] = [analyze(edition, rack).distance for rack in game.state.racks]

    forfeit: int | None = None
    reason = ""
    try:
        play_bots(game, seats, after_move)
    except _Failed as failure:
        forfeit, reason = failure.seat, f"{specs[failure.seat]} failed: {failure.error}"
    except IllegalMoveError as error:  # the game is unchanged: the player to move answered it
        forfeit = game.state.current
        reason = f"{specs[forfeit]} played an illegal move '{seats[forfeit].last}': {error}"
    finally:
        for seat in seats:
            seat.close()
    state = game.state
    by_player = sorted(range(n), key=lambda seat: seating[seat])
    winner: int | None
    if forfeit is not None:
        # A forfeit ends the game: with one rival left, that rival wins; with more, nobody does.
        rivals = [seat for seat in range(n) if seat != forfeit]
        winner = seating[rivals[0]] if len(rivals) == 1 else None
    else:
        winner = None if state.winner is None else seating[state.winner]
    return GameResult(
        index=index,
        seed=seed,
        seating=seating,
        winner=winner,
        turns=state.turn,
        hit_limit=forfeit is None and state.is_over and state.winner is None,
        think_seconds=tuple(seats[seat].think for seat in by_player),
        decisions=tuple(seats[seat].decisions for seat in by_player),
        start_distance=tuple(start[seat] for seat in by_player),
        forfeit=None if forfeit is None else seating[forfeit],
        reason=reason,
    )


@dataclass(frozen=True, slots=True)
class Paired:
    """One player's result per deal of a duplicate tournament, and the win rate's interval over
    deals.

    ``won``: deals the player won on every seating; ``lost``: deals won on none; ``split``: the
    rest. The interval treats each deal's share of wins as one observation, so the seatings of a
    deal, which share its luck, are not counted as independent games.
    """

    deals: int
    won: int
    split: int
    lost: int
    ci95: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "won": self.won,
            "split": self.split,
            "lost": self.lost,
            "ci95": list(self.ci95),
        }


def paired(tournament: Tournament, results: Sequence[GameResult], player: int) -> Paired:
    """``player``'s result per deal over the complete deals among
    ``results`` of a duplicate tournament."""
    seatings = len(tournament.players)
    by_deal: dict[int, list[GameResult]] = {}
    for r in results:
        by_deal.setdefault(tournament.deal(r.index), []).append(r)
    shares = [
        sum(r.winner == player for r in games) / seatings
        for games in by_deal.values()
        if len(games) == seatings
    ]
    won = sum(share == 1 for share in shares)
    lost = sum(share == 0 for share in shares)
    deals = len(shares)
    if deals < 2 or statistics.pstdev(shares) == 0:
        # Too few deals, or all alike, for a spread: the games' interval,
        # which treats them as independent.
        games = deals * seatings
        interval = wilson(round(sum(shares) * seatings), games)
    else:
        mean = statistics.fmean(shares)
        half = _Z95 * statistics.stdev(shares) / math.sqrt(deals)
        interval = (max(0.0, mean - half), min(1.0, mean + half))
    return Paired(deals, won, deals - won - lost, lost, interval)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    name: str
    spec: str
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    mean_turns_to_win: float | None  # over the games won by completing a journey (not by forfeit)
    median_turns_to_win: float | None
    limit_games: int
    forfeits: int
    mean_think_ms: float | None  # over the games the player finished; None: no decision in one
    rating: Rating
    mean_start_distance: float | None
    wins_by_forfeit: int = 0
    never_played: bool = False  # every game forfeited at the player's first decision
    paired: Paired | None = None  # duplicate tournaments only

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "spec": self.spec,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": list(self.ci95),
            "mean_turns_to_win": self.mean_turns_to_win,
            "median_turns_to_win": self.median_turns_to_win,
            "limit_games": self.limit_games,
            "forfeits": self.forfeits,
            "mean_think_ms": self.mean_think_ms,
            "rating": {
                "mu": self.rating.mu,
                "sigma": self.rating.sigma,
                "ordinal": self.rating.ordinal,
            },
            "mean_start_distance": self.mean_start_distance,
            "wins_by_forfeit": self.wins_by_forfeit,
            "never_played": self.never_played,
            **({"paired": self.paired.to_json()} if self.paired is not None else {}),
        }


@dataclass(frozen=True, slots=True)
class Summary:
    tournament: Tournament
    games: int
    draws: int
    mean_turns: float
    median_turns: float
    players: tuple[PlayerSummary, ...]
    forfeit_reasons: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        t = self.tournament
        return {
            "games": self.games,
            "draws": self.draws,
            "players": [p.to_json() for p in self.players],
            "mean_turns": self.mean_turns,
            "median_turns": self.median_turns,
            "edition": t.edition,
            "seed": t.seed,
            "max_turns": t.max_turns,
            "days": t.days,
            "swap": t.swap,
            "duplicate": t.duplicate,
            "forfeit_reasons": list(self.forfeit_reasons),
        }


def summarize(tournament: Tournament, results: Sequence[GameResult]) -> Summary:
    """Per-player statistics over the results, taken in game order (so ratings are reproducible)."""
    results = sorted(results, key=lambda r: r.index)
    n = len(tournament.players)
    names = tournament.names()
    ranks: list[list[int]] = []
    for r in results:
        # Winner first, the rest tied behind; with no winner everybody ties.
        game_ranks = [1 if r.winner is None or p == r.winner else 2 for p in range(n)]
        if r.forfeit is not None:
            game_ranks[r.forfeit] = 3
        ranks.append(game_ranks)
    ratings = rate_games(n, ranks) if n > 1 else [Rating(25.0, 25.0 / 3)]
    players = []
    for p in range(n):
        pairs = paired(tournament, results, p) if tournament.duplicate and n > 1 else None
        wins = sum(r.winner == p for r in results)
        won = [r.turns for r in results if r.winner == p and r.forfeit is None]
        # A forfeited decision's time is the time until it failed, not
        # thinking: count finished games only.
        finished = [r for r in results if r.forfeit != p]
        decisions = sum(r.decisions[p] for r in finished)
        think = sum(r.think_seconds[p] for r in finished)
        forfeited = [r for r in results if r.forfeit == p]
        starts = [r.start_distance[p] for r in results if r.start_distance[p] >= 0]
        players.append(
            PlayerSummary(
                name=names[p],
                spec=tournament.players[p],
                games=len(results),
                wins=wins,
                win_rate=wins / len(results) if results else 0.0,
                ci95=pairs.ci95 if pairs is not None else wilson(wins, len(results)),
                mean_turns_to_win=statistics.fmean(won) if won else None,
                median_turns_to_win=float(statistics.median(won)) if won else None,
                limit_games=sum(r.hit_limit for r in results),
                forfeits=sum(r.forfeit == p for r in results),
                mean_think_ms=1000 * think / decisions if decisions else None,
                rating=ratings[p],
                mean_start_distance=statistics.fmean(starts) if starts else None,
                wins_by_forfeit=sum(r.winner == p and r.forfeit is not None for r in results),
                never_played=bool(results)
                and len(forfeited) == len(results)
                and all(r.decisions[p] <= 1 for r in forfeited),
                paired=pairs,
            )
        )
    turns = [r.turns for r in results]
    return Summary(
        tournament=tournament,
        games=len(results),
        draws=sum(r.winner is None for r in results),
        mean_turns=statistics.fmean(turns) if turns else 0.0,
        median_turns=float(statistics.median(turns)) if turns else 0.0,
        players=tuple(players),
        forfeit_reasons=tuple(f"game {r.index + 1}: {r.reason}" for r in results if r.reason),
    )
