"""The heat map of a balance run: where characters fell, where shots came from, where they
stood, drawn over the street-level map with the project's one renderer (engine.render's display list, drawn by the registered
raster backend).

Each dot gets a translucent disc whose area grows with its count: red for casualties, orange
for shooters' dots, blue for dots a character ended his movement on (positions held).  Events
on upper levels are drawn where they stand in plan, outlined, so a sniper's roof shows too.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from typing import Any

import numpy as np
from shapely.geometry import Point

from engine.board import Board
from engine.export.files import atomic_write
from engine.model import Scenario
from engine.render.display import Poly, Text, build_scene

LAYERS = (  # (record key, colour, label, largest radius in dots)
    ("ends", "#1f6fb2", "positions held", 0.55),
    ("shots_at", "#e67e22", "shots fired from", 0.5),
    ("casualties", "#c0392b", "casualties", 0.6),
)
PX_PER_DOT = 14


def counts(games: list[dict[str, Any]]) -> dict[str, Counter]:
    out: dict[str, Counter] = {k: Counter() for k, *_ in LAYERS}
    for g in games:
        for e in g.get("ends", []):
            out["ends"][tuple(e[1:4])] += 1
        for p in g.get("shots_at", []):
            out["shots_at"][tuple(p)] += 1
        for c in g.get("casualties", []):
            if c.get("at"):
                out["casualties"][tuple(c["at"])] += 1
    return out


def _disc(x: float, y: float, r: float) -> np.ndarray:
    return np.asarray(Point(x, y).buffer(r, 12).exterior.coords)


def write_heatmap(path: str | os.PathLike[str], scenario: Scenario, board: Board,
                  games: list[dict[str, Any]]) -> None:
    """Write the heat map PNG (whole file or nothing)."""
    sc = build_scene(board, scenario, 0)
    got = counts(games)
    for key, colour, _label, rmax in LAYERS:
        c = got[key]
        top = max(c.values(), default=0)
        for dot, k in sorted(c.items()):
            x, y = board.dot_point(dot)
            r = max(0.12, rmax * math.sqrt(k / top))
            upper = len(dot) > 2 and dot[2] > 0
            sc.items.append(Poly([_disc(x, y, r)], fill=colour, alpha=0.45,
                                 stroke="#202020" if upper else None,
                                 width=0.05 if upper else 0.0))
    cx0, cy0, cx1, cy1 = sc.canvas
    n = len(games)
    label = f"heat map of {n} bot games: " + ", ".join(
        f"{lab} {sum(got[k].values())}" for k, _c, lab, _r in LAYERS)
    sc.frame.append(Text((cx0 + 1, cy1 + 1.0), label, 0.6, "#1b1b1b", bold=True))
    for i, (_k, colour, lab, _r) in enumerate(LAYERS):
        lx = cx0 + 1 + i * 11
        sc.frame.append(Poly([_disc(lx + 0.4, cy1 + 2.0, 0.4)], fill=colour, alpha=0.6))
        sc.frame.append(Text((lx + 1.1, cy1 + 2.3), lab, 0.55, "#1b1b1b"))
    sc.canvas = (cx0, cy0, max(cx1, cx0 + 36), cy1 + 3.0)
    from engine.render.backend import raster

    atomic_write(path, raster().png(sc, PX_PER_DOT))
