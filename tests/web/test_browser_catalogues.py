"""The browser's message catalogues (src/tendays/web/static/i18n/): every language says every message, with
the placeholders and plural forms it needs, and every message the pages and scripts ask for exists."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tendays.web.pages import page_html

STATIC = Path(__file__).resolve().parents[2] / "src" / "tendays" / "web" / "static"
I18N = STATIC / "i18n"
PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}  # Intl.PluralRules categories
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def languages() -> dict[str, str]:
    data: dict[str, str] = json.loads((I18N / "languages.json").read_text(encoding="utf-8"))
    return data


def forms(entry: str | dict[str, str]) -> list[str]:
    return [entry] if isinstance(entry, str) else list(entry.values())


def test_the_languages_listed_are_the_catalogues_shipped() -> None:
    assert set(languages()) == {p.stem for p in I18N.glob("*.json")} - {"languages"}
    assert {"en", "de"} <= set(languages())


@pytest.mark.parametrize("lang", sorted(set(languages()) - {"en"}))
def test_every_language_says_every_message_with_its_placeholders(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    assert sorted(set(english) - set(other)) == [], f"{lang} misses these messages"
    assert sorted(set(other) - set(english)) == [], f"{lang} has messages English does not"
    for key, entry in other.items():
        source = english[key]
        assert isinstance(entry, str) == isinstance(source, str), f"{key}: plural in one language only"
        if isinstance(entry, dict):
            assert "other" in entry and set(entry) <= PLURAL_FORMS, f"{key}: forms {sorted(entry)}"
        allowed = {name for text in forms(source) for name in PLACEHOLDER.findall(text)} | {"n"}
        for text in forms(entry):
            assert set(PLACEHOLDER.findall(text)) <= allowed, f"{lang} {key}: {text!r}"
            assert text.strip(), f"{lang} {key} is empty"


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in STATIC.glob("js/**/*.js"):
        keys |= set(re.findall(r"\bt[n]?\(\"([\w.]+)\"", path.read_text(encoding="utf-8")))
    for path in STATIC.glob("*.html"):
        text = page_html(path)  # with its top bar
        keys |= set(re.findall(r"data-i18n=\"([\w.]+)\"", text))
        for attrs in re.findall(r"data-i18n-attr=\"([^\"]+)\"", text):
            keys |= {pair.split(":")[1].strip() for pair in attrs.split(";") if ":" in pair}
    return keys


def test_every_message_asked_for_exists() -> None:
    english = catalogue("en")
    assert sorted(used_keys() - set(english)) == []
    # Messages named by a computed key: a game's status, why it ended.
    for key in (
        "status.waiting",
        "status.playing",
        "status.over",
        "admin.abandoned",
        "admin.closed",
        "prompt.draft_touch",
    ):
        assert key in english


def test_every_particular_bot_has_its_name_and_its_description() -> None:
    registry = pytest.importorskip("tendays.bots.registry")
    english = catalogue("en")
    for name, entry in registry.BOTS.items():
        assert english.get(f"bot.{name}") == name, f"the lobby names the {name} bot by its registry name"
        assert english.get(f"bot_about.{name}") == entry.description, f"bot_about.{name} is not the registry's"


def test_german_calls_a_turn_a_zug_and_only_a_tournament_round_a_runde() -> None:
    # As German rules say it: one player's turn is a "Zug", whose turn it is is "am Zug"; the train
    # tile is a "Bahn", so "Zug" is free. A "Runde" is everybody's round: only tournaments have them.
    round_ = re.compile(r"\b(Runde|Runden|Rundengrenze|dran|an der Reihe)\b")
    said = {
        key: text
        for key, entry in catalogue("de").items()
        for text in forms(entry)
        if round_.search(text) and not key.startswith("tournament")
    }
    assert said == {}
    assert catalogue("de")["lobby.pace_30"] == "Live: 30 s pro Zug, 2 min Reserve"


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_plural_forms_and_the_english_fallback_in_the_browser_module() -> None:
    script = f"""
import * as i18n from "{(STATIC / "js" / "shared" / "i18n.js").as_uri()}";
const en = {json.dumps(catalogue("en"))};
const de = {json.dumps(catalogue("de"))};
delete de["lobby.none"];
i18n.setCatalogue("de", de, en);
console.log(JSON.stringify([i18n.tn("lobby.days", 1), i18n.tn("lobby.days", 2), i18n.t("lobby.none"),
  i18n.t("rack.day", {{day: 3}}), i18n.list([3, 5, 8]), i18n.t("no.such.key"), i18n.levelWord("easy"),
  i18n.levelWord("greedy"), i18n.levelWord("expert:48")]));
"""
    result = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [
        "1 Tag",
        "2 Tage",
        "none",
        "Tag 3",
        "3, 5 und 8",
        "no.such.key",
        "leicht",
        "gierig",
        "expert:48",
    ]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_numbers_and_dates_are_written_as_the_reader_writes_them() -> None:
    # ratings with a decimal comma in German; one date style (the locale's) for the daily puzzle's day and
    # a profile's dates (a game's start comes as an ISO 8601 time)
    script = f"""
import * as i18n from "{(STATIC / "js" / "shared" / "i18n.js").as_uri()}";
import {{ changeText, deviationText, ratingText }} from "{(STATIC / "js" / "players" / "words.js").as_uri()}";
const said = [];
for (const lang of ["en", "de"]) {{
  i18n.setCatalogue(lang, {{}});
  said.push([ratingText(18.14), ratingText(1234.5, true), deviationText(4.25), changeText(-0.84),
    i18n.dateText("2026-12-04"), i18n.dateText(Date.UTC(2026, 11, 4, 12)),
    i18n.dateText("2026-12-04T12:00:01.5+00:00")]);
}}
console.log(JSON.stringify(said));
"""
    result = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "TZ": "UTC"},
    )
    assert result.returncode == 0, result.stderr
    english, german = json.loads(result.stdout)
    assert english == ["18.1", "1,234.5?", "± 4.3", "−0.8", "12/4/2026", "12/4/2026", "12/4/2026"]
    assert german == ["18,1", "1.234,5?", "± 4,3", "−0,8", "4.12.2026", "4.12.2026", "4.12.2026"]
