"""A table's ``game`` object is the engine's view as :func:`tendays.engine.wire.view_to_json` writes it:
the server writes those fields itself, from parts encoded once per change, and this test holds the two
to the same values and order for every seat and a spectator, move after move."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from server_helpers import close_lobby, open_lobby

from tendays.engine import view
from tendays.engine.wire import view_to_json
from tendays.server.settings import Pace


def engine_fields(seat: int | None, state: Any) -> dict[str, Any]:
    """What the engine's wire says of ``state`` to ``seat``, less what a table writes otherwise (the
    history is the log; the viewer is ``you``)."""
    expected = view_to_json(view(state, seat), events=True)
    del expected["events"]
    expected["you"] = expected.pop("player")
    return expected


async def test_every_table_holds_the_engines_view_of_its_viewer(tmp_path: Path) -> None:
    lobby = open_lobby(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        match, _ = await lobby.create(
            "usa", [("human", None), ("human", None)], {"turn_limit": 60}, "Ann", Pace("live", 60.0, 120.0)
        )
        await match.join("Bea")
        viewers = {0: match.subscribe(0), 1: match.subscribe(1), None: match.subscribe(None)}
        rng, compared = random.Random(11), 0
        for _ in range(70):
            if match.state.is_over:
                break
            seat = match.state.current
            await match.submit(seat, str(rng.choice(match.state.legal_moves())), match.version)
            for viewer, subscriber in viewers.items():
                tables = [json.loads(t) for t in subscriber.drain() if json.loads(t)["type"] == "state"]
                game = tables[-1]["game"]
                expected = engine_fields(viewer, match.state)
                assert {key: game[key] for key in expected} == expected
                order = [key for key in game if key in expected and key != "you"]
                assert order == [key for key in expected if key != "you"]
                compared += 1
    finally:
        await close_lobby(lobby)
    assert compared > 100


async def test_every_tables_seats_follow_the_racks_and_the_connections(tmp_path: Path) -> None:
    """The seats' part of a table is kept while the seats and the racks' sizes stay the same: it is
    never sent stale, through the draft (racks growing) and as a seat comes and goes."""
    lobby = open_lobby(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        match, _ = await lobby.create("usa", [("human", None), ("human", None)], {}, "Ann")
        await match.join("Bea")
        match.subscribe(0)
        spectator, bea = match.subscribe(None), None
        rng = random.Random(5)
        for step in range(40):
            if step == 10:
                bea = match.subscribe(1)
            if step == 25 and bea is not None:
                match.unsubscribe(bea)
            await match.submit(match.state.current, str(rng.choice(match.state.legal_moves())), match.version)
            tables = [json.loads(t) for t in spectator.drain()]
            seats = [t for t in tables if t["type"] == "state"][-1]["game"]["seats"]
            assert [s["tiles"] for s in seats] == [len(r) - r.count(None) for r in match.state.racks]
            assert [s["connected"] for s in seats] == [True, 10 <= step < 25]
    finally:
        await close_lobby(lobby)
