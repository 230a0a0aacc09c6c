"""Every screen of the terminal game in German at 80x24: no English sentence left, nothing cut;
every tile shows its colour's shape, and the colour-blind palette is a key
away and kept in the save file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.text import Text
from test_play_options import started_app
from textual.app import App
from textual.widgets import Static
from tui_driver import Person, keys_for, make_app, screen_lines, settle, shown

from tendays.bots import GreedyBot
from tendays.cli.tui.game_screen import GameScreen
from tendays.cli.tui.replay_app import ReplayApp, ReplayScreen
from tendays.cli.tui.rules import rules_markdown
from tendays.cli.tui.save_file import load_save
from tendays.cli.tui.screens import HelpScreen, MoveInputScreen, PrivacyScreen, TextScreen
from tendays.cli.tui.setup_screen import SetupScreen
from tendays.engine import Game, Options, load_edition, play_bots, use_language

# Words of English sentences that German never uses. The move notation ("draw", "take 2") is the
# same in every language, so its words are not here; edition names are names.
ENGLISH = re.compile(
    r"\b(?:the|and|your|you|is|are|of|to|with|from|onto|which|tiles?|journey|racks?|piles?|days?|"
    r"players?|press|click|game|choose|empty|hidden|turns?|seats?|winner|won|none|links?|shows?|"
    r"quit|saves?|holds?|nothing|every|this|that|cannot|must|by)\b",
    re.IGNORECASE,
)
NAMES = ("10 Days in the USA",)


def english_in(text: str) -> list[str]:
    """The English words in ``text``, leaving out the edition names, file names and what is in
    backticks (notation)."""
    for name in NAMES:
        text = text.replace(name, "")
    return ENGLISH.findall(re.sub(r"`[^`]*`|\S+\.json", "", text))


def fits(app: App[None]) -> bool:
    lines = screen_lines(app)
    return len(lines) == 24 and all(len(line) <= 80 for line in lines)


async def look(pilot: object, app: App[None], *keys: str) -> str:
    """Press ``keys``; what the 80x24 screen then shows, checked to fit and to hold no English."""
    await pilot.press(*keys)  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    assert fits(app), screen_lines(app)
    text = shown(app)
    assert english_in(text) == [], text
    return text


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_help_rules_verdict_prompts_and_notices_speak_german_at_80x24() -> None:
    app = make_app(
        "me,greedy", seed=5, edition="germany", days=5, language="de", skip_to_first_turn=True
    )
    with use_language("de"):
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await look(pilot, app)
            help_text = await look(pilot, app, "question_mark")
            assert isinstance(app.screen, HelpScreen) and "Eine vollständige Reise" in help_text
            for _ in range(8):  # every part of the rules and keys, as it scrolls past
                await look(pilot, app, "pagedown")
            await look(pilot, app, "escape", "v")
            assert isinstance(app.screen, TextScreen)
            await look(pilot, app, "escape", "colon")
            assert isinstance(app.screen, MoveInputScreen)
            await look(pilot, app, "escape", "x")  # refused: nothing to discard yet
            assert "nichts abzuwerfen" in shown(app)
            await look(pilot, app, "c")
            await look(pilot, app, "d")  # a drawn tile: the prompt to place or discard it
            await look(pilot, app, "x")  # the prompt for the discard pile
            await look(pilot, app, "escape", "q")  # the unsaved game asks before quitting
            assert "noch einmal q beendet" in shown(app)
            await pilot.resize_terminal(50, 15)
            await pilot.pause()
            assert "Das Terminal ist zu klein: 50×15" in shown(app) and english_in(shown(app)) == []
    with use_language("de"):
        rules = rules_markdown(
            load_edition("germany"), Options(players=2, days=5, swap=True, first_seat=1)
        )
    assert english_in(rules) == [] and "Tauschvariante" in rules and "Spieler 2" in rules, rules
    with use_language("de"):
        rules = rules_markdown(load_edition("usa"), Options(players=3))
    assert english_in(rules) == [] and "Alaska und Hawaii" in rules, rules


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_the_setup_screen_and_the_hot_seat_screen_speak_german() -> None:
    from tendays.cli.tui.play_app import PlayApp
    from tendays.cli.tui.table import PlayConfig

    app = PlayApp(
        PlayConfig(edition="germany", players="Anna,Ben", seed=3, bot_delay=0),
        setup=True,
        language="de",
    )
    with use_language("de"):
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            text = await look(pilot, app)
            assert "Neues Spiel" in text and "Ausgabe" in text and "Wer nach dem Füllen" in text
            app.screen.query_one("#setup-seed").value = "x"  # type: ignore[attr-defined]
            text = await look(pilot, app, "enter")
            assert "der Startwert muss eine ganze Zahl sein" in text
            app.screen.query_one("#setup-seed").value = "3"  # type: ignore[attr-defined]
            await pilot.press("enter")
            for _ in range(20):
                await pilot.pause()
                if isinstance(app.screen, PrivacyScreen):
                    break
            assert isinstance(app.screen, PrivacyScreen)
            assert "Gib die Tastatur an Anna weiter" in await look(pilot, app)


def german_record() -> object:
    game = Game("germany", Options(players=2, days=5), 11, ("Anna", "You"))
    play_bots(game, [GreedyBot(), GreedyBot()])
    return game.record


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_the_replay_speaks_german_and_shows_each_colours_shape() -> None:
    record = german_record()
    app = ReplayApp(record, language="de")  # type: ignore[arg-type]
    germany = load_edition("germany")
    with use_language("de"):
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            assert "Spielzug 0/" in await look(pilot, app)
            text = await look(pilot, app, "end")
            assert "Sieger" in text and "Du" in text
            symbols = set(germany.symbols.values())
            assert any(symbol in text for symbol in symbols)
            await look(pilot, app, "question_mark")
            await look(pilot, app, "escape", "c")


def rack_rows(app: App[None]) -> list[str]:
    return [line for line in screen_lines(app) if re.match(r"^ [ ▸↻] ?\s?\d+ ", line)]


@pytest.mark.slow  # plays the terminal game's screens through whole games
@pytest.mark.parametrize(
    ("edition", "lang"), [("usa", "en"), ("usa", "de"), ("germany", "de"), ("germany", "en")]
)
async def test_every_tile_on_the_board_shows_its_colours_shape_in_full_at_80x24(
    edition: str, lang: str
) -> None:
    app = make_app(
        "me,greedy,random", seed=7, edition=edition, language=lang, skip_to_first_turn=True
    )
    data = load_edition(edition)
    with use_language(lang):
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            assert fits(app)
            pv = screen.table.view_for(0)
            assert pv.rack is not None
            rows = rack_rows(app)
            assert len(rows) == 10
            for row, tile in zip(rows, pv.rack, strict=True):
                assert tile is not None
                t = data.tiles[tile]
                shape = (
                    data.symbols["any" if t.color is None else t.color]
                    if t.role.name != "SKIP"
                    else ""
                )
                assert shape in row and t.name_in(lang) in row, row  # the whole name, never cut
            for pile in pv.piles:  # the top of each discard pile shows its shape too
                t = data.tiles[pile[-1]]
                if t.role.name != "SKIP":
                    assert data.symbols["any" if t.color is None else t.color] in shown(app)


def swatch_colours(screen: GameScreen) -> set[str]:
    colours = set()
    for widget in screen.query(Static):
        content = widget.content
        if isinstance(content, Text):
            colours |= {
                str(span.style).split(" on ")[-1]
                for span in content.spans
                if " on #" in str(span.style)
            }
    return colours


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_the_colour_blind_palette_is_a_key_away_and_kept_in_the_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "game.json"
    app = make_app("me,greedy", seed=4, save_path=save, skip_to_first_turn=True)
    usa = load_edition("usa")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settle(pilot)
        assert swatch_colours(screen) <= set(usa.palette.values()) | {"#8d8d8d"}
        await pilot.press("c")
        await pilot.pause()
        cb = swatch_colours(screen)
        assert (
            cb and cb <= set(usa.palette_cb.values()) | {"#8d8d8d"} and "colour-blind" in shown(app)
        )
        for key in keys_for(Person(1).choose(screen)):
            await pilot.press(key)
        await pilot.press("s")
        await pilot.pause()
    assert json.loads(save.read_text())["palette"] == "cb" and load_save(save)[0].edition == "usa"
    assert started_app(monkeypatch, "--resume", str(save)).config.palette == "cb"
    assert (
        started_app(monkeypatch, "--resume", str(save), "--palette", "normal").config.palette
        == "normal"
    )
    bad = json.loads(save.read_text()) | {"palette": "sepia"}
    save.write_text(json.dumps(bad))
    with pytest.raises(Exception, match="'palette' must be 'normal' or 'cb'"):
        load_save(save)


# English words that German screens once showed: the notation's verbs,
# "Seed" and Textual's "palette".
LEFT_IN_ENGLISH = re.compile(
    r"\b(?:draw|take|replace|discard|draft|swap|seed|palette)\b", re.IGNORECASE
)


@pytest.mark.slow  # plays the terminal game's screens through whole games
async def test_german_screens_say_moves_turns_and_keys_in_german_words() -> None:
    app = make_app(
        "me,greedy,normal", seed=5, edition="germany", language="de", skip_to_first_turn=True
    )
    with use_language("de"):
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            text = await look(pilot, app, "d")
            assert "Du hast vom Nachziehstapel gezogen." in text
            assert LEFT_IN_ENGLISH.findall(text) == [] and "Befehle" in screen_lines(app)[-1]
            status = screen_lines(app)[0]
            # a turn is a Zug, as German rules say it; a Runde is everybody's round
            assert "Zug" in status and "du bist am Zug" in status and "Runde" not in status
            assert "Bot 2 (Bot greedy)" in text and "((" not in text
            text = await look(pilot, app, "colon")
            assert (
                "ziehen · nehmen STAPEL · ersetzen TAG STAPEL" in text
                and LEFT_IN_ENGLISH.findall(text) == []
            )
    record = german_record()
    replay = ReplayApp(record, language="de")  # type: ignore[arg-type]
    with use_language("de"):
        async with replay.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = await look(pilot, replay, "right", "right", "right")
            assert (
                "Spielzug 3/" in text and "auf Tag" in text and LEFT_IN_ENGLISH.findall(text) == []
            )
            assert "q Beenden" in screen_lines(replay)[-1]  # the whole footer fits 80 columns
            text = await look(pilot, replay, "end")
            assert "Zug" in text and LEFT_IN_ENGLISH.findall(text) == []


async def test_the_german_swap_footer_and_setup_label_show_every_word_at_80x24() -> None:
    """The swap variant's footer holds its most keys (Draw and Swap beside the rest): in German
    every label is there in full, as is the setup screen's swap variant label."""
    from tendays.cli.tui.play_app import PlayApp
    from tendays.cli.tui.screens import key_labels
    from tendays.cli.tui.table import PlayConfig
    from tendays.engine.i18n import gettext

    app = make_app(
        "me,greedy", seed=7, edition="germany", swap=True, language="de", skip_to_first_turn=True
    )
    with use_language("de"):
        labels = key_labels()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert fits(app)
            footer = screen_lines(app)[-1]
            for key in ("Draw", "Swap", "Verdict", "Hint", "Save", "Help", "Quit", "palette"):
                assert re.search(rf"(?<!\w){re.escape(labels[key])}(?!\w)", footer), (key, footer)
        setup = PlayApp(PlayConfig(bot_delay=0, swap=True), setup=True, language="de")
        async with setup.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert fits(setup)
            label = gettext("Swap variant: a turn may swap two days instead of drawing")
            assert label in shown(setup), screen_lines(setup)
            seed = setup.screen.query_one("#setup-seed")
            assert setup.screen.query_one("#setup").region.contains_region(seed.region)
