"""A flood of wrong sign-ins against a real server, and how long the owner's sign-in from a known
device takes meanwhile.

    python benchmarks/sign_in_flood.py                # 100 strangers, 5 rounds of each flood
    python benchmarks/sign_in_flood.py --json         # one JSON object
    python benchmarks/sign_in_flood.py --strangers 300 --rounds 10

Starts ``tendays serve`` on a fresh SQLite database, trusting 127.0.0.1 as its proxy so that each
stranger can come from an address of its own (``X-Forwarded-For``; the connections all come from
127.0.0.1, so the limit of connections a client holds open is lifted). The owner signs up (which
makes the browser a known device) and signs in alone a few times: the baseline. Then, each round,
the ``--strangers`` send one wrong sign-in each, all at once, from as many addresses, and ``--lag``
seconds later the owner signs in from the known device; the owner's latency is from sending the
request to having the whole answer. Two floods:

- *one name*: every stranger guesses the owner's name (the lockout attack: the name's limit of 5 is
  used up in the first round, and the owner must still get in);
- *many names*: each stranger guesses a name of its own (no limit stops them; the hashing queue
  does, answering the excess 429 at once).

For each flood it prints the owner's median and slowest latency and how the strangers were
answered (401: a password tried; 429 limited: over a sign-in limit; 429 busy: no place in the
hashing queue). Every sign-in of the owner must succeed, or the script says so and exits with
status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

PASSWORD = "violet kestrel under eleven lanterns"
WRONG = "not the password at all"
OWNER = "Owner"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(folder: Path) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [
        sys.executable,
        "-m",
        "tendays",
        "serve",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{folder / 'tendays.db'}",
        "--log-level",
        "warning",
        "--trusted-proxies",
        "127.0.0.1",
        "--open-connections",
        "10000",
    ]
    log = (folder / "server.log").open("w")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, text=True, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                return process, base
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"the server did not start: {(folder / 'server.log').read_text()}")


def kind(answer: httpx.Response) -> str:
    """How a stranger was answered."""
    if answer.status_code != 429:
        return str(answer.status_code)
    return "429 busy" if "busy" in answer.json()["detail"] else "429 limited"


async def owner_sign_in(owner: httpx.AsyncClient) -> float:
    """The owner's sign-in from the known device: seconds to the whole answer."""
    started = time.perf_counter()
    answer = await owner.post(
        "/api/session",
        json={"name": OWNER, "password": PASSWORD},
        headers={"X-Forwarded-For": "192.0.2.1"},
    )
    seconds = time.perf_counter() - started
    if answer.status_code != 200:
        raise SystemExit(f"the owner could not sign in: {answer.status_code} {answer.text}")
    return seconds


async def flood_round(
    owner: httpx.AsyncClient,
    strangers: httpx.AsyncClient,
    count: int,
    names: list[str],
    lag: float,
    round_number: int,
) -> tuple[float, Counter[str]]:
    async def guess(number: int) -> str:
        address = f"10.{round_number}.{number // 250}.{number % 250 + 1}"
        try:
            answer = await strangers.post(
                "/api/session",
                json={"name": names[number], "password": WRONG},
                headers={"X-Forwarded-For": address},
            )
        # counted, not fatal: the owner's answer is what is measured
        except httpx.HTTPError as error:
            return f"error {type(error).__name__}"
        return kind(answer)

    async def late_owner() -> float:
        await asyncio.sleep(lag)
        return await owner_sign_in(owner)

    flood = asyncio.gather(*(guess(n) for n in range(count)))
    answers, seconds = await asyncio.gather(flood, late_owner())
    return seconds, Counter(answers)


FLOODS = ("one name", "many names")


async def measure(
    base: str, count: int, rounds: int, lag: float, floods: list[str]
) -> dict[str, Any]:
    # idle connections are dropped well before the server's keep-alive of 5 s ends them: a request
    # sent on a connection the server is closing would fail for reasons of its own
    connections = httpx.Limits(
        max_connections=count + 10, max_keepalive_connections=count + 10, keepalive_expiry=2.0
    )
    async with (
        httpx.AsyncClient(
            base_url=base, timeout=120, limits=httpx.Limits(keepalive_expiry=2.0)
        ) as owner,
        httpx.AsyncClient(base_url=base, timeout=120, limits=connections) as strangers,
    ):
        made = await owner.post(
            "/api/accounts",
            json={"name": OWNER, "password": PASSWORD},
            headers={"X-Forwarded-For": "192.0.2.1"},
        )
        if made.status_code != 201:
            raise SystemExit(f"the owner could not sign up: {made.status_code} {made.text}")
        alone = [await owner_sign_in(owner) for _ in range(rounds)]
        results: dict[str, Any] = {"alone": summary(alone)}
        for flood in floods:
            latencies, answers = [], Counter[str]()
            for round_number in range(rounds):
                names = (
                    [OWNER] * count
                    if flood == "one name"
                    else [f"stranger {round_number}-{n}" for n in range(count)]
                )
                seconds, answered = await flood_round(
                    owner,
                    strangers,
                    count,
                    names,
                    lag,
                    round_number + (rounds if flood != "one name" else 0),
                )
                latencies.append(seconds)
                answers.update(answered)
            results[flood] = {**summary(latencies), "strangers": dict(sorted(answers.items()))}
    return results


def summary(seconds: list[float]) -> dict[str, Any]:
    return {
        "owner_median_s": round(statistics.median(seconds), 3),
        "owner_max_s": round(max(seconds), 3),
        "owner_s": [round(s, 3) for s in seconds],
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--strangers", type=int, default=100, help="wrong sign-ins sent at once (100)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="floods of each kind (5)")
    parser.add_argument(
        "--lag",
        type=float,
        default=0.02,
        help="seconds between sending the flood and the owner's sign-in (0.02)",
    )
    parser.add_argument(
        "--floods",
        nargs="+",
        choices=[flood.replace(" ", "-") for flood in FLOODS],
        default=[flood.replace(" ", "-") for flood in FLOODS],
        help="which floods to send (both)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        process, base = start_server(Path(folder))
        try:
            floods = [flood.replace("-", " ") for flood in args.floods]
            results = asyncio.run(measure(base, args.strangers, args.rounds, args.lag, floods))
        finally:
            process.terminate()
            process.wait(30)
    results = {
        "strangers": args.strangers,
        "rounds": args.rounds,
        "lag_s": args.lag,
        "cpus": os.cpu_count(),
        **results,
    }
    if args.json:
        print(json.dumps(results))
        return 0
    print(
        f"{args.strangers} wrong sign-ins at once from {args.strangers} addresses, {args.rounds} "
        f"rounds; the owner signs in from a known device {args.lag:g} s after each flood is sent"
    )
    alone = results["alone"]
    print(
        f"  alone:       owner {alone['owner_median_s']:.3f} s median, "
        f"{alone['owner_max_s']:.3f} s max"
    )
    for flood in floods:
        row = results[flood]
        answered = ", ".join(f"{what}: {n}" for what, n in row["strangers"].items())
        print(
            f"  {flood + ':':12} owner {row['owner_median_s']:.3f} s median, "
            f"{row['owner_max_s']:.3f} s max; strangers {answered}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
