"""The lobby: every match the server holds. It creates, joins, finds and restores them from the
store, lists the games a newcomer can join a page at a time, offers rematches, and expires idle
games and deletes old ended ones (:meth:`Lobby.sweep`). On PostgreSQL it shares the database with
other server processes (:mod:`tendays.server.storage.cluster`): it drives the games it holds the
lease of, follows the others' changes to the games its connections watch, and
lists every process's games."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from datetime import UTC, datetime
from typing import Any

from tendays import bots
from tendays.engine import Options, load_edition
from tendays.engine.i18n import gettext as _

from ..settings import MasterSettings, Pace
from ..storage.cluster import Cluster
from ..storage.journal import Journal
from ..storage.rows import SeatRefused, StoredGame, StoredSeat
from .master import Match
from .notices import N_
from .seating import check_seat, refused, seat_skeleton
from .seats import LobbyError, Rejected, Seat, hash_token, new_token
from .thinking import Thinker
from .wire import stored_bot_name

__all__ = ["Lobby"]

log = logging.getLogger("tendays.server")


class Lobby:
    """Every match the server holds: create, join, find, and restore them from the store."""

    def __init__(self, journal: Journal, settings: MasterSettings | None = None) -> None:
        self.journal = journal
        self.settings = settings or MasterSettings()
        self.thinker = Thinker(processes=self.settings.bot_processes)
        self.matches: dict[str, Match] = {}
        self._sweeper: asyncio.Task[None] | None = None
        # Other server processes may share the database: then games are driven under leases.
        self.cluster = Cluster(journal, self.settings, self) if journal.store.shared else None
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        # what other processes said changed, per game, not yet followed
        self._notices: dict[str, list[str]] = {}
        # games being read from the database: their notices are kept
        self._loading: Counter[str] = Counter()
        self._holds: Counter[str] = Counter()  # games handed out by get() and not yet released
        # leased games this server cannot replay (it keeps them, unplayed)
        self._unplayable: set[str] = set()
        # Told of every game that ends here (the face installs it: places and ratings, which live
        # above the matches); it may be told twice of one game, by this process
        # or another, and must not mind.
        self.on_finished: Callable[[Match], Coroutine[Any, Any, None]] | None = None
        self._finishing: set[asyncio.Task[None]] = set()
        # Told when the turn of a game passes to a seat here (match, seat, the mover or None when
        # the game starts): "your move" notifications, which live above the matches.
        self.on_turn: Callable[[Match, int, int | None], Coroutine[Any, Any, None]] | None = None

    def _match(self, stored: StoredGame) -> Match:
        """The match of a stored game; alone on the database this process drives
        it, else only under a lease."""
        match = Match(stored, self.journal, self.settings, self.thinker)
        match.on_over = self._over
        match.on_turn = self._turn
        match.driving = self.cluster is None
        return match

    def _rebuild(self, stored: StoredGame) -> Match:
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
        self._expire_and_purge()
        store = self.journal.store
        leases: dict[str, int] = {}
        if self.cluster is not None:
            leases = store.leases.claim(self.settings.lease_ttl, self.settings.lease_batch)
        for stored in (
            store.load_games(list(leases)) if self.cluster is not None else store.load_unfinished()
        ):
            try:
                match = self.matches[stored.id] = self._rebuild(stored)
            except LobbyError:
                self._unplayable.add(stored.id)
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
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="expiry of idle games")
        if self.cluster is not None:
            self.cluster.start()

    async def close(self) -> None:
        await asyncio.gather(*self._finishing, return_exceptions=True)
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
        if self.cluster is not None:
            await self.cluster.close()
        for task in self._refreshing.values():
            task.cancel()
        await asyncio.gather(*self._refreshing.values(), return_exceptions=True)
        await asyncio.gather(*(m.close() for m in self.matches.values()))
        if self.cluster is not None:
            await self.cluster.release()  # after the bots stopped: no move of ours can follow
        self.thinker.close()

    # -- other server processes (the Cluster's Driver) --------------------------------------

    def changed(self, game_id: str, notice: str = "") -> None:
        """Another process changed a game: if held here, follow it (notices of one game in their
        order). The notices of a game being loaded are kept, and followed once it is
        (:meth:`_load`)."""
        if game_id not in self.matches and not self._loading[game_id]:
            return
        self._notices.setdefault(game_id, []).append(notice)
        if game_id in self.matches:
            self._follow(game_id)

    def _follow(self, game_id: str) -> asyncio.Task[None] | None:
        """Follow the notices of a held game not followed yet; the task that
        does it (None: nothing new)."""
        if game_id in self._notices and game_id not in self._refreshing:
            self._refreshing[game_id] = asyncio.create_task(
                self._refresh(game_id), name=f"refresh of {game_id}"
            )
        return self._refreshing.get(game_id)

    async def _load(self, game_id: str) -> Match | None:
        """The held match of ``game_id``, read from the database if it is not held yet; None if
        there is no such game. Its notices are heard from before the read starts, and whatever they
        say was stored after the read (a move by number, anything else by reading again) is applied
        before the match is handed out: a match is never older than the database at the moment it
        was asked for. :class:`LobbyError` (409) for a game this server cannot play."""
        self._loading[game_id] += 1
        try:
            stored = await self.journal.run(self.journal.store.load_game, game_id)
        finally:
            self._loading[game_id] -= 1
            if not self._loading[game_id]:
                del self._loading[game_id]
        match = self.matches.get(game_id)
        try:
            if match is None and stored is not None:
                match = self.matches[game_id] = self._rebuild(stored)
        finally:
            if match is None and not self._loading[game_id]:
                self._notices.pop(game_id, None)  # nobody follows this game here
        if match is not None and (following := self._follow(game_id)) is not None:
            await asyncio.shield(following)
        return match

    def changed_all(self) -> None:
        for game_id in list(self.matches):
            self.changed(game_id)

    async def _refresh(self, game_id: str) -> None:
        try:
            while notices := self._notices.pop(game_id, None):
                match = self.matches.get(game_id)
                if match is None:
                    return
                try:
                    await match.refresh(notices)
                except Exception:
                    log.exception(
                        "game %s: following the changes of another server process failed", game_id
                    )
        finally:
            self._refreshing.pop(game_id, None)

    async def held(self, leases: dict[str, int], since: float) -> None:
        until = since + self.settings.lease_ttl
        driven = {m.id for m in self.matches.values() if m.driving}
        stray = [
            game_id
            for game_id in leases
            if game_id not in driven and game_id not in self._unplayable
        ]
        # taken but not driven (reading it failed, or it ended here): let any process take it again
        if stray:
            await self.journal.run(self.journal.store.leases.release, stray)
        for match in list(self.matches.values()):
            if not match.driving or match.epoch is None or match.status == "over":
                continue
            if leases.get(match.id) == match.epoch:
                match.lease_until = until
            else:
                log.warning(
                    "game %s is driven by another server process now (its lease was taken over)",
                    match.id,
                )
                match.drive(None)
                self._forget_if_unused(match)

    async def took(self, leases: dict[str, int], since: float) -> None:
        for game_id, epoch in leases.items():
            match = self.matches.get(game_id)
            try:
                if match is not None:
                    await match.refresh()
                else:
                    match = await self._load(game_id)
                    if match is None:
                        continue
            except LobbyError:
                self._unplayable.add(game_id)
                continue
            except Exception:  # given back at the next renewal, to be taken again
                log.exception("game %s could not be taken over", game_id)
                continue
            match.lease_until = since + self.settings.lease_ttl
            match.drive(epoch)

    def active(self) -> list[Match]:
        return [m for m in self.matches.values() if m.status != "over"]

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
            if (m.joinable if show == "joinable" else m.status == "playing")
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
        if len(self.active()) >= self.settings.max_games:
            raise LobbyError(503, _("the server holds as many games as it may; try again later"))
        try:
            loaded = load_edition(edition)
        except ValueError as error:
            raise LobbyError(422, str(error)) from None
        if not seats or seats[seat][0] != "human":
            raise LobbyError(422, _("seat 1 is yours, so it must be a human seat"))
        if rated and account_id is None:
            raise LobbyError(
                401, _("sign in first: only signed-in players may create or join a rated game")
            )
        if rated and (len(seats) < 2 or any(kind != "human" for kind, _level in seats)):
            raise LobbyError(
                422, _("a rated game is for two to four people: every seat must be a human seat")
            )
        # Only the registry's plain names: external engines (``cmd:...``) and budgets run programs
        # or spend the server's time, so only the operator may configure them, never a web request.
        for number, (kind, level) in enumerate(seats, 1):
            if kind == "bot" and level not in bots.bot_names():
                raise LobbyError(
                    422,
                    _("seat {number}: unknown bot level '{level}'; choose one of {levels}").format(
                        number=number, level=level, levels=", ".join(bots.bot_names())
                    ),
                )
        try:
            game_options = Options.from_json({**options, "players": len(seats)})
            game_options.validate(loaded)
            if pace is not None:
                self.settings.paces.check(pace)
        except (TypeError, ValueError) as error:
            raise LobbyError(422, str(error)) from None
        for number, (kind, level) in enumerate(seats, 1):
            reason = bots.refusal(level, edition, game_options) if kind == "bot" and level else None
            if reason is not None:  # a bot made for some games only (the learned bot)
                raise LobbyError(
                    422, _("seat {number}: {reason}").format(number=number, reason=reason)
                )
        token = new_token()
        now = time.time()

        def seat_name(i: int, kind: str, level: str | None) -> str | None:
            if i == seat:
                return name
            if kind == "bot":
                return stored_bot_name(level)
            return names[i] if i < len(names) and i in reserved else None

        stored = StoredGame(
            id=game_id or self._new_id(),
            edition=loaded.id,
            options=game_options,
            seed=self.settings.seed_source(),
            created=datetime.now(UTC),
            last_move_at=now,
            pace=pace,
            rated=rated,
            seats=[
                StoredSeat(
                    i,
                    kind,
                    level if kind == "bot" else None,
                    seat_name(i, kind, level),
                    hash_token(token) if i == seat else None,
                    reserved=i in reserved and i != seat,
                    account_id=account_id if i == seat else None,
                    name_skeleton=seat_skeleton(kind, seat_name(i, kind, level)),
                    bot_account=bot_account and i == seat,
                )
                for i, (kind, level) in enumerate(seats)
            ],
        )
        holders = [
            Seat(s.seat, s.kind, s.bot, s.name, account_id=s.account_id, bot_account=s.bot_account)
            for s in stored.seats
        ]
        check_seat(holders, name, account_id, seat)
        match = self._match(stored)
        if match.all_taken and match.clock is not None:
            match.clock.start(match.state.current, now)
            stored.deadline, stored.turn_started = match.clock.deadline, match.clock.turn_started
        try:
            await asyncio.shield(self._register(match, stored))
        except SeatRefused as error:  # the creator's name looks like a registered account's
            raise refused(error, holders, name, account_id, seat) from None
        log.info("game %s created: %s, %d seats", match.id, loaded.id, len(seats))
        match.arm_clock()
        match.wake_bots()
        return match, token

    async def _register(self, match: Match, stored: StoredGame) -> None:
        lease = self.settings.lease_ttl if self.cluster is not None else None
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
        """The same seats and options again, for the player at ``seat`` of a finished game: the
        first to ask creates the game, and every other person's seat is kept for them. Returns
        (match, token)."""
        if match.status != "over":
            raise Rejected("illegal", _("a rematch can be offered once the game is over"))
        if match.seats[seat].left:
            raise Rejected(
                "forbidden", _("you left this game, so you cannot offer a rematch of it")
            )
        name = match.seats[seat].display_name
        if match.rematch is not None:
            again = await self.get(match.rematch)
            if again is None:
                raise Rejected("illegal", _("the rematch has already started or ended without you"))
            try:
                if again.status != "waiting" or again.seats[seat].taken:
                    raise Rejected(
                        "illegal", _("the rematch has already started or ended without you")
                    )
                taken, token = await again.join(
                    name, seat, match.seats[seat].account_id, match.seats[seat].bot_account
                )
            finally:
                self.release(again)
            return again, token
        kinds = [("bot", s.bot) if s.kind == "bot" else ("human", None) for s in match.seats]
        kept = [
            s.index for s in match.seats if s.kind == "human" and not s.left and s.index != seat
        ]
        options = {
            k: v for k, v in match.options.to_json().items() if k not in ("players", "rules")
        }
        pace = match.clock.pace if match.clock is not None else None
        try:
            again, token = await self.create(
                match.edition.id,
                kinds,
                options,
                name,
                pace,
                seat,
                kept,
                [s.name for s in match.seats],
                account_id=match.seats[seat].account_id,
                bot_account=match.seats[seat].bot_account,
            )
        except LobbyError as error:
            raise Rejected("unavailable", error.message) from None
        await match.offer_rematch(again.id, name)
        return again, token

    async def get(self, game_id: str) -> Match | None:
        """The match, or None if there is no such game; a finished game is loaded from the store.
        The match is held here (followed, never forgotten) until :meth:`release` is called for it.

        Raises :class:`LobbyError` (409) for a stored game this server cannot play.
        """
        match = self.matches.get(game_id)
        if match is None:
            match = await self._load(game_id)
        if match is not None:
            self._holds[game_id] += 1
        return match

    def release(self, match: Match) -> None:
        """The match :meth:`get` handed out is no longer needed: forget it if it is finished and
        nobody watches it, or another process drives it; the store still has it."""
        if self._holds[match.id] > 0:
            self._holds[match.id] -= 1
        if not self._holds[match.id]:
            del self._holds[match.id]
        self._forget_if_unused(match)

    async def results_written(self) -> None:
        """Wait until the games that ended so far have had their results (places, ratings)
        written, and the turns that passed so far their :attr:`on_turn`."""
        await asyncio.gather(*self._finishing, return_exceptions=True)

    def _over(self, match: Match) -> None:
        """A game ended (here, or another process told of it): tell
        :attr:`on_finished`, and let it go."""
        if self.on_finished is not None:
            task = asyncio.create_task(self.on_finished(match), name=f"results of game {match.id}")
            self._finishing.add(task)
            task.add_done_callback(self._finishing.discard)
        self._forget_if_unused(match)

    def _turn(self, match: Match, seat: int, mover: int | None) -> None:
        """The turn of a game passed here: tell :attr:`on_turn`."""
        if self.on_turn is not None:
            task = asyncio.create_task(
                self.on_turn(match, seat, mover), name=f"turn of game {match.id}"
            )
            self._finishing.add(task)
            task.add_done_callback(self._finishing.discard)

    def _forget_if_unused(self, match: Match) -> None:
        if (
            (match.status == "over" or not match.driving)
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

    # -- expiry ------------------------------------------------------------------------------

    def _expire_and_purge(self) -> tuple[list[str], list[str]]:
        """(ids closed as abandoned, ids deleted) in the store, now (the
        database thread, or at start-up)."""
        now, store = time.time(), self.journal.store
        expired = store.expire_idle(now - self.settings.idle_expiry, now)
        retention = self.settings.retention
        deleted = store.purge_finished(now - retention) if retention is not None else []
        if expired or deleted:
            log.info(
                "%d idle game(s) closed as abandoned, %d ended game(s) deleted",
                len(expired),
                len(deleted),
            )
        return expired, deleted

    async def sweep(self) -> tuple[int, int]:
        """Close idle games as abandoned and delete ended ones past their
        retention; (closed, deleted)."""
        expired, deleted = await self.journal.run(self._expire_and_purge)
        for game_id in expired:
            match = self.matches.get(game_id)
            if match is not None:
                await match.end(
                    "abandoned", N_("nobody moved for too long: the game was closed as abandoned")
                )
        for game_id in deleted:
            match = self.matches.pop(game_id, None)
            if match is not None:
                await match.close()
        return len(expired), len(deleted)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception(
                    "expiring idle games failed; trying again in %g s", self.settings.sweep_every
                )
