"""Running a tournament's games: in this process, across worker processes, or on a Ray cluster.

Every backend returns the same results for the same tournament, because each game depends only on
the tournament and its index; the results are put back in game order before they are summed up.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator

from .tournament import GameResult, Tournament, play_game

__all__ = ["run_local", "run_ray"]

Progress = Callable[[Iterable[GameResult], int], Iterator[GameResult]]


def _no_progress(results: Iterable[GameResult], total: int) -> Iterator[GameResult]:
    yield from results


def _play(job: tuple[Tournament, int]) -> GameResult:
    tournament, index = job
    return play_game(tournament, index)


def run_local(
    tournament: Tournament, workers: int = 1, progress: Progress = _no_progress
) -> list[GameResult]:
    """Play every game here (``workers`` = 1) or across ``workers`` processes."""
    jobs = [(tournament, i) for i in range(tournament.games)]
    if workers <= 1:
        results = list(progress((_play(job) for job in jobs), len(jobs)))
    else:
        # "spawn" keeps workers clean of the parent's threads (tqdm, Ray)
        # and behaves alike on every OS.
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            results = list(progress(pool.imap_unordered(_play, jobs), len(jobs)))
    return sorted(results, key=lambda r: r.index)


def run_ray(
    tournament: Tournament, address: str | None = None, progress: Progress = _no_progress
) -> list[GameResult]:
    """Play every game as a Ray task (on the cluster at ``address``, or a local one)."""
    try:
        import ray
    except ImportError:
        raise RuntimeError(
            "the ray backend needs Ray: pip install -e '.[distributed]' from a clone"
        ) from None
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(
            address=address, include_dashboard=False, log_to_driver=False, configure_logging=False
        )
    try:
        remote_play = ray.remote(play_game)
        pending = [remote_play.remote(tournament, i) for i in range(tournament.games)]

        def finished() -> Iterator[GameResult]:
            waiting = list(pending)
            while waiting:
                done, waiting = ray.wait(waiting, num_returns=1)
                yield ray.get(done[0])

        results = list(progress(finished(), len(pending)))
    finally:
        if started_here:
            ray.shutdown()
    return sorted(results, key=lambda r: r.index)
