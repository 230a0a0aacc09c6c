"""``tendays serve``: the web server for browser games (lobby, tables, bots), on uvicorn.

Every option can also come from an environment variable (``TENDAYS_DB`` for ``--db``, and so on), so
secrets such as a database password never show in the process list; the admin token comes only from
``TENDAYS_ADMIN_TOKEN`` (or a file named by ``--admin-token-file``).
"""

from __future__ import annotations

import argparse
import gc
import logging
import os

from tendays.engine.i18n import gettext as _

from .command_error import CommandError
from .serve_settings import SERVE_SETTINGS, SettingGroup, setting

# The collector's thresholds (Python's are 700, 10, 10): a move makes thousands of short-lived
# objects, freed by reference counting; a young generation ten times larger is walked a tenth as
# often.
_GC_THRESHOLDS = (7000, 10, 10)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments, one for each setting of :data:`SERVE_SETTINGS` with a flag."""
    # the server's own settings go under the parser's heading, the others under theirs
    groups: dict[SettingGroup, argparse._ActionsContainer] = {
        group: parser.add_argument_group(group.value)
        for group in SettingGroup
        if group is not SettingGroup.SERVER
    }
    for entry in SERVE_SETTINGS:
        if entry.has_flag:
            entry.add_to(groups.get(entry.group, parser))


def _admin_token(args: argparse.Namespace) -> str | None:
    if args.admin_token_file:
        with open(args.admin_token_file, encoding="utf-8") as handle:
            return handle.read().strip() or None
    return os.environ.get(setting("admin-token").environment) or None


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from tendays.server.face.app import Limits, create_app
        from tendays.server.face.door.connections import ConnectionLimits, guarded_http
        from tendays.server.face.door.keepalive import SpreadPings
        from tendays.server.face.door.logs import RedactSecrets
        from tendays.server.face.routers.admin import weak_token
        from tendays.server.face.routers.bot_streams import StreamEndingServer
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
        # websockets' sans-I/O protocol, the least CPU a message of the three uvicorn offers
        # (docs/server.md, "Load"), pinging silent connections at spread moments; uvloop is
        # uvicorn's own choice wherever it exists.
        ws=SpreadPings,
        ws_ping_interval=args.websocket_ping or None,
        ws_ping_timeout=args.websocket_ping or None,
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
    _quiet_collector()
    server.run()
    return 0


def _quiet_collector() -> None:
    """Spare each move the cyclic garbage collector's walks over what lives as long as the server
    (its modules, routes and settings: about 100,000 objects, built by now): under load they took
    a sixth of the server's CPU (docs/server.md, "Load")."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*_GC_THRESHOLDS)
