"""Every setting of ``tendays serve``, declared once: its flag, environment variable, default,
kind, help and group. The command's arguments are built from this table, and so are the settings
tables of docs/server.md and docs/deploy.md and ``deploy/systemd/env.example``
(``python tools/settings_docs.py`` writes them; a test checks that they are current and that the
server's own defaults equal the ones declared here).
"""

from __future__ import annotations

import argparse
import os
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tendays.engine.i18n import gettext as _

__all__ = ["SERVE_SETTINGS", "Kind", "Setting", "SettingGroup", "duration", "retention"]

DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
ENVIRONMENT_PREFIX = "TENDAYS_"


def duration(text: str) -> float:
    """Seconds from '45s', '30m', '12h', '14d' or a plain number of seconds."""
    found = DURATION.match(text)
    if not found:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a duration such as 45s, 30m, 12h or 14d").format(text=text)
        )
    return float(found.group(1)) * UNITS[found.group(2)]


def retention(text: str) -> float | None:
    """Seconds, as :func:`duration`, or None for 'forever' (ended games are kept)."""
    return None if text.strip().lower() in ("forever", "never", "keep") else duration(text)


class Kind(StrEnum):
    """What a setting's value is, which decides how its text is read."""

    TEXT = "text"
    INTEGER = "integer"
    NUMBER = "number"
    DURATION = "duration"
    RETENTION = "retention"  # a duration, or 'forever'


READERS: dict[Kind, Any] = {
    Kind.TEXT: str,
    Kind.INTEGER: int,
    Kind.NUMBER: float,
    Kind.DURATION: duration,
    Kind.RETENTION: retention,
}


class SettingGroup(StrEnum):
    """The headings of ``tendays serve --help``; the value is the heading."""

    SERVER = "the server"
    LIMITS = "per-client limits (0: no limit)"
    GAMES = "clocks, absent players and expiry"


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting. ``default`` is the text an operator would write (``"14d"``), None where the
    server works it out; ``help`` is the terminal's sentence, ``meaning`` the docs' (help when
    None); ``example`` the value in env.example (the default when None); ``field`` names the
    attribute the server keeps it in, whose default a test holds equal to this one."""

    name: str  # the flag without its dashes; the environment variable is made from it
    kind: Kind
    default: str | None
    help: str
    group: SettingGroup
    metavar: str | None = None
    meaning: str | None = None
    shown_default: str | None = None  # the docs' words for a default the server works out
    choices: tuple[str, ...] = ()
    example: str | None = None
    example_note: str | None = None  # comment lines above the setting in env.example
    has_flag: bool = True  # False: read from the environment only (a secret)
    zero_is_off: bool = False  # a limit that 0 turns off
    field: str | None = None

    @property
    def flag(self) -> str:
        return f"--{self.name}"

    @property
    def environment(self) -> str:
        return ENVIRONMENT_PREFIX + self.name.upper().replace("-", "_")

    @property
    def dest(self) -> str:
        return self.name.replace("-", "_")

    def read(self, text: str) -> Any:
        """The value of the setting written as ``text`` (a command-line or environment word)."""
        return READERS[self.kind](text)

    def default_value(self) -> Any:
        return None if self.default is None else self.read(self.default)

    def default_words(self) -> str:
        """The default as the docs and ``--help`` show it."""
        if self.shown_default is not None:
            return self.shown_default
        return "none" if self.default is None else self.default

    def help_line(self) -> str:
        """The setting's line in ``tendays serve --help``: its help, default and variable."""
        return f"{self.help} (default {self.default_words()}) [{self.environment}]"

    def add_to(self, parser: argparse._ActionsContainer) -> None:
        """Add the setting's argument; its default comes from the environment when set there
        (argparse reads a text default as it reads the command line)."""
        parser.add_argument(
            self.flag,
            type=READERS[self.kind],
            default=os.environ.get(self.environment, self.default),
            metavar=self.metavar,
            choices=self.choices or None,
            help=self.help_line(),
        )


def _limit(name: str, default: int, help: str, meaning: str | None = None) -> Setting:
    return Setting(
        name,
        Kind.INTEGER,
        str(default),
        help,
        SettingGroup.LIMITS,
        metavar="N",
        meaning=meaning,
        zero_is_off=True,
        field=f"Limits.{name.replace('-', '_')}",
    )


# Plain English, as argparse's help is (tests/i18n/test_cli_sentences.py).
SERVE_SETTINGS = (
    Setting(
        "host",
        Kind.TEXT,
        "127.0.0.1",
        "address to listen on (0.0.0.0 for every network interface)",
        SettingGroup.SERVER,
        meaning="address to listen on; `0.0.0.0` for every network interface (to play across a "
        "network); behind a proxy keep it on loopback",
    ),
    Setting("port", Kind.INTEGER, "8000", "port to listen on", SettingGroup.SERVER),
    Setting(
        "db",
        Kind.TEXT,
        "sqlite:///tendays.db",
        "SQLAlchemy database URL: a SQLite file (in this directory by default), or "
        "postgresql://USER@HOST/DB, which lets several servers share it",
        SettingGroup.SERVER,
        metavar="URL",
        meaning="the database: a SQLite file (in the current directory by default) or "
        "`postgresql://USER@HOST/DB`; for the systemd setup "
        "`sqlite:////var/lib/tendays/tendays.db`",
        example="sqlite:////var/lib/tendays/tendays.db",
    ),
    Setting(
        "lease",
        Kind.DURATION,
        "10s",
        "with PostgreSQL: how long a game stays with a server that stopped answering before "
        "another takes it over",
        SettingGroup.SERVER,
        metavar="DURATION",
        meaning="how long a game or a tournament stays with a server that stopped answering "
        "before another takes it over (PostgreSQL; on SQLite, a tournament's lease held by a "
        "killed server runs out before the restarted one runs it on)",
        field="MasterSettings.lease_ttl",
    ),
    Setting(
        "bot-delay",
        Kind.NUMBER,
        "0.8",
        "seconds a bot waits before its turn so people can follow it; draft moves wait a "
        "quarter of it",
        SettingGroup.SERVER,
        metavar="SECONDS",
        field="MasterSettings.bot_delay",
    ),
    Setting(
        "bot-workers",
        Kind.INTEGER,
        None,
        "worker processes where bots think; 0: on threads of the server process",
        SettingGroup.SERVER,
        metavar="N",
        shown_default="CPUs − 1 (1 to 4)",
    ),
    Setting(
        "log-level",
        Kind.TEXT,
        "info",
        "how much the server logs",
        SettingGroup.SERVER,
        choices=("critical", "error", "warning", "info", "debug"),
        meaning="`critical`, `error`, `warning`, `info` or `debug`; `warning` for a quiet log",
    ),
    Setting(
        "websocket-ping",
        Kind.DURATION,
        "20s",
        "a WebSocket silent this long (to twice) is pinged, closed if unanswered as long; 0: none",
        SettingGroup.SERVER,
        metavar="DURATION",
        meaning="a WebSocket silent for this long to twice as long (drawn for each, so connections "
        "opened together are not pinged together) is pinged, and closed if no answer comes "
        "within as long: a client that vanished is closed within three times this. `0`: no pings",
    ),
    Setting(
        "admin-token-file",
        Kind.TEXT,
        None,
        "a file holding the admin token (or set TENDAYS_ADMIN_TOKEN); without one the admin "
        "view is off",
        SettingGroup.SERVER,
        metavar="PATH",
        meaning="a file holding the admin token, instead of `TENDAYS_ADMIN_TOKEN`",
    ),
    Setting(
        "admin-token",
        Kind.TEXT,
        None,
        "the secret for the operator's view",
        SettingGroup.SERVER,
        has_flag=False,
        meaning="turns on the operator's view (`/admin`, `tendays admin`); make one with "
        '`python3 -c "import secrets; print(secrets.token_urlsafe(32))"` (or '
        "`--admin-token-file PATH`). It must look random: at least 100 bits by zxcvbn's "
        "estimate and by the Shannon entropy of its characters times its length, or the server "
        "refuses to start (`12345678` four times or a long phrase of common words is refused, "
        "32 random bytes are not). From the environment only, never on the command line",
        shown_default="none (admin off)",
        example="change-me",
        example_note='Generate one: python3 -c "import secrets; print(secrets.token_urlsafe(32))"'
        "\n(the server refuses to start with this placeholder, or any token under 32 characters)",
    ),
    Setting(
        "trusted-proxies",
        Kind.TEXT,
        "",
        "comma-separated addresses or networks of reverse proxies whose X-Forwarded-For names "
        "the client",
        SettingGroup.LIMITS,
        metavar="ADDRESSES",
        meaning="addresses or networks of proxies whose `X-Forwarded-For` names the client: "
        "`127.0.0.1` behind an nginx on the same machine. Without it every player counts as the "
        "proxy's address for the limits; with an address that is not a proxy, anyone could claim "
        "any address",
        shown_default="none",
        example="127.0.0.1",
    ),
    _limit("creates-per-minute", 10, "games a client may create a minute"),
    _limit("joins-per-minute", 30, "seats a client may join a minute"),
    _limit(
        "connections-per-minute",
        60,
        "table connections a client may open a minute",
        "WebSocket connections one address may open a minute: tables, and the live line "
        "(`/ws/me`) of each signed-in page",
    ),
    _limit(
        "connections-at-once",
        40,
        "table connections a client may hold open",
        "WebSocket connections (tables and `/ws/me`) one address may hold open",
    ),
    _limit(
        "replays-per-minute",
        10,
        "records a client may open from files a minute",
        "records one address may open from files a minute (`POST /api/replays`, replayed in "
        "the bot workers), one at a time",
    ),
    _limit(
        "token-requests-per-minute",
        300,
        "requests one API token may make a minute",
        "requests one API token may make a minute, counted in the database and shared by every "
        'server process ("Bots on the site"); the cookie-signed pages are not counted by it',
    ),
    Setting(
        "open-connections",
        Kind.INTEGER,
        "100",
        "connections of any kind a client may hold open",
        SettingGroup.LIMITS,
        metavar="N",
        meaning="connections of any kind (HTTP and tables) one address may hold open; the next "
        "is closed unanswered. Trusted proxies are not counted",
        field="ConnectionLimits.per_client",
    ),
    Setting(
        "max-games",
        Kind.INTEGER,
        "10000",
        "unfinished games the server holds",
        SettingGroup.LIMITS,
        metavar="N",
        meaning="unfinished games the server holds at once; beyond it creating a game answers 503",
        field="MasterSettings.max_games",
    ),
    Setting(
        "header-timeout",
        Kind.DURATION,
        "10s",
        "time a request's headers may take to arrive",
        SettingGroup.LIMITS,
        metavar="DURATION",
        meaning="time a request's headers may take to arrive; a connection that trickles them "
        "is closed",
        field="ConnectionLimits.header_seconds",
    ),
    Setting(
        "body-timeout",
        Kind.DURATION,
        "10s",
        "time a request's body may take to arrive, once its headers have",
        SettingGroup.LIMITS,
        metavar="DURATION",
        meaning="time a request's body may take to arrive once its headers have; a client that "
        "trickles it gets `408` and the connection is closed",
        field="Limits.body_seconds",
    ),
    Setting(
        "live-min",
        Kind.DURATION,
        "10s",
        "the shortest time a move a live game may give",
        SettingGroup.GAMES,
        metavar="DURATION",
        meaning="the shortest time a move a live game may give (the longest is 10 minutes; "
        "correspondence games give 1 hour to 14 days)",
        field="PaceLimits.live_min",
    ),
    Setting(
        "timeouts-to-bot",
        Kind.INTEGER,
        "3",
        "turns in a row played on the clock before a bot takes the seat",
        SettingGroup.GAMES,
        metavar="N",
        field="MasterSettings.timeouts_to_bot",
    ),
    Setting(
        "idle-expiry",
        Kind.DURATION,
        "14d",
        "close unfinished games with no move for this long as abandoned",
        SettingGroup.GAMES,
        metavar="DURATION",
        meaning="an unfinished game with no move for this long is closed as abandoned",
        field="MasterSettings.idle_expiry",
    ),
    Setting(
        "retention",
        Kind.RETENTION,
        "90d",
        "delete ended games this long after they ended, or 'forever'",
        SettingGroup.GAMES,
        metavar="DURATION",
        meaning="an ended game is deleted this long after it ended; `forever` keeps every game",
        field="MasterSettings.retention",
    ),
    Setting(
        "bot-offer-after",
        Kind.DURATION,
        "30s",
        '"Play someone now": how long someone waits for an opponent before the lobby offers a '
        "game against a bot instead",
        SettingGroup.GAMES,
        metavar="DURATION",
        field="MasterSettings.bot_offer_after",
    ),
    Setting(
        "tournament-min-minutes",
        Kind.NUMBER,
        "20",
        "the shortest arena a tournament may be, in minutes",
        SettingGroup.GAMES,
        metavar="MINUTES",
        meaning="the shortest arena a tournament may be, in minutes (the longest is 180); tests "
        "and demos shorten it",
        field="MasterSettings.tournament_min_minutes",
    ),
    Setting(
        "tournaments-per-day",
        Kind.INTEGER,
        "5",
        "tournaments a person may create a day",
        SettingGroup.GAMES,
        metavar="N",
        meaning="tournaments one person may create a day, counted in the database by every "
        "process together; the operator's own events are not counted",
        field="MasterSettings.tournaments_per_day",
    ),
    Setting(
        "bot-games",
        Kind.INTEGER,
        "8",
        "unfinished games one bot account may play at once",
        SettingGroup.GAMES,
        metavar="N",
        meaning="unfinished games one bot account may play at once (at least 1); accepting a "
        "challenge beyond it is refused (409 in words), a tournament's pairing never is",
        field="MasterSettings.bot_games",
    ),
    Setting(
        "stream-keepalive",
        Kind.DURATION,
        "7s",
        "the Bot API's streams send an empty line after this long idle, and end then if their "
        "token was revoked",
        SettingGroup.GAMES,
        metavar="DURATION",
        field="MasterSettings.stream_keepalive",
    ),
    Setting(
        "challenges-per-minute",
        Kind.INTEGER,
        "5",
        "challenges one account may make a minute, besides 20 an hour; 0: no such limit",
        SettingGroup.GAMES,
        metavar="N",
        meaning="challenges one account may make a minute, besides 20 an hour (fixed), counted "
        "in the database by every process together; `0` turns the per-minute limit off",
        field="MasterSettings.challenges_per_minute",
    ),
)


def setting(name: str) -> Setting:
    """The setting named ``name`` (its flag without dashes)."""
    for candidate in SERVE_SETTINGS:
        if candidate.name == name:
            return candidate
    raise KeyError(name)
