"""``tendays map EDITION [--json]``: an edition's regions, colours, borders and tiles."""

from __future__ import annotations

import argparse
import json
import sys

from tendays.engine import EditionError, available_editions, load_edition


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("edition", help=f"one of: {', '.join(available_editions())}")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    try:
        edition = load_edition(args.edition)
    except EditionError as error:
        print(f"tendays map: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(edition.to_json(), ensure_ascii=False))
        return 0
    from rich.console import Console
    from rich.table import Table

    console = Console()
    regions = Table(title=f"{edition.name}: {len(edition.regions)} {edition.region_noun}s")
    for column in ("id", "name", "colour", "borders"):
        regions.add_column(column)
    for region in edition.regions:
        color = region.color or f"any ({edition.any_color_name})"
        regions.add_row(region.id, region.name, color, " ".join(sorted(region.neighbors)) or "—")
    console.print(regions)
    tiles = Table(title=f"Tiles: {edition.tile_count}")
    for column in ("id", "kind", "role", "colour", "count"):
        tiles.add_column(column)
    for tile in edition.tiles:
        if not tile.is_region or tile.count > 1:
            tiles.add_row(tile.id, tile.kind, tile.role.value, tile.color or "—", str(tile.count))
    regions_single = sum(1 for t in edition.tiles if t.is_region and t.count == 1)
    tiles.add_row("(each other region)", "region", "region", "its colour", f"1 × {regions_single}")
    console.print(tiles)
    console.print(f"[dim]{edition.credit}[/dim]")
    return 0
