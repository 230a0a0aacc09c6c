"""The engine protocol: a good engine plays like the built-in bot; broken engines lose, the tournament goes on."""

from __future__ import annotations

import io
import json
import random
import shlex
import sys
from pathlib import Path

import pytest

from tendays.bots import GreedyBot
from tendays.bots import engine_client as client
from tendays.bots.engine_client import EngineBot, EngineError
from tendays.bots.wire import view_to_json
from tendays.cli.engine_cmd import serve
from tendays.engine import Options, load_edition, new_game, view
from tendays.sim import Tournament, play_game, run_local, summarize

BROKEN = Path(__file__).parent / "engines" / "broken_engine.py"
PYTHON = shlex.quote(sys.executable)
GOOD = f"cmd:{PYTHON} -m tendays engine --bot greedy"


def broken(mode: str) -> str:
    return f"cmd:{PYTHON} {shlex.quote(str(BROKEN))} {mode}"


def test_serve_answers_the_protocol() -> None:
    state = new_game(load_edition("usa"), Options(players=2), 4)
    v = view(state, 0)
    source = io.StringIO("\n".join([
        "tendays 1",
        "# a comment",
        "newgame " + json.dumps({"edition": "usa", "options": state.options.to_json(), "player": 0}),
        "go " + json.dumps(view_to_json(v)),
        "go " + json.dumps(view_to_json(view(state, 1))),
        "fly away",
        "tendays 2",
        "quit",
        "go never read",
    ]) + "\n")
    sink = io.StringIO()
    assert serve("greedy", 0, source, sink) == 0
    lines = sink.getvalue().splitlines()
    assert lines[0] == "ready greedy"
    assert lines[1] == "ok"
    expected = GreedyBot().choose(v, random.Random("tendays-engine/0/1"))
    assert lines[2] == f"move {expected}"
    assert lines[3] == "error it is not this player's turn"
    assert lines[4].startswith("error unknown command 'fly'")
    assert lines[5].startswith("error this engine speaks protocol 1")
    assert len(lines) == 6


def test_a_good_engine_plays_whole_games() -> None:
    tournament = Tournament("germany", (GOOD, "greedy"), games=2, seed=3)
    results = run_local(tournament)
    assert all(r.forfeit is None and r.winner is not None for r in results)
    summary = summarize(tournament, results)
    assert summary.players[0].wins + summary.players[1].wins == 2


@pytest.mark.parametrize(("mode", "reason"), [
    ("crash", "the engine stopped without answering 'go'"),
    ("garbage", "instead of 'move MOVE'"),
    ("illegal", "played an illegal move 'swap 1 2'"),
    ("slow", "took longer than 0.5 s to answer 'go'"),
    ("mute", "took longer than 0.5 s to answer the greeting"),
])
def test_broken_engines_lose_with_a_reason(mode: str, reason: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client, "MOVE_TIMEOUT", 0.5)
    monkeypatch.setattr(client, "START_TIMEOUT", 0.5 if mode == "mute" else 10.0)
    tournament = Tournament("usa", ("greedy", broken(mode)), games=2, seed=1)
    results = [play_game(tournament, i) for i in range(2)]
    for result in results:
        assert result.forfeit == 1
        assert result.winner == 0
        assert reason in result.reason, result.reason
    summary = summarize(tournament, results)
    assert summary.players[0].wins == 2 and summary.players[1].forfeits == 2
    assert summary.players[1].rating.mu < summary.players[0].rating.mu


def test_a_forfeit_among_more_players_leaves_no_winner() -> None:
    tournament = Tournament("usa", ("greedy", "greedy", broken("garbage")), games=1, seed=2)
    result = play_game(tournament, 0)
    assert result.forfeit == 2 and result.winner is None


def test_an_engine_that_cannot_start() -> None:
    bot = EngineBot("/nonexistent/engine --flag")
    state = new_game(load_edition("usa"), Options(players=2), 1)
    with pytest.raises(EngineError, match="could not be started"):
        bot.choose(view(state, 0), random.Random(0))
    bot.close()
