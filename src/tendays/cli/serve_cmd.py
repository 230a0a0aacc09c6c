"""``tendays serve``: the web server for browser games (lobby, tables, bots), on uvicorn."""

from __future__ import annotations

import argparse
import logging
import re
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 for every network interface)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--db", default="sqlite:///tendays.db", metavar="URL",
                        help="SQLAlchemy database URL (default sqlite:///tendays.db, a file in this directory)")
    parser.add_argument("--bot-delay", type=float, default=0.8, metavar="SECONDS",
                        help="pause before each bot turn so people can follow (default 0.8; draft moves "
                             "wait a quarter of it)")
    parser.add_argument("--bot-workers", type=int, default=None, metavar="N",
                        help="worker processes where bots think (default: the CPU count less one, 1 to 4)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])


class _RedactTokens(logging.Filter):
    """Seat tokens travel in the WebSocket URL's query; they must never reach a log."""

    _token = re.compile(r"token=[^&\s\"']+")

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(self._token.sub("token=…", a) if isinstance(a, str) else a
                                for a in (record.args if isinstance(record.args, tuple) else (record.args,)))
        record.msg = self._token.sub("token=…", str(record.msg))
        return True


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from tendays.server.app import create_app
        from tendays.server.master import MasterSettings
        from tendays.server.store import Store, redact_url
    except ModuleNotFoundError as error:
        print(f"tendays serve: {error.name} is missing; install the server extra: pip install 'tendays[server]'",
              file=sys.stderr)
        return 2
    if args.bot_delay < 0:
        print("tendays serve: --bot-delay cannot be negative", file=sys.stderr)
        return 2
    if args.bot_workers is not None and args.bot_workers < 0:
        print("tendays serve: --bot-workers cannot be negative", file=sys.stderr)
        return 2
    try:  # open the database once now, so a wrong URL is told in one line, not a traceback
        Store(args.db).close()
    except Exception as error:
        print(f"tendays serve: cannot open the database {redact_url(args.db) if '://' in args.db else args.db!r}: "
              f"{error}", file=sys.stderr)
        return 2
    settings = MasterSettings(bot_delay=args.bot_delay, draft_delay=args.bot_delay / 4)
    if args.bot_workers is not None:
        settings.bot_processes = args.bot_workers
    app = create_app(args.db, settings)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        # Frames far beyond the protocol's 4 KiB limit are cut off by the WebSocket layer itself.
        ws_max_size=64 * 1024,
        # Tables are a few kilobytes of JSON; compressing every one for every connection would cost
        # more server time than the bandwidth it saves.
        ws_per_message_deflate=False,
    )
    server = uvicorn.Server(config)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"tendays: open http://{shown}:{args.port}/ in your browser (database: {redact_url(args.db)}; "
          "Ctrl+C stops the server)", flush=True)
    # The server's own messages (games created, restored, bots that failed) go beside uvicorn's.
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-9s %(name)s: %(message)s"))
    handler.addFilter(_RedactTokens())
    server_log = logging.getLogger("tendays")
    server_log.addHandler(handler)
    server_log.setLevel(args.log_level.upper())
    server_log.propagate = False
    logging.getLogger("uvicorn.access").addFilter(_RedactTokens())
    logging.getLogger("uvicorn.error").addFilter(_RedactTokens())
    server.run()
    return 0
