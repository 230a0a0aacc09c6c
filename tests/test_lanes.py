"""The fast lane (``pytest -m "not slow"``) holds no test that starts a browser, a server process, a
database, a proxy or a terminal: such tests are marked slow beside their code, tests/lanes.py stops
a run where one that uses a slow fixture is not, and its guard fails a test that starts one
unmarked; the tests that took over a second of CPU unmarked are named after the run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import lanes

TESTS = Path(__file__).resolve().parent

STARTS = [
    (["/usr/bin/chromium", "--headless"], "a browser"),
    (
        [".venv/lib/python3.11/site-packages/playwright/driver/node", "cli.js", "run-driver"],
        "a browser",
    ),
    (["tmux", "-L", "test", "new-session", "-d"], "a terminal"),
    (["/usr/sbin/nginx", "-p", "/tmp/x", "-g", "daemon off;"], "a proxy"),
    (
        ["runuser", "-u", "postgres", "--", "/usr/lib/postgresql/17/bin/pg_ctl", "start"],
        "a database",
    ),
    (["/usr/lib/postgresql/17/bin/initdb", "-D", "data"], "a database"),
    ([sys.executable, "-m", "tendays", "serve", "--port", "8000"], "a server process"),
    ([sys.executable, "-c", "import uvicorn\nuvicorn.run(app)", "8000"], "a server process"),
    (["tendays", "serve"], "a server process"),
    (["uvicorn", "tendays.server.face.app:app"], "a server process"),
]
QUICK = [
    ["node", "--check", "lobby.js"],
    [sys.executable, "-m", "tendays", "check", "usa"],
    [sys.executable, "-c", "print('serve')"],
    ["openssl", "req", "-x509"],
    ["git", "status"],
]


@pytest.mark.parametrize(("argv", "what"), STARTS)
def test_what_makes_a_test_slow_is_named(argv: list[str], what: str) -> None:
    assert lanes.started(argv) == what


@pytest.mark.parametrize("argv", QUICK)
def test_quick_programs_do_not(argv: list[str]) -> None:
    assert lanes.started(argv) is None


def test_a_module_marks_itself_slow_as_a_whole() -> None:
    assert lanes.marked_whole("import pytest\n\npytestmark = pytest.mark.slow  # starts tmux\n")
    assert lanes.marked_whole(
        "pytestmark = [\n    pytest.mark.slow,\n    pytest.mark.skipif(True),\n]\n"
    )
    assert not lanes.marked_whole("pytestmark = pytest.mark.skipif(True)\n")
    assert not lanes.marked_whole("@pytest.mark.slow\ndef test_one() -> None:\n    pass\n")


def test_every_collected_test_with_a_slow_fixture_is_marked(request: pytest.FixtureRequest) -> None:
    """In the fast lane the slow tests are deselected, so none of those
    left may need a slow fixture."""
    unmarked = [
        item.nodeid
        for item in request.session.items
        if lanes.needs_mark(item) is not None and item.get_closest_marker(lanes.MARK) is None
    ]
    assert unmarked == []


GUARDED = """
import subprocess
import time
import pytest

def _start_a_terminal():
    try:
        subprocess.run(["tmux", "-V"], capture_output=True)
    except OSError:  # not installed: it was still asked for
        pass

def test_unmarked():
    _start_a_terminal()

@pytest.mark.slow
def test_marked():
    _start_a_terminal()

def test_busy():
    start = time.process_time()
    while time.process_time() - start < 1.2:
        pass

@pytest.fixture(scope="module")
def shared_service():
    yield
    _start_a_terminal()  # a module's service stopped in the teardown of the module's last test

@pytest.mark.slow
def test_uses_the_service(shared_service):
    pass

def test_last_and_quick():
    pass
"""


@pytest.mark.slow
def test_the_guard_fails_an_unmarked_test_that_starts_a_terminal_and_names_a_busy_one(
    tmp_path: Path,
) -> None:
    for helper in ("conftest.py", "lanes.py"):
        shutil.copy(TESTS / helper, tmp_path / helper)
    (tmp_path / "test_guarded.py").write_text(GUARDED)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-W",
            "ignore::pytest.PytestUnknownMarkWarning",
            "-rf",
            str(tmp_path),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    # test_last_and_quick passes
    assert "1 failed, 4 passed" in done.stdout, done.stdout + done.stderr
    assert "test_unmarked starts a terminal but is not marked slow" in done.stdout
    assert "@pytest.mark.slow" in done.stdout
    heavy = done.stdout.split("Over 1 s of CPU and not marked slow")[1]
    assert "test_guarded.py::test_busy" in heavy and "test_marked" not in heavy
