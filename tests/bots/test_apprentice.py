"""The apprentice: its weights load, its moves are legal, and it plays the plainly right move."""

import dataclasses
import random

import pytest

pytest.importorskip("numpy")

from tendays.bots import GreedyBot, make_bot  # noqa: E402
from tendays.bots.apprentice import (  # noqa: E402
    FEATURES,
    PHASES,
    ApprenticeBot,
    Seat,
    load,
    move_features,
)
from tendays.bots.distance import analyze  # noqa: E402
from tendays.bots.race import RaceBot  # noqa: E402
from tendays.engine import (  # noqa: E402
    Game,
    Move,
    MoveKind,
    Options,
    Phase,
    PlayerView,
    State,
    apply,
    load_edition,
    new_game,
    play_bots,
    view,
)


def test_the_weights_load_and_fit_the_features() -> None:
    policy = load()
    assert policy is not None
    assert len(policy.weights) == len(PHASES)
    assert all(len(row) == len(FEATURES) for row in policy.weights)
    assert policy.plays("usa", 10, 2)
    assert make_bot("apprentice").name == "apprentice"


class _Checked:
    """The apprentice, checked at every decision: a legal move, and the same move from the full
    state (the rollouts' way) as from the view."""

    name = "apprentice"

    def __init__(self, game: Game) -> None:
        self.bot = ApprenticeBot()
        self.game = game

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        move = self.bot.choose(view, random.Random(1))
        assert move in view.legal_moves()
        assert self.bot.policy.state_move(self.game.state, random.Random(1)) in view.legal_moves()
        return move


@pytest.mark.parametrize(
    ("edition", "players", "seed"), [("usa", 2, 21), ("usa", 2, 22), ("germany", 3, 23)]
)
def test_it_plays_legal_moves_to_the_end(edition: str, players: int, seed: int) -> None:
    game = Game(edition, Options(players=players, turn_limit=300), seed)
    play_bots(game, [_Checked(game), *[GreedyBot() for _ in range(players - 1)]])
    assert game.state.is_over


def _after_draft(seed: int) -> State:
    state = new_game(load_edition("usa"), Options(players=2), seed)
    bot, rng = GreedyBot(), random.Random(seed)
    while state.phase is Phase.DRAFT:
        state = apply(state, bot.choose(view(state, state.current), rng))
    return state


def _one_short(state: State) -> tuple[tuple[int | None, ...], int, int]:
    """A rack of the player to move one tile from a journey, the tile and the day that complete it;
    the tile is neither on the rack nor on a pile."""
    journey = analyze(state.edition, state.racks[state.current]).completion
    on_piles = {t for pile in state.piles for t in pile}
    for day in range(len(journey)):
        if journey[day] in on_piles:
            continue
        for spoiler in range(len(state.edition.tiles)):
            if spoiler in journey or spoiler in on_piles:
                continue
            rack = journey[:day] + (spoiler,) + journey[day + 1 :]
            if analyze(state.edition, rack).distance == 1:
                return rack, journey[day], day + 1
    raise AssertionError("no spoiler found")


def _racks_with(state: State, rack: tuple[int | None, ...]) -> tuple[tuple[int | None, ...], ...]:
    """Every rack of ``state``, the current player's replaced by ``rack``."""
    return tuple(rack if p == state.current else r for p, r in enumerate(state.racks))


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_it_completes_the_journey_as_the_race_bot_does(seed: int) -> None:
    state = _after_draft(seed)
    rack, tile, day = _one_short(state)
    me, racks = state.current, _racks_with(state, rack)
    holding = dataclasses.replace(state, racks=racks, phase=Phase.PLACE, in_hand=tile)
    seen = view(holding, me)
    move = ApprenticeBot().choose(seen, random.Random(0))
    race = RaceBot().choose(seen, random.Random(0))
    assert (move.kind, move.day) == (race.kind, race.day) == (MoveKind.REPLACE, day)


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_it_takes_the_face_up_tile_that_completes_the_journey(seed: int) -> None:
    state = _after_draft(seed)
    rack, tile, _ = _one_short(state)
    me, racks = state.current, _racks_with(state, rack)
    piles = (state.piles[0], (*state.piles[1], tile), state.piles[2])
    offered = dataclasses.replace(state, racks=racks, piles=piles)
    seen = view(offered, me)
    assert seen.phase is Phase.DRAW

    def completes(move: Move) -> bool:
        """Whether the move takes a tile that completes the journey (another top may too)."""
        if move.kind is not MoveKind.TAKE:
            return False
        top = seen.piles[move.pile - 1][-1]
        return any(
            analyze(seen.edition, rack[: d - 1] + (top,) + rack[d:]).distance == 0
            for d in range(1, len(rack) + 1)
        )

    assert completes(Move.take(2))
    assert completes(ApprenticeBot().choose(seen, random.Random(0)))
    assert completes(RaceBot().choose(seen, random.Random(0)))


def test_the_features_are_the_same_from_the_view_and_from_the_state() -> None:
    state = _after_draft(8)
    seen = view(state, state.current)
    moves = list(seen.legal_moves())
    from_view = move_features(Seat.of_view(seen), moves)
    from_state = move_features(Seat.of_state(state), moves)
    # the odds differ (the state counts the other rack as unseen); the journey's features do not
    assert [row[:4] for row in from_view] == [row[:4] for row in from_state]


def test_the_search_with_apprentice_rollouts_plays_a_legal_move() -> None:
    state = _after_draft(9)
    bot = make_bot("expert+apprentice:4")
    seen = view(state, state.current)
    assert bot.choose(seen, random.Random(0)) in seen.legal_moves()
