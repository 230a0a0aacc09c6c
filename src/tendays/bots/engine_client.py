"""Playing an external engine: a program that speaks the line-based engine protocol.

See ``docs/engine-protocol.md``. The program is started on its first move of a game and stopped with
``close()``. Anything wrong with it (it does not start, crashes, sends something that is not an
answer, or is too slow) raises :class:`EngineError` naming what happened; the caller decides what
that costs (in ``tendays simulate``, the game).
"""

from __future__ import annotations

import contextlib
import json
import queue
import random
import shlex
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any, AnyStr

from tendays.engine import InvalidMoveError, Move, PlayerView
from tendays.engine.plain_text import shown
from tendays.engine.wire import view_to_json

__all__ = [
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "EngineBot",
    "EngineError",
    "LongLine",
    "bounded_lines",
    "not_utf8_at",
]

#: The protocol this host and ``tendays engine`` speak. 2: views carry ``forced_pile``, legal moves
#: as objects with their notation in ``"text"``, absent days and piles of events as ``null`` (see
#: the docs).
PROTOCOL_VERSION = 2
START_TIMEOUT = 10.0  # seconds for the program to start and answer the greeting
MOVE_TIMEOUT = 5.0  # seconds for each answer during a game
# The longest line either end reads, in characters: a view on the wire is a few kilobytes, and a
# line that never ends must not fill the reader's memory.
MAX_LINE = 1 << 20


class EngineError(RuntimeError):
    """The external engine misbehaved; the message says how."""


@dataclass(frozen=True)
class LongLine:
    """In place of a line longer than :data:`MAX_LINE` characters, which was read in pieces and
    dropped: how long it was, without its line end."""

    length: int


def bounded_lines(stream: IO[AnyStr], most: int = MAX_LINE) -> Iterator[AnyStr | LongLine]:
    """Each line of ``stream`` (text or bytes, with its line end), never holding more than
    ``most`` characters or bytes of one: a longer line is skipped as it is read and yields a
    :class:`LongLine`."""
    while line := stream.readline(most + 1):
        if len(line) <= most or _ends_a_line(line):
            yield line
            continue
        length = len(line)
        while piece := stream.readline(most + 1):
            length += len(piece)
            if _ends_a_line(piece):
                length -= len(piece) - len(piece.rstrip(_LINE_ENDS[type(piece)]))
                break
        yield LongLine(length)


_LINE_ENDS: dict[type, Any] = {str: "\r\n", bytes: b"\r\n"}


def not_utf8_at(line: str) -> int | None:
    """The number (from 1) of the first byte of ``line`` that is not UTF-8, or None. Both ends read
    with ``errors="surrogateescape"``, which keeps each such byte as a lone surrogate, so a line
    that is not UTF-8 is named as such rather than taken for another problem."""
    for index, char in enumerate(line):
        if "\udc80" <= char <= "\udcff":
            return len(line[:index].encode("utf-8", "surrogateescape")) + 1
    return None


def _ends_a_line(piece: str | bytes) -> bool:
    return piece.endswith(_LINE_ENDS[type(piece)][1:])


def _read_lines(stream: IO[str], lines: queue.Queue[str | LongLine | None]) -> None:
    try:
        for line in bounded_lines(stream):
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)  # end of output: the program closed it or exited


class EngineBot:
    """A bot whose moves come from an external program over stdin/stdout."""

    def __init__(
        self, command: str, start_timeout: float | None = None, move_timeout: float | None = None
    ) -> None:
        if not command:
            raise ValueError("cmd: needs a command line, e.g. cmd:tendays engine --bot greedy")
        self.command = command
        self.argv = shlex.split(command)
        self.name = f"cmd:{command}"
        self.engine_name = ""
        self.start_timeout = START_TIMEOUT if start_timeout is None else start_timeout
        self.move_timeout = MOVE_TIMEOUT if move_timeout is None else move_timeout
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | LongLine | None] = queue.Queue()
        self._game: tuple[str, int | None, object] | None = None
        self._hung = False  # it missed a deadline: no point waiting for it to say goodbye

    # -- the conversation ------------------------------------------------------------------

    def _start(self) -> None:
        try:
            self._process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                errors="surrogateescape",  # bytes that are not UTF-8 are named (not_utf8_at)
                bufsize=1,
            )
        except OSError as error:
            raise EngineError(
                f"the engine '{self.command}' could not be started: {error}"
            ) from None
        assert self._process.stdout is not None
        threading.Thread(
            target=_read_lines, args=(self._process.stdout, self._lines), daemon=True
        ).start()
        self._send(f"tendays {PROTOCOL_VERSION}")
        answer = self._answer(self.start_timeout, f"the greeting 'tendays {PROTOCOL_VERSION}'")
        word, _, rest = answer.partition(" ")
        if word != "ready":
            raise EngineError(
                f"the engine answered the greeting with {answer[:80]!r} instead of 'ready NAME'"
            )
        self.engine_name = shown(rest.strip())

    def _send(self, line: str) -> None:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(line + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError(f"the engine has stopped{self._exit_note()}") from None

    def _exit_note(self) -> str:
        process = self._process
        if process is None:
            return ""
        try:
            code = process.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return ""
        return f" (exit status {code})"

    def _answer(self, timeout: float, what: str) -> str:
        """The next line that is not a comment ('info ...' or '#
        ...'), within ``timeout`` seconds."""
        while True:
            try:
                line = self._lines.get(timeout=timeout)
            except queue.Empty:
                self._hung = True
                raise EngineError(
                    f"the engine took longer than {timeout:g} s to answer {what}"
                ) from None
            if line is None:
                raise EngineError(f"the engine stopped without answering {what}{self._exit_note()}")
            if isinstance(line, LongLine):
                raise EngineError(
                    f"the engine sent a line of {line.length} characters answering {what}; "
                    f"a line has at most {MAX_LINE}"
                )
            bad_byte = not_utf8_at(line)
            if bad_byte is not None:
                raise EngineError(
                    f"the engine answered {what} with bytes that are not UTF-8 text "
                    f"(byte {bad_byte} of its line)"
                )
            text = line.strip()
            if not text or text.startswith("#") or text == "info" or text.startswith("info "):
                continue
            return text

    def _expect_ok(self, what: str) -> None:
        answer = self._answer(self.move_timeout, what)
        if answer != "ok":
            raise EngineError(f"the engine answered {what} with {answer[:80]!r} instead of 'ok'")

    # -- the bot protocol ------------------------------------------------------------------

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        if self._process is None:
            self._start()
        game = (view.edition.id, view.player, view.options)
        if self._game != game:
            setup = {
                "edition": view.edition.id,
                "options": view.options.to_json(),
                "player": view.player,
                "move_timeout": self.move_timeout,
            }
            self._send("newgame " + json.dumps(setup, separators=(",", ":")))
            self._expect_ok("'newgame'")
            self._game = game
        self._send("go " + json.dumps(view_to_json(view), separators=(",", ":")))
        answer = self._answer(self.move_timeout, f"'go' (turn {view.turn + 1})")
        word, _, rest = answer.partition(" ")
        if word != "move":
            raise EngineError(
                f"the engine answered 'go' with {answer[:80]!r} instead of 'move MOVE'"
            )
        try:
            return Move.from_text(rest)
        except InvalidMoveError as error:
            raise EngineError(
                f"the engine sent a move that is not in the notation: {error}"
            ) from None

    def close(self) -> None:
        """Say goodbye and make sure the program has stopped."""
        process = self._process
        if process is None:
            return
        self._process = None
        if self._hung:
            process.kill()
        try:
            if process.stdin is not None:
                process.stdin.write("quit\n")
                process.stdin.flush()
                process.stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass
        try:
            process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()

    def __del__(self) -> None:
        # at interpreter shutdown there may be nothing left to clean up with
        with contextlib.suppress(Exception):
            self.close()
