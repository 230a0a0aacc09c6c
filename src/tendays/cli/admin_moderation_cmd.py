"""``tendays admin``'s moderation commands: the reports people sent, the accounts flagged for quick
losses, an account's status, and the audit log of every operator action.

    tendays admin reports [--open | --closed] [--page N]    # reports, open first, newest first
    tendays admin report-close ID [--note TEXT]             # close a report with a note
    tendays admin flags                                     # accounts that lose rated games at once
    tendays admin account NAME ACTION [--note TEXT] [--game ID ...]
        # ACTION: suspend, close, reinstate, hide, unhide, annul (--game: only these games)
    tendays admin audit [--page N]                          # every operator action, newest first

Each action is written to the server's audit log with the admin token's fingerprint and the name of
``--operator`` (or ``TENDAYS_OPERATOR``), if given.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext
from tendays.engine.plain_text import shown

__all__ = ["ACTIONS", "MODERATION", "add_moderation_arguments", "run_moderation"]

#: What ``tendays admin account NAME ACTION`` may do.
ACTIONS = ("suspend", "close", "reinstate", "hide", "unhide", "annul")
#: The subcommands this module runs.
MODERATION = ("reports", "report-close", "flags", "account", "audit")

# (path, method, JSON body) -> the server's answer
Call = Callable[[str, str, dict[str, Any] | None], Any]


def add_moderation_arguments(sub: Any) -> None:
    """The moderation subcommands, on ``tendays admin``'s subparsers."""
    reports = sub.add_parser("reports", help="the reports people sent, open first")
    which = reports.add_mutually_exclusive_group()
    which.add_argument(
        "--open", action="store_const", const="open", dest="status", help="open reports only"
    )
    which.add_argument(
        "--closed", action="store_const", const="closed", dest="status", help="closed only"
    )
    reports.add_argument("--page", type=int, default=1)
    close = sub.add_parser("report-close", help="close a report, with a note")
    close.add_argument("report", type=int)
    close.add_argument("--note", default="", help="why (kept in the audit log)")
    sub.add_parser("flags", help="accounts that repeatedly lose rated games at once")
    account = sub.add_parser(
        "account", help="suspend, close, reinstate, hide or unhide an account, or annul its games"
    )
    account.add_argument("name")
    account.add_argument("do", choices=ACTIONS, metavar="ACTION", help=", ".join(ACTIONS))
    account.add_argument("--note", default="", help="why (kept in the audit log)")
    account.add_argument(
        "--game",
        action="append",
        dest="games",
        metavar="ID",
        help="annul only this game (repeatable; default: every counted rated game)",
    )
    audit = sub.add_parser("audit", help="every operator action, newest first")
    audit.add_argument("--page", type=int, default=1)


def _when(at: float | None) -> str:
    return "-" if at is None else datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M")


def run_moderation(args: argparse.Namespace, call: Call) -> int:
    """Run one moderation subcommand (``args.action`` in :data:`MODERATION`)."""
    if args.action == "reports":
        status = args.status or "all"
        answer = call(f"/api/admin/reports?status={status}&page={args.page}", "GET", None)
        if not args.json:
            _print_reports(answer)
    elif args.action == "report-close":
        answer = call(f"/api/admin/reports/{args.report}/close", "POST", {"note": args.note})
        if not args.json:
            print(_("report {id} closed").format(id=answer["id"]))
    elif args.action == "flags":
        answer = call("/api/admin/flags", "GET", None)
        if not args.json:
            _print_flags(answer)
    elif args.action == "account":
        body: dict[str, Any] = {"note": args.note}
        if args.games:
            body["games"] = args.games
        answer = call(f"/api/admin/accounts/{quote(args.name, safe='')}/{args.do}", "POST", body)
        if not args.json:
            _print_done(args.do, answer)
    else:
        answer = call(f"/api/admin/audit?page={args.page}", "GET", None)
        if not args.json:
            _print_audit(answer)
    if args.json:
        print(json.dumps(answer, indent=2))
    return 0


def _print_reports(answer: dict[str, Any]) -> None:
    print(
        ngettext(
            "{total} report ({open} open), page {page} of {pages}",
            "{total} reports ({open} open), page {page} of {pages}",
            answer["total"],
        ).format(
            total=answer["total"], open=answer["open"], page=answer["page"], pages=answer["pages"]
        )
    )
    for report in answer["reports"]:
        reporter = report["reporter"] or _("a deleted account")
        print(
            shown(
                f"  #{report['id']} {report['status']:6} {_when(report['created'])}  "
                + _("{reporter} reports {reported} ({reason})").format(
                    reporter=reporter, reported=report["reported"], reason=report["reason"]
                )
                + (f"  {_('game')} {report['game']}" if report["game"] else "")
            )
        )
        if report["text"]:
            print("      " + " / ".join(shown(line) for line in report["text"].splitlines()))
        if report["closed_note"] is not None:
            print(shown("      " + _("closed: {note}").format(note=report["closed_note"])))


def _print_flags(answer: dict[str, Any]) -> None:
    rule = answer["rule"]
    print(
        _(
            "flagged: {losses} rated games or more given up within {hours} hours before a "
            "second move after the draft (the last {days} days)"
        ).format(
            losses=rule["losses"], hours=f"{rule['window_hours']:g}", days=rule["lookback_days"]
        )
    )
    if not answer["accounts"]:
        print("  " + _("none"))
    for flag in answer["accounts"]:
        print(
            shown(
                f"  {flag['account']} ({flag['status']}): "
                + ngettext(
                    "{count} quick loss, {day} in one day",
                    "{count} quick losses, {day} in one day",
                    flag["quick_losses"],
                ).format(count=flag["quick_losses"], day=flag["in_a_day"])
            )
        )
        for game in flag["games"]:
            how = _("left") if game["how"] == "left" else _("timed out")
            moves = ngettext("{count} move", "{count} moves", game["moves"]).format(
                count=game["moves"]
            )
            print(
                f"      {game['id']} {game['edition']} {_when(game['finished_at'])} {how}, {moves}"
            )


def _print_done(action: str, answer: dict[str, Any]) -> None:
    name = answer["account"]
    if action == "annul":
        print(
            shown(
                ngettext(
                    "{count} game of {name} annulled; ratings recomputed in: {editions}",
                    "{count} games of {name} annulled; ratings recomputed in: {editions}",
                    len(answer["games"]),
                ).format(
                    count=len(answer["games"]), name=name, editions=", ".join(answer["editions"])
                )
            )
        )
        return
    words = {
        "suspend": _("{name} suspended"),
        "close": _("{name} closed"),
        "reinstate": _("{name} reinstated"),
        "hide": _("{name} hidden from the leaderboards"),
        "unhide": _("{name} shown on the leaderboards again"),
    }
    print(shown(words[action].format(name=name)))
    if answer.get("games_to_bots"):
        print(_("bots took the seats in: {games}").format(games=", ".join(answer["games_to_bots"])))


def _print_audit(answer: dict[str, Any]) -> None:
    print(
        ngettext(
            "{total} operator action, page {page} of {pages}",
            "{total} operator actions, page {page} of {pages}",
            answer["total"],
        ).format(total=answer["total"], page=answer["page"], pages=answer["pages"])
    )
    for entry in answer["entries"]:
        whom = entry["account"] or _event(entry["outcome"])
        report = f" #{entry['report']}" if entry["report"] else ""
        line = f"  {_when(entry['at'])}  {entry['operator']}: {entry['action']}{report} {whom}"
        print(shown(line + (f"  ({entry['note']})" if entry["note"] else "")))


def _event(outcome: dict[str, Any]) -> str:
    """The tournament or series an action on site tournaments was about: "#ID (name)"."""
    what = outcome.get("tournament", outcome.get("series"))
    if what is None:
        return ""
    return f"#{what}" + (f" ({outcome['name']})" if outcome.get("name") else "")
