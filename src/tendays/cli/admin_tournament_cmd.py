"""``tendays admin tournament``: the operator's site tournaments.

    tendays admin tournament create --name NAME --kind arena|swiss [--minutes M | --rounds R] ...
    tendays admin tournament schedule --every MINUTES --name NAME --kind arena ... [--first TIME]
    tendays admin tournament list                  # every tournament and series
    tendays admin tournament cancel ID             # nobody is paired any more
    tendays admin tournament unschedule SERIES     # stop a series (its events made stay)

The event's fields are the API's (``POST /api/tournaments``): ``--edition`` (default usa),
``--clock live:60+120`` (seconds a move, and a bank) or ``correspondence:86400``, ``--days``,
``--starts-at`` (Unix seconds or ISO 8601, UTC unless it says), ``--unrated``, ``--bot LEVEL``
(repeatable), ``--table-size``, ``--rating-min``, ``--rating-max`` and ``--bots-allowed`` (bot
accounts may enter). A series' events are made
an hour before each start, ``--every`` minutes apart from ``--first`` (default now).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from tendays.engine.i18n import gettext as _
from tendays.engine.plain_text import shown

from .command_error import CommandError

__all__ = ["TOURNAMENT", "add_tournament_arguments", "run_tournament"]

#: The subcommand this module runs.
TOURNAMENT = "tournament"

# (path, method, JSON body) -> the server's answer
Call = Callable[[str, str, dict[str, Any] | None], Any]


def _event_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", required=True, help="the tournament's name")
    parser.add_argument("--kind", required=True, choices=("arena", "swiss"))
    parser.add_argument("--edition", default="usa", help="the edition (default usa)")
    parser.add_argument("--minutes", type=int, help="an arena's length (20 to 180)")
    parser.add_argument("--rounds", type=int, help="a Swiss tournament's rounds (1 to 20)")
    parser.add_argument("--clock", help="live:SECONDS[+BANK] or correspondence:SECONDS")
    parser.add_argument("--days", type=int, help="days in each rack (default 10)")
    parser.add_argument("--unrated", action="store_true", help="games move no ratings")
    parser.add_argument(
        "--bot", action="append", dest="bots", metavar="LEVEL", help="a ladder bot plays"
    )
    parser.add_argument("--table-size", type=int, default=2, help="Swiss: 2 to 4 at a table")
    parser.add_argument("--rating-min", type=float, help="the lowest rating that may join")
    parser.add_argument("--rating-max", type=float, help="the highest rating that may join")
    parser.add_argument(
        "--bots-allowed", action="store_true", help="bot accounts (Bot API programs) may enter"
    )


def add_tournament_arguments(sub: Any) -> None:
    """``tendays admin tournament ...``, on ``tendays admin``'s subparsers."""
    tournament = sub.add_parser(TOURNAMENT, help="site tournaments and repeating series")
    actions = tournament.add_subparsers(dest="tournament_action", metavar="ACTION", required=True)
    create = actions.add_parser("create", help="create a site tournament")
    _event_arguments(create)
    create.add_argument("--starts-at", help="Unix seconds or ISO 8601 (default: now)")
    schedule = actions.add_parser("schedule", help="a repeating site tournament")
    _event_arguments(schedule)
    schedule.add_argument(
        "--every", type=int, required=True, help="minutes between starts (10 or more)"
    )
    schedule.add_argument("--first", help="the first start: Unix seconds or ISO 8601 (default now)")
    actions.add_parser("list", help="every tournament and series")
    cancel = actions.add_parser("cancel", help="cancel a tournament")
    cancel.add_argument("id", type=int)
    unschedule = actions.add_parser("unschedule", help="stop a series")
    unschedule.add_argument("series", type=int)


def _clock(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    kind, _colon, rest = text.partition(":")
    per_move, _plus, bank = rest.partition("+")
    try:
        return {"kind": kind, "per_move": int(per_move), "bank": int(bank or 0)}
    except ValueError:
        raise CommandError(
            _("--clock is live:SECONDS[+BANK] or correspondence:SECONDS, not {text}").format(
                text=text
            ),
            1,
        ) from None


def _time(text: str | None) -> float | str | None:
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        return text  # ISO 8601: the server reads it


def _event(args: argparse.Namespace, starts: str | None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": args.name,
        "kind": args.kind,
        "edition": args.edition,
        "minutes": args.minutes,
        "rounds": args.rounds,
        "clock": _clock(args.clock),
        "starts_at": _time(starts),
        "rated": not args.unrated,
        "bots": args.bots or [],
        "table_size": args.table_size,
        "rating_min": args.rating_min,
        "rating_max": args.rating_max,
        "bots_allowed": args.bots_allowed,
    }
    if args.days is not None:
        body["options"] = {"days": args.days}
    return body


def _when(at: float | None) -> str:
    return "-" if at is None else datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M")


def run_tournament(args: argparse.Namespace, call: Call) -> int:
    """Run one ``tendays admin tournament`` action."""
    action = args.tournament_action
    if action == "create":
        answer = call("/api/admin/tournaments", "POST", _event(args, args.starts_at))
        print(
            json.dumps(answer)
            if args.json
            else _("tournament {id} created: {url}").format(id=answer["id"], url=answer["url"])
        )
    elif action == "schedule":
        body = {**_event(args, args.first), "every": args.every}
        answer = call("/api/admin/tournament-series", "POST", body)
        print(
            json.dumps(answer)
            if args.json
            else _("series {id} scheduled: a tournament every {every} minutes").format(
                id=answer["id"], every=args.every
            )
        )
    elif action == "cancel":
        answer = call(f"/api/admin/tournaments/{args.id}/cancel", "POST", None)
        print(
            json.dumps(answer) if args.json else _("tournament {id} cancelled").format(id=args.id)
        )
    elif action == "unschedule":
        answer = call(f"/api/admin/tournament-series/{args.series}", "DELETE", None)
        print(json.dumps(answer) if args.json else _("series {id} stopped").format(id=args.series))
    else:
        answer = call("/api/admin/tournaments", "GET", None)
        if args.json:
            print(json.dumps(answer, indent=2))
            return 0
        for event in answer["tournaments"]:
            length = (
                _("{n} min").format(n=event["minutes"])
                if event["kind"] == "arena"
                else _("{n} rounds").format(n=event["rounds"])
            )
            print(
                f"  {event['id']:5} {event['status']:9} {event['kind']:6} {event['edition']:8} "
                f"{length:10} {_when(event['starts_at'])}  {event['entrants']:4}  "
                f"{shown(event['name'])}"
            )
        for series in answer["series"]:
            state = _("active") if series["active"] else _("stopped")
            print(
                "  "
                + _("series {id} ({state}): {name}, every {every} minutes from {first}").format(
                    id=series["id"],
                    state=state,
                    name=shown(series["name"]),
                    every=f"{series['every_minutes']:g}",
                    first=_when(series["first_start"]),
                )
            )
    return 0
