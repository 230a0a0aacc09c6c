"""What every router of the web application shares: the lobby a request reaches, the browser
client's pages, a game id in an address, strict request models, and the error answers (a refused
request is answered in the asker's language: :func:`errors_in_words`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Sequence
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import HTTPException, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict

from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext
from tendays.web.pages import page_html

from ..matches.lobby import Lobby
from ..matches.seats import LobbyError

__all__ = [
    "ERRORS",
    "ERROR_HANDLERS",
    "ID_PATTERN",
    "STRICT",
    "ErrorAnswer",
    "GameId",
    "PlayerName",
    "errors_in_words",
    "lobby_of",
    "page",
    "static_dir",
]

STRICT = ConfigDict(extra="forbid", strict=True)
ID_PATTERN = r"^[A-Za-z0-9_-]+$"  # a game's, seek's or puzzle's id in a path

GameId = Annotated[str, PathParam(description="the game's id", max_length=32, pattern=ID_PATTERN)]
PlayerName = Annotated[
    str, PathParam(description="the player's name (any letter case)", max_length=64)
]


def static_dir() -> Path:
    """The browser client's files inside the installed package."""
    return Path(str(resources.files("tendays.web"))) / "static"


def page(name: str) -> HTMLResponse:
    """One of the browser client's HTML pages, its top bar written in
    (:func:`~tendays.web.pages.page_html`); 404 in words if the client is not installed."""
    path = static_dir() / name
    if not path.is_file():
        raise HTTPException(
            404, _("the browser client is not installed ({name} is missing)").format(name=name)
        )
    return HTMLResponse(page_html(path))


def lobby_of(request: Request | WebSocket) -> Lobby:
    """The lobby the app opened when it started (``app.state.lobby``)."""
    lobby: Lobby = request.app.state.lobby
    return lobby


async def _lobby_error(_request: Request, error: LobbyError) -> JSONResponse:
    return JSONResponse({"detail": error.message}, status_code=error.status)


async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
    return JSONResponse({"detail": errors_in_words(error.errors())}, status_code=422)


# The lobby's refusals and malformed requests, answered as {"detail": words}.
ErrorHandler = Callable[[Request, Any], Coroutine[Any, Any, Response]]
ERROR_HANDLERS: dict[int | type[Exception], ErrorHandler] = {
    LobbyError: _lobby_error,
    RequestValidationError: _invalid,
}


class ErrorAnswer(BaseModel):
    detail: str


ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorAnswer, "description": "no such game"},
    409: {
        "model": ErrorAnswer,
        "description": "every seat is taken, or this server cannot play the game "
        "(stored under rules it does not know)",
    },
    413: {
        "model": ErrorAnswer,
        "description": "the request body is larger than the server accepts",
    },
    422: {
        "model": ErrorAnswer,
        "description": "the request breaks a rule (the message says which)",
    },
    429: {
        "model": ErrorAnswer,
        "description": "too many requests from this address; see Retry-After",
    },
    503: {"model": ErrorAnswer, "description": "the server is full or its database is unavailable"},
}


def _one_of(expected: str) -> str:
    """Pydantic's ``"'human' or 'bot'"`` in the current language."""
    values = [f"'{value}'" for value in re.findall(r"'([^']*)'", expected)]
    if len(values) < 2:
        return expected
    return _("{head} or {last}").format(head=", ".join(values[:-1]), last=values[-1])


# Pydantic's errors, by type, in the game's words (ctx holds the limits); other types keep
# pydantic's English.
_PROBLEMS: dict[str, Callable[[dict[str, Any]], str]] = {
    "missing": lambda ctx: _("is required"),
    "extra_forbidden": lambda ctx: _("is not a field of this request"),
    "string_type": lambda ctx: _("must be a text"),
    "int_type": lambda ctx: _("must be a whole number"),
    "int_from_float": lambda ctx: _("must be a whole number"),
    "float_type": lambda ctx: _("must be a number"),
    "float_parsing": lambda ctx: _("must be a number"),
    "string_pattern_mismatch": lambda ctx: (
        _("may hold only letters, digits, - and _")
        if ctx.get("pattern") == ID_PATTERN
        else _("is not in the form it needs")
    ),
    "bool_type": lambda ctx: _("must be true or false"),
    "list_type": lambda ctx: _("must be a list"),
    "dict_type": lambda ctx: _("must be an object"),
    "model_type": lambda ctx: _("must be an object"),
    "model_attributes_type": lambda ctx: _("must be an object"),
    "json_invalid": lambda ctx: _("is not valid JSON"),
    "literal_error": lambda ctx: _("must be {choices}").format(
        choices=_one_of(str(ctx.get("expected", "")))
    ),
    "enum": lambda ctx: _("must be {choices}").format(
        choices=_one_of(str(ctx.get("expected", "")))
    ),
    "greater_than_equal": lambda ctx: _("must be at least {least}").format(least=ctx.get("ge")),
    "less_than_equal": lambda ctx: _("must be at most {most}").format(most=ctx.get("le")),
    "greater_than": lambda ctx: _("must be more than {least}").format(least=ctx.get("gt")),
    "less_than": lambda ctx: _("must be less than {most}").format(most=ctx.get("lt")),
    "string_too_long": lambda ctx: ngettext(
        "has at most {n} character", "has at most {n} characters", int(ctx.get("max_length", 0))
    ).format(n=ctx.get("max_length")),
    "string_too_short": lambda ctx: ngettext(
        "needs at least {n} character",
        "needs at least {n} characters",
        int(ctx.get("min_length", 0)),
    ).format(n=ctx.get("min_length")),
    "too_long": lambda ctx: ngettext(
        "has at most {n} entry", "has at most {n} entries", int(ctx.get("max_length", 0))
    ).format(n=ctx.get("max_length")),
    "too_short": lambda ctx: ngettext(
        "needs at least {n} entry", "needs at least {n} entries", int(ctx.get("min_length", 0))
    ).format(n=ctx.get("min_length")),
}


def errors_in_words(errors: Sequence[Any]) -> str:
    """Pydantic's errors as one sentence in the current language: where, what is wrong, and what was
    sent. Our own checks (names) raise their reasons already in words; pydantic's own
    are put in the game's words."""
    parts = []
    for error in errors:
        where = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path"))
        problem = _PROBLEMS.get(str(error.get("type")))
        message = problem(dict(error.get("ctx") or {})) if problem else str(error.get("msg", ""))
        message = message.removeprefix("Value error, ")
        given = error.get("input")
        # a body that is not JSON: quoted as sent, not as Python writes bytes
        if isinstance(given, bytes):
            given = given.decode("utf-8", "replace")
        # never echo a password
        if not (isinstance(given, dict | list) or given is None or "password" in where):
            message = _("{problem} (not {given})").format(
                problem=message, given=repr(str(given)[:40])
            )
        parts.append(
            _("{where}: {problem}").format(where=where, problem=message) if where else message
        )
    return "; ".join(parts) or _("the request is not valid")
