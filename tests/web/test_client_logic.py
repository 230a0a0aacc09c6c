"""The browser client's logic that needs no page, run in Node: the legal moves as the server lists them
decide every click and drop, and the table's state and panels redraw only on a change.

Each case is a small ES module that imports the client's modules and prints JSON; the test compares it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

JS = Path(__file__).resolve().parents[2] / "src" / "tendays" / "web" / "static" / "js"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")


def run(script: str) -> Any:
    """Run ``script`` as an ES module beside the client's modules; returns what it printed, as JSON."""
    prelude = "\n".join(
        f'import * as {name} from "{(JS / "table" / f"{name}.js").as_uri()}";'
        for name in ("legal", "drag", "state", "panel")
    )
    result = subprocess.run(
        ["node", "--input-type=module", "-e", f"{prelude}\n{script}"], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def moves(*texts: str) -> str:
    """The server's structured form of moves given in notation (as ``Move.to_json`` writes them)."""
    out = []
    for text in texts:
        kind, *numbers = text.split()
        move: dict[str, Any] = {"kind": kind}
        if kind in ("draft", "swap", "replace"):
            move["day"] = int(numbers[0])
        if kind == "swap":
            move["day2"] = int(numbers[1])
        if kind in ("take", "discard"):
            move["pile"] = int(numbers[0])
        if kind == "replace":
            move["pile"] = int(numbers[1])
        move["text"] = text
        out.append(move)
    return json.dumps(out)


# A drop target as the page marks it: data-drop-day or data-drop-pile.
DAY = "(day) => ({dataset: {dropDay: String(day)}})"
PILE = "(pile) => ({dataset: {dropPile: String(pile)}})"


def drops(legal_moves: str, cases: str) -> Any:
    return run(f"""
        const offered = legal.legalOf({legal_moves});
        const day = {DAY}, pile = {PILE};
        console.log(JSON.stringify({cases}.map(([payload, target]) => drag.dropAction(offered, payload, target))));
    """)


def test_the_index_of_legal_moves_keeps_each_moves_text() -> None:
    found = run(f"""
        const l = legal.legalOf({moves("draw", "take 2", "swap 1 3", "swap 2 3")});
        console.log(JSON.stringify({{any: l.any, draw: l.draw, take: [...l.take], swap13: legal.swapMove(l, 3, 1),
          swap12: legal.swapMove(l, 1, 2), swapDays: [...l.swapDays].sort()}}));
    """)
    assert found == {
        "any": True,
        "draw": "draw",
        "take": [[2, "take 2"]],
        "swap13": "swap 1 3",
        "swap12": None,
        "swapDays": [1, 2, 3],
    }


def test_a_forced_pile_is_the_only_pile_offered_and_a_drop_on_a_day_goes_there_at_once() -> None:
    # The server lists only pile 2 (its last tile was taken): dropping the tile in hand on a day replaces it.
    forced = moves("replace 1 2", "replace 2 2", "discard 2")
    assert drops(forced, "[[{from: 'hand'}, day(1)], [{from: 'hand'}, pile(1)], [{from: 'hand'}, pile(2)]]") == [
        {"move": "replace 1 2"},
        None,
        {"move": "discard 2"},
    ]
    free = moves(*(f"replace {d} {p}" for d in (1, 2) for p in (1, 2, 3)), "discard 1", "discard 2", "discard 3")
    assert drops(free, "[[{from: 'hand'}, day(2)], [{from: 'day', day: 2}, pile(3)]]") == [
        {"select": 2},
        {"move": "replace 2 3"},
    ]


def test_the_prompt_names_only_the_forced_piles_key() -> None:
    # After taking the last tile of pile 2 the server lists only pile 2: the prompt says W, not "Q, W, E".
    forced = moves("replace 1 2", "replace 2 2", "discard 2")
    free = moves(*(f"replace {d} {p}" for d in (1, 2) for p in (1, 2, 3)), "discard 1", "discard 2", "discard 3")
    found = run(f"""
        globalThis.window = {{matchMedia: () => ({{matches: false}})}};
        const i18n = await import("{(JS / "shared" / "i18n.js").as_uri()}");
        const prompt = await import("{(JS / "table" / "prompt.js").as_uri()}");
        const fs = await import("node:fs");
        i18n.setCatalogue("en", JSON.parse(fs.readFileSync("{JS.parent / "i18n" / "en.json"}", "utf8")));
        const edition = {{name: (tile) => `tile ${{tile}}`, describe: (tile) => `tile ${{tile}}`}};
        const p = {{status: "playing", phase: "place", over: false, handedOver: null, current: 0, you: 0,
          seats: [{{seat: 0, name: "Ada", kind: "human"}}], spectator: false, inHand: 5, selectedDay: null,
          selectedTile: null}};
        const said = (moves, forcedPile, selectedDay) => prompt.promptText(edition,
          {{...p, moves, forcedPile, selectedDay, selectedTile: selectedDay && 7}});
        console.log(JSON.stringify([said({forced}, 2, null), said({forced}, 2, 1), said({free}, 0, null),
          said({free}, 0, 2)]));
    """)
    assert "onto a pile (W)." in found[0] and "pile for tile 7 (W; or" in found[1]
    assert all("Q, W, E" not in text for text in found[:2])
    assert "onto a pile (Q, W, E)." in found[2] and "pile for tile 7 (Q, W, E; or" in found[3]


def test_drops_in_the_draw_phase_take_a_pile_or_swap_days() -> None:
    legal_moves = moves("draw", "take 1", "swap 1 2")
    assert drops(
        legal_moves,
        """[[{from: 'pile', pile: 1}, day(2)], [{from: 'pile', pile: 3}, day(2)],
                                  [{from: 'day', day: 2}, day(1)], [{from: 'day', day: 2}, day(3)]]""",
    ) == [{"move": "take 1", "selectAfter": 2}, None, {"move": "swap 1 2"}, None]


def test_the_draft_drops_on_an_empty_day_only() -> None:
    assert drops(moves("draft 2", "draft 3"), "[[{from: 'hand'}, day(2)], [{from: 'hand'}, day(1)]]") == [
        {"move": "draft 2"},
        None,
    ]


def test_a_selected_day_is_dropped_when_no_move_may_be_made() -> None:
    found = run(f"""
        const s = state.createTableState();
        const game = {{legal_moves: {moves("replace 1 1", "discard 1")}}};
        s.update({{game, selectedDay: 1}});
        const kept = s.state.selectedDay;
        s.update({{busy: true}});
        console.log(JSON.stringify({{kept, whileBusy: s.state.selectedDay, frozen: Object.isFrozen(s.state)}}));
    """)
    assert found == {"kept": 1, "whileBusy": None, "frozen": True}


def test_a_panel_draws_again_only_when_its_inputs_change() -> None:
    found = run("""
        const drawn = [];
        const p = panel.panel((state) => ({rack: state.rack}), (inputs) => drawn.push(inputs.rack.join(",")));
        p({rack: ["OH", null], other: 1});
        p({rack: ["OH", null], other: 2});
        p({rack: ["OH", "PA"], other: 2});
        console.log(JSON.stringify(drawn));
    """)
    assert found == ["OH,", "OH,PA"]
