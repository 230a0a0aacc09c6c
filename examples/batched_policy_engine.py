"""A policy trained on the batched engine, played through the engine protocol
(docs/engine-protocol.md): against the built-in bots, or on a tendays site through `tendays bridge`.

    # ppo.py writes tendays-seed=0.ckpt
    python examples/pgx_ppo/ppo.py env_name=tendays days=5 save_model=true ...
    tendays simulate --days 5 --games 20 \\
        --players "cmd:python examples/batched_policy_engine.py --params tendays-seed=0.ckpt",greedy
    tendays bridge --server https://tendays.example --token TOKEN --games 1 \\
        -- python examples/batched_policy_engine.py --params tendays-seed=0.ckpt

The parameters are those `examples/pgx_ppo/ppo.py` saves (`save_model=true`: a pickle of its
haiku parameters; unpickling them needs JAX, and runs whatever the file holds, so load only your
own). Its network for a flat observation is run here in numpy: a dense layer of 64 with ReLU,
then the actor's two dense layers of 64 with tanh and its logits (the critic is not needed to
play). Each `go` view is turned into the observation the policy was trained on by
:func:`tendays.rl.batched_observation` (the vector env's and pgx env's row for that seat, in the
form given by `--form`; ppo.py trains on `float32`), the logits of illegal moves are masked, and
the most likely legal move is played.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

from tendays.bots.batched_view import FORMS, batched_observation
from tendays.engine import ActionCodec
from tendays.engine.wire import view_from_json

PROTOCOL = "tendays 2"
# ppo.py's ActorCritic layers in the order haiku names them: the torso, then the actor's three
LAYERS = ("linear", "linear_1", "linear_2", "linear_3")


class Policy:
    """The actor of ppo.py's network, in numpy."""

    def __init__(self, params: dict[str, Any]) -> None:
        layers = {name.rsplit("/", 1)[-1]: value for name, value in params.items()}
        missing = [name for name in LAYERS if name not in layers]
        if missing:
            raise ValueError(f"not ppo.py's parameters: no layer {', '.join(missing)}")
        self.weights = [
            (np.asarray(layers[name]["w"], np.float32), np.asarray(layers[name]["b"], np.float32))
            for name in LAYERS
        ]
        self.inputs = self.weights[0][0].shape[0]
        self.actions = self.weights[-1][0].shape[1]

    def logits(self, observation: np.ndarray) -> np.ndarray:
        (w0, b0), (w1, b1), (w2, b2), (w3, b3) = self.weights
        torso = np.maximum(observation.astype(np.float32) @ w0 + b0, 0.0)
        actor = np.tanh(torso @ w1 + b1)
        actor = np.tanh(actor @ w2 + b2)
        return actor @ w3 + b3  # type: ignore[no-any-return]


def load(path: Path) -> Policy:
    """The policy in ppo.py's checkpoint at ``path``."""
    with path.open("rb") as file:
        return Policy(pickle.load(file))


def choose(policy: Policy, view_json: dict[str, Any], form: str) -> str:
    """The text of the legal move the policy finds most likely in the view."""
    seen = view_from_json(view_json)
    observation = batched_observation(seen, form)
    if observation.size != policy.inputs:
        raise ValueError(
            f"the policy reads {policy.inputs} values and this game gives {observation.size}: "
            "train it on the same edition, days and form"
        )
    codec = ActionCodec(seen.options.days)
    if codec.size != policy.actions:
        raise ValueError(f"the policy has {policy.actions} actions, this game {codec.size}")
    logits = policy.logits(observation)
    best = max(seen.legal_moves(), key=lambda move: logits[codec.encode(move)])
    return str(best)


def serve(policy: Policy, form: str) -> None:
    """Answer the host's commands on standard input until ``quit`` or the end of input."""
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        try:
            if command == "tendays":
                answer = "ready batched-policy" if line.strip() == PROTOCOL else "error protocol 2"
            elif command == "newgame":
                json.loads(rest)
                answer = "ok"
            elif command == "go":
                answer = "move " + choose(policy, json.loads(rest), form)
            elif command == "quit":
                return
            else:
                answer = f"error unknown command {command!r}"
        except (ValueError, KeyError, TypeError) as error:
            answer = f"error {error}".replace("\n", " ")
        print(answer, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--params", type=Path, required=True, help="ppo.py's saved parameters")
    parser.add_argument("--form", choices=FORMS, default="float32", help="the observation form")
    args = parser.parse_args(argv)
    try:
        policy = load(args.params)
    except (OSError, pickle.UnpicklingError, ValueError, EOFError) as error:
        print(f"batched_policy_engine: cannot load {args.params}: {error}", file=sys.stderr)
        return 2
    serve(policy, args.form)
    return 0


if __name__ == "__main__":
    sys.exit(main())
