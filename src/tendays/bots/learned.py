"""The learned bot: the greedy bot's yardstick of every move with learned multiples, beside a small
neural network trained by imitating the greedy bot and then by self-play on the batched engine,
played in numpy.

Each action's logit is its yardstick (:func:`tendays.bots.policy_inputs.greedy_yardstick`: by how
much the rack it leaves is closer to a journey, that rack's weighted outs, and how it treats the
piles) times learned multiples, plus ``net_scale`` times the network's logit
(:func:`policy_logits`). With greedy's multiples and the network not counted it plays greedy's
moves; the shipped multiples were tuned on tuning deals (``tools/tune_policy.py``).

The network reads the observation of the batched engine (``tendays.batch.observe``), encoded here
from the player's view alone (:func:`encode`, tested equal to the batched encoder), plus *journey
features* worked out from that observation: for every day and tile, how many of the journey's
conditions (day 1 a region, every neighbouring pair sound, by the edition's connection tables)
putting that tile on that day would gain or lose; and the rack's *journey distance* (the fewest days
to change for a complete journey, ignoring how often each tile exists) with, for every day and tile,
how much putting that tile there would shorten it (both in :mod:`tendays.bots.policy_inputs`). Each
action's logit is the network's output plus learned multiples of its own gain and of its own
shortening (a draft or a placement: the held tile's on that day; a take: the best of that pile's
top), so the policy starts near "bring the journey closer" and learns the rest.

The same functions serve training and play: they take the array module (``numpy`` here,
``jax.numpy`` in ``tools/clone_policy.py`` and ``tools/train_policy.py``), so the trained network is
exactly the one that plays. Playing needs numpy only. The shipped weights (``policy.npz``) were
trained for 2-player, 10-day games of the USA edition.
"""

from __future__ import annotations

import random
import zipfile
from collections.abc import Callable, Sequence
from functools import cache, partial
from importlib import resources
from typing import Any

import numpy as np

from tendays.engine import (
    ActionCodec,
    Edition,
    Move,
    MoveKind,
    Options,
    PlayerView,
    load_edition,
)
from tendays.engine.i18n import gettext as _

from .batched_view import batched_observation
from .distance import journey_distance
from .policy_inputs import (
    GREEDY_MULTIPLES,
    YARDSTICK,
    YARDSTICK_GROUPS,
    PolicySpec,
    features,
    greedy_yardstick,
    journey_distances,
)

__all__ = [
    "NETWORK_ONLY",
    "LearnedBot",
    "PolicySpec",
    "encode",
    "exact_distances",
    "features",
    "forward",
    "head",
    "init_params",
    "journey_distances",
    "load_policy",
    "policy_logits",
    "refusal",
    "save_policy",
]

POLICY_FILE = "policy.npz"
NETWORK_ONLY = (0.0,) * len(YARDSTICK)  # yardstick multiples that leave the choice to the network
# the kinds of move whose racks each of YARDSTICK_GROUPS analyses
_GROUP_KINDS = (
    {MoveKind.DRAFT, MoveKind.REPLACE, MoveKind.DISCARD},
    {MoveKind.TAKE},
    {MoveKind.SWAP},
)
_PARAMS = (
    "w1",
    "b1",
    "w2",
    "b2",
    "wp",
    "bp",
    "wv",
    "bv",
    "gain_scale",
    "distance_scale",
    "yardstick",
    "net_scale",
)


def encode(view: PlayerView, spec: PolicySpec) -> np.ndarray:
    """float32[observation_size]: the batched engine's observation of ``view.player``, from the
    view alone (:func:`tendays.bots.batched_view.batched_observation`, the one encoder)."""
    obs = batched_observation(view, "float32")
    if obs.size != spec.observation_size:
        raise ValueError(
            f"the view gives {obs.size} values, the network reads {spec.observation_size}"
        )
    return obs


def head(
    params: dict[str, Any], prepared: tuple[Any, Any, Any], mask: Any, xp: Any
) -> tuple[Any, Any]:
    """The network on :func:`features`' output: masked action logits (``[N, actions]``, a large
    negative number where illegal) and state values (``[N]``)."""
    inputs, action_gain, action_closer = prepared
    hidden = xp.tanh(inputs @ params["w1"] + params["b1"])
    hidden = xp.tanh(hidden @ params["w2"] + params["b2"])
    logits = (
        hidden @ params["wp"]
        + params["bp"]
        + params["gain_scale"] * action_gain
        + params["distance_scale"] * action_closer
    )
    value = (hidden @ params["wv"] + params["bv"])[:, 0]
    return xp.where(mask, logits, -1e9), value


def forward(
    spec: PolicySpec, params: dict[str, Any], obs: Any, mask: Any, xp: Any
) -> tuple[Any, Any]:
    """Masked action logits (``[N, actions]``, a large negative number where illegal) and state
    values (``[N]``) for observations ``obs`` and legal-action masks ``mask``,
    with the array module ``xp``."""
    return head(params, features(spec, obs, xp), mask, xp)


def policy_logits(
    spec: PolicySpec,
    params: dict[str, np.ndarray],
    obs: np.ndarray,
    mask: np.ndarray,
    groups: tuple[str, ...] = YARDSTICK_GROUPS,
    exact: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """The bot's action logits (float64 ``[N, actions]``, ``-inf`` where illegal): the greedy bot's
    yardstick of every action (:func:`greedy_yardstick`, of the actions of ``groups``) times the
    learned multiples ``yardstick``, plus ``net_scale`` times the network's logits
    (:func:`forward`). ``exact``: as :func:`greedy_yardstick`'s."""
    multiples = params["yardstick"].astype(np.float64)
    if multiples.any():
        judged = greedy_yardstick(spec, obs, np, groups, exact)
        yardstick = judged.astype(np.float64) @ multiples
    else:  # the network alone: no need to judge
        yardstick = np.zeros(mask.shape)
    scale = float(params["net_scale"][0])
    if scale:
        yardstick = yardstick + scale * forward(spec, params, obs, mask, np)[0]
    return np.where(mask, yardstick, -np.inf)


def exact_distances(edition: Edition, racks: np.ndarray, relaxed: np.ndarray) -> np.ndarray:
    """The exact journey distances of the racks ``racks`` (``int[N, M, days]``, the edition's number
    of tiles for an empty day) where they matter, the relaxed ``relaxed`` (``int[N, M]``) elsewhere:
    the first rack of each row (the player's own) and those its relaxed distance says are shorter
    (the exact distance, the greedy bot's, is never below the relaxed; it is cached by rack)."""
    empty = edition.tables.n

    def exact(rack: np.ndarray) -> int:
        return journey_distance(edition, [None if x == empty else int(x) for x in rack])

    judged = relaxed.copy()
    for row, own in zip(racks, judged, strict=True):
        own[0] = exact(row[0])
        for k in np.flatnonzero(own < own[0]):
            own[k] = exact(row[k])
    return judged


def init_params(
    spec: PolicySpec,
    hidden: int,
    seed: int,
    gain_scale: float = 2.0,
    distance_scale: float = 2.0,
    yardstick: Sequence[float] = GREEDY_MULTIPLES,
    net_scale: float = 0.0,
) -> dict[str, np.ndarray]:
    """New network weights (float32), drawn from ``seed``. The yardstick's multiples are greedy's
    own (:data:`GREEDY_MULTIPLES`) and the network does not count (``net_scale`` 0), so the bot
    chooses as the greedy bot; ``yardstick=NETWORK_ONLY, net_scale=1`` makes the network alone
    choose (what ``tools/clone_policy.py`` and ``tools/train_policy.py`` train)."""
    rng = np.random.default_rng(seed)

    def dense(fan_in: int, fan_out: int, scale: float) -> np.ndarray:
        weights: np.ndarray = rng.standard_normal((fan_in, fan_out)) * scale / np.sqrt(fan_in)
        return weights.astype(np.float32)

    return {
        "w1": dense(spec.input_size, hidden, 1.0),
        "b1": np.zeros(hidden, np.float32),
        "w2": dense(hidden, hidden, 1.0),
        "b2": np.zeros(hidden, np.float32),
        "wp": dense(hidden, spec.actions, 0.01),
        "bp": np.zeros(spec.actions, np.float32),
        "wv": dense(hidden, 1, 1.0),
        "bv": np.zeros(1, np.float32),
        "gain_scale": np.full(spec.actions, gain_scale, np.float32),
        "distance_scale": np.full(spec.actions, distance_scale, np.float32),
        "yardstick": np.array(yardstick, np.float32),
        "net_scale": np.array([net_scale], np.float32),
    }


def save_policy(path: Any, params: dict[str, Any], edition: str, options: Options) -> None:
    """Write weights (as float16, to stay small) and the game they were
    trained for to ``path`` (.npz)."""
    arrays: dict[str, Any] = {name: np.asarray(params[name], np.float16) for name in _PARAMS}
    np.savez_compressed(
        path,
        edition=np.array(edition),
        players=np.array(options.players),
        days=np.array(options.days),
        **arrays,
    )


def load_policy(path: str | None = None) -> tuple[dict[str, np.ndarray], str, int, int]:
    """Weights (float32), edition id, players and days from an .npz file (default: the shipped
    policy).

    A file written before the yardstick's multiples were added plays as it did: by its network
    alone. Raises ValueError, saying why, for a file that is not the learned bot's weights or whose
    network reads other inputs than this version of the bot gives it (weights trained before a
    change of its inputs).
    """
    source = resources.files("tendays.bots").joinpath(POLICY_FILE) if path is None else None
    name = path or POLICY_FILE
    try:
        with (
            source.open("rb") if source is not None else open(path, "rb") as file,  # type: ignore[arg-type]
            np.load(file) as data,
        ):
            # weights written before the yardstick was added: the network alone chooses
            earlier = {"yardstick": np.array(NETWORK_ONLY), "net_scale": np.ones(1)}
            params = {
                name: (data[name] if name in data or name not in earlier else earlier[name]).astype(
                    np.float32
                )
                for name in _PARAMS
            }
            edition, players, days = str(data["edition"]), int(data["players"]), int(data["days"])
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        raise ValueError(f"{name} is not a file of the learned bot's weights ({error})") from error
    try:
        spec = PolicySpec.of(load_edition(edition), Options(players=players, days=days))
    except (KeyError, ValueError) as error:
        raise ValueError(
            f"{name} was trained for a game this version cannot set up ({error})"
        ) from error
    if params["w1"].shape[0] != spec.input_size or params["wp"].shape[1] != spec.actions:
        raise ValueError(
            f"{name} has a network for {params['w1'].shape[0]} inputs and "
            f"{params['wp'].shape[1]} actions; this version of the learned bot gives "
            f"it "
            f"{spec.input_size} inputs and {spec.actions} actions (retrain it: docs/rl.md)"
        )
    return params, edition, players, days


@cache
def _shipped() -> tuple[dict[str, np.ndarray], str, int, int]:
    return load_policy()


def refusal(edition: str, options: Options) -> str | None:
    """Why the shipped policy cannot play a game of ``edition`` (an id) with
    ``options``, or None if it can."""
    trained_edition, days = _shipped()[1], _shipped()[3]
    if (edition, options.days) == (trained_edition, days):
        return None
    return _(
        "the learned bot plays only games of {days} days with the {trained} edition, not games of "
        "{asked_days} days with the {edition} edition"
    ).format(days=days, trained=trained_edition, asked_days=options.days, edition=edition)


class LearnedBot:
    """Plays the legal move of highest logit (:func:`policy_logits`; ties broken by the seeded
    RNG).

    It plays games of the edition and number of days it was trained for, with any number of players
    (it was trained in 2-player games, and reads only the next seat's rack); for any other game it
    says so.
    """

    name = "learned"

    def __init__(
        self,
        params: dict[str, np.ndarray] | None = None,
        edition: str = "usa",
        players: int = 2,
        days: int = 10,
    ) -> None:
        if params is None:
            params, edition, players, days = _shipped()
        self.params, self.edition, self.players, self.days = params, edition, players, days
        self._specs: dict[int, PolicySpec] = {}

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        options = view.options
        if (view.edition.id, options.days) != (self.edition, self.days):
            raise ValueError(
                f"the learned bot plays games of {self.days} days with the {self.edition} edition "
                f"only, not games of {options.days} days with the {view.edition.id} edition"
            )
        spec = self._specs.get(options.days)
        if spec is None:
            spec = self._specs[options.days] = PolicySpec.of(view.edition, options)
        codec = ActionCodec(options.days)
        mask = np.frombuffer(codec.mask(moves), np.int8).astype(bool)[None, :]
        kinds = {move.kind for move in moves}
        groups = tuple(
            group
            for group, needs in zip(YARDSTICK_GROUPS, _GROUP_KINDS, strict=True)
            if kinds & needs
        )
        obs = encode(view, spec)[None, :]
        exact = partial(exact_distances, view.edition)
        logits = policy_logits(spec, self.params, obs, mask, groups, exact)[0]
        best = np.flatnonzero(logits >= logits.max() - 1e-12 * max(1.0, abs(logits.max())))
        return codec.decode(int(best[0] if len(best) == 1 else rng.choice(list(best))))
