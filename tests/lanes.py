"""The two lanes of the test suite: everything (``bash scripts/test.sh``, as CI runs it) and the
fast lane, ``pytest -m "not slow"``, which is what one runs while working.

A test is *slow* when it starts a browser, a server process, a database, a proxy or a terminal, or
runs for more than a second. It says so itself, beside its code, with a comment saying why:

- a whole module: ``pytestmark = pytest.mark.slow  # starts tendays serve`` (or the mark first in
  a list of marks); the fast lane does not even import such a module (:func:`whole_and_slow`), so
  it neither pays for its imports (JAX) nor forks a process that holds JAX's threads;
- one test: ``@pytest.mark.slow``; one parametrisation: ``pytest.param(...,
  marks=pytest.mark.slow)`` (the PostgreSQL half of the server tests' ``db_url``).

This module checks the rule rather than applying it:

- at collection, a test that uses a fixture which starts one of those (:data:`SLOW_FIXTURES`), or
  the PostgreSQL half of ``db_url``, and is not marked slow stops the run and says how to mark it
  (:func:`check`);
- a guard watches every process a test starts: a test that is not marked slow and starts Chromium,
  tmux, nginx, PostgreSQL or ``tendays serve`` fails and says how to mark it;
- the unmarked tests that took over a second of CPU are named after the run.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

MARK = "slow"

# Fixtures that start a browser, a server process or a database, and what they start: a test that
# uses one must be marked slow.
SLOW_FIXTURES = {
    "browser": "a browser",  # tests/web/conftest.py: Chromium
    "server": "a server process",  # tests/web: tendays serve in a subprocess
    "postgres": "a database",  # tests/server/conftest.py: a PostgreSQL cluster
    "postgres_url": "a database",
}
# Parametrised fixtures whose one value starts something: the server tests
# run on SQLite and PostgreSQL.
SLOW_PARAMS = {("db_url", "postgresql"): "a database"}

# A module that marks itself slow as a whole, as its source says it
_WHOLE = re.compile(r"^pytestmark = \[?\s*pytest\.mark\.slow\b", re.MULTILINE)


def needs_mark(item: pytest.Item) -> str | None:
    """Why ``item`` must be marked slow by the fixtures it uses, or None."""
    for fixture in getattr(item, "fixturenames", ()):
        if fixture in SLOW_FIXTURES:
            return f"it uses the fixture {fixture!r}, which starts {SLOW_FIXTURES[fixture]}"
    params = getattr(getattr(item, "callspec", None), "params", {})
    for (name, value), what in SLOW_PARAMS.items():
        if params.get(name) == value:
            return f"its {name} is {value!r}, which starts {what}"
    return None


def check(items: list[pytest.Item]) -> None:
    """Stop the run if a collected test needs the slow mark and lacks it."""
    unmarked = [
        f"  {item.nodeid}: {reason}"
        for item in items
        if (reason := needs_mark(item)) is not None and item.get_closest_marker(MARK) is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "these tests start something slow but are not marked slow: decorate them with "
            "@pytest.mark.slow (or their module with pytestmark = pytest.mark.slow; a "
            "parameter with pytest.param(..., marks=pytest.mark.slow)):\n" + "\n".join(unmarked)
        )


def marked_whole(source: str) -> bool:
    """Whether a test module's source marks the whole module slow."""
    return _WHOLE.search(source) is not None


def whole_and_slow(path: Path, config: pytest.Config) -> bool | None:
    """True for a test module marked slow as a whole, in the fast lane (``-m "not slow"``): it is
    not even imported. None otherwise: pytest decides."""
    if config.getoption("markexpr", "").strip() != f"not {MARK}":
        return None
    if path.suffix != ".py" or not path.name.startswith("test_") or not path.is_file():
        return None
    return True if marked_whole(path.read_text("utf-8")) else None


# Programs whose start makes a test slow, by the name of the program, and what they are.
_PROGRAMS = {
    "chromium": "a browser",
    "chrome": "a browser",
    "headless_shell": "a browser",
    "tmux": "a terminal",
    "nginx": "a proxy",
    "initdb": "a database",
    "pg_ctl": "a database",
    "postgres": "a database",
    "postmaster": "a database",
    "uvicorn": "a server process",
}


def started(argv: Sequence[str]) -> str | None:
    """What a process started with ``argv`` is, if it is one that makes a test slow (else None)."""
    names = [os.path.basename(str(arg)) for arg in argv]
    for name, arg in zip(names, argv, strict=True):
        if name in _PROGRAMS:
            return _PROGRAMS[name]
        # Playwright's driver, which starts the browser
        if "playwright" in str(arg) and "driver" in str(arg):
            return "a browser"
    program, words = (names[0] if names else ""), [str(arg) for arg in argv[1:]]
    serving = (program.startswith("python") and words[:3] == ["-m", "tendays", "serve"]) or (
        program == "tendays" and words[:1] == ["serve"]
    )
    app = program.startswith("python") and words[:1] == ["-c"] and "uvicorn" in "".join(words[1:2])
    return "a server process" if serving or app else None


# -- what the fast lane still spends a second on
# -----------------------------------------------------------

# CPU seconds of a test (its own and its subprocesses') beyond which it belongs in the slow lane
SECOND = 1.0
_heavy: list[tuple[float, str]] = []


def _cpu() -> float:
    used = os.times()
    return used.user + used.system + used.children_user + used.children_system


def started_at(item: pytest.Item) -> None:
    """Note the CPU seconds spent so far, before ``item`` runs."""
    item.stash[_START] = _cpu()


def weigh(item: pytest.Item, report: pytest.TestReport) -> None:
    """After ``item``'s last phase, attach its CPU seconds to ``report`` if it
    is unmarked and over a second."""
    start = item.stash.get(_START, None)
    if report.when == "teardown" and start is not None and item.get_closest_marker(MARK) is None:
        spent = _cpu() - start
        if spent > SECOND:
            report.user_properties.append(("cpu_seconds", round(spent, 2)))


def note(report: pytest.TestReport) -> None:
    """Keep the unmarked tests over a second, from their reports (which also
    come back from xdist's workers)."""
    for name, value in report.user_properties:
        if name == "cpu_seconds":
            _heavy.append((float(value), report.nodeid))


def summary(write: Any) -> None:
    """Name the unmarked tests that took over a second of CPU, so they can be marked."""
    if _heavy:
        write(
            f"Over {SECOND:g} s of CPU and not marked slow (mark them: @pytest.mark.slow, with a "
            f"comment saying why):"
        )
        for spent, node in sorted(_heavy, reverse=True):
            write(f"  {spent:6.2f} s  {node}")


_START = pytest.StashKey[float]()


# -- the guard
# --------------------------------------------------------------------------------------------

_running: pytest.Item | None = None
_seen: list[str] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    """An audit hook: note what an unmarked test starts (args of
    subprocess.Popen: executable, argv, ...)."""
    if (
        event != "subprocess.Popen"
        or _running is None
        or _running.get_closest_marker(MARK) is not None
    ):
        return
    argv = args[1]
    argv = [argv] if isinstance(argv, str | bytes | os.PathLike) else list(argv)
    what = started(
        [os.fsdecode(arg) if isinstance(arg, bytes | os.PathLike) else str(arg) for arg in argv]
    )
    if what is not None:
        _seen.append(what)


def install() -> None:
    """Watch the processes that tests start (an audit hook stays for the life of the process)."""
    sys.addaudithook(_audit)


def watching(item: pytest.Item) -> None:
    """From now on, processes are started by ``item`` (None: by no test)."""
    global _running
    _running = item
    _seen.clear()


def verdict(item: pytest.Item, report: pytest.TestReport) -> None:
    """Fail ``report`` if its phase of ``item`` started something that makes
    a test slow without the mark."""
    # A teardown is not judged: the session's and modules' fixtures end in the teardown of whichever
    # test ran last (a shared PostgreSQL cluster's pg_ctl stop), and stopping a
    # service is not starting one.
    if not _seen or report.failed or report.when == "teardown":
        _seen.clear()
        return
    what = ", ".join(sorted(set(_seen)))
    _seen.clear()
    report.outcome = "failed"
    report.longrepr = (
        f"{item.nodeid} starts {what} but is not marked slow, so it would run in the fast lane "
        f'(pytest -m "not slow"): decorate it with @pytest.mark.slow, or mark its whole module '
        f"with pytestmark = pytest.mark.slow (with a comment saying why)"
    )
