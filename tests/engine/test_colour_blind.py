"""Colour-blind players: every tile colour has a shape, and the palettes stay apart under simulated
dichromacy.

Each palette of each edition is seen as a protanope, a deuteranope and a tritanope would see it
(Machado, Oliveira and Fernandes 2009, severity 1: full dichromacy, the worst case), through
colour-science, and every pair of tile colours (the any-colour purple included) must stay at least a
CIEDE2000 distance apart:

- swatches, the colour itself as the map, the tile stripes and the terminal draw it, the same under
  every theme: ``SWATCH``;
- tile faces, the tint the browser gives a region tile (55 % of the colour over white, tendays.css;
  the browser has a light theme only): ``FACE``;
- and every swatch stands apart from the background of the light and the dark themes:
  ``BACKGROUND``.

docs/i18n.md explains the thresholds and lists the distances measured.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Sequence

import numpy as np
import pytest

with warnings.catch_warnings():
    # colour-science warns that matplotlib, which it does not need here, is absent
    warnings.simplefilter("ignore")
    import colour

from tendays.engine import available_editions, load_edition

pytestmark = pytest.mark.slow  # colour-science takes over a second to import

VISIONS = {
    "normal vision": None,
    "protanopia": "Protanomaly",
    "deuteranopia": "Deuteranomaly",
    "tritanopia": "Tritanomaly",
}
with warnings.catch_warnings():
    # it notes that its tritanopia is an approximation (docs/i18n.md says so too)
    warnings.simplefilter("ignore")
    MATRICES = {
        vision: colour.blindness.matrix_cvd_Machado2009(deficiency, 1.0)
        for vision, deficiency in VISIONS.items()
        if deficiency is not None
    }
PALETTES = ("palette", "palette_cb")
SWATCH = {"palette": 12.0, "palette_cb": 18.0}
FACE = {"palette": 8.0, "palette_cb": 11.0}
BACKGROUND = 10.0
FACE_MIX, FACE_UNDER = 0.55, "#ffffff"
# The light theme: the browser's page and panels, Textual's light theme; the
# dark theme: Textual's dark one.
BACKGROUNDS = {
    "browser page": "#f5f1e8",
    "browser panel": "#fffdf8",
    "terminal light": "#e0e0e0",
    "terminal dark": "#121212",
}


def rgb(css: str) -> np.ndarray:
    return np.array([int(css[i : i + 2], 16) / 255 for i in (1, 3, 5)])


def seen(colours: Sequence[np.ndarray], vision: str) -> np.ndarray:
    """CIELAB of sRGB colours as seen with ``vision``."""
    linear = colour.models.eotf_sRGB(np.asarray(colours))
    if vision in MATRICES:
        linear = np.clip(linear @ MATRICES[vision].T, 0, 1)
    xyz = colour.RGB_to_XYZ(linear, colour.RGB_COLOURSPACES["sRGB"], apply_cctf_decoding=False)
    return colour.XYZ_to_Lab(xyz)


def closest_pair(
    palette: dict[str, str], vision: str, face: bool = False
) -> tuple[float, str, str]:
    """The smallest CIEDE2000 distance between two colours of ``palette`` seen
    with ``vision``, and the pair."""
    names = sorted(palette)
    colours = [rgb(palette[n]) for n in names]
    if face:
        colours = [FACE_MIX * c + (1 - FACE_MIX) * rgb(FACE_UNDER) for c in colours]
    lab = seen(colours, vision)
    pairs = list(itertools.combinations(range(len(names)), 2))
    distances = colour.delta_E(
        lab[[i for i, _ in pairs]], lab[[j for _, j in pairs]], method="CIE 2000"
    )
    k = int(np.argmin(distances))
    return float(distances[k]), names[pairs[k][0]], names[pairs[k][1]]


def closest_to_background(palette: dict[str, str], vision: str) -> tuple[float, str, str]:
    names, backgrounds = sorted(palette), sorted(BACKGROUNDS)
    lab = seen([rgb(palette[n]) for n in names], vision)
    under = seen([rgb(BACKGROUNDS[b]) for b in backgrounds], vision)
    found = [
        (float(colour.delta_E(lab[i], under[j], method="CIE 2000")), names[i], backgrounds[j])
        for i in range(len(names))
        for j in range(len(backgrounds))
    ]
    return min(found)


CASES = [(e, p, v) for e in available_editions() for p in PALETTES for v in VISIONS]


@pytest.mark.parametrize(("edition_id", "palette", "vision"), CASES)
def test_swatches_stay_apart(edition_id: str, palette: str, vision: str) -> None:
    distance, a, b = closest_pair(getattr(load_edition(edition_id), palette), vision)
    assert distance >= SWATCH[palette], (
        f"{edition_id} {palette}, {vision}: {a} and {b} are only {distance:.1f} apart"
    )


@pytest.mark.parametrize(("edition_id", "palette", "vision"), CASES)
def test_tile_faces_stay_apart(edition_id: str, palette: str, vision: str) -> None:
    distance, a, b = closest_pair(getattr(load_edition(edition_id), palette), vision, face=True)
    assert distance >= FACE[palette], (
        f"{edition_id} {palette}, {vision}: {a} and {b} faces only {distance:.1f} apart"
    )


@pytest.mark.parametrize(("edition_id", "palette", "vision"), CASES)
def test_swatches_stand_out_from_both_themes(edition_id: str, palette: str, vision: str) -> None:
    distance, name, background = closest_to_background(
        getattr(load_edition(edition_id), palette), vision
    )
    assert distance >= BACKGROUND, (
        f"{edition_id} {palette}, {vision}: {name} on the {background} is {distance:.1f}"
    )


def test_the_old_palette_would_fail() -> None:
    """The palette before colour-blind play: blue and the USA's purple
    were 2.7 apart to a protanope."""
    old = {
        "blue": "#4f8fd6",
        "green": "#5cb566",
        "orange": "#f29b3c",
        "pink": "#ec7fb2",
        "yellow": "#f4d03f",
        "any": "#a57ad0",
    }
    distance, a, b = closest_pair(old, "protanopia")
    assert (a, b) == ("any", "blue") and distance < 3


@pytest.mark.parametrize("edition_id", available_editions())
def test_every_colour_has_a_shape_and_a_letter(edition_id: str) -> None:
    edition = load_edition(edition_id)
    wanted = set(edition.colors) | (
        {"any"} if any(r.color is None for r in edition.regions) else set()
    )
    assert set(edition.symbols) == set(edition.shapes) == wanted
    assert len(set(edition.symbols.values())) == len(wanted) and all(
        len(s) == 1 for s in edition.symbols.values()
    )
    assert all(path.startswith("M") and path.endswith("z") for path in edition.shapes.values())
    for lang in edition.languages:
        letters = edition.words(lang).letters
        assert set(letters) == wanted and len(set(letters.values())) == len(wanted)
    assert set(edition.palette_cb) == set(edition.palette)
