"""Screen learned-bot weights against the greedy bot on the tuning deals, to choose among them.

    python tools/screen_policy.py clone.npz snapshots/*.npz --games 400
        # seed 77: the tuning deals

Each file plays ``--games`` games against greedy on the deals and seatings of ``tendays simulate
--players learned,greedy --seed SEED`` (the simulator's own), with the weights as shipped (float16),
and gets a row: wins, the share and its Wilson 95% interval. Choose on these deals only; measure the
chosen weights once, afterwards, on deals never used while choosing (docs/rl.md).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from pathlib import Path

from tendays.bots.learned import load_policy
from tendays.sim.stats import wilson

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the trainer beside this script
from train_policy import wins_on_tuning_deals  # noqa: E402


def _wins(job: tuple[str, int, int, int, int]) -> int:
    """Wins of the weights in ``path`` in games ``first`` .. ``first +
    count - 1`` of the tuning deals."""
    path, days, first, count, seed = job
    params = load_policy(path)[0]
    return wins_on_tuning_deals(params, days, count, seed, first=first)


def screen(path: Path, games: int, seed: int, workers: int) -> int:
    """Wins of ``path``'s weights in ``games`` games against greedy, split
    between ``workers`` processes."""
    days = load_policy(str(path))[3]
    share = -(-games // workers)
    jobs = [
        (str(path), days, first, min(share, games - first), seed)
        for first in range(0, games, share)
    ]
    if workers <= 1:
        return sum(map(_wins, jobs))
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        return sum(pool.map(_wins, jobs))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("weights", type=Path, nargs="+", help="weights files (.npz) to screen")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument(
        "--seed", type=int, default=77, help="the simulator seed whose deals are screened on"
    )
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    for path in args.weights:
        if not path.is_file():
            parser.error(f"no such weights file: {path}")
        try:
            load_policy(str(path))
        except ValueError as error:
            parser.error(str(error))
    for path in args.weights:
        wins = screen(path, args.games, args.seed, args.workers)
        low, high = wilson(wins, args.games)
        print(
            f"{path}: {wins}/{args.games} = {100 * wins / args.games:.1f}% [{100 * low:.0f}%, "
            f"{100 * high:.0f}%] against greedy (simulate seed {args.seed})",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
