"""Choose the deal of each edition's guided first game and write its lesson
(src/tendays/learn/lessons/).

The newcomer's seat is played by the greedy bot, the others by a gentle bot, on one seeded deal
after another; a deal qualifies when the newcomer wins and every topic of the lesson occurs on the
way (the draft, each kind of link in the winning journey, drawing, taking, replacing, discarding,
emptying a discard pile, a reshuffle). Of those, the one with the fewest decisions for the newcomer
is written.

Four seats, so that the draw pile runs out (and is reshuffled) within a few rounds: with two, a rack
of ten days leaves over forty tiles to draw.

    python tools/make_lessons.py              # both editions, seeds 0-1999
    python tools/make_lessons.py usa --seeds 500
    python tools/make_lessons.py usa --seed 154   # write the lesson of one deal again
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tendays.bots import make_bot
from tendays.engine import Game, Options, available_editions, play_bots
from tendays.learn.script import Lesson, Topic, find_moments

OUT = Path(__file__).resolve().parent.parent / "src" / "tendays" / "learn" / "lessons"
SEAT = 0
OPTIONS = Options(players=4, days=10, first_seat=SEAT)
PLAYER = "greedy"  # the moves the lesson asks of the newcomer
GENTLE = "beginner"  # the other seats


def play(edition: str, seed: int) -> Lesson | None:
    """The lesson of one deal, or None when the newcomer does not win or a topic never occurs."""
    game = Game(edition, OPTIONS, seed)
    players = [
        make_bot(PLAYER) if seat == SEAT else make_bot(GENTLE) for seat in range(OPTIONS.players)
    ]
    play_bots(game, players)
    if game.state.winner != SEAT:
        return None
    notes = find_moments(game.record, SEAT)
    if {t for topics in notes.values() for t in topics} != set(Topic):
        return None
    return Lesson(game.record, SEAT, GENTLE, notes)


def decisions(lesson: Lesson) -> int:
    """How many moves the newcomer makes."""
    state = lesson.record.replay(0)
    count = 0
    for move in lesson.moves:
        count += state.current == lesson.seat
        state = state.apply(move)
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("editions", nargs="*", default=available_editions())
    parser.add_argument(
        "--seeds", type=int, default=2000, help="how many deals to try (seeds 0 to N-1)"
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="write the lesson of this deal (one edition)"
    )
    args = parser.parse_args()
    for edition in args.editions:
        best: tuple[int, int, Lesson] | None = None
        for seed in range(args.seeds) if args.seed is None else (args.seed,):
            lesson = play(edition, seed)
            if lesson is not None and (best is None or decisions(lesson) < best[0]):
                best = (decisions(lesson), seed, lesson)
        if best is None:
            raise SystemExit(
                f"{edition}: no deal among {args.seeds} teaches every topic; try more --seeds"
            )
        count, seed, lesson = best
        path = OUT / f"{edition}.json"
        path.write_text(lesson.dumps(), "utf-8")
        print(
            f"{edition}: seed {seed}, {count} decisions for the newcomer, {len(lesson.moves)} "
            f"moves -> {path}"
        )


if __name__ == "__main__":
    main()
