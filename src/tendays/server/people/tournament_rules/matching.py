"""Maximum weight matching over a large field, in groups: networkx's matching (Edmonds' blossom
algorithm) is exact but its time grows with the cube of the players (seconds for 500 at once), so
a large field is matched in groups of neighbours in the standings, and whoever a
group leaves unpaired is carried into the next group (as a Swiss "floater" drops to the next score
group). Within a group the matching has the most pairs possible and, among those, the most
weight."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

import networkx as nx

__all__ = ["match_in_groups"]

Node = TypeVar("Node", bound=Hashable)


def match_in_groups(
    order: Sequence[Node],
    weight: Callable[[Node, Node], int | None],
    group_size: int,
    last_extra: Sequence[Node] = (),
) -> tuple[list[tuple[Node, Node]], list[Node]]:
    """Pairs of ``order`` (best first) and the ones left unpaired, in order.

    ``weight(a, b)`` is a pair's weight (an integer, so the matching computes exactly), or None
    when the two may not meet. ``last_extra`` joins the last group only (the Swiss bye). Pairs come
    back in the order of their better-placed member."""
    position = {node: index for index, node in enumerate([*order, *last_extra])}
    pairs: list[tuple[Node, Node]] = []
    carried: list[Node] = []
    starts = range(0, max(len(order), 1), group_size)
    for number, start in enumerate(starts):
        group = [*carried, *order[start : start + group_size]]
        if number == len(starts) - 1:
            group.extend(last_extra)
        graph = nx.Graph()
        graph.add_nodes_from(group)
        for index, one in enumerate(group):
            for other in group[index + 1 :]:
                value = weight(one, other)
                if value is not None:
                    graph.add_edge(one, other, weight=value)
        matched = nx.max_weight_matching(graph, maxcardinality=True)
        paired: set[Node] = set()
        for one, other in matched:
            pairs.append((one, other) if position[one] < position[other] else (other, one))
            paired.update((one, other))
        carried = [node for node in group if node not in paired]
    pairs.sort(key=lambda pair: position[pair[0]])
    return pairs, carried
