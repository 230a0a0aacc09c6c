"""Give a trained network the greedy bot's yardstick and tune the multiples on the tuning deals.

    pip install -e ".[batch]"                                              # jax, numpy, optax
    python tools/tune_policy.py --network snapshots/00034.npz --out tuned.npz --games 400 \\
        --try net_scale=0.0001,0.01 --try draw=1,5 --candidates candidates
        # then tools/screen_policy.py on other tuning deals: see docs/rl.md

The learned bot's logits are the yardstick of every action
(:func:`tendays.bots.policy_inputs.greedy_yardstick`: how much it shortens the journey, the weighted
outs of the rack it leaves, ...) times learned multiples, plus ``net_scale`` times the network's
logits. The weights start with the network of ``--network`` (from ``tools/clone_policy.py`` and
``tools/train_policy.py``), the multiples that make the yardstick choose as the greedy bot does
(:data:`tendays.bots.policy_inputs.GREEDY_MULTIPLES`) and ``net_scale`` 0: that bot plays greedy's
moves. Then a coordinate search: each ``--try NAME=V1,V2`` in turn sets one multiple (a name of
:data:`tendays.bots.policy_inputs.YARDSTICK`, or ``net_scale``) to each value, the others as chosen
so far, and keeps a value only if it wins more of ``--games`` games against greedy on the deals and
seatings of ``tendays simulate --players learned,greedy --seed SEED`` than the best so far. Every
candidate gets a row (and, with ``--candidates DIR``, its weights file); the best are written to
``--out``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from tendays.bots.learned import load_policy, save_policy
from tendays.bots.policy_inputs import GREEDY_MULTIPLES, YARDSTICK
from tendays.engine import Options

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the screening tool beside this script
from screen_policy import screen  # noqa: E402

NAMES = (*YARDSTICK, "net_scale")


def with_multiple(params: dict[str, np.ndarray], name: str, value: float) -> dict[str, np.ndarray]:
    """``params`` with the multiple ``name`` (of :data:`NAMES`) set to ``value``."""
    changed = dict(params)
    if name == "net_scale":
        changed["net_scale"] = np.array([value], np.float32)
    else:
        yardstick = params["yardstick"].copy()
        yardstick[YARDSTICK.index(name)] = value
        changed["yardstick"] = yardstick
    return changed


def parse_try(text: str) -> tuple[str, list[float]]:
    """``NAME=V1,V2`` as (name, values); raises ValueError, saying why."""
    name, _, values = text.partition("=")
    if name not in NAMES:
        raise ValueError(f"--try {text}: the multiple is one of {', '.join(NAMES)}")
    try:
        numbers = [float(value) for value in values.split(",")]
    except ValueError:
        raise ValueError(f"--try {text}: the values are numbers, e.g. {name}=0.5,2") from None
    return name, numbers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--network", type=Path, required=True, help="weights (.npz) of a network")
    parser.add_argument("--out", type=Path, required=True, help="where to write the tuned weights")
    parser.add_argument(
        "--try",
        dest="tries",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="values to try for one multiple (repeat for several; tried in order)",
    )
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument(
        "--seed", type=int, default=1000, help="the simulator seed whose deals the search plays"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--candidates", type=Path, help="keep every candidate's weights here")
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    try:
        tries = [parse_try(text) for text in args.tries]
        network, edition, players, days = load_policy(str(args.network))
    except ValueError as error:
        parser.error(str(error))
    game_options = Options(players=players, days=days)
    folder = args.candidates or Path(tempfile.mkdtemp(prefix="tune_policy"))
    folder.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()

    def wins(params: dict[str, np.ndarray], label: str, index: int) -> int:
        path = folder / f"{index:03d}.npz"
        save_policy(path, params, edition, game_options)
        won = screen(path, args.games, args.seed, args.workers)
        minutes = (time.monotonic() - began) / 60
        print(
            f"{index:3d} {label:28s} {won:4d}/{args.games} = {100 * won / args.games:5.1f}%  "
            f"({minutes:.1f} min) {path}",
            flush=True,
        )
        return won

    best = with_multiple(network, "net_scale", 0.0)
    best["yardstick"] = np.array(GREEDY_MULTIPLES, np.float32)
    best_wins, index = wins(best, "greedy's multiples", 0), 0
    for name, values in tries:
        for value in values:
            index += 1
            candidate = with_multiple(best, name, value)
            won = wins(candidate, f"{name}={value:g}", index)
            if won > best_wins:
                best, best_wins = candidate, won
    save_policy(args.out, best, edition, game_options)
    chosen = ", ".join(f"{n}={v:g}" for n, v in zip(YARDSTICK, best["yardstick"], strict=True))
    scale = best["net_scale"][0]
    print(f"kept: {chosen}, net_scale={scale:g}: {best_wins}/{args.games} -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
