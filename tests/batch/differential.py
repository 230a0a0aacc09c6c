"""Playing the same games through the scalar engine and the batched engine, side by side.

Chance stays outside the rules: each batch game starts from its scalar game's deal and first seat,
and after a reshuffle takes the scalar game's new draw-pile order (once the tiles themselves are
found to agree). Everything else must agree by itself, after every decision: the legal-action masks,
every rack, every discard pile, the draw pile, the held tile, the phase, the player to move, the
turn, the winner and the count of reshuffles; every few decisions also the observations, against an
encoding built from ``view`` and ``knowledge_of``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import jax
import jax.numpy as jnp
import numpy as np

from tendays.batch import BatchEnv, BatchState, from_scalar
from tendays.batch.observe import OPPONENT_SLOTS
from tendays.engine import (
    MAX_PLAYERS,
    ActionCodec,
    Edition,
    Move,
    MoveKind,
    Options,
    Phase,
    State,
    apply,
    knowledge_of,
    legal_moves,
    new_game,
    view,
)


@dataclass
class Coverage:
    """What the games went through, so a test can show the rules it exercised were met."""

    games: int = 0
    decisions: int = 0
    wins: int = 0
    limits: int = 0
    reshuffles: int = 0
    draw_reshuffles: int = 0  # the moment the last tile was drawn
    turn_reshuffles: int = 0  # at the end of a turn that began with an empty draw pile
    empty_draw_turns: int = 0  # turns begun with an empty draw pile
    forced_discards: int = 0  # discards bound to the emptied pile
    swaps: int = 0
    observations: int = 0
    first_seats: set[int] = field(default_factory=set)

    def add(self, other: Coverage) -> None:
        for name, value in vars(other).items():
            if name == "first_seats":
                self.first_seats |= value
            else:
                setattr(self, name, getattr(self, name) + value)


class Mismatch(AssertionError):
    """The two engines disagree."""


def first_seat(state: State) -> int:
    """The seat that begins after the draft of a fresh scalar game
    (it depends on the seed alone)."""
    while state.phase is Phase.DRAFT:
        state = apply(state, legal_moves(state)[0])
    return state.current


def expected_arrays(states: list[State], env: BatchEnv) -> dict[str, np.ndarray]:
    """The scalar games in the batch's layout (unused slots -1)."""
    config = env.config
    count = len(states)
    out = {
        "racks": np.full((config.players, config.days, count), -1, np.int32),
        "piles": np.full((3, config.pile_capacity, count), -1, np.int32),
        "draw": np.full((config.box, count), -1, np.int32),
        "pile_size": np.zeros((3, count), np.int32),
    }
    scalars = {
        name: np.zeros(count, np.int32)
        for name in (
            "phase",
            "current",
            "draw_size",
            "in_hand",
            "taken_from",
            "turn",
            "winner",
            "reshuffles",
        )
    }
    for i, s in enumerate(states):
        for seat, rack in enumerate(s.racks):
            out["racks"][seat, :, i] = [-1 if t is None else t for t in rack]
        for p, pile in enumerate(s.piles):
            out["piles"][p, : len(pile), i] = pile
            out["pile_size"][p, i] = len(pile)
        out["draw"][: len(s.draw_pile), i] = s.draw_pile
        scalars["phase"][i] = int(s.phase)
        scalars["current"][i] = s.current
        scalars["draw_size"][i] = len(s.draw_pile)
        scalars["in_hand"][i] = -1 if s.in_hand is None else s.in_hand
        scalars["taken_from"][i] = s.taken_from
        scalars["turn"][i] = s.turn
        scalars["winner"][i] = -1 if s.winner is None else s.winner
        scalars["reshuffles"][i] = s.reshuffles
    out.update(scalars)
    return out


def batch_arrays(state: BatchState) -> dict[str, np.ndarray]:
    """The batch's arrays with unused stack slots blanked (-1)."""
    out = {
        name: np.asarray(getattr(state, name)).astype(np.int32)
        for name in (
            "racks",
            "piles",
            "draw",
            "pile_size",
            "phase",
            "current",
            "draw_size",
            "in_hand",
            "taken_from",
            "turn",
            "winner",
            "reshuffles",
        )
    }
    capacity = out["piles"].shape[1]
    out["piles"] = np.where(
        np.arange(capacity)[None, :, None] < out["pile_size"][:, None, :], out["piles"], -1
    )
    out["draw"] = np.where(
        np.arange(out["draw"].shape[0])[:, None] < out["draw_size"][None, :], out["draw"], -1
    )
    return out


def reference_observation(env: BatchEnv, state: State, player: int) -> np.ndarray:
    """The observation of ``player`` built from the scalar engine's view and
    knowledge (docs in observe.py)."""
    config = env.config
    t, d = config.tiles, config.days
    blocks = env.observation_layout
    obs = np.zeros(env.observation_size, np.float32)
    seen = view(state, player)
    known = knowledge_of(seen)
    copies = np.array(config.counts, np.float32)
    players = config.players

    def put(name: str, values: np.ndarray) -> None:
        obs[blocks[name].start : blocks[name].stop] = values.reshape(-1)

    def one_hot(tile: int | None, size: int) -> np.ndarray:
        row = np.zeros(size, np.float32)
        if tile is not None and 0 <= tile < size:
            row[tile] = 1.0
        return row

    put("phase", one_hot(int(seen.phase), 4))
    put("to_move", one_hot((seen.current - player) % players, MAX_PLAYERS))
    limit = seen.options.turn_limit
    put("progress", np.array([min(1.0, seen.turn / limit) if limit else 0.0]))
    assert seen.rack is not None
    put("rack", np.stack([one_hot(tile, t) for tile in seen.rack]))
    put("rack_empty", np.array([tile is None for tile in seen.rack], np.float32))
    put("held", one_hot(known.held, t))
    put("held_hidden", np.array([known.held_hidden], np.float32))
    put("held_source", one_hot(seen.taken_from if seen.taken_from >= 0 else None, 4))
    put("forced_pile", one_hot(seen.forced_pile - 1 if seen.forced_pile else None, 3))
    put("pile_top", np.stack([one_hot(pile[-1] if pile else None, t) for pile in seen.piles]))
    contents = np.zeros((3, t), np.float32)
    for p, pile in enumerate(seen.piles):
        for tile in pile:
            contents[p, tile] += 1
    put("pile_contents", contents / copies)
    put("pile_size", np.array([len(pile) for pile in seen.piles], np.float32) / config.box)
    put("draw_size", np.array([seen.draw_pile_size / config.box]))
    put("unseen", np.array(known.unseen_counts, np.float32) / copies)
    others = []
    for slot in range(1, OPPONENT_SLOTS + 1):
        block = np.zeros(2 + d * t, np.float32)
        if slot < players:
            seat = (player + slot) % players
            block[0] = 1.0
            block[1] = seen.rack_counts[seat] / d
            block[2:] = np.stack([one_hot(tile, t) for tile in known.racks[seat]]).reshape(-1)
        others.append(block)
    put("opponents", np.concatenate(others))
    return obs


def _moves(moves: list[Move]) -> str:
    return ", ".join(map(str, moves[-4:])) or "the deal"


def _describe(name: str, index: int, expected: np.ndarray, actual: np.ndarray) -> str:
    return (
        f"{name}: expected {expected[..., index].tolist()}, batch has {actual[..., index].tolist()}"
    )


def few_tiles_left(state: State, rng: random.Random) -> State:
    """The game after a random draft, rigged so that the draw pile holds no tile or one, and the
    discard piles only their tops (the other tiles leave the game).

    With every rack full, the tiles outside the racks decide how reshuffles go. In a dealt game
    there are enough of them that the last tile drawn always leaves some to reshuffle. With one tile
    in the draw pile, drawing it leaves nothing to reshuffle, the draw pile stays empty and is
    refilled when the turn ends; with none, turns begin with an empty draw pile.
    """
    while state.phase is Phase.DRAFT:
        state = apply(state, rng.choice(legal_moves(state)))
    left = state.draw_pile[-1:] if rng.random() < 0.5 else ()
    return replace(state, draw_pile=left, piles=tuple(pile[-1:] for pile in state.piles))


def play_both(
    edition: Edition,
    options: Options,
    games: int,
    seed: int,
    *,
    observe_every: int = 0,
    observed_games: int = 4,
    prepare: Callable[[State, random.Random], State] | None = None,
) -> Coverage:
    """Play ``games`` random games through both engines in one batch; raise :class:`Mismatch` at the
    first difference. ``prepare`` turns each new scalar game into the position both engines start
    from. Returns what the games went through."""
    env = BatchEnv(edition, options)
    codec = ActionCodec(options.days)
    states = [new_game(edition, options, seed * 100_003 + g) for g in range(games)]
    firsts = [first_seat(s) for s in states]
    if prepare is not None:
        states = [prepare(s, random.Random(seed * 7 + g)) for g, s in enumerate(states)]
    batch = from_scalar(
        env.config, states, jax.random.split(jax.random.key(seed), games), first=firsts
    )
    rng = random.Random(seed)
    coverage = Coverage(games=games, first_seats=set(firsts))
    history: list[list[Move]] = [[] for _ in range(games)]
    step = 0
    while True:
        mask = np.asarray(env.legal_action_mask(batch))
        actions = np.zeros(games, np.int32)
        shuffled: list[int] = []
        expected_masks = []
        for i, s in enumerate(states):
            legal = legal_moves(s)
            expected_masks.append(codec.mask(legal))
            if s.is_over:
                continue
            if s.phase is Phase.DRAW and not s.draw_pile:
                coverage.empty_draw_turns += 1
            if s.forced_pile:
                coverage.forced_discards += 1
            move = rng.choice(legal)
            coverage.swaps += move.kind is MoveKind.SWAP
            actions[i] = codec.encode(move)
            history[i].append(move)
            after = apply(s, move)
            if after.reshuffles > s.reshuffles:
                shuffled.append(i)
                coverage.reshuffles += 1
                if move.kind is MoveKind.DRAW:
                    coverage.draw_reshuffles += 1
                else:
                    coverage.turn_reshuffles += 1
            if after.is_over and not s.is_over:
                coverage.wins += after.winner is not None
                coverage.limits += after.winner is None
            states[i] = after
            coverage.decisions += 1
        expected_mask = (
            np.frombuffer(b"".join(expected_masks), np.int8).reshape(games, -1).astype(bool)
        )
        differ = np.flatnonzero((expected_mask != mask).any(axis=1))
        if len(differ):
            i = int(differ[0])
            raise Mismatch(
                f"game {i} (seed {seed}), decision {step}, after {_moves(history[i][:-1])}: legal "
                f"actions {np.flatnonzero(expected_mask[i]).tolist()}, batch mask "
                f"{np.flatnonzero(mask[i]).tolist()}"
            )
        if all(s.is_over for s in states):
            break
        batch = env.step(batch, jnp.asarray(actions))
        step += 1
        expected_now = expected_arrays(states, env)
        actual = batch_arrays(batch)
        # Chance: after a reshuffle the batch takes the scalar game's order of the same tiles.
        if shuffled:
            for i in shuffled:
                if sorted(actual["draw"][:, i].tolist()) != sorted(
                    expected_now["draw"][:, i].tolist()
                ):
                    raise Mismatch(
                        f"game {i} (seed {seed}), decision {step}, after {_moves(history[i])}: the "
                        f"draw pile holds other tiles: "
                        + _describe("draw", i, expected_now["draw"], actual["draw"])
                    )
            draw = np.asarray(batch.draw).copy()
            draw[:, shuffled] = np.where(
                expected_now["draw"][:, shuffled] >= 0,
                expected_now["draw"][:, shuffled],
                draw[:, shuffled],
            )
            batch = batch.replace(draw=jnp.asarray(draw, jnp.int8))
            actual["draw"][:, shuffled] = expected_now["draw"][:, shuffled]
        for name, expected_array in expected_now.items():
            differ = np.flatnonzero((expected_array != actual[name]).reshape(-1, games).any(axis=0))
            if len(differ):
                i = int(differ[0])
                raise Mismatch(
                    f"game {i} (seed {seed}), decision {step}, after {_moves(history[i])}: "
                    + _describe(name, i, expected_array, actual[name])
                )
        if observe_every and step % observe_every == 0:
            for seat in range(options.players):
                observed = np.asarray(env.observe(batch, seat))
                for i in range(min(observed_games, games)):
                    reference = reference_observation(env, states[i], seat)
                    if not np.allclose(observed[i], reference, atol=1e-6):
                        wrong = [
                            name
                            for name, b in env.observation_layout.items()
                            if not np.allclose(
                                observed[i, b.start : b.stop],
                                reference[b.start : b.stop],
                                atol=1e-6,
                            )
                        ]
                        raise Mismatch(
                            f"game {i} (seed {seed}), decision {step}, seat {seat}: observation "
                            f"blocks {wrong} differ"
                        )
                    coverage.observations += 1
    return coverage
