"""``tendays admin``: the operator's commands for a running server, and a backup of its database.

    tendays admin games [--ended | --all] [--page N]   # list games, newest first
    tendays admin close GAME                           # end a game (no winner)
    tendays admin limits                               # the per-client limits and who hit them
    tendays admin sweep                                # expire idle games, delete old ended ones
    tendays admin backup FILE [--db URL]               # a consistent copy of the SQLite database

and the moderation commands (reports, flags, account, audit: :mod:`.admin_moderation_cmd`) and
the site tournaments (``tendays admin tournament ...``: :mod:`.admin_tournament_cmd`).

The server is found at ``--url`` (or ``TENDAYS_URL``, default http://127.0.0.1:8000) and the token
is read from ``TENDAYS_ADMIN_TOKEN``, never from the command line (which ``ps`` shows). The audit
log names the operator by the token's fingerprint and by ``--operator`` (``TENDAYS_OPERATOR``).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext
from tendays.engine.plain_text import shown

from .admin_moderation_cmd import MODERATION, add_moderation_arguments, run_moderation
from .admin_tournament_cmd import TOURNAMENT, add_tournament_arguments, run_tournament
from .command_error import CommandError
from .database_option import add_database_argument


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--url",
        default=os.environ.get("TENDAYS_URL", "http://127.0.0.1:8000"),
        help="the server (default http://127.0.0.1:8000) [TENDAYS_URL]",
    )
    parser.add_argument("--json", action="store_true", help="print the server's JSON answer")
    parser.add_argument(
        "--operator",
        default=os.environ.get("TENDAYS_OPERATOR"),
        metavar="NAME",
        help="your name, for the audit log of moderation actions [TENDAYS_OPERATOR]",
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    games = sub.add_parser("games", help="list games, newest first")
    which = games.add_mutually_exclusive_group()
    which.add_argument(
        "--ended", action="store_const", const="ended", dest="status", help="ended games only"
    )
    which.add_argument("--all", action="store_const", const="all", dest="status", help="every game")
    games.add_argument("--page", type=int, default=1)
    close = sub.add_parser("close", help="end a game now, with no winner")
    close.add_argument("game")
    sub.add_parser("limits", help="the per-client limits and the latest refusals")
    sub.add_parser("sweep", help="expire idle games and delete old ended ones now")
    add_moderation_arguments(sub)
    add_tournament_arguments(sub)
    backup = sub.add_parser("backup", help="copy the SQLite database while the server runs")
    backup.add_argument("file", help="where to write the copy")
    add_database_argument(backup)


def _call(
    args: argparse.Namespace, path: str, method: str = "GET", body: dict[str, Any] | None = None
) -> Any:
    token = os.environ.get("TENDAYS_ADMIN_TOKEN", "")
    headers = {"Authorization": f"Bearer {token}"}
    if args.operator:
        # a header is Latin-1: a name in any script travels percent-encoded
        headers["X-Tendays-Operator"] = urllib.parse.quote(args.operator)
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(
        f"{args.url.rstrip('/')}{path}", data=data, method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        try:
            detail = json.load(error).get("detail", error.reason)
        except ValueError:
            detail = error.reason
        answered = _("the server answered {code}: {detail}")
        raise CommandError(answered.format(code=error.code, detail=detail), 1) from None
    except OSError as error:
        unreached = _("cannot reach {url}: {error}")
        raise CommandError(unreached.format(url=args.url, error=error), 1) from None


def _backup(url: str, target: str) -> str:
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url == prefix + ":memory:":
        raise CommandError(
            _(
                "backup copies SQLite files; for another database use its own tool "
                "(pg_dump for PostgreSQL)"
            ),
            1,
        )
    source_path = url[len(prefix) :]
    if not os.path.isfile(source_path):
        raise CommandError(_("there is no database {path}").format(path=source_path), 1)
    # SQLite's online backup: a consistent copy, even while the server writes (WAL mode).
    with (
        sqlite3.connect(f"file:{source_path}?mode=ro", uri=True) as source,
        sqlite3.connect(target) as copy,
    ):
        source.backup(copy)
        games = copy.execute("SELECT count(*) FROM games").fetchone()[0]
    return ngettext(
        "{source} copied to {target} ({count} game)",
        "{source} copied to {target} ({count} games)",
        games,
    ).format(source=source_path, target=target, count=games)


def run(args: argparse.Namespace) -> int:
    if args.action in MODERATION:
        return run_moderation(args, lambda path, method, body: _call(args, path, method, body))
    if args.action == TOURNAMENT:
        return run_tournament(args, lambda path, method, body: _call(args, path, method, body))
    if args.action == "backup":
        print(_backup(args.db, args.file))
        return 0
    if args.action == "games":
        answer = _call(
            args, f"/api/admin/games?status={args.status or 'unfinished'}&page={args.page}"
        )
        if args.json:
            print(json.dumps(answer, indent=2))
            return 0
        print(
            ngettext(
                "{total} game, page {page} of {pages} ({held} unfinished held by the server)",
                "{total} games, page {page} of {pages} ({held} unfinished held by the server)",
                answer["total"],
            ).format(
                total=answer["total"],
                page=answer["page"],
                pages=answer["pages"],
                held=answer["held"],
            )
        )
        for game in answer["games"]:
            seats = ", ".join(
                shown(s["name"])  # a name from the network: never a terminal control sequence
                + (" " + _("(left)") if s["left"] else " " + _("(away)") if s["away"] else "")
                for s in game["seats"] or []
            )
            ended = f" ({game['ended']})" if game["ended"] else ""
            moves = ngettext("{count} move", "{count} moves", game["moves"]).format(
                count=f"{game['moves']:4}"
            )
            created = _("created {time}").format(time=game["created"][:19])
            print(
                f"  {game['id']:10} {game['status']}{ended:12} {game['edition']:8} {moves}  "
                f"{created}  {seats}"
            )
        return 0
    if args.action == "close":
        answer = _call(args, f"/api/admin/games/{args.game}/close", "POST")
        print(
            json.dumps(answer, indent=2)
            if args.json
            else _("game {id} closed").format(id=answer["id"])
        )
        return 0
    if args.action == "sweep":
        answer = _call(args, "/api/admin/sweep", "POST")
        print(
            json.dumps(answer)
            if args.json
            else _("{closed} closed, {deleted} deleted").format(
                closed=answer["closed"], deleted=answer["deleted"]
            )
        )
        return 0
    answer = _call(args, "/api/admin/limits")
    if args.json:
        print(json.dumps(answer, indent=2))
        return 0
    print(_("limits:"), ", ".join(f"{k} {v}" for k, v in answer["limits"].items()))
    print(
        _("refused since the start:"),
        ", ".join(f"{k} {v}" for k, v in answer["refused"].items()) or _("none"),
    )
    print(_("open table connections: {count}").format(count=answer["open_connections"]))
    for busy in answer["busiest_addresses"]:
        print(
            "  "
            + _("{address}: {count} open").format(
                address=busy["address"], count=busy["connections"]
            )
        )
    for refusal in answer["recent"][:20]:
        print(
            "  "
            + _("refused {limit} for {address} at {time}").format(
                limit=refusal["limit"], address=refusal["address"], time=refusal["at"]
            )
        )
    return 0
