"""Each lesson names its own edition's transport tiles: the USA lesson airplanes and cars, the
German one trains ("Bahn") and buses, in English and in German."""

from __future__ import annotations

import pytest

from tendays.engine import Options, load_edition, new_game, use_language
from tendays.learn.script import Topic
from tendays.learn.sentences import topic_text

SAID = {
    ("usa", "en"): ("An airplane joins two states", "A car stands for one state"),
    ("germany", "en"): ("A train joins two regions", "A bus stands for one region"),
    ("usa", "de"): ("Ein Flugzeug verbindet zwei Bundesstaaten", "Ein Auto steht für ein Gebiet"),
    ("germany", "de"): ("Eine Bahn verbindet zwei Regionen", "Ein Bus steht für ein Gebiet"),
}


@pytest.mark.parametrize(("edition", "lang"), sorted(SAID))
def test_a_lesson_names_the_transport_tiles_of_its_edition(edition: str, lang: str) -> None:
    state = new_game(load_edition(edition), Options(players=2), 1)
    with use_language(lang):
        link = topic_text(Topic.LINK, state, None, "…")
        skip = topic_text(Topic.SKIP, state, None, "…")
    said_link, said_skip = SAID[edition, lang]
    assert link.startswith(said_link) and skip.startswith(said_skip), (link, skip)
    others = {
        "usa": ("train", "bus", "Bahn", "Zug", "Bus"),
        "germany": ("airplane", "car", "Flugzeug", "Auto"),
    }
    assert not any(word in link + skip for word in others[edition]), (link, skip)
