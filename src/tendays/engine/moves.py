"""Moves: small values with one text notation, used by the CLI, logs, records and the wire.

Notation (days and piles count from 1)::

    draft 4        put the drafted tile on day 4 (setup)
    draw           take the top tile of the draw pile
    take 2         take the top tile of discard pile 2
    swap 3 7       swap the tiles of days 3 and 7 (swap variant, instead of drawing)
    replace 5 1    put the drawn tile on day 5, discarding the replaced tile onto pile 1
    discard 3      discard the drawn tile onto pile 3
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .i18n import gettext as _

__all__ = ["InvalidMoveError", "Move", "MoveKind"]

_NUMBER = re.compile(r"[0-9]{1,2}")
# moves already read, by their text (Move.from_text)
_PARSED: dict[str, Move] = {}


class InvalidMoveError(ValueError):
    """Text that is not a move in the notation at all (as opposed to an illegal move)."""


class MoveKind(StrEnum):
    DRAFT = "draft"
    DRAW = "draw"
    TAKE = "take"
    SWAP = "swap"
    REPLACE = "replace"
    DISCARD = "discard"


_ARITY = {
    MoveKind.DRAFT: 1,
    MoveKind.DRAW: 0,
    MoveKind.TAKE: 1,
    MoveKind.SWAP: 2,
    MoveKind.REPLACE: 2,
    MoveKind.DISCARD: 1,
}


@dataclass(frozen=True, slots=True)
class Move:
    """One decision. ``a`` and ``b`` are 1-based days or piles, as the kind says."""

    kind: MoveKind
    a: int = 0
    b: int = 0

    @classmethod
    def draft(cls, day: int) -> Move:
        return cls(MoveKind.DRAFT, day)

    @classmethod
    def draw(cls) -> Move:
        return cls(MoveKind.DRAW)

    @classmethod
    def take(cls, pile: int) -> Move:
        return cls(MoveKind.TAKE, pile)

    @classmethod
    def swap(cls, day: int, other_day: int) -> Move:
        return cls(MoveKind.SWAP, day, other_day)

    @classmethod
    def replace(cls, day: int, pile: int) -> Move:
        return cls(MoveKind.REPLACE, day, pile)

    @classmethod
    def discard(cls, pile: int) -> Move:
        return cls(MoveKind.DISCARD, pile)

    @property
    def day(self) -> int:
        """The day a draft, swap or replace acts on."""
        return self.a

    @property
    def pile(self) -> int:
        """The discard pile a take, replace or discard uses."""
        return self.b if self.kind is MoveKind.REPLACE else self.a

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse the notation; raises :class:`InvalidMoveError` with the expected form."""
        # a server reads a move of a few kinds and numbers at every turn: each text parsed once
        known = _PARSED.get(text) if cls is Move else None
        if known is not None:
            return known
        move = cls._parse(text)
        if cls is Move:
            if len(_PARSED) >= 4096:
                _PARSED.clear()
            _PARSED[text] = move
        return move

    @classmethod
    def _parse(cls, text: str) -> Move:
        parts = text.strip().lower().split()
        if not parts:
            raise InvalidMoveError(_("empty move"))
        try:
            kind = MoveKind(parts[0])
        except ValueError:
            kinds = ", ".join(k.value for k in MoveKind)
            raise InvalidMoveError(
                _("unknown move {word}; moves are: {kinds}").format(
                    word=repr(parts[0]), kinds=kinds
                )
            ) from None
        arity = _ARITY[kind]
        # days and piles are numbers of one or two ASCII digits ("²" and "٣" are digits to
        # Python, and a number of thousands of digits is one that Python refuses to read)
        if len(parts) != arity + 1 or not all(_NUMBER.fullmatch(p) for p in parts[1:]):
            shown = text.strip()
            shown = shown if len(shown) <= 40 else f"{shown[:40]}…"
            raise InvalidMoveError(
                _("{text}: expected {form}").format(text=repr(shown), form=cls._form(kind))
            )
        numbers = [int(p) for p in parts[1:]] + [0, 0]
        return cls(kind, numbers[0], numbers[1])

    @staticmethod
    def _form(kind: MoveKind) -> str:
        return {
            MoveKind.DRAFT: "'draft DAY'",
            MoveKind.DRAW: "'draw'",
            MoveKind.TAKE: "'take PILE'",
            MoveKind.SWAP: "'swap DAY DAY'",
            MoveKind.REPLACE: "'replace DAY PILE'",
            MoveKind.DISCARD: "'discard PILE'",
        }[kind]

    def to_json(self) -> dict[str, Any]:
        """The move as structured data, with its notation: ``{"kind": "replace", "day": 5, "pile":
        1, "text": "replace 5 1"}``. Days and piles appear only where the kind has them (a swap has
        ``day`` and ``day2``)."""
        data: dict[str, Any] = {"kind": self.kind.value}
        kind = self.kind
        if kind in (MoveKind.DRAFT, MoveKind.SWAP, MoveKind.REPLACE):
            data["day"] = self.a
        if kind is MoveKind.SWAP:
            data["day2"] = self.b
        if kind in (MoveKind.TAKE, MoveKind.REPLACE, MoveKind.DISCARD):
            data["pile"] = self.pile
        data["text"] = str(self)
        return data

    def __str__(self) -> str:
        # written for every move a server stores: no enum lookups (an enum's hash is Python's)
        kind = self.kind
        if kind is MoveKind.DRAW:
            return kind._value_
        if kind is MoveKind.SWAP or kind is MoveKind.REPLACE:
            return f"{kind._value_} {self.a} {self.b}"
        return f"{kind._value_} {self.a}"

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"
