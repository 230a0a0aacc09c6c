"""The `tendays map` and `tendays check` contract that other tools rely on."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tendays.cli.main import main


def tendays(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tendays", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_map_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "germany", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["edition"] == "germany" and len(data["regions"]) == 38
    berlin = next(r for r in data["regions"] if r["id"] == "BE")
    assert berlin["color"] is None and berlin["neighbors"] == ["BB"]
    assert sum(t["count"] for t in data["tiles"]) == 54


def test_map_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "usa"]) == 0
    out = capsys.readouterr().out
    assert "Washington" in out and "plane-pink" in out and "66" in out


def test_map_unknown_edition(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "mars"]) == 2
    assert "unknown edition 'mars'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (
            ["usa", "WA", "OR", "CA", "NV", "UT", "CO", "NM", "TX", "OK", "KS"],
            0,
            "complete 10-day journey",
        ),
        (
            ["usa", "wa", "or", "ca", "nv", "ut", "nm", "tx", "ok", "ks", "car"],
            1,
            "day 5 → 6: Utah and New Mexico only touch at a corner",
        ),
        (
            ["germany", "BE", "train-green", "MV", "BB", "BE", "--days", "5", "--lang", "en"],
            1,
            "Mecklenburg-Vorpommern is pink",
        ),
        (
            ["germany", "BE", "train-pink", "MV", "BB", "BE", "--days", "5", "--lang", "en"],
            0,
            "complete 5-day journey",
        ),
        (  # the German edition speaks German unless asked otherwise
            ["germany", "BE,train-pink,MV,BB,BE", "--days", "5"],
            0,
            "eine vollständige Reise über 5 Tage",
        ),
        # A rack holding a tile more often than the box has it is judged by the
        # verdict, not refused as input.
        (
            ["usa", "WA", "OR", "WA", "OR", "WA", "--days", "5"],
            1,
            "day 5: there is only one Washington tile, and this rack already holds it on day 1",
        ),
        (
            ["germany", "BE", "BB", "BE", "BB", "BE", "--days", "5", "--lang", "en"],
            1,
            "day 5: there are only 2 Berlin tiles, and this rack already holds them on days 1 and "
            "3",
        ),
    ],
)
def test_check_exit_codes(
    args: list[str], code: int, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", *args]) == code
    assert words in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["usa", "WA", "XX"], "10 Days in the USA has no tile 'XX'"),
        (["usa", "WA", "OR"], "a journey has 10 days, but 2 tiles were given"),
        (
            ["usa", "car", "OH", "car", "IN", "car", "KY", "car", "OH", "car", "MI", "car"],
            "a journey has 10 days, but 11 tiles were given",
        ),
        (["atlantis", "WA"], "unknown edition 'atlantis'"),
    ],
)
def test_check_bad_input(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *args]) == 2
    assert words in capsys.readouterr().err


def test_check_json() -> None:
    result = tendays("check", "usa", "UT", "NM", "TX", "OK", "KS", "--days", "5", "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout) == {
        "valid": False,
        "problems": [
            {
                "day": 1,
                "to_day": 2,
                "message": "day 1 → 2: Utah and New Mexico only touch at a corner",
            }
        ],
        "links": [
            {
                "from_day": 1,
                "to_day": 2,
                "via_day": None,
                "ok": False,
                "message": "Utah and New Mexico only touch at a corner",
            },
            {
                "from_day": 2,
                "to_day": 3,
                "via_day": None,
                "ok": True,
                "message": "New Mexico borders Texas",
            },
            {
                "from_day": 3,
                "to_day": 4,
                "via_day": None,
                "ok": True,
                "message": "Texas borders Oklahoma",
            },
            {
                "from_day": 4,
                "to_day": 5,
                "via_day": None,
                "ok": True,
                "message": "Oklahoma borders Kansas",
            },
        ],
    }


def test_check_json_names_surplus_copies() -> None:
    result = tendays(
        "check", "usa", "car", "OH", "car", "IN", "car", "KY", "car", "OH", "car", "MI", "--json"
    )
    verdict = json.loads(result.stdout)
    assert result.returncode == 1 and verdict["valid"] is False
    assert {
        "day": 8,
        "to_day": None,
        "message": "day 8: there is only one Ohio tile, and this rack already holds it on day 2",
    } in verdict["problems"]


def test_check_reads_journeys_from_stdin() -> None:
    lines = "WA OR CA NV UT CO NM TX OK KS\nWA,OR,CA,NV,UT,NM,TX,OK,KS,MO\nWA XX\nWA OR\n"
    result = tendays("check", "usa", stdin=lines)
    assert result.returncode == 2  # some lines were bad input
    verdicts = [json.loads(line) for line in result.stdout.splitlines()]
    assert (
        verdicts[0]["valid"] is True
        and verdicts[0]["problems"] == []
        and len(verdicts[0]["links"]) == 9
    )
    assert (
        verdicts[1]["valid"] is False
        and "only touch at a corner" in verdicts[1]["problems"][0]["message"]
    )
    assert verdicts[2] == {"line": 3, "error": "10 Days in the USA has no tile 'XX'"}
    assert verdicts[3] == {"line": 4, "error": "a journey has 10 days, but 2 tiles were given"}
    assert [verdict["line"] for verdict in verdicts] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("command", "language"),
    [
        ("check", "the edition's own"),
        ("map", "the edition's own"),
        ("puzzles", "the edition's own"),
        ("play", "the edition's own"),
        ("replay", "the edition's own"),
    ],
)
def test_the_help_says_the_language_the_command_speaks(command: str, language: str) -> None:
    help_text = " ".join(tendays(command, "--help").stdout.split())
    assert f"(default: from LANGUAGE/LANG, else {language})" in help_text


@pytest.mark.slow  # six tendays processes
def test_check_map_and_puzzles_speak_the_editions_language_when_nothing_asks_for_another() -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    }

    def run(*args: str, lang: str | None = None) -> str:
        result = subprocess.run(
            [sys.executable, "-m", "tendays", *args],
            capture_output=True,
            text=True,
            env=env if lang is None else {**env, "LANG": lang},
            input="q\n",
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    # as --help says: the German edition in German, its credit line included
    shown = run("map", "germany")
    assert "38 Regionen" in shown and "◆ rosa" in shown and "Grenzen: © GeoBasis-DE" in shown
    assert "Rätsel 1 von 1" in run("puzzles", "germany", "--count", "1", "--seed", "1")
    # a locale that asks for no language is no request for English
    assert "Grenzen: ©" in run("map", "germany", lang="C.UTF-8")
    # a locale that asks for English is one; so is --lang
    assert "38 regions" in run("map", "germany", lang="en_GB.UTF-8")
    assert "Borders: US Census" in run("map", "usa") and "Puzzle 1 of 1" in run(
        "puzzles", "--count", "1", "--seed", "1"
    )
    assert "38 regions" in run("map", "germany", "--lang", "en")
