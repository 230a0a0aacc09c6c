"""The engine in German: verdicts, refusals, the game log and hints, with
plural forms; English unchanged."""

from __future__ import annotations

import asyncio
import threading

import pytest

from tendays.bots.hint import hint
from tendays.engine import (
    Event,
    EventKind,
    Game,
    GameRecord,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Options,
    OutOfTurnError,
    RecordError,
    checker_for,
    describe_event,
    load_edition,
    tile_name,
    view,
)
from tendays.engine.i18n import Term, current_language, join_list, match_language, use_language


def rack(edition_id: str, ids: list[str | None]) -> list[int | None]:
    edition = load_edition(edition_id)
    return [None if i is None else edition.tile(i).index for i in ids]


GERMAN_RACK = ["OFR", "NDB", "train-blue", "TH", "bus", "BE", "BE", "train-pink", "bus", "KA"]
USA_RACK = ["car", "CA", "plane-pink", "OH", "CA", "car", "NV", "AZ", "UT", "NM"]


def problems(edition_id: str, ids: list[str | None], lang: str | None = None) -> list[str]:
    return [
        str(p)
        for p in checker_for(load_edition(edition_id))
        .check(rack(edition_id, ids), lang=lang)
        .problems
    ]


def test_a_verdict_in_german() -> None:
    assert problems("germany", GERMAN_RACK, "de") == [
        "Tag 1 → 2: Oberfranken und Niederbayern grenzen nicht aneinander",
        "Tag 4 → 6: Thüringen und Berlin haben keinen gemeinsamen Nachbarn, für den der Bus "
        "stehen könnte",
        "Tag 6 → 7: Berlin an zwei Tagen hintereinander",
        "Tag 8 → 9: zwei Verkehrsmittel hintereinander (erst die rosa Bahn, dann der Bus)",
    ]
    with use_language("de"):
        verdict = checker_for(load_edition("usa")).check(rack("usa", USA_RACK))
    assert [str(p) for p in verdict.problems] == [
        "Tag 1: die Reise darf nicht mit einem Verkehrsmittel beginnen, hier das Auto",
        "Tag 2 → 4: das rosa Flugzeug verlangt, dass beide Enden rosa sind; Kalifornien ist blau "
        "und Ohio ist gelb",
        "Tag 4 → 5: Ohio und Kalifornien grenzen nicht aneinander",
        "Tag 5: das Plättchen „Kalifornien“ gibt es nur einmal, und dieser Reiseplan hat es schon "
        "an Tag 2",
        "Tag 9 → 10: Utah und New Mexico berühren sich nur an einer Ecke",
    ]
    assert "das Auto steht für Arizona, Nachbar von Kalifornien und Nevada" in [
        link.message for link in verdict.links
    ]
    # A problem keeps the language it was checked in, wherever it is printed.
    assert (
        verdict.to_json()["problems"][2]["message"]
        == "Tag 4 → 5: Ohio und Kalifornien grenzen nicht aneinander"
    )


def test_the_english_verdict_is_unchanged() -> None:
    assert problems("germany", GERMAN_RACK) == [
        "day 1 → 2: Oberfranken and Niederbayern do not share a border",
        "day 4 → 6: no region borders both Thüringen and Berlin, so the bus has nothing to stand "
        "for",
        "day 6 → 7: Berlin on two days in a row",
        "day 8 → 9: two transport tiles in a row (the pink train, then the bus)",
    ]
    assert problems("usa", USA_RACK) == [
        "day 1: the journey must start in a state, not with the car",
        "day 2 → 4: the pink airplane needs both ends pink; California is blue and Ohio is yellow",
        "day 4 → 5: Ohio and California do not share a border",
        "day 5: there is only one California tile, and this rack already holds it on day 2",
        "day 9 → 10: Utah and New Mexico only touch at a corner",
    ]


def test_plural_forms() -> None:
    berlin = ["BE", "BB", "BE", "BB", "BE"]  # three Berlin tiles; the box has two
    assert problems("germany", berlin) == [
        "day 4: there is only one Brandenburg tile, and this rack already holds it on day 2",
        "day 5: there are only 2 Berlin tiles, and this rack already holds them on days 1 and 3",
    ]
    assert problems("germany", berlin, "de") == [
        "Tag 4: das Plättchen „Brandenburg“ gibt es nur einmal, und dieser Reiseplan hat es schon "
        "an Tag 2",
        "Tag 5: das Plättchen „Berlin“ gibt es nur 2-mal, und dieser Reiseplan hat alle schon an "
        "den Tagen 1 und 3",
    ]
    germany = load_edition("germany")
    with use_language("de"):
        one, many = (describe_event(germany, Event(EventKind.LIMIT, count=n)) for n in (1, 12))
        with pytest.raises(ValueError) as short:
            Options(days=1).validate(germany)
    # a line of the log is a sentence: it begins with a capital
    assert one == "Die Höchstzahl von 1 Zug ist erreicht: Niemand gewinnt."
    assert many == "Die Höchstzahl von 12 Zügen ist erreicht: Niemand gewinnt."
    assert str(short.value) == "ein Reiseplan hat 2 bis 20 Tage, nicht 1"
    assert (
        describe_event(germany, Event(EventKind.LIMIT, count=1))
        == "The turn limit (1 turn) is reached: nobody wins"
    )


def test_illegal_moves_in_german() -> None:
    game = Game("germany", Options(players=2, days=5), 3)
    with use_language("de"):
        with pytest.raises(
            IllegalMoveError,
            match=r"^die Reisepläne werden noch gefüllt: lege das gezogene Plättchen "
            r"auf einen leeren Tag \('draft DAY'\), nicht 'draw'$",
        ):
            game.play("draw")
        with pytest.raises(OutOfTurnError, match="^Spieler 1 ist am Zug, nicht Spieler 2$"):
            game.play("draft 1", 1)
        with pytest.raises(
            InvalidMoveError, match="^unbekannter Spielzug 'fly'; die Spielzüge sind: draft, draw"
        ):
            Move.from_text("fly 3")
        with pytest.raises(
            ValueError,
            match="^10 Tage durch Deutschland hat 54 Plättchen: 4 Reisepläne mit 17 Tagen "
            "und 3 Ablagestapel ließen 0 im Nachziehstapel, zu wenige, damit jeder "
            "einmal ziehen kann; mit 4 Spielern hat ein Reiseplan höchstens 11 Tage$",
        ):
            Options(players=4, days=17).validate(load_edition("germany"))
        with pytest.raises(
            RecordError, match="^Spielzug 1 \\(draw\\) lässt sich nicht nachspielen: die Reisepläne"
        ):
            GameRecord("germany", Options(), 1, (Move.draw(),)).replay()
    with pytest.raises(IllegalMoveError, match="^it is player 1's turn, not player 2's$"):
        game.play("draft 1", 1)


def test_the_game_log_in_german() -> None:
    germany, usa = load_edition("germany"), load_edition("usa")
    names = ("Anna", "Ben")
    blue_train, car = germany.tile("train-blue").index, usa.tile("car").index
    assert (
        describe_event(
            germany, Event(EventKind.REPLACE, 0, day=5, pile=2, tile=blue_train), names, lang="de"
        )
        == "Anna ersetzt Tag 5 und legt auf Ablagestapel 2 ab: blaue Bahn"
    )
    assert (
        describe_event(usa, Event(EventKind.REVEAL, pile=1, tile=car), lang="de")
        == "Das Auto wird als Ablagestapel 1 aufgedeckt"
    )
    assert (
        describe_event(usa, Event(EventKind.TAKE, 1, pile=3, tile=usa.tile("CA").index), lang="de")
        == "Spieler 2 nimmt von Ablagestapel 3: Kalifornien"
    )
    assert (
        describe_event(usa, Event(EventKind.TAKE, 1, pile=3, tile=usa.tile("CA").index))
        == "Player 2 took California from discard pile 3"
    )
    assert tile_name(usa, car, lang="de") == "Auto" and tile_name(usa, None, lang="de") == "?"


def test_a_hint_in_german() -> None:
    game = Game("usa", Options(players=2), 1)
    first = view(game.state, 0)
    assert hint(first).message.startswith("10 tiles from a complete journey: fill days 1, 2, 3")
    assert (
        hint(first, lang="de").message
        == "noch 10 Plättchen bis zur fertigen Reise: Tage 1, 2, 3, 4, 5, 6, 7, 8, 9 und 10 belegen"
    )


def test_a_language_belongs_to_its_context() -> None:
    """Two seats of one server, rendered at once in two threads and two
    tasks, never swap languages."""
    germany = load_edition("germany")
    seen: dict[str, list[str]] = {"de": [], "en": []}

    def render(lang: str) -> None:
        with use_language(lang):
            for _ in range(200):
                seen[lang].append(describe_event(germany, Event(EventKind.START, 0)))

    threads = [threading.Thread(target=render, args=(lang,)) for lang in ("de", "en")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(seen["de"]) == {"Spieler 1 beginnt"} and set(seen["en"]) == {"Player 1 begins"}

    async def seat(lang: str) -> list[str]:
        with use_language(lang):
            lines = []
            for _ in range(20):
                await asyncio.sleep(0)
                lines.append(describe_event(germany, Event(EventKind.START, 1)))
            return lines

    async def both() -> list[list[str]]:
        return list(await asyncio.gather(seat("de"), seat("en")))

    german, english = asyncio.run(both())
    assert set(german) == {"Spieler 2 beginnt"} and set(english) == {"Player 2 begins"}
    assert current_language() == "en"


@pytest.mark.parametrize(
    ("asked", "chosen"),
    [
        ("de", "de"),
        ("de-AT", "de"),
        ("de_DE.UTF-8", "de"),
        ("C.UTF-8", "en"),
        ("fr-CH, de;q=0.9, en;q=0.8", "de"),
        ("en-US,en;q=0.9,de;q=0.8", "en"),
        ("fr", "en"),
        (["fr-FR", "de-CH"], "de"),
        (None, "en"),
        ("", "en"),
        ("fr_FR:de_DE:en", "de"),
        ("C", "en"),
    ],
)
def test_matching_a_persons_language(asked: str | list[str] | None, chosen: str) -> None:
    assert match_language(asked) == chosen


def test_lists_and_terms() -> None:
    assert join_list([3]) == "3" and join_list([3, 5, 8]) == "3, 5 and 8"
    with use_language("de"):
        assert join_list([3, 5, 8]) == "3, 5 und 8"
    term = Term("blaue Bahn", "die blaue Bahn")
    assert (
        f"{term}|{term:the}|{term:The}|{term:Name}"
        == "blaue Bahn|die blaue Bahn|Die blaue Bahn|Blaue Bahn"
    )
    with pytest.raises(ValueError, match="unknown form"):
        format(term, "dative")
