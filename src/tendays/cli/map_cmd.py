"""``tendays map EDITION [--json]``: an edition's regions, colours, borders and tiles."""

from __future__ import annotations

import argparse
import json

from tendays.engine import EditionError, available_editions, current_language, load_edition
from tendays.engine.i18n import gettext as _
from tendays.engine.i18n import ngettext, pgettext

from .command_error import CommandError
from .language import add_language_argument


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "edition", help=_("one of: {editions}").format(editions=", ".join(available_editions()))
    )
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    add_language_argument(parser, by_edition=True)


def run(args: argparse.Namespace) -> int:
    try:
        edition = load_edition(args.edition)
    except EditionError as error:
        raise CommandError(str(error)) from None
    if args.json:
        print(json.dumps(edition.to_json(), ensure_ascii=False))
        return 0
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    lang = current_language()
    words = edition.words(lang)
    console = Console()
    count = len(edition.regions)
    regions = Table(title=f"{edition.name}: {count} {words.region_nouns(count)}")
    for column in (_("id"), _("name"), _("colour"), _("borders")):
        regions.add_column(column)
    for index, region in enumerate(edition.regions):
        symbol = edition.symbols.get(region.color or "any", "")
        color = (
            words.color(region.color)
            if region.color
            else _("any ({colour})").format(colour=words.color(None))
        )
        regions.add_row(
            region.id,
            edition.tiles[index].name_in(lang),
            f"{symbol} {color}".strip(),
            " ".join(sorted(region.neighbors)) or "—",
        )
    console.print(regions)
    tiles = Table(
        title=ngettext("{count} tile", "{count} tiles", edition.tile_count).format(
            count=edition.tile_count
        )
    )
    for column in (_("id"), _("name"), _("role"), _("colour"), _("count")):
        tiles.add_column(column)
    # TRANSLATORS: what a tile does in a journey: a region, a link of one colour (airplane, train),
    # a skip (car, bus).
    roles = {
        "region": pgettext("role", "region"),
        "link": pgettext("role", "link"),
        "skip": pgettext("role", "skip"),
    }
    for tile in edition.tiles:
        if not tile.is_region or tile.count > 1:
            colour = (
                f"{edition.symbols.get(tile.color, '')} {words.color(tile.color)}".strip()
                if tile.color
                else "—"
            )
            tiles.add_row(
                tile.id, tile.name_in(lang), roles[tile.role.value], colour, str(tile.count)
            )
    regions_single = sum(1 for t in edition.tiles if t.is_region and t.count == 1)
    tiles.add_row(
        _("(each other {region})").format(region=words.region_noun),
        "",
        roles["region"],
        _("its colour"),
        f"1 × {regions_single}",
    )
    console.print(tiles)
    # TRANSLATORS: the last line of `tendays map`: where the edition's borders come from.
    console.print(Text(_("Borders: {source}").format(source=edition.credit), style="dim"))
    return 0
