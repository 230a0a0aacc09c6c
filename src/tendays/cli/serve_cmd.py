"""``tendays serve``: the web server for browser games (lobby, tables, bots), on uvicorn.

Every option can also come from an environment variable (``TENDAYS_DB`` for ``--db``, and so on), so
secrets such as a database password never show in the process list; the admin token comes only from
``TENDAYS_ADMIN_TOKEN`` (or a file named by ``--admin-token-file``).
"""

from __future__ import annotations

import argparse
import logging
import os
import re
from typing import Any

from tendays.engine.i18n import gettext as _

from .command_error import CommandError

DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def duration(text: str) -> float:
    """Seconds from '45s', '30m', '12h', '14d' or a plain number of seconds."""
    found = DURATION.match(text)
    if not found:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a duration such as 45s, 30m, 12h or 14d").format(text=text)
        )
    return float(found.group(1)) * UNITS[found.group(2)]


def retention(text: str) -> float | None:
    return None if text.strip().lower() in ("forever", "never", "keep") else duration(text)


def _env(name: str, default: Any) -> Any:
    return os.environ.get(f"TENDAYS_{name}", default)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add = parser.add_argument
    add(
        "--host",
        default=_env("HOST", "127.0.0.1"),
        help="address to listen on (default 127.0.0.1; 0.0.0.0 for every network interface) "
        "[TENDAYS_HOST]",
    )
    add(
        "--port",
        type=int,
        default=int(_env("PORT", 8000)),
        help="port to listen on (default 8000) [TENDAYS_PORT]",
    )
    add(
        "--db",
        default=_env("DB", "sqlite:///tendays.db"),
        metavar="URL",
        help="SQLAlchemy database URL (default sqlite:///tendays.db, a file in this directory; "
        "postgresql://USER@HOST/DB lets several servers share it) [TENDAYS_DB]",
    )
    add(
        "--lease",
        type=duration,
        default=duration(_env("LEASE", "10s")),
        metavar="DURATION",
        help="with PostgreSQL: how long a game stays with a server that stopped answering before "
        "another takes it over (default 10s) [TENDAYS_LEASE]",
    )
    add(
        "--bot-delay",
        type=float,
        default=float(_env("BOT_DELAY", 0.8)),
        metavar="SECONDS",
        help="pause before each bot turn so people can follow (default 0.8; draft moves wait a "
        "quarter of it)",
    )
    add(
        "--bot-workers",
        type=int,
        default=_env("BOT_WORKERS", None),
        metavar="N",
        help="worker processes where bots think (default: the CPU count less one, 1 to 4)",
    )
    add(
        "--log-level",
        default=_env("LOG_LEVEL", "info"),
        choices=["critical", "error", "warning", "info", "debug"],
    )
    limits = parser.add_argument_group("per-client limits (0: no limit)")
    limits.add_argument(
        "--trusted-proxies",
        default=_env("TRUSTED_PROXIES", ""),
        metavar="ADDRESSES",
        help="comma-separated addresses or networks of reverse proxies whose X-Forwarded-For "
        "names the client (default: none) [TENDAYS_TRUSTED_PROXIES]",
    )
    for name, default, what in (
        ("creates-per-minute", 10, "games a client may create a minute"),
        ("joins-per-minute", 30, "seats a client may join a minute"),
        ("connections-per-minute", 60, "table connections a client may open a minute"),
        ("connections-at-once", 40, "table connections a client may hold open"),
        ("replays-per-minute", 10, "records a client may open from files a minute"),
        ("token-requests-per-minute", 300, "requests one API token may make a minute"),
        ("open-connections", 100, "connections of any kind a client may hold open"),
        ("max-games", 10_000, "unfinished games the server holds"),
    ):
        env = name.upper().replace("-", "_")
        limits.add_argument(
            f"--{name}",
            type=int,
            default=int(_env(env, default)),
            metavar="N",
            help=f"{what} (default {default}) [TENDAYS_{env}]",
        )
    limits.add_argument(
        "--header-timeout",
        type=duration,
        default=duration(_env("HEADER_TIMEOUT", "10s")),
        metavar="DURATION",
        help="time a request's headers may take to arrive (default 10s) [TENDAYS_HEADER_TIMEOUT]",
    )
    limits.add_argument(
        "--body-timeout",
        type=duration,
        default=duration(_env("BODY_TIMEOUT", "10s")),
        metavar="DURATION",
        help="time a request's body may take to arrive, once its headers have (default 10s) "
        "[TENDAYS_BODY_TIMEOUT]",
    )
    games = parser.add_argument_group("clocks, absent players and expiry")
    games.add_argument(
        "--live-min",
        type=duration,
        default=duration(_env("LIVE_MIN", "10s")),
        metavar="DURATION",
        help="the shortest time a move a live game may give (default 10s) [TENDAYS_LIVE_MIN]",
    )
    games.add_argument(
        "--timeouts-to-bot",
        type=int,
        default=int(_env("TIMEOUTS_TO_BOT", 3)),
        metavar="N",
        help="turns in a row played on the clock before a bot takes the seat (default 3)",
    )
    games.add_argument(
        "--idle-expiry",
        type=duration,
        default=duration(_env("IDLE_EXPIRY", "14d")),
        metavar="DURATION",
        help="close unfinished games with no move for this long as abandoned "
        "(default 14d) [TENDAYS_IDLE_EXPIRY]",
    )
    games.add_argument(
        "--retention",
        type=retention,
        default=retention(_env("RETENTION", "90d")),
        metavar="DURATION",
        help="delete ended games this long after they ended, or 'forever' "
        "(default 90d) [TENDAYS_RETENTION]",
    )
    games.add_argument(
        "--bot-offer-after",
        type=duration,
        default=duration(_env("BOT_OFFER_AFTER", "30s")),
        metavar="DURATION",
        help='"Play someone now": how long someone waits for an opponent before the lobby offers '
        "a game against a bot instead (default 30s) [TENDAYS_BOT_OFFER_AFTER]",
    )
    games.add_argument(
        "--tournament-min-minutes",
        type=float,
        default=float(_env("TOURNAMENT_MIN_MINUTES", 20)),
        metavar="MINUTES",
        help="the shortest arena a tournament may be (default 20) [TENDAYS_TOURNAMENT_MIN_MINUTES]",
    )
    games.add_argument(
        "--tournaments-per-day",
        type=int,
        default=int(_env("TOURNAMENTS_PER_DAY", 5)),
        metavar="N",
        help="tournaments a person may create a day (default 5) [TENDAYS_TOURNAMENTS_PER_DAY]",
    )
    games.add_argument(
        "--bot-games",
        type=int,
        default=int(_env("BOT_GAMES", 8)),
        metavar="N",
        help="unfinished games one bot account may play at once (default 8) [TENDAYS_BOT_GAMES]",
    )
    games.add_argument(
        "--stream-keepalive",
        type=duration,
        default=duration(_env("STREAM_KEEPALIVE", "7s")),
        metavar="DURATION",
        help="the Bot API's streams send an empty line after this long idle, and end then if "
        "their token was revoked (default 7s) [TENDAYS_STREAM_KEEPALIVE]",
    )
    games.add_argument(
        "--challenges-per-minute",
        type=int,
        default=int(_env("CHALLENGES_PER_MINUTE", 5)),
        metavar="N",
        help="challenges one account may make a minute, besides 20 an hour; 0: no such limit "
        "(default 5) [TENDAYS_CHALLENGES_PER_MINUTE]",
    )
    parser.add_argument(
        "--admin-token-file",
        default=_env("ADMIN_TOKEN_FILE", None),
        metavar="PATH",
        help="a file holding the admin token (or set TENDAYS_ADMIN_TOKEN); without one the "
        "admin view is off",
    )


def _admin_token(args: argparse.Namespace) -> str | None:
    if args.admin_token_file:
        with open(args.admin_token_file, encoding="utf-8") as handle:
            return handle.read().strip() or None
    return os.environ.get("TENDAYS_ADMIN_TOKEN") or None


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from tendays.server.face.admin import weak_token
        from tendays.server.face.app import Limits, create_app
        from tendays.server.face.bot_streams import StreamEndingServer
        from tendays.server.face.connections import ConnectionLimits, guarded_http
        from tendays.server.face.logs import RedactSecrets
        from tendays.server.settings import MasterSettings, PaceLimits
        from tendays.server.storage.store import (
            DatabaseBusy,
            DatabaseLock,
            MissingDriver,
            Store,
            redact_url,
        )
    except ModuleNotFoundError as error:
        raise CommandError(
            _(
                "{module} is missing; install the server extra: pip install -e '.[server]' in a "
                "clone of tendays"
            ).format(module=error.name)
        ) from None
    if args.bot_delay < 0:
        raise CommandError(_("--bot-delay cannot be negative"))
    if args.bot_workers is not None and int(args.bot_workers) < 0:
        raise CommandError(_("--bot-workers cannot be negative"))
    if args.timeouts_to_bot < 1:
        raise CommandError(_("--timeouts-to-bot must be at least 1"))
    if args.stream_keepalive <= 0:
        raise CommandError(_("--stream-keepalive must be more than 0 seconds"))
    if args.challenges_per_minute < 0:
        raise CommandError(_("--challenges-per-minute cannot be negative"))
    if args.bot_games < 1:
        raise CommandError(_("--bot-games must be at least 1"))
    if args.lease < 1:
        raise CommandError(_("--lease must be at least 1 second"))
    if args.header_timeout <= 0:
        raise CommandError(_("--header-timeout must be more than 0 seconds"))
    if args.body_timeout <= 0:
        raise CommandError(_("--body-timeout must be more than 0 seconds"))
    shown_db = redact_url(args.db) if "://" in args.db else repr(args.db)
    try:  # open the database once now, so a wrong URL is told in one line, not a traceback
        Store(args.db).close()
        lock = DatabaseLock(args.db)
        lock.acquire()
        lock.release()
    except (DatabaseBusy, MissingDriver) as error:
        raise CommandError(str(error)) from None
    except Exception as error:
        raise CommandError(
            _("cannot open the database {database}: {error}").format(database=shown_db, error=error)
        ) from None
    try:
        limits = Limits(
            trusted_proxies=tuple(p.strip() for p in args.trusted_proxies.split(",") if p.strip()),
            creates_per_minute=args.creates_per_minute,
            joins_per_minute=args.joins_per_minute,
            connections_per_minute=args.connections_per_minute,
            connections_at_once=args.connections_at_once,
            body_seconds=args.body_timeout,
            replays_per_minute=args.replays_per_minute,
            token_requests_per_minute=args.token_requests_per_minute,
        )
        limits.networks()
        admin_token = _admin_token(args)
    except (ValueError, OSError) as error:
        raise CommandError(str(error)) from None
    weak = weak_token(admin_token) if admin_token else None
    if weak is not None:
        raise CommandError(weak)
    settings = MasterSettings(
        bot_delay=args.bot_delay,
        draft_delay=args.bot_delay / 4,
        max_games=args.max_games,
        timeouts_to_bot=args.timeouts_to_bot,
        idle_expiry=args.idle_expiry,
        retention=args.retention,
        paces=PaceLimits(live_min=args.live_min),
        lease_ttl=args.lease,
        bot_offer_after=args.bot_offer_after,
        tournament_min_minutes=args.tournament_min_minutes,
        tournaments_per_day=args.tournaments_per_day,
        bot_games=args.bot_games,
        stream_keepalive=args.stream_keepalive,
        challenges_per_minute=args.challenges_per_minute,
    )
    if args.bot_workers is not None:
        settings.bot_processes = int(args.bot_workers)
    app = create_app(args.db, settings, limits, admin_token)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        # Frames far beyond the protocol's 4 KiB limit are cut off by the WebSocket layer itself.
        ws_max_size=64 * 1024,
        # Tables are small JSON deltas; compressing each for every connection would cost more server
        # time than the bandwidth it saves.
        ws_per_message_deflate=False,
        # Forwarded headers are read by the server's own guard, from --trusted-proxies only.
        proxy_headers=False,
        server_header=False,
        # Header size and time, and connections per address, are limited below HTTP
        # (docs/deploy.md).
        http=guarded_http(
            ConnectionLimits(
                header_seconds=args.header_timeout,
                per_client=args.open_connections,
                trusted_proxies=limits.trusted_proxies,
            )
        ),
    )
    # ends the Bot API's open streams as it begins to stop, so that it stops at once
    server = StreamEndingServer(config, app.state.open_streams)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(
        "tendays: "
        + _(
            "open http://{host}:{port}/ in your browser (database: {database}; Ctrl+C stops the "
            "server)"
        ).format(host=shown, port=args.port, database=redact_url(args.db)),
        flush=True,
    )
    # The server's own messages (games created, restored, bots that failed) go beside uvicorn's.
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-9s %(name)s: %(message)s"))
    # the admin token is found by value too, wherever a client puts it
    redacting = RedactSecrets(known=[admin_token] if admin_token else [])
    handler.addFilter(redacting)
    server_log = logging.getLogger("tendays")
    server_log.addHandler(handler)
    server_log.setLevel(args.log_level.upper())
    server_log.propagate = False
    for name in ("uvicorn.access", "uvicorn.error", "websockets"):
        logging.getLogger(name).addFilter(redacting)  # no secret in any line, at any level
    server.run()
    return 0
