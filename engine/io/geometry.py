"""Geometry checks made while loading: outlines that cross themselves, zero-length walls,
openings that do not lie on a wall.  Shapely does the exact work; lines come from the caller."""

from __future__ import annotations

from collections.abc import Sequence

import shapely
from shapely.geometry import LineString, MultiLineString, Polygon
from shapely.validation import explain_validity

from engine.io.fields import At, fmt_point
from engine.lattice import Point

#: how far an opening may stray from its wall and still count as lying on it (dots)
ON_WALL_TOLERANCE = 1e-6


def check_polygon(pts: Sequence[Point], at: At, what: str) -> None:
    """A polygon must be a simple ring with area: no self-crossing, no spikes, no collapse."""
    ring = list(pts)
    if len(ring) > 3 and ring[0] == ring[-1]:
        ring = ring[:-1]
    if len(set(ring)) < 3:
        at.fail(f"{what} needs at least 3 different points")
    if shapely.MultiPoint(ring).convex_hull.area <= 1e-12:
        at.fail(f"{what} has zero area")
    poly = Polygon(ring)
    if not poly.is_valid:
        reason = explain_validity(poly)
        where = ""
        if "[" in reason:
            where = " near (" + reason.split("[", 1)[1].rstrip("]").replace(" ", ", ") + ")"
        if reason.startswith(("Self-intersection", "Ring Self-intersection")):
            at.fail(f"{what} crosses itself{where}")
        at.fail(f"{what} is not a simple polygon ({reason.split('[', 1)[0].strip()}){where}")


def check_segments(pts: Sequence[Point], at: At, what: str, items: Sequence[object] | None = None) -> None:
    """No segment of a path may have zero length (a zero-length wall blocks nothing visibly)."""
    for i in range(1, len(pts)):
        if pts[i] == pts[i - 1]:
            where = at.item(items, i) if items is not None else at
            if len(pts) == 2:
                where.fail(f"zero-length {what} at {fmt_point(pts[i])}")
            where.fail(f"zero-length {what} segment at {fmt_point(pts[i])}")


def wall_cover(paths: Sequence[Sequence[Point]]) -> shapely.Geometry | None:
    """The set an opening must lie in: the walls of its level, slightly thickened."""
    lines = [LineString(p) for p in paths if len(p) >= 2]
    if not lines:
        return None
    return MultiLineString(lines).buffer(ON_WALL_TOLERANCE, quad_segs=2)


def on_wall(span: Sequence[Point], cover: shapely.Geometry | None) -> bool:
    if cover is None:
        return False
    return LineString(span).difference(cover).length < 1e-9
