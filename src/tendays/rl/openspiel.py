"""10 Days as an OpenSpiel game: ``import tendays.rl.openspiel`` registers ``python_tendays``.

    import pyspiel
    import tendays.rl.openspiel  # noqa: F401
    game = pyspiel.load_game("python_tendays", {"edition": "usa", "players": 3})

Parameters: ``edition`` (``"usa"``, ``"germany"``), ``players`` (2-4), ``days``, ``swap`` and
``turns`` (the turn limit per player; 100). The rules are the scalar engine's (``tendays.engine``);
player actions are numbered as :class:`tendays.engine.ActionCodec`. The draw pile is chance: the
game keeps its tiles as a heap whose order nobody knows, and a chance node picks a tile (outcome =
tile index, weighted by the copies left) whenever one is turned over: the tile in a drafter's hand,
each tile drawn, the three tiles that open the discard piles at the end of the draft. A chance node
before the draft picks the first seat (outcome = seat). Chance nodes with one outcome are played at
once.

Observation tensor: :class:`tendays.rl.ObservationEncoder` of the player's view. The game provides
no information-state tensor (``provides_information_state_tensor=False``): the observation vector
does not recall the past, and a fixed-size perfect-recall one is not offered. The observation string
describes the view; the information-state string adds the player's whole history, and so identifies
the player's information set: every action, with each tile that player saw: the tiles it drafted and
drew, the three tiles that opened the discard piles, and every tile that went face up (taken from a
pile, replaced onto one, discarded); another seat's private tiles read ``?``. Returns: +1 to the
winner and -1/(players-1) to each other player (zero sum), 0 to all when the turn limit ends the
game. Needs the ``openspiel`` and ``rl`` extras.

``state.resample_from_infostate(player, sampler)`` gives a state that ``player`` cannot tell from
this one: the tiles that player has not seen dealt again at random
(:meth:`tendays.engine.Knowledge.deal`) and a fresh secret seed, so OpenSpiel's information-set
search (the Python ``ISMCTSBot``) can sample worlds.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel

from tendays.engine import (
    ActionCodec,
    Move,
    MoveKind,
    Phase,
    State,
    knowledge_of,
    load_edition,
    new_game,
    tile_name,
    view,
)
from tendays.engine.chance import first_seat
from tendays.engine.state import MAX_PLAYERS

from .common import env_options
from .observation import ObservationEncoder

__all__ = ["GAME_NAME", "TenDaysGame", "TenDaysState"]

GAME_NAME = "python_tendays"
_PARAMETERS = {"edition": "usa", "players": 2, "days": 10, "swap": False, "turns": 100}
_SEAT, _HAND, _TOP = "seat", "hand", "top"
# What another seat's past private draw reads as in a resampled state: the sample deals that seat's
# rack and hand afresh but not which tiles it once saw drawn.
_UNKNOWN_DRAW = "a tile"

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python 10 Days",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


class _Rules:
    """What a game's parameters fix (edition, options, numbering, encoder);
    shared, never copied, by states."""

    def __init__(self, edition: str, players: int, days: int, swap: bool, turns: int) -> None:
        self.edition = load_edition(edition)
        if turns < 1:
            raise ValueError(f"turns must be at least 1, not {turns}")
        self.options = env_options(
            players=players, days=days, swap=swap, turn_limit=turns * players
        )
        self.options.validate(self.edition)
        self.codec = ActionCodec(days)
        self.encoder = ObservationEncoder(self.edition, self.options)
        # every state starts from it (its deal is chance's to decide), and clones rebuild one
        self.initial = new_game(self.edition, self.options, 0)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Rules:
        return self


@functools.cache
def _rules(edition: str, players: int, days: int, swap: bool, turns: int) -> _Rules:
    return _Rules(edition, players, days, swap, turns)


class _Shared:
    """An immutable value that deep copies of a state share (the engine's states never change)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


@dataclasses.dataclass(frozen=True, slots=True)
class _History:
    """Each player's history text, as the information-state string shows it: every entry, with
    ``?`` for one shown to another seat. ``sampled`` is the same with a seat's own private entries
    read as an unknown draw: the history that seat keeps in a resampled state, which deals its
    rack and hand afresh but not which tiles it once saw drawn. Immutable, so clones share it."""

    own: tuple[str, ...]
    sampled: tuple[str, ...]

    def add(self, text: str, shown: int | None = None) -> _History:
        """The history with one more entry, shown to everyone or to seat ``shown`` alone."""

        def grown(texts: tuple[str, ...], mine: str) -> tuple[str, ...]:
            return tuple(
                (old + "; " if old else "")
                + (text if shown is None else mine if seat == shown else "?")
                for seat, old in enumerate(texts)
            )

        return _History(grown(self.own, text), grown(self.sampled, _UNKNOWN_DRAW))

    def resampled_for(self, player: int) -> _History:
        """The history of a state resampled for ``player``: theirs kept, the others' sampled."""
        own = tuple(
            text if seat == player else self.sampled[seat] for seat, text in enumerate(self.own)
        )
        return _History(own, self.sampled)

    def __deepcopy__(self, memo: dict[int, Any]) -> _History:
        return self


class TenDaysGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """One edition and one set of options (see :mod:`tendays.rl.openspiel`)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        settings = {**_PARAMETERS, **(params or {})}
        rules = _rules(
            str(settings["edition"]),
            int(settings["players"]),
            int(settings["days"]),
            bool(settings["swap"]),
            int(settings["turns"]),
        )
        players = rules.options.players
        slots = players * rules.options.days
        limit = int(settings["turns"]) * players
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.codec.size,
            max_chance_outcomes=max(len(rules.edition.tiles), players),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # draft, two decisions a turn, and chance: a seat, a tile per draft and
            # draw, three to open the piles
            max_game_length=2 * slots + 3 * limit + 4,
        )
        super().__init__(_GAME_TYPE, info, settings)

    @property
    def rules(self) -> _Rules:
        settings = {**_PARAMETERS, **self.get_parameters()}
        return _rules(
            str(settings["edition"]),
            int(settings["players"]),
            int(settings["days"]),
            bool(settings["swap"]),
            int(settings["turns"]),
        )

    def new_initial_state(self) -> TenDaysState:
        return TenDaysState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TenDaysObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, not {params}")
        kind = (
            pyspiel.IIGObservationType(perfect_recall=False)
            if iig_obs_type is None
            else iig_obs_type
        )
        return TenDaysObserver(self.rules, kind)


class TenDaysState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the engine's state, with the draw pile's unseen order left to chance."""

    def __init__(self, game: TenDaysGame) -> None:
        super().__init__(game)
        self._game = game.rules
        self._state = _Shared(self._game.initial)
        self._fixed = 0  # tiles on top of the draw pile already turned over by chance
        self._pending: list[str] = ([_SEAT] if self._game.options.first_seat is None else []) + [
            _HAND
        ]
        players = self._game.options.players
        self.history_text = _History(("",) * players, ("",) * players)
        self._settle()

    @property
    def state(self) -> State:
        """The engine's state (its draw pile in no known order under the top ``_fixed`` tiles)."""
        return self._state.value  # type: ignore[no-any-return]

    @state.setter
    def state(self, value: State) -> None:
        self._state = _Shared(value)

    def visible(self) -> State:
        """The engine's state with the held tile hidden while chance has yet to pick it, and the
        game's options (during the draft the state's name the first seat chance picked)."""
        hidden = self.state.in_hand if _HAND not in self._pending else None
        return dataclasses.replace(self.state, in_hand=hidden, options=self._game.options)

    # -- chance --------------------------------------------------------------------------------

    def _heap(self) -> list[int]:
        """The tiles whose order nobody knows: the draw pile under its turned-over top."""
        pile = self.state.draw_pile
        return list(pile[: len(pile) - self._fixed])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        kind = self._pending[0]
        if kind == _SEAT:
            players = self._game.options.players
            return [(seat, 1.0 / players) for seat in range(players)]
        heap = self._heap() + (
            [self.state.in_hand] if kind == _HAND and self.state.in_hand is not None else []
        )
        counts = Counter(heap)
        return [(tile, count / len(heap)) for tile, count in sorted(counts.items())]

    def _chance(self, outcome: int) -> None:
        kind = self._pending.pop(0)
        state = self.state
        if kind == _SEAT:
            # the engine takes the first seat from the options when they name one; the draft's end
            # gives the state the game's options back
            options = dataclasses.replace(state.options, first_seat=outcome)
            self.state = dataclasses.replace(state, options=options)
            self.history_text = self.history_text.add("first seat chosen")
            return
        heap = self._heap()
        top = state.draw_pile[len(state.draw_pile) - self._fixed :]
        if kind == _HAND:
            heap.append(state.in_hand)  # type: ignore[arg-type]
            heap.remove(outcome)
            self.state = dataclasses.replace(state, draw_pile=(*heap, *top), in_hand=outcome)
            self.history_text = self.history_text.add(
                tile_name(state.edition, outcome), state.current
            )
        else:
            heap.remove(outcome)
            self.state = dataclasses.replace(state, draw_pile=(*heap, outcome, *top))
            self._fixed += 1
            self.history_text = self.history_text.add("pile tile chosen")

    def follow(self, truth: State) -> None:
        """Play the pending chance node as ``truth`` (an engine state of the same game, moved in
        step with this one) dealt it: its first seat, the tile it holds, or its next tile under the
        draw pile's top. At the first seat the state takes the truth's seed, so later reshuffles
        match too. For playing a given deal, as benchmarks and duplicate games do."""
        if not self._pending:
            raise ValueError("follow a deal at a chance node, not at a player's turn")
        kind = self._pending[0]
        if kind == _SEAT:
            self.apply_action(first_seat(truth.seed, truth.options.players))
            # the truth's seed deals the same first seat, from the game's options
            self.state = dataclasses.replace(
                self.state, seed=truth.seed, options=self._game.options
            )
            return
        if kind == _HAND:
            tile = truth.in_hand
        else:
            tile = truth.draw_pile[len(truth.draw_pile) - 1 - self._fixed]
        if tile is None:
            raise ValueError("the truth holds no tile where this state waits for one")
        self.apply_action(tile)

    def _settle(self) -> None:
        """Play every pending chance node that has one outcome."""
        while self._pending and len(self.chance_outcomes()) == 1:
            self._chance(self.chance_outcomes()[0][0])

    # -- pyspiel.State -------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._pending:
            return int(pyspiel.PlayerId.CHANCE)
        return self.state.current

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._game.codec.encode(move) for move in self.state.legal_moves())

    def _apply_action(self, action: int) -> None:
        if self._pending:
            self._chance(action)
            self._settle()
            return
        before = self.state
        move = self._game.codec.decode(action)
        self.state = before.apply(move)
        self.history_text = self.history_text.add(self._entry(before, move, action))
        if move.kind is MoveKind.DRAFT:
            if self.state.phase is Phase.DRAFT:
                self._pending.append(_HAND)
                empty = sum(day is None for rack in self.state.racks for day in rack)
                # the last draft opens the three discard piles from the top of the draw pile
                if empty == 1:
                    self._pending += [_TOP] * 3
            else:
                self._fixed = 0
                self.state = dataclasses.replace(self.state, options=self._game.options)
                tops = " ".join(
                    tile_name(self.state.edition, pile[-1]) for pile in self.state.piles
                )
                self.history_text = self.history_text.add(f"piles opened with {tops}")
        elif move.kind is MoveKind.DRAW:
            if self.state.reshuffles == before.reshuffles:
                self._pending.append(_HAND)
            elif self.state.in_hand is not None:
                # drawn from the reshuffled pile, whose order the seed fixes: no chance node, but
                # the drawer sees the tile as after any draw
                drawn = tile_name(self.state.edition, self.state.in_hand)
                self.history_text = self.history_text.add(drawn, before.current)
        self._settle()

    def _entry(self, before: State, move: Move, action: int) -> str:
        """The history entry of a player's action: the move, and the tile it turns face up (taken
        from a pile, replaced onto one or discarded), which every seat sees."""
        text = self._game.codec.describe(action)
        shown: int | None
        if move.kind is MoveKind.TAKE:
            shown = before.piles[move.pile - 1][-1]
        elif move.kind is MoveKind.REPLACE:
            shown = before.racks[before.current][move.day - 1]
        elif move.kind is MoveKind.DISCARD:
            shown = before.in_hand
        else:
            return text
        return f"{text} ({tile_name(before.edition, shown)})" if shown is not None else text

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._pending and self._pending[0] == _SEAT:
                return f"first seat {action}"
            return tile_name(self._game.edition, action)
        return self._game.codec.describe(action)

    def is_terminal(self) -> bool:
        return self.state.is_over

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TenDaysState:
        """A state with the same information state for ``player_id``: every tile whose place that
        player does not know (other racks' unseen days, a hidden held tile, the draw pile) dealt
        again at random, and a fresh seed for the first seat and the reshuffles. It depends only on
        what the player knows and on ``probability_sampler`` (a callable giving a float in [0, 1),
        as ``pyspiel.UniformProbabilitySampler``), never on the hidden truth."""
        if self._pending:
            raise ValueError("a state is resampled at a player's turn, not at a chance node")
        seen = view(self.state, player_id)
        rng = random.Random(int(float(probability_sampler()) * (1 << 53)))
        dealt = knowledge_of(seen).deal(seen, rng)
        sample: TenDaysState = self.clone()
        sample.state = dataclasses.replace(
            self.state,
            # the game's options leave the first seat to the fresh seed: nobody knows it before the
            # draft ends, and afterwards the engine never reads it again
            options=self._game.options,
            seed=dealt.seed,
            racks=dealt.racks,
            draw_pile=dealt.draw_pile,
            in_hand=dealt.in_hand,
        )
        sample.history_text = self.history_text.resampled_for(player_id)
        return sample

    def returns(self) -> list[float]:
        players = self._game.options.players
        winner = self.state.winner
        if not self.state.is_over or winner is None:
            return [0.0] * players
        return [1.0 if seat == winner else -1.0 / (players - 1) for seat in range(players)]

    def __str__(self) -> str:
        edition = self._game.edition
        racks = " | ".join(
            " ".join(tile_name(edition, t) if t is not None else "." for t in rack)
            for rack in self.state.racks
        )
        return f"{self.state.phase.name} seat {self.state.current} turn {self.state.turn}: {racks}"


class TenDaysObserver:
    """OpenSpiel's Python observer: the encoder's vector, and strings of the view (with the history
    when the observation type asks for perfect recall, and then no vector; its public or private
    part alone when it asks for one)."""

    def __init__(self, game: _Rules, kind: Any) -> None:
        self._game = game
        self._perfect_recall = bool(kind.perfect_recall)
        self._public = bool(kind.public_info)
        self._private = kind.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        # a perfect-recall observer has no tensor: the observation vector does not recall the past
        size = 0 if self._perfect_recall else game.encoder.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TenDaysState, player: int) -> None:
        if not self._perfect_recall:
            self.tensor[:] = self._game.encoder.encode(view(state.visible(), player))

    def string_from(self, state: TenDaysState, player: int) -> str:
        seen = view(state.visible(), player)
        edition = self._game.edition

        def name(tile: int | None) -> str:
            return tile_name(edition, tile) if tile is not None else "."

        pieces = []
        if self._private:
            hand = name(seen.in_hand) if seen.in_hand is not None else "-"
            pieces.append(
                f"p{player} rack [{' '.join(name(t) for t in seen.rack or ())}] hand {hand}"
            )
        if self._public:
            tops = " ".join(name(pile[-1]) if pile else "-" for pile in seen.piles)
            counts = " ".join(str(count) for count in seen.rack_counts)
            pieces.append(
                f"{seen.phase.name} to move {seen.current} turn {seen.turn} piles [{tops}] "
                f"draw {seen.draw_pile_size} racks [{counts}]"
            )
        if self._perfect_recall:
            pieces.append(f"history: {state.history_text.own[player]}")
        return " ".join(pieces)


pyspiel.register_game(_GAME_TYPE, TenDaysGame)
