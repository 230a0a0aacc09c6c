"""The public history: an immutable log whose append costs the same at any
length, and branches safely."""

from __future__ import annotations

import pickle

from tendays.engine import Event, EventKind, EventLog


def events(n: int, kind: EventKind = EventKind.DRAW) -> list[Event]:
    return [Event(kind, i % 4, day=i) for i in range(n)]


def test_a_log_reads_like_a_tuple() -> None:
    log = EventLog().append(*events(5))
    assert len(log) == 5 and list(log) == events(5) and log == tuple(events(5))
    assert log[0] == events(5)[0] and log[-1] == events(5)[-1]
    assert log[1:3] == tuple(events(5)[1:3]) and log[::-2] == tuple(events(5)[::-2])
    assert list(reversed(log)) == events(5)[::-1]


def test_appending_never_changes_an_older_log() -> None:
    base = EventLog().append(*events(3))
    longer = base.append(Event(EventKind.TAKE, 0, pile=1))
    # a branch from the same point (search, undo)
    other = base.append(Event(EventKind.SWAP, 1, day=2, day2=3))
    assert len(base) == 3 and list(base) == events(3)
    assert longer[-1].kind is EventKind.TAKE and other[-1].kind is EventKind.SWAP
    assert longer[:3] == other[:3] == tuple(base)
    assert longer.append(Event(EventKind.WIN, 0))[-2].kind is EventKind.TAKE
    assert base != longer and hash(base) == hash(EventLog(events(3)))


def test_a_log_pickles_without_what_came_after_it() -> None:
    base = EventLog().append(*events(3))
    base.append(*events(100))
    restored = pickle.loads(pickle.dumps(base))
    assert restored == base and len(restored) == 3
