"""The cluster's notice format: what one server process tells the others when it changes a game."""

from __future__ import annotations

import pytest

from tendays.server.storage.notices import MoveNotice, announcement, read_announcement
from tendays.server.storage.rows import MoveRow


def test_a_stored_move_is_heard_as_it_was_stored() -> None:
    row = MoveRow(
        "g1",
        31,
        2,
        "take 3 from pile 1 (day 4)",
        at=1700000000.125,
        deadline=1700000030.5,
        turn_started=1700000000.125,
        bank=12.75,
        timeouts=1,
        epoch=4,
    )
    heard = MoveRow.from_notice("g1", row.notice())
    assert heard == MoveRow(
        "g1",
        31,
        2,
        "take 3 from pile 1 (day 4)",
        at=1700000000.125,
        deadline=1700000030.5,
        turn_started=1700000000.125,
        bank=12.75,
        timeouts=1,
    )  # the epoch is the sender's


def test_a_move_without_a_clock_is_written_with_dashes() -> None:
    notice = MoveNotice(5, 0, "pass", 3.0, None, None, None, None)
    assert notice.text() == "move 5 0 3.0 - - - - pass"
    assert MoveNotice.read(notice.text()) == notice


@pytest.mark.parametrize("text", ["seat", "chat", "move 5 0", "move five 0 3.0 - - - - pass"])
def test_anything_but_a_whole_move_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        MoveNotice.read(text)


def test_an_announcement_names_the_sender_the_game_and_what_changed() -> None:
    payload = announcement("host:42:ab12", "g1", MoveNotice(1, 0, "a b", 2.0, None, None, None, None).text())
    sender, game_id, what = read_announcement(payload)
    assert (sender, game_id) == ("host:42:ab12", "g1")
    assert MoveNotice.read(what).move == "a b"
    assert read_announcement("host:1:ff *") == ("host:1:ff", "*", "")
