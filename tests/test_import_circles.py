"""No module of the package imports itself through others (an import circle): each room builds on
the ones below it. The engine's edition, tables and words once imported one another."""

from __future__ import annotations

import pytest


def _circles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another, directly or through
    others (Tarjan's algorithm)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in imports.get(module, ()):
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group = []
            while (other := stack.pop()) != module:
                group.append(other)
            if group:
                found.append(sorted([module, *group]))

    for module in sorted(imports):
        if module not in order:
            visit(module)
    return found


def test_the_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_the_package_has_no_import_circle() -> None:
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("tendays", cache_dir=None)
    imports = {
        module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules
    }
    assert _circles(imports) == []
