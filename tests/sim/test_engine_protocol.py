"""The engine protocol: a good engine plays like the built-in bot; broken engines lose, the
tournament goes on."""

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
from tendays.bots.engine_client import PROTOCOL_VERSION, EngineBot, EngineError
from tendays.cli.engine_cmd import serve
from tendays.engine import Game, Move, Options, Phase, load_edition, new_game, next_decision, view
from tendays.engine.wire import view_to_json
from tendays.sim import Tournament, play_game, run_local, summarize

BROKEN = Path(__file__).parent / "engines" / "broken_engine.py"
PLAIN = Path(__file__).parent / "engines" / "plain_engine.py"
PYTHON = shlex.quote(sys.executable)
GOOD = f"cmd:{PYTHON} -m tendays engine --bot greedy"


def broken(mode: str) -> str:
    return f"cmd:{PYTHON} {shlex.quote(str(BROKEN))} {mode}"


def test_serve_answers_the_protocol() -> None:
    state = new_game(load_edition("usa"), Options(players=2), 4)
    v = view(state, 0)
    source = io.StringIO(
        "\n".join(
            [
                "tendays 2",
                "# a comment",
                "newgame "
                + json.dumps({"edition": "usa", "options": state.options.to_json(), "player": 0}),
                "go " + json.dumps(view_to_json(v)),
                "go " + json.dumps(view_to_json(view(state, 1))),
                "fly away",
                "tendays 1",
                "quit",
                "go never read",
            ]
        )
        + "\n"
    )
    sink = io.StringIO()
    assert serve("greedy", 0, source, sink) == 0
    lines = sink.getvalue().splitlines()
    assert lines[0] == "ready greedy"
    assert lines[1] == "ok"
    expected = GreedyBot().choose(v, random.Random("tendays-engine/0/1"))
    assert lines[2] == f"move {expected}"
    assert lines[3] == "error it is not this player's turn"
    assert lines[4].startswith("error unknown command 'fly'")
    assert lines[5] == "error this engine speaks protocol 2, not '1'"
    assert len(lines) == 6


def test_the_protocol_version_is_2() -> None:
    assert PROTOCOL_VERSION == 2


def test_views_on_the_wire_carry_the_forced_pile_and_structured_moves() -> None:
    game = Game("usa", Options(players=2), 4)
    greedy = GreedyBot()
    while (decision := next_decision(game)) is not None and decision.view.phase is Phase.DRAFT:
        data = view_to_json(decision.view)
        assert data["forced_pile"] == 0
        assert [Move.from_text(m["text"]).to_json() for m in data["legal_moves"]] == data[
            "legal_moves"
        ]
        game.play(greedy.choose(decision.view, decision.rng), decision.seat)
    # The draft is over and each pile holds one tile: whoever takes one must
    # discard back onto that pile.
    assert decision is not None and decision.view.piles[1] and len(decision.view.piles[1]) == 1
    game.play(Move.take(2), decision.seat)
    data = view_to_json(view(game.state, decision.seat))
    assert data["forced_pile"] == 2
    assert {m["pile"] for m in data["legal_moves"]} == {2}
    assert data["legal_moves"][-1] == {"kind": "discard", "pile": 2, "text": "discard 2"}
    drafts = [e for e in data["events"] if e["kind"] == "draft"]
    assert drafts and all(
        e["pile"] is None and e["day2"] is None and e["tile"] is None for e in drafts
    )


def test_an_engine_written_from_the_protocol_page_plays_whole_games() -> None:
    tournament = Tournament(
        "usa", ("random", f"cmd:{PYTHON} {shlex.quote(str(PLAIN))}"), games=2, seed=5, max_turns=60
    )
    for result in run_local(tournament):
        assert result.forfeit is None, result.reason
        assert result.decisions[1] > 0


@pytest.mark.slow  # whole games (subprocesses, workers, Ray)
def test_a_good_engine_plays_whole_games() -> None:
    tournament = Tournament("germany", (GOOD, "greedy"), games=2, seed=3)
    results = run_local(tournament)
    assert all(r.forfeit is None and r.winner is not None for r in results)
    summary = summarize(tournament, results)
    assert summary.players[0].wins + summary.players[1].wins == 2


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("crash", "the engine stopped without answering 'go'"),
        ("garbage", "instead of 'move MOVE'"),
        ("illegal", "played an illegal move 'swap 1 2'"),
        # these two wait on the engine's timeout
        pytest.param("slow", "took longer than 0.5 s to answer 'go'", marks=pytest.mark.slow),
        pytest.param(
            "mute", "took longer than 0.5 s to answer the greeting", marks=pytest.mark.slow
        ),
        ("bytes", "answered 'go' (turn 1) with bytes that are not UTF-8 text (byte 12 of its"),
    ],
)
def test_broken_engines_lose_with_a_reason(
    mode: str, reason: str, monkeypatch: pytest.MonkeyPatch
) -> None:
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
