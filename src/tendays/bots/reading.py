"""What the public history says about each player's progress and about the tiles they turned down.

Bots that think about the other players read the same facts off the table: how many tiles a player
has put into their rack since the draft and how many they took from a pile, how long their rack has
stayed as it is, which pile tops they passed over (and how often), and what they threw away. Passing
over a top with the rack as it is now matters most: a player who plays their best would have taken a
tile that brought them closer. This module follows the discard piles through the history once to
find them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from tendays.engine import PILES, EventKind, PlayerView

__all__ = ["TableFacts", "table_facts"]


@dataclass(frozen=True, slots=True)
class TableFacts:
    """Per player, what the public history shows of their progress and
    of the tiles they turned down."""

    replaced: tuple[int, ...]  # tiles put into the rack after the draft
    taken: tuple[int, ...]  # tiles taken from a pile
    turns: tuple[int, ...]  # turns played after the draft
    since_change: tuple[int, ...]  # own turns since the rack last changed
    # pile tops passed over, or drawn and thrown away, with the rack as now
    passed_now: tuple[frozenset[int], ...]
    passed: tuple[tuple[int, ...], ...]  # per tile: times passed over on a pile top
    discarded: tuple[tuple[int, ...], ...]  # per tile: times thrown away


def table_facts(view: PlayerView) -> TableFacts:
    """Follow the piles through the public history: each player's
    progress and what they turned down."""
    players, tiles = view.options.players, len(view.edition.tiles)
    replaced = [0] * players
    taken = [0] * players
    turns = [0] * players
    since = [0] * players
    passed_now: list[set[int]] = [set() for _ in range(players)]
    # tops at the start of the player's turn
    on_offer: list[set[int]] = [set() for _ in range(players)]
    passed = [[0] * tiles for _ in range(players)]
    discarded = [[0] * tiles for _ in range(players)]
    piles: list[list[int]] = [[] for _ in range(PILES)]
    for event in view.events:
        kind, p = event.kind, event.player
        if kind is EventKind.REVEAL and event.tile is not None:
            piles[event.pile - 1].append(event.tile)
        elif kind in (EventKind.DRAW, EventKind.TAKE) and p is not None:
            tops = {pile[-1] for pile in piles if pile}
            if kind is EventKind.TAKE:
                piles[event.pile - 1].pop()
                taken[p] += 1
                tops.discard(event.tile if event.tile is not None else -1)
            for t in tops:
                passed[p][t] += 1
            on_offer[p] = tops
            turns[p] += 1
        elif kind in (EventKind.REPLACE, EventKind.DISCARD) and event.tile is not None:
            piles[event.pile - 1].append(event.tile)
            if p is not None:
                discarded[p][event.tile] += 1
                if kind is EventKind.REPLACE:
                    replaced[p] += 1
                    since[p] = 0
                    passed_now[p] = set()
                # the rack stayed as it was: neither the tops nor the drawn tile brought it closer
                else:
                    since[p] += 1
                    passed_now[p] |= on_offer[p] | {event.tile}
        elif kind is EventKind.SWAP and p is not None:
            since[p] = 0
            passed_now[p] = set()
        elif kind is EventKind.RESHUFFLE:
            piles = [pile[-1:] for pile in piles]
    return TableFacts(
        tuple(replaced),
        tuple(taken),
        tuple(turns),
        tuple(since),
        tuple(frozenset(s) for s in passed_now),
        tuple(map(tuple, passed)),
        tuple(map(tuple, discarded)),
    )
