"""`tendays bridge` in parts: which challenges it takes, the engine's view it makes of a table, its
waits between attempts, a log without the token, and the reasons it refuses to start."""

from __future__ import annotations

import io
import json
import random
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from bridge_site import TOKEN

from tendays.bridge import ClockChoice, Decline, Policy, RatedChoice, TableGame
from tendays.bridge.backoff import Backoff
from tendays.bridge.logs import close_log, open_log
from tendays.bridge.site import token_label
from tendays.bridge.table_game import LogGap
from tendays.cli.main import main
from tendays.engine import Game, Options, view
from tendays.engine.wire import VIEW_FIELDS, view_to_json
from tendays.server.matches.wire import SeatInfo, TableEncoder

ENGINE = str(Path(__file__).parent / "engines" / "first_move_engine.py")

LIVE = {"kind": "live", "per_move": 60.0, "bank": 300.0}
POST = {"kind": "correspondence", "per_move": 86400.0, "bank": None}


def challenge(**fields: Any) -> dict[str, Any]:
    return {
        "id": "c",
        "from": "Ann",
        "edition": "usa",
        "options": {},
        "clock": None,
        "rated": False,
        **fields,
    }


@pytest.mark.parametrize(
    ("policy", "offer", "playing", "verdict"),
    [
        (Policy(), challenge(), 0, None),
        (Policy(editions=frozenset({"usa"})), challenge(edition="germany"), 0, Decline.EDITION),
        (Policy(editions=frozenset({"usa", "germany"})), challenge(edition="germany"), 0, None),
        (Policy(clocks=ClockChoice.NONE), challenge(clock=LIVE), 0, Decline.CLOCK),
        (Policy(clocks=ClockChoice.LIVE), challenge(), 0, Decline.CLOCK),
        (Policy(clocks=ClockChoice.LIVE), challenge(clock=POST), 0, Decline.CLOCK),
        (Policy(clocks=ClockChoice.CORRESPONDENCE), challenge(clock=POST), 0, None),
        (Policy(clocks=ClockChoice.NONE), challenge(), 0, None),
        (Policy(rated=RatedChoice.YES), challenge(rated=False), 0, Decline.RATED),
        (Policy(rated=RatedChoice.NO), challenge(rated=True), 0, Decline.CASUAL),
        (Policy(rated=RatedChoice.NO), challenge(rated=False), 0, None),
        (Policy(games=2), challenge(), 1, None),
        (Policy(games=2), challenge(), 2, Decline.LATER),
        # the first rule broken decides: the edition before the number of games
        (Policy(editions=frozenset({"usa"})), challenge(edition="germany"), 5, Decline.EDITION),
    ],
)
def test_a_challenge_is_accepted_or_declined_with_the_fitting_reason(
    policy: Policy, offer: dict[str, Any], playing: int, verdict: Decline | None
) -> None:
    assert policy.verdict(offer, playing) == verdict


def test_the_decline_reasons_are_the_sites() -> None:
    from tendays.server.people.challenge_types import DeclineReason

    assert {r.value for r in Decline} == {r.value for r in DeclineReason}


SEATS = [SeatInfo(0, "human", "Robo", None, True), SeatInfo(1, "human", "Ann", None, True)]
EXTRA = {
    "clock": None,
    "ended": None,
    "rematch": None,
    "end_votes": [],
    "can_end": False,
    "rated": False,
    "rated_outcome": None,
}


def tables(seed: int, seat: int, players: int = 2) -> Iterator[tuple[dict[str, Any], Any]]:
    """Each table a game stream sends ``seat`` (gameFull first, then each change with the log
    from where it left off), with the engine's view of that moment; random moves."""
    options = Options(players=players, swap=seed % 2 == 0, turn_limit=40)  # ends within 100 moves
    game = Game("usa", options, seed, keep_states=False)
    encoder = TableEncoder("g1", game.state.edition)
    rng = random.Random(seed)
    seats = [SeatInfo(s, "human", f"P{s}", None, True) for s in range(players)]
    sent, version = 0, 0
    while True:
        seen = view(game.state, seat)
        status = "over" if seen.is_over else "playing"
        shared = encoder.shared(seen, version, status, seats)
        out = encoder.table(shared, seen, version, status, sent, 0, EXTRA)
        sent = out.log_end
        yield json.loads(out.text)["game"], seen
        if game.state.is_over:
            return
        mover = game.state.current
        game.play(rng.choice(view(game.state, mover).legal_moves()), mover)
        version += 1


@pytest.mark.parametrize(("seed", "seat", "players"), [(1, 0, 2), (2, 1, 2), (3, 2, 3), (4, 0, 4)])
def test_the_program_reads_exactly_the_view_the_engine_protocol_sends(
    seed: int, seat: int, players: int
) -> None:
    stream = tables(seed, seat, players)
    full, seen = next(stream)
    table = TableGame(full)
    positions = 0
    for game, seen in stream:
        table.update(game)
        made = table.engine_view()
        assert set(made) == set(VIEW_FIELDS)  # the protocol's fields, no more
        assert json.dumps(made) == json.dumps(view_to_json(seen))
        assert view_to_json(table.player_view()) == view_to_json(seen)
        positions += table.to_move
    assert table.over and positions > 10


def test_a_state_past_the_log_held_asks_for_the_stream_again() -> None:
    stream = tables(5, 0)
    table = TableGame(next(stream)[0])
    next(stream)
    with pytest.raises(LogGap):
        table.update(next(stream)[0])


def test_the_waits_double_from_half_a_second_to_ten_with_jitter() -> None:
    high = Backoff(jitter=lambda: 1.0)
    assert [high.next_wait() for _ in range(7)] == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    high.reset()
    assert high.next_wait() == 0.5
    low = Backoff(jitter=lambda: 0.0)
    assert [low.next_wait() for _ in range(3)] == [0.25, 0.5, 1.0]


def test_the_log_never_holds_the_token() -> None:
    assert token_label(TOKEN) == "token tdb_…9z8y"
    out = io.StringIO()
    log = open_log(TOKEN, None, stream=out)
    log.info("connecting to http://site.test with %s", TOKEN)
    log.info(f"an error quoting Bearer {TOKEN}")
    close_log(log)
    assert TOKEN not in out.getvalue()
    assert out.getvalue().count("token tdb_…9z8y") == 2


def bridge(*args: str) -> list[str]:
    return ["bridge", "--server", "http://127.0.0.1:9", "--token", TOKEN, *args]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (bridge(), "name the program to run after --"),
        (bridge("--editions", "mars", "--", sys.executable, ENGINE), "no edition mars"),
        (bridge("--games", "0", "--", sys.executable, ENGINE), "--games must be at least 1"),
        (
            ["bridge", "--server", "site.test", "--token", TOKEN, "--", sys.executable, ENGINE],
            "--server needs an address",
        ),
        (
            bridge("--", "/nonexistent/engine"),
            "the program /nonexistent/engine cannot play: the engine '/nonexistent/engine' could "
            "not be started",
        ),
        (
            # it stops before or after the first line reaches it: either is said
            bridge("--", sys.executable, "-c", "pass"),
            ("cannot play: the engine stopped without", "cannot play: the engine has stopped"),
        ),
        (
            bridge("--", sys.executable, ENGINE, "--illegal"),
            "cannot play: the engine answered the first move with 'swap 1 2', not a legal move",
        ),
    ],
)
def test_a_bridge_that_cannot_start_says_why_and_exits_2(
    argv: list[str], words: str | tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert any(said in err for said in ((words,) if isinstance(words, str) else words))
    assert TOKEN not in err


def test_no_token_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TENDAYS_BOT_TOKEN", raising=False)
    assert main(["bridge", "--server", "http://127.0.0.1:9", "--", sys.executable, ENGINE]) == 2
    assert (
        "give the bot account's API token with --token or TENDAYS_BOT_TOKEN"
        in capsys.readouterr().err
    )


class _Refuses(BaseHTTPRequestHandler):
    """A site that refuses every token, as the Bot API does: 401 in words."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        body = json.dumps({"detail": "this token is not known or was revoked"}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("WWW-Authenticate", "Bearer")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_a_refused_token_stops_the_bridge_with_the_sites_words_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Refuses)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    log_file = tmp_path / "bridge.log"
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        argv = [
            "bridge",
            "--server",
            url,
            "--token",
            TOKEN,
            "--log-file",
            str(log_file),
            "--",
            sys.executable,
            ENGINE,
        ]
        assert main(argv) == 2
    finally:
        server.shutdown()
        server.server_close()
    err = capsys.readouterr().err
    assert "the server refused the token (401: this token is not known or was revoked)" in err
    assert f"make a token with bot:play at {url}/account/tokens" in err
    logged = log_file.read_text()
    assert "token tdb_…9z8y" in logged and "first-move" in logged
    assert TOKEN not in err + logged


class _Owner(BaseHTTPRequestHandler):
    """A site whose ``GET /api/token`` says the token is a person's, or lacks ``bot:play``."""

    owner: dict[str, object] = {}

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        body = json.dumps(self.owner).encode()
        self.send_response(200 if self.path == "/api/token" else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.parametrize(
    ("owner", "words"),
    [
        (
            {"id": 1, "name": "Ann", "bot_account": False, "scopes": ["bot:play"]},
            "Ann is not a bot account: turn it into one first",
        ),
        (
            {"id": 1, "name": "Robo", "bot_account": True, "scopes": ["board:play"]},
            "this token lacks the scope bot:play",
        ),
    ],
)
def test_a_token_that_cannot_play_a_bot_stops_the_bridge_before_it_starts(
    owner: dict[str, object], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    handler = type("Owner", (_Owner,), {"owner": owner})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        argv = ["bridge", "--server", url, "--token", TOKEN, "--", sys.executable, ENGINE]
        assert main(argv) == 2
    finally:
        server.shutdown()
        server.server_close()
    err = capsys.readouterr().err
    assert words in err
    assert "tendays bridge: the server refused the token (403: " in err
    assert TOKEN not in err
