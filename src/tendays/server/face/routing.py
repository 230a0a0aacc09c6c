"""What every router of the web application shares: the lobby a request reaches, the browser
client's pages, a game id in an address, and the error answers (in the asker's language)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import HTTPException, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response

from tendays.engine.i18n import gettext as _

from ..matches.lobby import Lobby
from ..matches.seats import LobbyError
from .models import ID_PATTERN, errors_in_words

__all__ = ["ERROR_HANDLERS", "GameId", "lobby_of", "page", "static_dir"]

GameId = Annotated[str, PathParam(description="the game's id", max_length=32, pattern=ID_PATTERN)]


def static_dir() -> Path:
    """The browser client's files inside the installed package."""
    return Path(str(resources.files("tendays.web"))) / "static"


def page(name: str) -> FileResponse:
    """One of the browser client's HTML pages; 404 in words if the client is not installed."""
    path = static_dir() / name
    if not path.is_file():
        raise HTTPException(
            404, _("the browser client is not installed ({name} is missing)").format(name=name)
        )
    return FileResponse(path, media_type="text/html")


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
