"""The web application: REST lobby, WebSocket tables, the browser client's files, a health check,
the operator's admin calls and an API page that works offline.

``create_app`` builds a FastAPI app around a :class:`~tendays.server.matches.lobby.Lobby` and
includes the routers, one per face: the REST lobby (:mod:`~tendays.server.face.routers.lobby`), the
tables' WebSocket (:mod:`~tendays.server.face.sockets.table_route`), the pages, replays, puzzles,
the guided game, the admin calls and ``/docs``. What they share (the lobby of a request, a page,
the error answers) is in :mod:`~tendays.server.face.routing`. The protocol is described in
docs/protocol.md; the REST part also at ``/docs`` (OpenAPI).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from tendays import __version__

from ..matches.lobby import Lobby
from ..people.accounts import Accounts
from ..people.bot_events import watch_games
from ..people.game_notices import turn_hook
from ..people.limits import Attempts
from ..people.matchmaker import Matchmaker
from ..people.results import catch_up, results_hook
from ..people.tournament_director import Director
from ..settings import MasterSettings
from ..storage.journal import Journal
from ..storage.store import DatabaseLock, Store
from .door.guard import RequestGuard, RequestLanguage
from .door.headers import SecurityHeaders
from .door.limits import LimitBook, Limits
from .routers.accounts import accounts_router
from .routers.admin import admin_router
from .routers.admin_moderation import admin_moderation_router
from .routers.admin_tournaments import admin_tournaments_router
from .routers.bot_account import bot_account_router
from .routers.bot_game import bot_game_router
from .routers.bot_streams import OpenStreams, bot_streams_router
from .routers.challenges import challenges_router
from .routers.docs import docs_router
from .routers.follows import follows_router
from .routers.learn import learn_router
from .routers.lobby import lobby_router
from .routers.moderation import moderation_router
from .routers.notifications import notifications_router
from .routers.pages import pages_router
from .routers.players import players_router
from .routers.puzzles import puzzles_router
from .routers.replays import replays_router
from .routers.seeks import seeks_router
from .routers.tokens import tokens_router
from .routers.tournaments import tournaments_router
from .routers.tv import tv_router
from .routing import ERROR_HANDLERS, static_dir
from .sockets.me import InboxSockets
from .sockets.table_route import table_router

__all__ = ["Limits", "MasterSettings", "create_app", "static_dir"]

log = logging.getLogger("tendays.server")


def create_app(
    database_url: str = "sqlite:///tendays.db",
    settings: MasterSettings | None = None,
    limits: Limits | None = None,
    admin_token: str | None = None,
) -> FastAPI:
    """The server. The database is opened (and locked against a second server), and unfinished games
    restored, when the app starts."""
    settings = settings or MasterSettings()
    limits = limits or Limits()
    book = LimitBook()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lock = DatabaseLock(database_url)
        lock.acquire()
        try:
            journal = Journal(Store(database_url))
            lobby = Lobby(journal, settings)
            # places and ratings: people, above the matches
            lobby.on_finished = results_hook(journal)
            # "your move" notifications: people, above the matches
            lobby.on_turn = turn_hook(journal)
            restored = lobby.restore()
            if restored:
                log.info("restored %d unfinished game(s) from the database", restored)
            lobby.start()
            if caught := await catch_up(lobby):
                log.info("rated %d game(s) that had ended unrated", caught)
            app.state.lobby = lobby
            app.state.accounts = accounts = Accounts(lobby)
            app.state.inbox_sockets = inbox_sockets = InboxSockets(lobby, accounts.ends)
            inbox_sockets.start()
            app.state.attempts = Attempts(journal)
            app.state.limits = limits  # the per-token limit (face/door/bearer.py)
            app.state.matchmaker = matchmaker = Matchmaker(lobby)
            matchmaker.start()
            # tournaments: paired here while this process holds their leases
            app.state.director = director = Director(lobby)
            director.watch_games()
            director.start()
            # the Bot API's streams: woken by the inbox's notices, and by games starting and ending
            streams.start(lobby)
            watch_games(lobby)
            try:
                yield
            finally:
                streams.close()
                await director.close()
                await matchmaker.close()
                inbox_sockets.close()
                await lobby.close()
                await journal.close()
        finally:
            lock.release()

    app = FastAPI(
        title="tendays",
        version=__version__,
        summary="Play the 10 Days travel games in the browser.",
        description="The REST lobby of the tendays server. Tables are played over the WebSocket "
        "`/ws/games/{id}` (the first message says hello with the seat token), described in "
        "docs/protocol.md.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        exception_handlers=ERROR_HANDLERS,
    )
    # made before the app starts: the server ends its streams as it begins to stop
    app.state.open_streams = streams = OpenStreams()
    app.add_middleware(RequestGuard, limits=limits, book=book)
    # added last, so it runs first: the guard's refusals are in words too
    app.add_middleware(RequestLanguage)
    # outermost: every answer, the refusals too, carries the security headers
    app.add_middleware(SecurityHeaders)
    # The order of the routers is the order of the API page.
    for router in (
        docs_router(app.title),
        admin_router(admin_token, limits, book),
        admin_moderation_router(admin_token, book),
        admin_tournaments_router(admin_token, book),
        puzzles_router(),
        learn_router(),
        replays_router(),
        pages_router(),
    ):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=static_dir(), check_dir=False), name="static")
    # before the lobby's, whose /api/games/{id} would take /api/games/your-move
    app.include_router(notifications_router())
    app.include_router(lobby_router())
    app.include_router(accounts_router())
    app.include_router(bot_account_router())
    app.include_router(tokens_router())
    app.include_router(players_router())
    app.include_router(moderation_router())
    app.include_router(follows_router())
    app.include_router(tv_router())
    app.include_router(challenges_router())
    app.include_router(bot_streams_router())
    app.include_router(bot_game_router())
    app.include_router(seeks_router())
    app.include_router(tournaments_router())
    app.include_router(table_router(limits))
    return app
