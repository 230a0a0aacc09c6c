"""``tendays puzzles``: the JSON contract, one puzzle a line, and solving at the
prompt (English and German)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

from tendays.cli import puzzles_cmd
from tendays.engine import checker_for, load_edition
from tendays.puzzles import Answer, Kind, pick
from tendays.puzzles.proof import discard_onto, finishes, with_tile

pytestmark = pytest.mark.slow  # each test runs the tendays command, a second or more


def tendays(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tendays", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    )


def test_json_prints_one_puzzle_a_line_as_the_contract_says() -> None:
    result = tendays("puzzles", "usa", "--count", "12", "--seed", "3", "--json")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 12
    edition = load_edition("usa")
    checker = checker_for(edition)
    ids = set()
    for line in lines:
        data = json.loads(line)
        assert {"id", "edition", "kind", "rack", "piles", "solution"} <= set(data)
        assert data["edition"] == "usa" and data["kind"] in ("finish", "block")
        ids.add(data["id"])
        rack = [edition.tile(t).index for t in data["rack"]]
        piles = [[edition.tile(t).index for t in pile] for pile in data["piles"]]
        assert len(rack) == 10 and len(piles) == 3 and all(piles)
        shown = Counter(
            rack
            + [t for pile in piles for t in pile]
            + [edition.tile(t).index for t in data.get("opponent", [])]
            + ([edition.tile(data["held"]).index] if "held" in data else [])
        )
        assert all(n <= edition.tiles[t].count for t, n in shown.items())
        assert not checker.is_complete(rack)
        solution = data["solution"]
        assert 1 <= solution["pile"] <= 3
        if data["kind"] == "finish":
            assert 1 <= solution["day"] <= 10
            assert finishes(edition, rack, piles) == [Answer(solution["pile"], solution["day"])]
            assert checker.is_complete(
                with_tile(rack, solution["day"], piles[solution["pile"] - 1][-1])
            )
        else:
            opponent = [edition.tile(t).index for t in data["opponent"]]
            held = edition.tile(data["held"]).index
            assert not finishes(edition, opponent, discard_onto(piles, solution["pile"], held))
    assert len(ids) == 12
    again = tendays("puzzles", "usa", "--count", "12", "--seed", "3", "--json")
    assert again.stdout == result.stdout  # the same seed, the same puzzles
    assert (
        tendays("puzzles", "usa", "--count", "12", "--seed", "4", "--json").stdout != result.stdout
    )


def test_kind_chooses_the_kind() -> None:
    result = tendays(
        "puzzles", "germany", "--count", "3", "--seed", "1", "--kind", "block", "--json"
    )
    assert result.returncode == 0, result.stderr
    assert {json.loads(line)["kind"] for line in result.stdout.splitlines()} == {"block"}


def test_bad_arguments_are_refused_in_words() -> None:
    result = tendays("puzzles", "mars", "--json")
    assert (
        result.returncode == 2
        and "unknown edition 'mars'" in result.stderr
        and "Traceback" not in result.stderr
    )
    result = tendays("puzzles", "usa", "--count", "0")
    assert result.returncode == 2 and "at least one puzzle" in result.stderr


def test_a_person_solves_puzzles_at_the_prompt() -> None:
    first, second = pick("usa", 2, 5, Kind.FINISH)
    wrong = Answer(first.solution.pile, first.solution.day % 10 + 1)
    typed = [
        "seven",
        "2 11",
        f"{wrong.pile} {wrong.day}",
        f"{second.solution.pile} {second.solution.day}",
    ]
    result = tendays(
        "puzzles", "usa", "--count", "2", "--seed", "5", "--kind", "finish", stdin="\n".join(typed)
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Puzzle 1 of 2" in out and "Finish now" in out and "Your journey" in out
    assert "Type a pile and a day, as two numbers" in out  # "seven"
    assert "there is no day 11" in out
    assert "Not this one:" in out and "The answer:" in out and "Right:" in out
    assert "Solved 1 of 2 puzzles." in out


def test_the_prompt_speaks_german() -> None:
    puzzle = pick("germany", 1, 2, Kind.BLOCK)[0]
    result = tendays(
        "puzzles",
        "germany",
        "--count",
        "1",
        "--seed",
        "2",
        "--kind",
        "block",
        "--lang",
        "de",
        stdin=f"1 2\n{puzzle.solution.pile}\n",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Rätsel 1 von 1" in out and "Blockieren" in out
    assert "Gib die Nummer eines Ablagestapels ein" in out  # "1 2" is not one pile
    assert "Richtig:" in out and "1 von 1 Rätsel gelöst." in out


def test_long_sentences_break_between_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    sentence = "Finish now: take the top tile of one discard pile and put it on one day."
    puzzles_cmd.say_wrapped(sentence)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 1 and all(len(line) <= 40 for line in lines)
    assert " ".join(line.strip() for line in lines) == sentence


def test_daily_is_the_sites_puzzle_of_the_day() -> None:
    import datetime

    from tendays.puzzles import daily, daily_date

    printed = tendays("puzzles", "--daily", "--date", "2026-12-24", "--json")
    assert printed.returncode == 0, printed.stderr
    data = json.loads(printed.stdout)
    assert data["id"] == daily("usa", datetime.date(2026, 12, 24)).id
    assert data["daily"] == "2026-12-24"
    before = daily("germany", daily_date()).id
    solved = tendays("puzzles", "germany", "--daily", stdin="q\n")
    after = daily("germany", daily_date()).id  # the same, unless midnight (UTC) came between
    assert solved.returncode == 0, solved.stderr
    assert "Das Rätsel des Tages, " in solved.stdout
    assert f"({before}, " in solved.stdout or f"({after}, " in solved.stdout
    refused = tendays("puzzles", "--daily", "--count", "3")
    assert refused.returncode == 2
    assert "--daily is one puzzle chosen by the date; leave out --count" in refused.stderr
