"""The settings of ``tendays serve`` are declared once (cli/serve_settings.py): the command's
arguments, its help, the server's own defaults, the generated docs tables and env.example, and the
numbers the docs' prose gives for a default all agree with that declaration."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tendays.cli import serve_cmd
from tendays.cli.serve_settings import SERVE_SETTINGS, Kind, Setting, SettingGroup, setting
from tendays.server.face.door.connections import ConnectionLimits
from tendays.server.face.door.limits import Limits
from tendays.server.settings import MasterSettings, PaceLimits

ROOT = Path(__file__).resolve().parents[2]
HOLDERS: dict[str, Any] = {
    "MasterSettings": MasterSettings,
    "PaceLimits": PaceLimits,
    "Limits": Limits,
    "ConnectionLimits": ConnectionLimits,
}


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("settings_docs", ROOT / "tools/settings_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tendays serve")
    serve_cmd.add_arguments(parser)
    return parser


def _held_default(holder: Any, name: str) -> Any:
    if dataclasses.is_dataclass(holder):
        fields = {field.name: field for field in dataclasses.fields(holder)}
        return fields[name].default
    return inspect.signature(holder).parameters[name].default


def test_the_generated_tables_and_env_example_are_current(tool: ModuleType) -> None:
    assert tool.main(["--check"]) == 0, "run python tools/settings_docs.py"


def test_a_setting_added_without_regenerating_is_caught(
    tool: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    added = Setting("seats-per-minute", Kind.INTEGER, "12", "seats a minute", SettingGroup.LIMITS)
    monkeypatch.setattr(tool, "SERVE_SETTINGS", (*SERVE_SETTINGS, added))
    assert tool.main(["--check"]) == 1
    stale = capsys.readouterr().out
    assert "docs/server.md" in stale and "docs/deploy.md" in stale and "env.example" in stale


def test_names_are_unique_and_every_variable_is_the_flag_spelt_in_capitals() -> None:
    names = [entry.name for entry in SERVE_SETTINGS]
    assert len(names) == len(set(names))
    assert setting("idle-expiry").environment == "TENDAYS_IDLE_EXPIRY"
    assert setting("admin-token").has_flag is False


@pytest.mark.parametrize("entry", [e for e in SERVE_SETTINGS if e.field], ids=lambda e: e.name)
def test_the_server_keeps_the_declared_default(entry: Setting) -> None:
    assert entry.field is not None
    holder, name = entry.field.split(".")
    assert _held_default(HOLDERS[holder], name) == entry.default_value()


def test_the_command_starts_from_the_declared_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for entry in SERVE_SETTINGS:
        monkeypatch.delenv(entry.environment, raising=False)
    args = _parser().parse_args([])
    for entry in SERVE_SETTINGS:
        if entry.has_flag:
            assert getattr(args, entry.dest) == entry.default_value(), entry.name
    assert args.retention == 90 * 86400 and args.bot_workers is None


def test_the_environment_gives_a_setting_read_as_its_flag_would_be(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TENDAYS_IDLE_EXPIRY", "2h")
    monkeypatch.setenv("TENDAYS_RETENTION", "forever")
    monkeypatch.setenv("TENDAYS_BOT_WORKERS", "0")
    monkeypatch.setenv("TENDAYS_TIMEOUTS_TO_BOT", "5")
    args = _parser().parse_args(["--timeouts-to-bot", "4"])
    assert args.idle_expiry == 7200 and args.retention is None and args.bot_workers == 0
    assert args.timeouts_to_bot == 4  # the command line wins over the environment


def test_env_example_read_as_systemd_does_starts_the_server_as_declared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for entry in SERVE_SETTINGS:
        monkeypatch.delenv(entry.environment, raising=False)
    text = (ROOT / "deploy/systemd/env.example").read_text(encoding="utf-8")
    given = dict(line.split("=", 1) for line in text.splitlines() if not line.startswith("#"))
    assert set(given) == {"TENDAYS_DB", "TENDAYS_ADMIN_TOKEN", "TENDAYS_TRUSTED_PROXIES"}
    for name, value in given.items():
        monkeypatch.setenv(name, value)
    args = _parser().parse_args([])
    assert args.db == "sqlite:////var/lib/tendays/tendays.db"
    assert args.trusted_proxies == "127.0.0.1"
    for entry in SERVE_SETTINGS:
        if entry.has_flag and entry.environment not in given:
            assert getattr(args, entry.dest) == entry.default_value(), entry.name


def test_help_names_every_flag_its_variable_and_its_default() -> None:
    shown = " ".join(_parser().format_help().split())
    for entry in SERVE_SETTINGS:
        if entry.has_flag:
            assert f"{entry.flag} " in shown
            assert f"(default {entry.default_words()}) [{entry.environment}]" in shown
    assert "TENDAYS_ADMIN_TOKEN)" in shown  # the secret's variable, told beside its file


def _defaults() -> dict[str, str]:
    """Each setting's default as prose writes it: 10 for 10s, 10,000 for 10000."""
    words = {}
    for entry in SERVE_SETTINGS:
        value = entry.default_value()
        if isinstance(value, int | float) and not isinstance(value, bool):
            words[entry.name] = f"{value:,g}" if value < 86400 else entry.default or ""
    return words


# Prose and hand-made tables that give a setting's default: each phrase, with the default put in,
# must be found in its file (lines joined), so a changed default cannot leave them behind.
PROSE = (
    ("docs/bridge.md", "`--timeouts-to-bot` such turns in a row ({timeouts-to-bot} by default)"),
    ("docs/deploy.md", "(`TENDAYS_LEASE`, {lease} s, plus up to a third of it)"),
    ("docs/deploy.md", "| {header-timeout} s | connection closed | `TENDAYS_HEADER_TIMEOUT` |"),
    ("docs/deploy.md", "| {body-timeout} s | `408`, connection closed | `TENDAYS_BODY_TIMEOUT` |"),
    ("docs/deploy.md", "| {open-connections} | the next is closed unanswered |"),
    (
        "docs/deploy.md",
        "| {creates-per-minute}, {joins-per-minute}, {connections-per-minute} | `429` with",
    ),
    ("docs/deploy.md", "| {connections-at-once} | `429` | `TENDAYS_CONNECTIONS_AT_ONCE` |"),
    ("docs/deploy.md", "| {replays-per-minute} a minute, one at a time |"),
    ("docs/deploy.md", "| {max-games} | `503` | `TENDAYS_MAX_GAMES` |"),
    ("docs/deploy.md", "| {token-requests-per-minute} | `429` with `Retry-After` |"),
    ("docs/deploy.md", "| {bot-games} | `409` at accept | `TENDAYS_BOT_GAMES` |"),
    ("docs/deploy.md", "| {challenges-per-minute} a minute, 20 an hour |"),
    ("docs/protocol.md", "`--bot-games` unfinished games at once ({bot-games} by default)"),
    ("docs/protocol.md", "every `--stream-keepalive` seconds ({stream-keepalive} by default)"),
    ("docs/protocol.md", "| {token-requests-per-minute} | `--token-requests-per-minute`"),
    ("docs/protocol.md", "| {bot-games} | `--bot-games` (409 at accept) |"),
    ("docs/protocol.md", "| {challenges-per-minute} a minute, 20 an hour | `--challenges-per"),
    ("docs/protocol.md", "| every {stream-keepalive} s | `--stream-keepalive` |"),
    ("docs/server.md", "Every third of the lease (`--lease`, {lease} s)"),
    ("docs/server.md", "lease time (`--lease`, default {lease} s)"),
    ("docs/server.md", "| {creates-per-minute} (`--creates-per-minute`) |"),
    ("docs/server.md", "| {joins-per-minute} (`--joins-per-minute`) |"),
    ("docs/server.md", "| {replays-per-minute} a minute (`--replays-per-minute`, 0: off)"),
    ("docs/server.md", "| {header-timeout} s | connection closed | `--header-timeout` |"),
    ("docs/server.md", "`--tournament-min-minutes`, default {tournament-min-minutes};"),
    ("docs/server.md", "**{tournaments-per-day} tournaments a day** (`--tournaments-per-day`)"),
    ("docs/server.md", "| {challenges-per-minute} (the operator's `--challenges-per-minute`;"),
    ("docs/server.md", "| {token-requests-per-minute} (`--token-requests-per-minute`; 0: none)"),
    ("docs/server.md", "`--bot-games` ({bot-games} by default)"),
    ("docs/server.md", "every `--stream-keepalive` ({stream-keepalive} s)"),
)


@pytest.mark.parametrize(("path", "phrase"), PROSE, ids=[f"{p}:{t[:30]}" for p, t in PROSE])
def test_prose_gives_the_declared_default(path: str, phrase: str) -> None:
    text = " ".join((ROOT / path).read_text(encoding="utf-8").split())
    words = _defaults()
    expected = phrase
    for name, default in words.items():
        expected = expected.replace("{" + name + "}", default)
    assert "{" not in expected, f"no such setting in {phrase!r}"
    assert expected in text, f"{path} should say {expected!r}"
