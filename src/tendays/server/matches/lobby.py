"""The lobby: every match the server holds, and the roles around them wired in one place.

The lobby holds the matches: it creates them (a :class:`~.new_games.NewGame` checked and stored),
joins, finds and restores them from the store, and lists the games a newcomer can join a page at a
time. Its roles are rooms of their own (as lila splits a round):

- :class:`~.rematcher.Rematcher` offers and takes rematches;
- :class:`~.finisher.Finisher` tells the layers above of games that end and turns that pass;
- :class:`~.sweeper.Sweeper` expires idle games and deletes old ended ones;
- :class:`~.other_processes.OtherProcesses` follows other server processes on PostgreSQL
  (:mod:`tendays.server.storage.cluster`): it drives the games this process holds the lease of and
  follows the others' changes to the games its connections watch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from tendays.engine.i18n import gettext as _

from ..settings import MasterSettings, Pace
from ..storage.cluster import Cluster
from ..storage.journal import Journal
from ..storage.rows import SeatRefused, StoredGame
from ..vocabulary import MatchStatus
from .finisher import Finisher, TurnPassed
from .master import Match
from .new_games import NewGame, seat_holders
from .other_processes import OtherProcesses
from .rematcher import Rematcher
from .seating import check_seat, refused
from .seats import LobbyError, hash_token, new_token
from .sweeper import Sweeper
from .thinking import Thinker

__all__ = ["Lobby"]

log = logging.getLogger("tendays.server")

Finished = Callable[[Match], Coroutine[Any, Any, None]]


class Lobby:
    """Every match the server holds: create, join, find, and restore them from the store."""

    def __init__(self, journal: Journal, settings: MasterSettings | None = None) -> None:
        self.journal = journal
        self.settings = settings or MasterSettings()
        self.thinker = Thinker(processes=self.settings.bot_processes)
        self.matches: dict[str, Match] = {}
        self._holds: Counter[str] = Counter()  # games handed out by get() and not yet released
        self.finisher = Finisher()
        self.sweeper = Sweeper(journal, self.settings, self.matches)
        self.rematcher = Rematcher(self)
        self.processes = OtherProcesses(self, journal, self.settings)
        # Other server processes may share the database: then games are driven under leases.
        self.cluster = (
            Cluster(journal, self.settings, self.processes) if journal.store.shared else None
        )
        self.processes.cluster = self.cluster

    # Told of every game that ends here, and of every turn that passes (the face installs them:
    # places, ratings and "your move" notifications live above the matches).

    @property
    def on_finished(self) -> Finished | None:
        return self.finisher.on_finished

    @on_finished.setter
    def on_finished(self, told: Finished | None) -> None:
        self.finisher.on_finished = told

    @property
    def on_turn(self) -> TurnPassed | None:
        return self.finisher.on_turn

    @on_turn.setter
    def on_turn(self, told: TurnPassed | None) -> None:
        self.finisher.on_turn = told

    def _match(self, stored: StoredGame) -> Match:
        """The match of a stored game; alone on the database this process drives
        it, else only under a lease."""
        match = Match(stored, self.journal, self.settings, self.thinker)
        match.on_over = self._over
        match.on_turn = self.finisher.turn
        match.driving = self.cluster is None
        return match

    def rebuild(self, stored: StoredGame) -> Match:
        """The match of a stored game; :class:`LobbyError` (409) if this server cannot play it."""
        try:
            return self._match(stored)
        except (ValueError, KeyError) as error:
            log.error(
                "game %s cannot be played by this server, so it is not served: %s", stored.id, error
            )
            raise LobbyError(
                409,
                _("game {game} cannot be played by this server: {error}").format(
                    game=stored.id, error=error
                ),
            ) from None

    def restore(self) -> int:
        """Rebuild every unfinished game from its stored record; returns how many. Call before
        serving.

        Games idle past the expiry time are closed first, so they are not replayed. A game this
        server cannot replay (stored under rules it does not know, say) is left out, with a log line
        saying why. With other server processes (PostgreSQL), only the games no live process drives
        are taken (their leases ran out or were given back); the rest follow as their leases run
        out.
        """
        self.sweeper.expire_and_purge()
        store = self.journal.store
        leases: dict[str, int] = {}
        if self.cluster is not None:
            leases = store.leases.claim(self.settings.lease_ttl, self.settings.lease_batch)
        for stored in (
            store.load_games(list(leases)) if self.cluster is not None else store.load_unfinished()
        ):
            try:
                match = self.matches[stored.id] = self.rebuild(stored)
            except LobbyError:
                self.processes.unplayable.add(stored.id)
                continue
            if self.cluster is not None:
                match.driving, match.epoch = True, leases[stored.id]
                match.lease_until = time.monotonic() + self.settings.lease_ttl
        return len(self.matches)

    def start(self) -> None:
        """Let the bots and clocks of restored games run again (needs the running event loop)."""
        self.thinker.warm_up()
        for match in self.matches.values():
            match.wake_bots()
            match.arm_clock()
        self.sweeper.start()
        if self.cluster is not None:
            self.cluster.start()

    async def close(self) -> None:
        await self.finisher.written()
        await self.sweeper.stop()
        if self.cluster is not None:
            await self.cluster.close()
        await self.processes.close()
        await asyncio.gather(*(m.close() for m in self.matches.values()))
        if self.cluster is not None:
            await self.cluster.release()  # after the bots stopped: no move of ours can follow
        self.thinker.close()

    def changed(self, game_id: str, notice: str = "") -> None:
        """Another process changed a game: if held here, follow it
        (:meth:`~.other_processes.OtherProcesses.changed`)."""
        self.processes.changed(game_id, notice)

    def active(self) -> list[Match]:
        return [m for m in self.matches.values() if m.status != MatchStatus.OVER]

    async def page(self, show: str, page: int, per_page: int) -> tuple[list[Match], int]:
        """One page of the games a newcomer may join (``show="joinable"``) or watch ("playing"),
        newest first, and how many there are in all (with other server processes:
        theirs too, from the database)."""
        if self.cluster is not None:
            store = self.journal.store
            ids, total = await self.journal.read(
                store.page_ids, show, (page - 1) * per_page, per_page
            )
            found = []
            for game_id in ids:
                with contextlib.suppress(LobbyError):
                    match = await self.get(game_id)
                    if match is not None:
                        found.append(match)
                        self.release(match)
            return found, total
        wanted = [
            m
            for m in self.matches.values()
            if (m.joinable if show == "joinable" else m.status == MatchStatus.PLAYING)
        ]
        # the dict keeps the order of creation (restored games first, oldest first)
        wanted.reverse()
        start = (page - 1) * per_page
        return wanted[start : start + per_page], len(wanted)

    # -- creating and joining ----------------------------------------------------------------

    async def create(
        self,
        edition: str,
        seats: Sequence[tuple[str, str | None]],
        options: dict[str, Any],
        name: str,
        pace: Pace | None = None,
        seat: int = 0,
        reserved: Sequence[int] = (),
        names: Sequence[str | None] = (),
        rated: bool = False,
        account_id: int | None = None,
        game_id: str | None = None,
        bot_account: bool = False,
    ) -> tuple[Match, str]:
        """A new game; ``seats`` are (kind, bot level) pairs and ``seat`` (0 unless a rematch) goes
        to ``name`` (signed in to ``account_id``, or anonymous). ``reserved``: human seats kept for
        named players (a rematch, a tournament's table). ``rated``: people in every seat (signed in:
        the caller checks), and the result moves their ratings. ``game_id``: the id planned for it
        (a tournament's table is written before its game; the database refuses a second game of one
        id). ``bot_account``: ``account_id`` is a bot account's. Returns (match, token)."""
        request = NewGame(
            edition, seats, options, name, pace, seat, reserved, names, rated, account_id,
            bot_account,
        )  # fmt: skip
        return await self.create_game(request, game_id)

    async def create_game(self, request: NewGame, game_id: str | None = None) -> tuple[Match, str]:
        """The game ``request`` asks for (:meth:`create` says how), under ``game_id`` if given."""
        if len(self.active()) >= self.settings.max_games:
            raise LobbyError(503, _("the server holds as many games as it may; try again later"))
        loaded, game_options = request.checked(self.settings.paces)
        token = new_token()
        now = time.time()
        stored = request.stored(
            game_id or self._new_id(),
            loaded,
            game_options,
            self.settings.seed_source(),
            hash_token(token),
            now,
        )
        holders = seat_holders(stored)
        check_seat(holders, request.name, request.account_id, request.seat)
        match = self._match(stored)
        if match.all_taken and match.clock is not None:
            match.clock.start(match.state.current, now)
            stored.deadline, stored.turn_started = match.clock.deadline, match.clock.turn_started
        try:
            await asyncio.shield(self._register(match, stored))
        except SeatRefused as error:  # the creator's name looks like a registered account's
            raise refused(error, holders, request.name, request.account_id, request.seat) from None
        log.info("game %s created: %s, %d seats", match.id, loaded.id, len(request.seats))
        match.arm_clock()
        match.wake_bots()
        return match, token

    async def _register(self, match: Match, stored: StoredGame) -> None:
        lease = self.settings.lease_ttl if self.cluster is not None else None
        if self.cluster is not None:
            await self.cluster.watch(match.id)  # heard from before anyone else can change it
        await self.journal.run(self.journal.store.create_game, stored, lease)
        if lease is not None:
            match.driving, match.epoch, match.lease_until = True, 1, time.monotonic() + lease
        self.matches[match.id] = match

    def _new_id(self) -> str:
        while True:
            game_id = secrets.token_urlsafe(6)
            if game_id not in self.matches:
                return game_id

    async def join(
        self, game_id: str, name: str, account_id: int | None = None, bot_account: bool = False
    ) -> tuple[Match, int, str]:
        """Take the first free seat of a game for ``name``, signed in to ``account_id`` or
        anonymous: (match, seat, token). :class:`LobbyError` by the rules of
        :mod:`~tendays.server.matches.seating` (one seat per account, no look-alike names)."""
        match = await self.get(game_id)
        if match is None:
            raise LobbyError(404, _("there is no game '{game}'").format(game=game_id))
        try:
            if match.rated and account_id is None:  # people signed in, each in one seat
                raise LobbyError(
                    401, _("sign in first: only signed-in players may create or join a rated game")
                )
            # one seat per account and names that do not look alike: checked under the match's
            # lock, and enforced by the database
            seat, token = await match.join(name, account_id=account_id, bot_account=bot_account)
        finally:
            self.release(match)  # held here only while watched, unless this process drives it
        log.info("game %s: seat %d taken", match.id, seat + 1)
        return match, seat, token

    async def rematch(self, match: Match, seat: int) -> tuple[Match, str]:
        """The same seats and options again (:meth:`~.rematcher.Rematcher.rematch`)."""
        return await self.rematcher.rematch(match, seat)

    async def sweep(self) -> tuple[int, int]:
        """Close idle games and delete old ended ones now (:meth:`~.sweeper.Sweeper.sweep`)."""
        return await self.sweeper.sweep()

    # -- holding -----------------------------------------------------------------------------

    async def get(self, game_id: str) -> Match | None:
        """The match, or None if there is no such game; a finished game is loaded from the store.
        The match is held here (followed, never forgotten) until :meth:`release` is called for it.

        Raises :class:`LobbyError` (409) for a stored game this server cannot play.
        """
        match = self.matches.get(game_id)
        if match is None:
            match = await self.processes.load(game_id)
        if match is not None:
            self._holds[game_id] += 1
        return match

    async def serve_here(self, match: Match) -> None:
        """A table connection of ``match`` came here: hold the game here
        (:meth:`~.other_processes.OtherProcesses.serve_here`)."""
        await self.processes.serve_here(match)

    def release(self, match: Match) -> None:
        """The match :meth:`get` handed out is no longer needed: forget it if it is finished and
        nobody watches it, or another process drives it; the store still has it."""
        if self._holds[match.id] > 0:
            self._holds[match.id] -= 1
        if not self._holds[match.id]:
            del self._holds[match.id]
        self.forget_if_unused(match)

    async def results_written(self) -> None:
        """Wait until the games that ended so far have had their results (places, ratings)
        written, and the turns that passed so far their :attr:`on_turn`."""
        await self.finisher.written()

    def _over(self, match: Match) -> None:
        """A game ended (here, or another process told of it): tell the finisher, and let it go."""
        self.finisher.finished(match)
        self.forget_if_unused(match)

    def forget_if_unused(self, match: Match) -> None:
        """Let go of a match that is over or driven elsewhere, watched and held by nobody here."""
        if (
            (match.status == MatchStatus.OVER or not match.driving)
            and not match.watchers
            and not self._holds[match.id]
            and self.matches.get(match.id) is match
        ):
            del self.matches[match.id]

    def forget_account(self, account_id: int, name: str) -> None:
        """An account was deleted: its seats in the games held here read as ``name`` from now on
        (the database already says so)."""
        for match in self.matches.values():
            seats = [s for s in match.seats if s.account_id == account_id]
            for seat in seats:
                seat.account_id, seat.name = None, name
            if seats:
                for subscriber in match.subscribers:
                    subscriber.resync()  # the log's names changed
                match.publish()
