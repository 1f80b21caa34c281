"""Finding the model object under a point of the board (Qt-free).

Hit tests run on the model in each sheet's own frame (the world point is mapped back through
the placement's transform), so they agree exactly with what is saved.
"""

from __future__ import annotations

import math

from shapely.geometry import LineString, Point, Polygon

from editor.edits import FeatureRef, PlacementRef
from editor.geometry import Resolved
from engine.model import Extras, Level

TOL = 0.3  # dots


def placement_at(resolved: list[Resolved], p: tuple[float, float],
                 buildings_only: bool = False) -> Resolved | None:
    """The top-most placement under ``p``: buildings above pavement, later above earlier."""
    pt = Point(p)
    for r in sorted(resolved, key=lambda r: (not r.pavement, r.index), reverse=True):
        if buildings_only and r.pavement:
            continue
        if r.footprint.buffer(1e-9).contains(pt):
            return r
    return None


def _hit_level(lv: Level, q: tuple[float, float], sheet: str | None, level: int,
               tol: float) -> FeatureRef | None:
    pt = Point(q)
    for name in ("stairs", "elevators", "climbs"):
        for i, f in enumerate(getattr(lv, name)):
            if math.dist(f.at, q) <= 0.45:
                return FeatureRef(sheet, level, name, i)
    for name in ("doors", "windows", "holes"):
        for i, f in enumerate(getattr(lv, name)):
            if LineString(f.span).distance(pt) <= tol:
                return FeatureRef(sheet, level, name, i)
    for i, f in enumerate(lv.walls):
        if len(f.path) >= 2 and LineString(f.path).distance(pt) <= tol:
            return FeatureRef(sheet, level, "walls", i)
    for i, f in enumerate(lv.lines):
        if len(f.path) >= 2 and LineString(f.path).distance(pt) <= tol:
            return FeatureRef(sheet, level, "lines", i)
    for i, f in enumerate(lv.trees):
        if math.dist(f.trunk, q) <= 0.45:
            return FeatureRef(sheet, level, "trees", i)
    for i, f in reversed(list(enumerate(lv.areas))):
        if len(f.polygon) >= 3 and Polygon(f.polygon).buffer(1e-9).contains(pt):
            return FeatureRef(sheet, level, "areas", i)
    return None


def feature_at(resolved: list[Resolved], extras: Extras, p: tuple[float, float], level: int,
               tol: float = TOL) -> tuple[FeatureRef, Resolved | None] | None:
    """The feature under world point ``p`` on ``level`` and the placement that shows it."""
    for r in sorted(resolved, key=lambda r: (not r.pavement, r.index), reverse=True):
        if not r.footprint.buffer(tol).contains(Point(p)):
            continue
        q = r.transform.inverse().apply(p)
        lv_no = level if r.sheet.kind == "building" else 0
        lv = r.sheet.level(lv_no)
        if lv is not None:
            hit = _hit_level(lv, q, r.sheet.id, lv_no, tol)
            if hit is not None:
                return hit, r
    if level == 0:
        lv = Level(level=0, areas=extras.areas, lines=extras.lines, trees=extras.trees)
        hit = _hit_level(lv, p, None, 0, tol)
        if hit is not None:
            return hit, None
    return None


def selection_for(hit: tuple[FeatureRef, Resolved | None] | None,
                  r: Resolved | None) -> FeatureRef | PlacementRef | None:
    if hit is not None:
        return hit[0]
    if r is not None:
        return PlacementRef(r.pavement, r.index)
    return None
