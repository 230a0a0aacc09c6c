"""The two lanes of the test suite: everything (``bash scripts/test.sh``, as CI runs it) and the fast lane,
``pytest -m "not slow"``, which is what one runs while working.

A test is *slow* when it starts a browser, a server process, a database, a proxy or a terminal, or runs for
more than a second. The marking is done here, at collection, so that it cannot be forgotten:

- a test that uses a fixture which starts one of those (``SLOW_FIXTURES``, and the PostgreSQL half of the
  server tests' ``db_url``) is marked slow, wherever it lives;
- so is every test of a module that imports a helper which starts one (``SLOW_HELPERS``: the browser tests'
  server and pages, the terminal tests' tmux, the server tests' processes and PostgreSQL);
- the other slow tests are named in ``SLOW_TESTS`` (measured with ``pytest --durations=0``);
- and a guard watches every process a test starts: a test that is not marked slow and starts Chromium,
  tmux, nginx, PostgreSQL or ``tendays serve`` fails and says how to mark it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import pytest

MARK = "slow"

# Fixtures that start a browser, a server process or a database, and what they start.
SLOW_FIXTURES = {
    "browser": "a browser",  # tests/web/conftest.py: Chromium
    "server": "a server process",  # tests/web: tendays serve in a subprocess
    "postgres": "a database",  # tests/server/conftest.py: a PostgreSQL cluster
    "postgres_url": "a database",
}
# Parametrised fixtures whose one value starts something: the server tests run on SQLite and PostgreSQL.
SLOW_PARAMS = {("db_url", "postgresql"): "a database"}

# Helpers of the tests that start a browser, a server process, a database or a terminal, by (module, name):
# a test module that imports one is slow as a whole.
SLOW_HELPERS = {
    ("browser_helpers", "Server"): "a server process",  # tests/web: tendays serve in a subprocess
    ("browser_helpers", "new_page"): "a browser",
    ("test_tmux", "Terminal"): "a terminal",  # tests/cli: a tmux server of its own
    ("server_helpers", "wait_until_serving"): "a server process",  # tests/server: tendays serve
    ("cluster_nodes", "Node"): "a server process",
    ("postgres", "PostgresCluster"): "a database",
}

# Tests slow for other reasons (a process of their own, or over a second of work), by node id: a module, a
# test (every parametrisation of it), or one parametrisation. Measured with --durations=0 on two cores.
SLOW_TESTS: tuple[str, ...] = (
    "tests/server/test_migrations.py::test_a_missing_postgresql_driver_is_named_in_one_line",  # tendays serve
)

# Programs whose start makes a test slow, by the name of the program, and what they are.
_PROGRAMS = {
    "chromium": "a browser", "chrome": "a browser", "headless_shell": "a browser",
    "tmux": "a terminal",
    "nginx": "a proxy",
    "initdb": "a database", "pg_ctl": "a database", "postgres": "a database", "postmaster": "a database",
    "uvicorn": "a server process",
}


def started(argv: Sequence[str]) -> str | None:
    """What a process started with ``argv`` is, if it is one that makes a test slow (else None)."""
    names = [os.path.basename(str(arg)) for arg in argv]
    for name, arg in zip(names, argv, strict=True):
        if name in _PROGRAMS:
            return _PROGRAMS[name]
        if "playwright" in str(arg) and "driver" in str(arg):  # Playwright's driver, which starts the browser
            return "a browser"
    program, words = (names[0] if names else ""), [str(arg) for arg in argv[1:]]
    serving = (program.startswith("python") and words[:3] == ["-m", "tendays", "serve"]) or (
        program == "tendays" and words[:1] == ["serve"])
    app = program.startswith("python") and words[:1] == ["-c"] and "uvicorn" in "".join(words[1:2])
    return "a server process" if serving or app else None


def slow_reason(item: pytest.Item) -> str | None:
    """Why ``item`` is slow by its fixtures or by name, or None."""
    for fixture in getattr(item, "fixturenames", ()):
        if fixture in SLOW_FIXTURES:
            return f"it uses the fixture {fixture!r}, which starts {SLOW_FIXTURES[fixture]}"
    params = getattr(getattr(item, "callspec", None), "params", {})
    for (name, value), what in SLOW_PARAMS.items():
        if params.get(name) == value:
            return f"its {name} is {value!r}, which starts {what}"
    helper = _helper_in(getattr(item, "module", None))
    if helper is not None:
        return f"its module uses {helper[0]}.{helper[1]}, which starts {SLOW_HELPERS[helper]}"
    node = item.nodeid
    for entry in SLOW_TESTS:
        if node == entry or node.startswith((entry + "[", entry + "::")):
            return "it is named in tests/lanes.py's SLOW_TESTS"
    return None


def _helper_in(module: Any) -> tuple[str, str] | None:
    """The first helper of ``SLOW_HELPERS`` that a test module holds, or None."""
    for value in vars(module).values() if module is not None else ():
        key = (getattr(value, "__module__", None), getattr(value, "__name__", None))
        if key in SLOW_HELPERS:
            return key  # type: ignore[return-value]
    return None


def mark(items: list[pytest.Item]) -> None:
    """Mark the slow ones of ``items``."""
    for item in items:
        if slow_reason(item) is not None:
            item.add_marker(MARK)


# -- the guard --------------------------------------------------------------------------------------------

_running: pytest.Item | None = None
_seen: list[str] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    """An audit hook: note what an unmarked test starts (args of subprocess.Popen: executable, argv, ...)."""
    if event != "subprocess.Popen" or _running is None or _running.get_closest_marker(MARK) is not None:
        return
    argv = args[1]
    argv = [argv] if isinstance(argv, str | bytes | os.PathLike) else list(argv)
    what = started([os.fsdecode(arg) if isinstance(arg, bytes | os.PathLike) else str(arg) for arg in argv])
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
    """Fail ``report`` if its phase of ``item`` started something that makes a test slow without the mark."""
    if not _seen or report.failed:
        _seen.clear()
        return
    what = ", ".join(sorted(set(_seen)))
    _seen.clear()
    report.outcome = "failed"
    report.longrepr = (f"{item.nodeid} starts {what} but is not marked slow, so it would run in the fast lane "
                       f"(pytest -m \"not slow\"): decorate it with @pytest.mark.slow, or name it in "
                       f"tests/lanes.py's SLOW_TESTS")
