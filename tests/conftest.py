"""Shared test settings, and the two lanes: the whole suite, and the fast lane ``pytest -m "not
slow"`` (slow tests are marked beside their code; tests/lanes.py checks and guards the rule)."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import lanes

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")

lanes.install()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    return lanes.whole_and_slow(collection_path, config)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    lanes.check(items)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    lanes.watching(item)
    lanes.started_at(item)
    try:
        return (yield)
    finally:
        lanes.watching(None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item) -> Iterator[pytest.TestReport]:
    report: pytest.TestReport = yield
    lanes.verdict(item, report)
    lanes.weigh(item, report)
    return report


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    lanes.note(report)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    lanes.summary(terminalreporter.write_line)
