"""The colour ramps of the lens maps: one place, used by the CLI picture and the editor overlay.

A ramp turns a :class:`~engine.analysis.lens.LensMap` into a few classes, each a label, a
colour and the dots in it; a dot with no value (unseen, unreachable) belongs to no class and
is not drawn.  ``filled`` False draws the class as rings (exposure: seen only through cover).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.analysis.lens import LensMap

#: exposure: share of the enemy's deployment dots that see a dot, pale yellow -> dark red
EXPOSURE_COLOURS = ("#fee391", "#fec44f", "#fe9929", "#ec7014", "#cc4c02", "#8c2d04")
EXPOSURE_EDGES = (0.0, 0.05, 0.15, 0.3, 0.5, 0.75)  # lower bounds of each class (share)
#: tempo: turn of first arrival, dark blue (turn 0) -> pale blue -> yellow -> orange (late)
TEMPO_COLOURS = ("#08306b", "#08519c", "#2171b5", "#4292c6", "#6baed6", "#9ecae1",
                 "#c6dbef", "#f7f4b0", "#fee391", "#fec44f", "#fe9929", "#d95f0e")
#: lead: turns this side is ahead (+, blue) or behind (-, red); grey even
LEAD_COLOURS = {-3: "#b2182b", -2: "#d6604d", -1: "#f4a582", 0: "#bdbdbd", 1: "#92c5de",
                2: "#4393c3", 3: "#2166ac"}


@dataclass
class Band:
    label: str
    colour: str
    mask: np.ndarray  # (N,) bool over the map's dots
    filled: bool = True


def bands(lens: LensMap) -> list[Band]:
    """The classes of a map, lowest first."""
    if lens.kind == "exposure":
        return _exposure(lens)
    if lens.kind == "tempo":
        return _tempo(lens)
    if lens.kind == "lead":
        return _lead(lens)
    raise ValueError(f"no colour ramp for a {lens.kind!r} map")


def _exposure(lens: LensMap) -> list[Band]:
    total = max(int(lens.info.get("sources", 0)), 1)
    v = lens.values
    seen = ~np.isnan(v)
    share = np.where(seen, v, 0) / total
    cover = lens.extra.get("cover", np.zeros(len(v)))
    covered = seen & (np.nan_to_num(cover, nan=0) > 0)
    out = []
    edges = EXPOSURE_EDGES + (np.inf,)
    for k, col in enumerate(EXPOSURE_COLOURS):
        lo, hi = edges[k], edges[k + 1]
        sel = seen & (share > lo if k == 0 else share >= lo) & (share < hi)
        if k == len(EXPOSURE_COLOURS) - 1:
            sel = seen & (share >= lo)
        top = "" if hi == np.inf else f"{hi:.0%}"
        label = f"seen from {lo:.0%}-{top}" if top else f"seen from {lo:.0%}+"
        out.append(Band(label, col, sel & ~covered))
        out.append(Band(label + " (cover)", col, sel & covered, filled=False))
    return out


def _tempo(lens: LensMap) -> list[Band]:
    v = lens.values
    out = []
    last = len(TEMPO_COLOURS) - 1
    for t, col in enumerate(TEMPO_COLOURS):
        sel = (v == t) if t < last else (v >= t)
        label = f"turn {t}" if t < last else f"turn {t}+"
        out.append(Band(label, col, ~np.isnan(v) & sel))
    return out


def _lead(lens: LensMap) -> list[Band]:
    v = lens.values
    ok = ~np.isnan(v)
    c = np.clip(np.where(ok, v, 0), -3, 3)
    out = []
    for k in sorted(LEAD_COLOURS):
        if k == 0:
            label = "even"
        else:
            label = f"{abs(k)}{'+' if abs(k) == 3 else ''} turn(s) {'ahead' if k > 0 else 'behind'}"
        out.append(Band(label, LEAD_COLOURS[k], ok & (c == k)))
    return out
