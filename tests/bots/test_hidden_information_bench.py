"""The hidden-information benchmark: its table-reading expert deals
worlds as documented, and it runs."""

import importlib.util
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tendays.bots import make_bot
from tendays.engine import Game, Options, Phase, knowledge_of, next_decision, view

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "hidden_information.py"


def _bench():
    spec = importlib.util.spec_from_file_location("hidden_information", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _midgame(turns: int = 8):
    game = Game("usa", Options(players=2), seed=5)
    greedy = make_bot("greedy")
    while (decision := next_decision(game)) and (
        decision.view.phase is Phase.DRAFT or decision.view.turn < turns
    ):
        game.play(greedy.choose(decision.view, decision.rng), decision.seat)
    assert not game.state.is_over
    return game.state


def test_worlds_keep_the_share_of_the_other_rack_asked_for() -> None:
    bench = _bench()
    table = _midgame()
    me = table.current
    other = 1 - me
    player_view = view(table, me)
    knowledge = knowledge_of(player_view)
    sighted = bench.TableReadingExpert(iterations=4, known_share=1.0)
    sighted.table = table
    world = sighted._world(player_view, knowledge, random.Random(3))
    assert world.racks == table.racks
    assert sorted(world.draw_pile) == sorted(table.draw_pile)

    blind = bench.TableReadingExpert(iterations=4, known_share=0.0)
    blind.table = table
    hidden = [d for d, t in enumerate(knowledge.racks[other]) if t is None]
    changed = 0
    for seed in range(20):
        world = blind._world(player_view, knowledge, random.Random(seed))
        assert world.racks[me] == table.racks[me]
        for day, tile in enumerate(knowledge.racks[other]):
            if tile is not None:  # what the public history reveals stays
                assert world.racks[other][day] == tile
        # The hidden days and the draw pile hold the same tiles, dealt anew.
        assert Counter(world.draw_pile) + Counter(world.racks[other][d] for d in hidden) == Counter(
            table.draw_pile
        ) + Counter(table.racks[other][d] for d in hidden)
        changed += any(world.racks[other][d] != table.racks[other][d] for d in hidden)
    assert changed >= 18


@pytest.mark.slow  # bots thinking through whole games
def test_benchmark_prints_every_row() -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "2", "--rollouts", "2", "--workers", "1"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    rows = [line for line in out.splitlines() if line.startswith("| ") and "/2 |" in line]
    assert len(rows) == 4
    assert "as shipped" in rows[0] and "100%" in rows[1] and "50%" in rows[2] and "0%" in rows[3]
