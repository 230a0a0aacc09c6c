"""People's ratings: openskill (Plackett-Luce), the model and scale of the bots' published ratings.

A rating is a skill ``mu`` and its uncertainty ``sigma``; a new player starts where openskill starts
every player, and where the bots' ladder started its levels (mu 25, sigma 25/3). The rating shown is
``mu`` itself, so a person's 28 reads against the normal bot's 28.3 (``tendays.bots.LEVELS``); the
deviation shown is ``sigma``, and a rating is provisional while ``sigma`` is above
:data:`PROVISIONAL_SIGMA` (the first dozen or so games). Plackett-Luce rates any number of players
from their places, so one model serves two-player and four-player games alike (Glicko-2 knows only
pairs).

A rated game is rated once, whoever finishes it and however many server processes see it end: the
same transaction that rates it first writes the seats' places, and only where no place is written
yet (:func:`rate_game`). What a seat's place is, the rules of a rated game decide (:func:`places`);
whether the result moves ratings at all (the abort rule, the repeat cap), :mod:`.rated_rules`
does, in the same transaction. The ``rating_history`` rows are the counted games, in order:
:func:`recompute_edition` replays them from the start, leaving out annulled games.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce
from sqlalchemy import Update, bindparam, case, delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from tendays.engine.i18n import gettext as _

from ..matches.master import Match
from ..storage.schema import SETTLED_SIGMA, GameTable, RatingHistoryTable, RatingTable, SeatTable
from ..vocabulary import EndReason, SeatKind
from .game_notices import game_ended
from .rated_rules import RatedOutcome, judge

__all__ = [
    "PROVISIONAL_SIGMA",
    "SEEK_LIMITS",
    "START",
    "USUAL",
    "Rating",
    "is_provisional",
    "places",
    "rate_game",
    "rate_places",
    "recompute_edition",
    "scale_words",
]

_MODEL = PlackettLuce()

#: A rating whose deviation is above this is provisional (shown with a "?", and left off the
#: leaderboard): the number the leaderboard's index is made with.
PROVISIONAL_SIGMA = SETTLED_SIGMA


@dataclass(frozen=True, slots=True)
class Rating:
    """A person's skill in one edition: ``mu`` (the rating shown) and its deviation ``sigma``."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def provisional(self) -> bool:
        return is_provisional(self.sigma)


#: Where every new player starts (openskill's own start, as the bots' ladder did).
START = Rating(_MODEL.mu, _MODEL.sigma)

#: The ratings people have, as the model sees them: its prior puts almost every skill (three
#: deviations either side of the start) between 0 and 50.
USUAL = (START.mu - 3 * START.sigma, START.mu + 3 * START.sigma)

#: The widest rating range a seek may ask for: far beyond any rating, but a number, not a typo's
#: -5000.
SEEK_LIMITS = (-1000.0, 1000.0)


def scale_words() -> str:
    """The rating scale in the current language, for a person choosing a range."""
    return _("ratings start at {start} and almost all lie between {low} and {high}").format(
        start=f"{START.mu:g}", low=f"{USUAL[0]:g}", high=f"{USUAL[1]:g}"
    )


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def rate_places(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """The ratings after one game in which ``ratings[i]`` finished at
    ``places[i]`` (1 first; ties share)."""
    teams = [[_MODEL.create_rating([r.mu, r.sigma])] for r in ratings]
    rated = _MODEL.rate(teams, ranks=[float(p) for p in places])
    return [
        Rating(team[0].mu, team[0].sigma, r.games + 1)
        for r, team in zip(ratings, rated, strict=True)
    ]


def places(match: Match) -> list[int] | None:
    """Each seat's place in a finished game (1 for the winner; ties share a place), or None for a
    game with no result: an unrated game ended before it was played out, or any game the operator
    closed.

    Played out: the winner is first and everyone else shares second (everyone shares first when the
    turn limit ended it with no winner). In a rated game, a person who left, or was away until a bot
    took the seat, lost: they share the last place, whoever played their seat afterwards, and the
    others share first if their bot won. A rated game that ended before it was played out with
    nobody gone (it expired waiting for a move) was lost by the person whose turn it was.
    """
    state = match.state
    gone = {s.index for s in match.seats if s.kind == SeatKind.HUMAN and (s.left or s.away)}
    if not state.is_over:
        if not match.rated or match.ended == EndReason.CLOSED:
            return None
        if not gone:
            gone = {state.current}
        return [2 if seat.index in gone else 1 for seat in match.seats]
    winner = state.winner
    if not match.rated or not gone:
        return [1 if winner is None or seat.index == winner else 2 for seat in match.seats]
    stayed_won = winner is None or winner in gone
    ranks = [1 if stayed_won or seat.index == winner else 2 for seat in match.seats]
    last = (
        max(ranks[s] for s in range(len(ranks)) if s not in gone) + 1
        if len(gone) < len(ranks)
        else 1
    )
    return [last if seat in gone else ranks[seat] for seat in range(len(ranks))]


def rate_game(
    engine: Engine, game_id: str, seat_places: Sequence[int], at: float | None = None
) -> bool:
    """Write the places of a finished game and, if it is rated and counts (not aborted, not over
    the repeat cap: :func:`~.rated_rules.judge`), move its people's ratings; once. A rated game's
    outcome is stored with it (``games.rated_outcome``).

    False if the game's places were already written (another server process, or an earlier call, did
    it), and then nothing changes. Safe with several processes on one PostgreSQL database: the
    places are claimed with ``... WHERE place IS NULL`` (the second claim waits for the first and
    then finds nothing to claim), and the ratings rows are locked in account order before they are
    read.
    """
    moment = time.time() if at is None else at
    for attempt in range(3):
        try:
            with engine.begin() as db:
                _rate_in(db, game_id, seat_places, moment)
            return True
        except _AlreadyPlaced:
            return False
        # a new player's first rating was written meanwhile by another game: again
        except IntegrityError:
            if attempt == 2:
                raise
    return False


class _AlreadyPlaced(Exception):
    """The game's places were written before: roll back, nothing to do."""


@cache
def _claim(seats: int) -> Update:
    """The statement that writes the places of a game of ``seats`` seats, each where none is
    written yet; built once for each number of seats (compiled once, as every game ends)."""
    return (
        update(SeatTable)
        .where(
            SeatTable.game_id == bindparam("b_game"),
            SeatTable.seat < seats,
            SeatTable.place.is_(None),
        )
        .values(
            place=case({s: bindparam(f"b_place{s}") for s in range(seats)}, value=SeatTable.seat)
        )
    )


# Built once: the game's row as rating reads it.
_GAME = select(GameTable.edition, GameTable.rated, GameTable.ended).where(
    GameTable.id == bindparam("b_game")
)


def _rate_in(db: Connection, game_id: str, seat_places: Sequence[int], at: float) -> None:
    places = {f"b_place{seat}": place for seat, place in enumerate(seat_places)}
    claimed = db.execute(_claim(len(seat_places)), {"b_game": game_id, **places}).rowcount
    if claimed != len(seat_places):
        raise _AlreadyPlaced
    game_ended(db, game_id, seat_places)  # told once, with the places
    game = db.execute(_GAME, {"b_game": game_id}).one_or_none()
    if game is None or not game.rated:
        return
    seats = db.execute(
        select(
            SeatTable.seat, SeatTable.kind, SeatTable.account_id, SeatTable.moved_after_draft
        ).where(SeatTable.game_id == game_id)
    ).all()
    people = {row.account_id: seat_places[row.seat] for row in seats if row.account_id is not None}
    # A deleted account's seat still played: rated at the start, its rating written nowhere.
    deleted = [seat_places[row.seat] for row in seats if row.account_id is None]
    if not people or len(people) + len(deleted) < 2:
        return
    outcome = judge(db, game.edition, game.ended is not None, seats, at)
    db.execute(update(GameTable).where(GameTable.id == game_id).values(rated_outcome=outcome))
    if outcome is not RatedOutcome.COUNTED:
        return
    accounts = sorted(people)
    known = {
        row.account_id: Rating(row.mu, row.sigma, row.games)
        for row in db.execute(
            select(RatingTable)
            .where(RatingTable.account_id.in_(accounts), RatingTable.edition == game.edition)
            .order_by(RatingTable.account_id)
            .with_for_update()
        )
    }
    after = rate_places(
        [known.get(a, START) for a in accounts] + [START] * len(deleted),
        [people[a] for a in accounts] + deleted,
    )
    for account, rating in zip(accounts, after[: len(accounts)], strict=True):
        values = {
            "mu": rating.mu,
            "sigma": rating.sigma,
            "rating": rating.mu,
            "games": rating.games,
            "updated": at,
        }
        if account in known:
            db.execute(
                update(RatingTable)
                .where(RatingTable.account_id == account, RatingTable.edition == game.edition)
                .values(**values)
            )
        else:
            db.execute(
                insert(RatingTable).values(account_id=account, edition=game.edition, **values)
            )
        db.execute(
            insert(RatingHistoryTable).values(
                account_id=account,
                edition=game.edition,
                game_id=game_id,
                at=at,
                rating=rating.mu,
                deviation=rating.sigma,
            )
        )


def recompute_edition(db: Connection, edition: str, skip_games: set[str]) -> None:
    """Recompute every rating of ``edition`` from the start, in ``db``'s transaction: replay the
    counted games (those with ``rating_history`` rows) in the order they were rated, leaving out
    ``skip_games`` (annulled by the operator).

    Afterwards each history row holds its game's new rating, the skipped games' rows are gone and
    those games read as annulled, each person's rating is the replay's last (a person with no
    counted game left has none). A seat whose account is gone plays at the start, as when a game
    with a deleted account was first rated. The edition's ratings rows are locked first, so a game
    being rated meanwhile waits for the new ratings and then moves them.
    """
    current = set(
        db.scalars(
            select(RatingTable.account_id)
            .where(RatingTable.edition == edition)
            .order_by(RatingTable.account_id)
            .with_for_update()
        )
    )
    counted: dict[str, tuple[float, list[int]]] = {}  # game -> (when, its people), in order
    for row in db.execute(
        select(RatingHistoryTable.game_id, RatingHistoryTable.account_id, RatingHistoryTable.at)
        .where(RatingHistoryTable.edition == edition)
        .order_by(RatingHistoryTable.at, RatingHistoryTable.game_id, RatingHistoryTable.account_id)
    ):
        counted.setdefault(row.game_id, (row.at, []))[1].append(row.account_id)
    kept = [game for game in counted if game not in skip_games]
    places_of: dict[str, list[tuple[int | None, int]]] = {game: [] for game in kept}
    for start in range(0, len(kept), 500):
        for seat in db.execute(
            select(SeatTable.game_id, SeatTable.account_id, SeatTable.place)
            .where(SeatTable.game_id.in_(kept[start : start + 500]))
            .order_by(SeatTable.game_id, SeatTable.seat)
        ):
            places_of[seat.game_id].append((seat.account_id, seat.place or 1))
    ratings: dict[int, Rating] = {}
    last_at: dict[int, float] = {}
    rows: list[dict[str, object]] = []
    for game in kept:
        at, accounts = counted[game]
        seats = places_of[game]
        people = {account: place for account, place in seats if account in accounts}
        others = [place for account, place in seats if account not in people]
        ordered = sorted(people)
        after = rate_places(
            [ratings.get(a, START) for a in ordered] + [START] * len(others),
            [people[a] for a in ordered] + others,
        )
        for account, rating in zip(ordered, after, strict=False):
            ratings[account], last_at[account] = rating, at
            rows.append(
                {"b_account": account, "b_game": game, "b_rating": rating.mu, "b_dev": rating.sigma}
            )
    skipped = [game for game in counted if game in skip_games]
    for start in range(0, len(skipped), 500):
        db.execute(
            delete(RatingHistoryTable).where(
                RatingHistoryTable.edition == edition,
                RatingHistoryTable.game_id.in_(skipped[start : start + 500]),
            )
        )
    if rows:
        db.execute(
            update(RatingHistoryTable)
            .where(
                RatingHistoryTable.account_id == bindparam("b_account"),
                RatingHistoryTable.edition == edition,
                RatingHistoryTable.game_id == bindparam("b_game"),
            )
            .values(rating=bindparam("b_rating"), deviation=bindparam("b_dev")),
            rows,
        )
    for account, rating in ratings.items():
        values = {
            "mu": rating.mu,
            "sigma": rating.sigma,
            "rating": rating.mu,
            "games": rating.games,
            "updated": last_at[account],
        }
        if account in current:
            db.execute(
                update(RatingTable)
                .where(RatingTable.account_id == account, RatingTable.edition == edition)
                .values(**values)
            )
        else:
            db.execute(insert(RatingTable).values(account_id=account, edition=edition, **values))
    gone = sorted(current - set(ratings))
    if gone:
        db.execute(
            delete(RatingTable).where(
                RatingTable.edition == edition, RatingTable.account_id.in_(gone)
            )
        )
    annulled = sorted(skip_games)
    for start in range(0, len(annulled), 500):
        db.execute(
            update(GameTable)
            .where(
                GameTable.id.in_(annulled[start : start + 500]),
                GameTable.edition == edition,
                GameTable.rated_outcome.in_([RatedOutcome.COUNTED, RatedOutcome.CAPPED]),
            )
            .values(rated_outcome=RatedOutcome.ANNULLED)
        )
