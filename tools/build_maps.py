#!/usr/bin/env python3
"""Build the compact SVG map geometry shipped with the web client.

Reads the shared map data (TopoJSON for the USA, GeoJSON for Germany) and
writes one JSON file per edition to ``src/tendays/web/static/maps/``::

    {"edition": "usa", "viewBox": "0 0 W H", "credit": "...", "credit_url": "...",
     "regions": {"<tile id>": {"d": "<SVG path data>", "label": [x, y]}}}

Tile ids are the US postal codes and the German ``short`` codes.  Paths use
y pointing down, coordinates rounded to 0.1 units, relative ``l`` segments and
one ``M ... Z`` subpath per ring (outer rings and holes are wound in opposite
directions, so both the ``nonzero`` and ``evenodd`` fill rules work).

Borders are simplified topologically: every ring is cut at the points where
the set of regions sharing it changes, and each piece is simplified with
Douglas-Peucker on its own, so two neighbours get the same simplified border
and no gaps open between them.

Standard library only.  Usage::

    python tools/build_maps.py [SHARED_DIR]

``SHARED_DIR`` defaults to ``../shared`` relative to the repository root.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = REPO_ROOT / "src" / "tendays" / "web" / "static" / "maps"

US_CREDIT = "Map data: US Census Bureau (public domain), via us-atlas (ISC)"
US_CREDIT_URL = "https://github.com/topojson/us-atlas"
DE_CREDIT = "© GeoBasis-DE / BKG 2021 (Daten verändert)"
DE_CREDIT_URL = "https://www.bkg.bund.de"

TOLERANCE = 0.4  # Douglas-Peucker tolerance in output units
MIN_RING_AREA = 0.05  # rings smaller than this (square units) are dropped
MARGIN = 5.0

Point = tuple[float, float]
Ring = list[Point]  # open ring: the first point is not repeated at the end
Polygon = list[Ring]  # outer ring first, then holes
IntRing = list[tuple[int, int]]
Json = dict[str, Any]


# --------------------------------------------------------------------------
# Input decoding
# --------------------------------------------------------------------------


def decode_topojson_arcs(topo: Json) -> list[list[Point]]:
    """Decode delta-encoded quantized arcs into absolute coordinates."""
    transform = topo.get("transform")
    arcs = []
    for arc in topo["arcs"]:
        if transform:
            sx, sy = transform["scale"]
            tx, ty = transform["translate"]
            x = y = 0
            pts = []
            for dx, dy in arc:
                x += dx
                y += dy
                pts.append((x * sx + tx, y * sy + ty))
        else:
            pts = [(float(p[0]), float(p[1])) for p in arc]
        arcs.append(pts)
    return arcs


def topo_ring(arcs: list[list[Point]], indices: list[int]) -> Ring:
    ring: list[Point] = []
    for i in indices:
        arc = arcs[i] if i >= 0 else arcs[~i][::-1]
        ring.extend(arc[1:] if ring else arc)
    return open_ring(ring)


def topo_polygons(arcs: list[list[Point]], geom: Json) -> list[Polygon]:
    if geom["type"] == "Polygon":
        parts = [geom["arcs"]]
    elif geom["type"] == "MultiPolygon":
        parts = geom["arcs"]
    else:
        raise ValueError(f"unexpected geometry type {geom['type']}")
    return [[topo_ring(arcs, r) for r in part] for part in parts]


def geojson_polygons(geom: Json) -> list[Polygon]:
    if geom["type"] == "Polygon":
        parts = [geom["coordinates"]]
    elif geom["type"] == "MultiPolygon":
        parts = geom["coordinates"]
    else:
        raise ValueError(f"unexpected geometry type {geom['type']}")
    return [[open_ring([(float(p[0]), float(p[1])) for p in r]) for r in part] for part in parts]


def open_ring(ring: list[Point]) -> Ring:
    if len(ring) > 1 and ring[0] == ring[-1]:
        return ring[:-1]
    return ring


# --------------------------------------------------------------------------
# Geometry helpers
# --------------------------------------------------------------------------


def ring_area(ring: Sequence[tuple[float, float]]) -> float:
    """Signed shoelace area (positive = clockwise on screen with y down)."""
    s = 0.0
    n = len(ring)
    for i in range(n):
        x1, y1 = ring[i]
        x2, y2 = ring[(i + 1) % n]
        s += x1 * y2 - x2 * y1
    return s / 2


def polygon_area(poly: Polygon) -> float:
    return abs(ring_area(poly[0])) - sum(abs(ring_area(h)) for h in poly[1:])


def ring_centroid(ring: Ring) -> tuple[float, float, float]:
    """(signed area, cx, cy) of a ring."""
    a = cx = cy = 0.0
    n = len(ring)
    for i in range(n):
        x1, y1 = ring[i]
        x2, y2 = ring[(i + 1) % n]
        f = x1 * y2 - x2 * y1
        a += f
        cx += (x1 + x2) * f
        cy += (y1 + y2) * f
    a /= 2
    if a == 0:
        xs = [p[0] for p in ring]
        ys = [p[1] for p in ring]
        return 0.0, sum(xs) / len(xs), sum(ys) / len(ys)
    return a, cx / (6 * a), cy / (6 * a)


def polygon_centroid(poly: Polygon) -> Point:
    total = sx = sy = 0.0
    for k, ring in enumerate(poly):
        a, cx, cy = ring_centroid(ring)
        a = abs(a) if k == 0 else -abs(a)
        total += a
        sx += a * cx
        sy += a * cy
    if total == 0:
        return ring_centroid(poly[0])[1:]
    return sx / total, sy / total


def seg_dist2(px: float, py: float, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    if dx or dy:
        t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
        if t > 1:
            ax, ay = b
        elif t > 0:
            ax += dx * t
            ay += dy * t
    return (px - ax) ** 2 + (py - ay) ** 2


def signed_distance(x: float, y: float, poly: Polygon) -> float:
    """Distance to the polygon boundary, negative when (x, y) is outside."""
    inside = False
    best = math.inf
    for ring in poly:
        n = len(ring)
        j = n - 1
        for i in range(n):
            a, b = ring[i], ring[j]
            if (a[1] > y) != (b[1] > y) and x < (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1]) + a[0]:
                inside = not inside
            best = min(best, seg_dist2(x, y, a, b))
            j = i
    d = math.sqrt(best)
    return d if inside else -d


def pole_of_inaccessibility(poly: Polygon, precision: float = 0.2) -> tuple[Point, float]:
    """Polylabel: the interior point farthest from the boundary."""
    xs = [p[0] for p in poly[0]]
    ys = [p[1] for p in poly[0]]
    minx, miny, maxx, maxy = min(xs), min(ys), max(xs), max(ys)
    w, h = maxx - minx, maxy - miny
    size = min(w, h)
    if size == 0:
        return (minx, miny), 0.0
    half = size / 2
    heap: list[tuple[float, int, float, float, float, float]] = []
    counter = 0

    def push(cx: float, cy: float, hh: float) -> None:
        nonlocal counter
        d = signed_distance(cx, cy, poly)
        heapq.heappush(heap, (-(d + hh * math.sqrt(2)), counter, cx, cy, hh, d))
        counter += 1

    x = minx
    while x < maxx:
        y = miny
        while y < maxy:
            push(x + half, y + half, half)
            y += size
        x += size

    cx, cy = polygon_centroid(poly)
    best = (cx, cy, signed_distance(cx, cy, poly))
    bx, by = minx + w / 2, miny + h / 2
    d = signed_distance(bx, by, poly)
    if d > best[2]:
        best = (bx, by, d)

    while heap:
        _, _, x, y, hh, d = heapq.heappop(heap)
        if d > best[2]:
            best = (x, y, d)
        if d + hh * math.sqrt(2) - best[2] <= precision:
            continue
        hh /= 2
        push(x - hh, y - hh, hh)
        push(x + hh, y - hh, hh)
        push(x - hh, y + hh, hh)
        push(x + hh, y + hh, hh)
    return (best[0], best[1]), best[2]


def label_point(polygons: list[Polygon]) -> Point:
    """Centroid of the largest polygon; if it falls outside or hugs the
    border, the pole of inaccessibility of that polygon instead."""
    poly = max(polygons, key=polygon_area)
    cx, cy = polygon_centroid(poly)
    d_centroid = signed_distance(cx, cy, poly)
    (px, py), d_pole = pole_of_inaccessibility(poly)
    if d_centroid >= 0.5 * d_pole:
        return cx, cy
    return px, py


# --------------------------------------------------------------------------
# Topology-preserving simplification
# --------------------------------------------------------------------------


def douglas_peucker(pts: list[Point], tol: float) -> list[Point]:
    """Simplify an open chain, keeping both end points."""
    n = len(pts)
    if n < 3:
        return list(pts)
    keep = [False] * n
    keep[0] = keep[-1] = True
    tol2 = tol * tol
    stack = [(0, n - 1)]
    while stack:
        i, j = stack.pop()
        a, b = pts[i], pts[j]
        best, idx = -1.0, -1
        for k in range(i + 1, j):
            d = seg_dist2(pts[k][0], pts[k][1], a, b)
            if d > best:
                best, idx = d, k
        if idx >= 0 and best > tol2:
            keep[idx] = True
            stack.append((i, idx))
            stack.append((idx, j))
    return [p for p, k in zip(pts, keep, strict=True) if k]


def simplify_regions(regions: dict[str, list[Polygon]], tol: float) -> dict[str, list[Polygon]]:
    owners: dict[Point, set[str]] = defaultdict(set)
    for rid, polys in regions.items():
        for poly in polys:
            for ring in poly:
                for p in ring:
                    owners[p].add(rid)

    def simplify_ring(ring: Ring) -> Ring:
        n = len(ring)
        if n < 4:
            return ring
        own = [frozenset(owners[p]) for p in ring]
        fixed = [
            own[i] != own[i - 1] or own[i] != own[(i + 1) % n] or len(own[i]) > 2 for i in range(n)
        ]
        if any(fixed):
            start = fixed.index(True)
        else:
            # No junction (island, enclave): start at a canonical point so a
            # region and the hole it fills are simplified identically.
            start = min(range(n), key=lambda i: ring[i])
            fixed[start] = True
            # also pin the point farthest from the start so that the ring is
            # split into two chains with distinct end points
            far = max(
                range(n),
                key=lambda i: (
                    (ring[i][0] - ring[start][0]) ** 2 + (ring[i][1] - ring[start][1]) ** 2
                ),
            )
            fixed[far] = True
        order = list(range(start, n)) + list(range(0, start))
        out: Ring = []
        chain = [ring[order[0]]]
        for i in order[1:]:
            chain.append(ring[i])
            if fixed[i]:
                out.extend(douglas_peucker(chain, tol)[:-1])
                chain = [ring[i]]
        chain.append(ring[order[0]])
        out.extend(douglas_peucker(chain, tol)[:-1])
        return out

    return {
        rid: [[simplify_ring(r) for r in poly] for poly in polys] for rid, polys in regions.items()
    }


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------


def to_tenths(ring: Ring) -> IntRing:
    out: IntRing = []
    for x, y in ring:
        p = (round(x * 10), round(y * 10))
        if not out or out[-1] != p:
            out.append(p)
    while len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return out


def fmt(n: int) -> str:
    """Format a value given in tenths: 15 -> '1.5', -30 -> '-3', 0 -> '0'."""
    sign = "-" if n < 0 else ""
    q, r = divmod(abs(n), 10)
    return f"{sign}{q}.{r}" if r else f"{sign}{q}"


def join_numbers(nums: list[str]) -> str:
    out = []
    for k, s in enumerate(nums):
        if k and not s.startswith("-"):
            out.append(" ")
        out.append(s)
    return "".join(out)


def prepare_polygons(polys: list[Polygon]) -> list[list[IntRing]]:
    """Round to tenths, drop degenerate rings, fix winding."""
    result: list[list[IntRing]] = []
    for poly in polys:
        rings: list[IntRing] = []
        for k, ring in enumerate(poly):
            t = to_tenths(ring)
            if len(t) < 3:
                continue
            a = ring_area(t) / 100
            if abs(a) < MIN_RING_AREA:
                continue
            if k == 0 and not rings:
                if a < 0:
                    t.reverse()
            elif not rings:
                continue  # outer ring vanished: drop its holes too
            elif a > 0:
                t.reverse()
            rings.append(t)
        if rings:
            result.append(rings)
    return result


def path_data(polys: list[list[IntRing]]) -> str:
    parts = []
    for poly in polys:
        for ring in poly:
            x0, y0 = ring[0]
            nums = []
            px, py = x0, y0
            for x, y in ring[1:]:
                nums += [fmt(x - px), fmt(y - py)]
                px, py = x, y
            parts.append(f"M{fmt(x0)} {fmt(y0)}l{join_numbers(nums)}Z")
    return "".join(parts)


def build_edition(
    edition: str,
    regions: dict[str, list[Polygon]],
    width: float,
    height: float,
    credit: str,
    credit_url: str,
) -> Json:
    simplified = simplify_regions(regions, TOLERANCE)
    out_regions = {}
    for rid in sorted(simplified):
        polys = prepare_polygons(simplified[rid])
        if not polys:
            raise ValueError(f"{edition}: region {rid} vanished during simplification")
        float_polys = [[[(x / 10, y / 10) for x, y in ring] for ring in poly] for poly in polys]
        lx, ly = label_point(float_polys)
        out_regions[rid] = {"d": path_data(polys), "label": [round(lx, 1), round(ly, 1)]}
    return {
        "edition": edition,
        "viewBox": f"0 0 {fmt(round(width * 10))} {fmt(round(height * 10))}",
        "credit": credit,
        "credit_url": credit_url,
        "regions": out_regions,
    }


def fit(
    regions: dict[str, list[Polygon]],
    project: Callable[[float, float], Point],
    target_w: float | None,
    target_h: float | None,
    margin: float,
) -> tuple[dict[str, list[Polygon]], int, int]:
    """Project every point, then scale (if targets are given) and translate so
    the bounding box sits at (margin, margin).  Returns (regions, W, H)."""
    projected = {
        rid: [[[project(x, y) for x, y in ring] for ring in poly] for poly in polys]
        for rid, polys in regions.items()
    }
    pts = [p for polys in projected.values() for poly in polys for ring in poly for p in ring]
    minx = min(p[0] for p in pts)
    maxx = max(p[0] for p in pts)
    miny = min(p[1] for p in pts)
    maxy = max(p[1] for p in pts)
    if target_w and target_h:
        s = min((target_w - 2 * margin) / (maxx - minx), (target_h - 2 * margin) / (maxy - miny))
    else:
        s = 1.0
    out = {
        rid: [
            [[((x - minx) * s + margin, (y - miny) * s + margin) for x, y in ring] for ring in poly]
            for poly in polys
        ]
        for rid, polys in projected.items()
    }
    width = math.ceil((maxx - minx) * s + 2 * margin)
    height = math.ceil((maxy - miny) * s + 2 * margin)
    return out, width, height


def build_usa(shared: Path) -> Json:
    topo = json.loads(
        (shared / "geometry" / "us_states-albers-10m.topo.json").read_text(encoding="utf-8")
    )
    states = json.loads((shared / "maps" / "usa.json").read_text(encoding="utf-8"))["states"]
    by_fips = {s["fips"]: s["code"] for s in states}
    arcs = decode_topojson_arcs(topo)
    regions: dict[str, list[Polygon]] = {}
    for geom in topo["objects"]["states"]["geometries"]:
        code = by_fips.get(str(geom["id"]).zfill(2))
        if code is None:  # District of Columbia is not a tile
            continue
        regions[code] = topo_polygons(arcs, geom)
    missing = set(by_fips.values()) - set(regions)
    if missing:
        raise ValueError(f"usa: no geometry for {sorted(missing)}")
    # Already projected (Albers USA, y down).  Alaska's Aleutians reach past
    # the left edge of the usual 975x610 frame, so shift everything to fit.
    regions, w, h = fit(regions, lambda x, y: (x, y), None, None, MARGIN)
    return build_edition("usa", regions, w, h, US_CREDIT, US_CREDIT_URL)


def build_germany(shared: Path) -> Json:
    geo = json.loads((shared / "geometry" / "de_nuts2_2021.geojson").read_text(encoding="utf-8"))
    meta = json.loads((shared / "maps" / "germany.json").read_text(encoding="utf-8"))["regions"]
    by_code = {r["code"]: r["short"] for r in meta}
    regions: dict[str, list[Polygon]] = {}
    for feat in geo["features"]:
        code = feat["properties"].get("code") or feat["properties"].get("NUTS_ID")
        short = by_code.get(code)
        if short is None:
            raise ValueError(f"germany: unknown NUTS code {code!r}")
        regions[short] = geojson_polygons(feat["geometry"])
    missing = set(by_code.values()) - set(regions)
    if missing:
        raise ValueError(f"germany: no geometry for {sorted(missing)}")
    k = math.cos(math.radians(51))
    regions, w, h = fit(regions, lambda lon, lat: (lon * k, -lat), 600, 800, 10.0)
    return build_edition("germany", regions, w, h, DE_CREDIT, DE_CREDIT_URL)


def write(data: Json, path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    # one region per line keeps diffs readable
    text = text.replace(',"regions":{', ',\n"regions":{\n').replace('},"', '},\n"')
    path.write_text(text + "\n", encoding="utf-8")
    return path.stat().st_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "shared",
        nargs="?",
        default=str(REPO_ROOT.parent / "shared"),
        help="shared data folder (default: ../shared)",
    )
    parser.add_argument("--out", default=str(OUT_DIR), help="output folder")
    args = parser.parse_args(argv)
    shared = Path(args.shared)
    out = Path(args.out)
    for name, builder in (("usa", build_usa), ("germany", build_germany)):
        data = builder(shared)
        size = write(data, out / f"{name}.json")
        target = out / f"{name}.json"
        print(
            f"{name}: {len(data['regions'])} regions, viewBox {data['viewBox']}, {size} bytes -> "
            f"{target}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
