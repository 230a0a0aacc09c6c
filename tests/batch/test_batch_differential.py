"""The batched engine plays exactly the scalar engine's game: thousands of random games of both
editions, with every option, compared after every decision (see differential.py), and planted rule
mistakes are caught."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest

pytest.importorskip("jax")

from differential import Coverage, Mismatch, few_tiles_left, play_both  # noqa: E402

from tendays.batch import chance, rules  # noqa: E402
from tendays.engine import Edition, Options, State, load_edition  # noqa: E402

pytestmark = pytest.mark.slow  # imports JAX and compiles the batched engine

USA = load_edition("usa")
GERMANY = load_edition("germany")


@dataclass(frozen=True)
class Case:
    edition: Edition
    options: Options
    games: int
    meets: tuple[str, ...]  # what the games must go through (Coverage fields)
    observe_every: int = 0  # compare observations every that many decisions (0: never)
    prepare: Callable[[State, random.Random], State] | None = None


CASES = {
    "usa-2p-10d-swap-first-seat": Case(
        USA,
        Options(players=2, swap=True, turn_limit=60, first_seat=1),
        384,
        ("swaps", "limits"),
        observe_every=30,
    ),
    "usa-4p-14d": Case(
        USA,
        Options(players=4, days=14, turn_limit=100),
        96,
        ("draw_reshuffles", "forced_discards", "limits"),
        observe_every=40,
    ),
    "usa-1p-20d": Case(USA, Options(players=1, days=20, turn_limit=150), 48, ("draw_reshuffles",)),
    "usa-3p-2d": Case(USA, Options(players=3, days=2, turn_limit=100), 640, ("wins",)),
    "germany-3p-5d-swap-open-hands-rigged": Case(
        GERMANY,
        Options(players=3, days=5, swap=True, open_hands=True, turn_limit=60, first_seat=2),
        256,
        ("turn_reshuffles", "empty_draw_turns", "swaps"),
        observe_every=20,
        prepare=few_tiles_left,
    ),
    "germany-4p-11d": Case(
        GERMANY,
        Options(players=4, days=11, turn_limit=100),
        96,
        ("draw_reshuffles", "forced_discards"),
        observe_every=40,
    ),
    "germany-1p-3d": Case(GERMANY, Options(players=1, days=3, turn_limit=200), 512, ("wins",)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_same_game_as_the_scalar_engine(name: str) -> None:
    case = CASES[name]
    coverage = play_both(
        case.edition,
        case.options,
        case.games,
        seed=len(name),
        observe_every=case.observe_every,
        prepare=case.prepare,
    )
    assert coverage.observations > 0 or not case.observe_every
    missing = [field for field in case.meets if not getattr(coverage, field)]
    assert not missing, f"the games never met {missing}: {coverage}"
    if case.options.first_seat is None and case.options.players > 1:
        assert coverage.first_seats == set(range(case.options.players))


def test_the_cases_together_meet_every_rule_and_option() -> None:
    met = {field for case in CASES.values() for field in case.meets}
    assert met == {
        name
        for name in vars(Coverage())
        if name not in ("games", "decisions", "observations", "first_seats", "reshuffles")
    }
    options = [case.options for case in CASES.values()]
    assert {o.players for o in options} == {1, 2, 3, 4}
    assert {5, 10} <= {o.days for o in options}
    assert any(o.swap for o in options) and any(o.open_hands for o in options)
    assert any(o.first_seat is not None for o in options) and any(
        o.first_seat is None for o in options
    )
    assert any(o.turn_limit is not None for o in options)
    assert {case.edition.id for case in CASES.values()} == {"usa", "germany"}


def _forgets_the_emptied_pile_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    real = rules.forced_pile
    monkeypatch.setattr(rules, "forced_pile", lambda state: real(state) * 0)


def _reshuffles_at_the_end_of_the_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    # Rules 1: no reshuffle the moment the last tile is drawn; the empty draw pile is refilled at
    # the turn's end.
    real = chance.resolve

    def late(config, state, shuffle, redeal, chunk):  # type: ignore[no-untyped-def]
        return real(config, state, shuffle & (state.phase != rules.PLACE_PHASE), redeal, chunk)

    monkeypatch.setattr(chance, "resolve", late)


@pytest.mark.parametrize(
    "mistake", [_forgets_the_emptied_pile_rule, _reshuffles_at_the_end_of_the_turn]
)
def test_a_planted_rule_mistake_is_caught(mistake, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    mistake(monkeypatch)
    with pytest.raises(Mismatch):
        play_both(GERMANY, Options(players=4, days=11, turn_limit=60), 24, seed=5)
