"""Build the packaged edition files from the verified map data in ``shared/maps``.

Run once when the map data changes:  python tools/build_editions.py [path/to/shared]
The output (``src/tendays/editions/*.json``) is committed; the package never reads ``shared``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLORS = ["blue", "green", "orange", "pink", "yellow"]


def build_usa(maps: Path) -> dict:
    data = json.loads((maps / "usa.json").read_text(encoding="utf-8"))
    regions = []
    for state in sorted(data["states"], key=lambda s: s["code"]):
        color = state["suggested_color_NOT_FROM_GAME"]
        regions.append(
            {
                "id": state["code"],
                "name": state["name"],
                "color": None if color == "purple" else color,
                "neighbors": sorted(state["neighbors"]),
                "geo_id": state["fips"],
            }
        )
    contacts = [{"between": p, "kind": "corner"} for p in data["corner_only"]]
    contacts += [{"between": p, "kind": "water"} for p in data["water_only"]]
    return {
        "id": "usa",
        "name": "10 Days in the USA",
        "region_noun": "state",
        "any_color_name": "purple",
        "colors": COLORS,
        "regions": regions,
        "region_copies": {},
        "transports": [
            {"kind": "plane", "name": "airplane", "role": "link", "colors": COLORS, "count_per_color": 2},
            {"kind": "car", "name": "car", "role": "skip", "count": 6},
        ],
        "contacts": contacts,
        "tile_count": 66,
        "credit": "Borders: US Census Bureau cartographic boundaries (public domain) via us-atlas (ISC).",
    }


def build_germany(maps: Path) -> dict:
    data = json.loads((maps / "germany.json").read_text(encoding="utf-8"))
    short = {r["code"]: r["short"] for r in data["regions"]}
    regions = []
    for region in sorted(data["regions"], key=lambda r: r["short"]):
        color = region["suggested_color_NOT_FROM_GAME"]
        regions.append(
            {
                "id": region["short"],
                "name": region["name"],
                "color": color if color in COLORS else None,
                "neighbors": sorted(short[n] for n in region["neighbors"]),
                "geo_id": region["code"],
                "land": region["land"],
            }
        )
    return {
        "id": "germany",
        "name": "10 Tage durch Deutschland",
        "region_noun": "region",
        "any_color_name": "colourless",
        "colors": COLORS,
        "regions": regions,
        "region_copies": {"BE": 2},
        "transports": [
            {"kind": "train", "name": "train", "role": "link", "colors": COLORS, "count_per_color": 2},
            {"kind": "bus", "name": "bus", "role": "skip", "count": 5},
        ],
        "contacts": [],
        "tile_count": 54,
        "credit": "Borders: © GeoBasis-DE / BKG 2021 (Daten verändert), dl-de/by-2-0.",
    }


def main() -> None:
    shared = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared"
    out = ROOT / "src" / "tendays" / "editions"
    for build in (build_usa, build_germany):
        edition = build(shared / "maps")
        path = out / f"{edition['id']}.json"
        path.write_text(json.dumps(edition, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}: {len(edition['regions'])} regions")


if __name__ == "__main__":
    main()
