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


def _rectangle(ring: Sequence[Point]) -> bool:
    """True for 4 corners of an upright rectangle with area (in either turning order): such a
    ring passes every check of :func:`check_polygon`, so shapely need not be asked."""
    if len(ring) != 4:
        return False
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = ring
    if x0 == x1:
        upright = y1 == y2 and x2 == x3 and y3 == y0
    else:
        upright = y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0
    return upright and abs((x2 - x0) * (y2 - y0)) > 1e-12


def upright_rectangle(pts: Sequence[Point]) -> bool:
    """True when :func:`check_polygon` passes ``pts`` at once: an upright rectangle with area
    (its first corner may be repeated at the end)."""
    ring = list(pts)
    if len(ring) > 3 and ring[0] == ring[-1]:
        ring = ring[:-1]
    return _rectangle(ring)


def check_polygon(pts: Sequence[Point], at: At, what: str) -> None:
    """A polygon must be a simple ring with area: no self-crossing, no spikes, no collapse."""
    ring = list(pts)
    if len(ring) > 3 and ring[0] == ring[-1]:
        ring = ring[:-1]
    if _rectangle(ring):
        return
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


class WallCover:
    """The set an opening must lie in: the walls (and fences) of its level, thickened by
    :data:`ON_WALL_TOLERANCE`.

    A span along an upright wall segment, between its ends, lies on the wall whatever shapely
    would say of the thickened set's edges: such spans (nearly all of them) are answered by
    comparing coordinates. Any other span is asked of shapely, on the thickened walls built the
    first time they are needed: a 16x16-block city has 16.5k openings, and the buffer per level
    and the difference per opening were two thirds of reading its sheets."""

    __slots__ = ("paths", "_rows", "_cols", "_shape")

    def __init__(self, paths: Sequence[Sequence[Point]]):
        self.paths = [p for p in paths if len(p) >= 2]
        rows: dict[float, list[tuple[float, float]]] = {}
        cols: dict[float, list[tuple[float, float]]] = {}
        for p in self.paths:
            for (x0, y0), (x1, y1) in zip(p, p[1:]):
                if y0 == y1:
                    rows.setdefault(y0, []).append((x0, x1) if x0 <= x1 else (x1, x0))
                elif x0 == x1:
                    cols.setdefault(x0, []).append((y0, y1) if y0 <= y1 else (y1, y0))
        self._rows, self._cols = rows, cols
        self._shape: shapely.Geometry | None = None

    def holds(self, span: Sequence[Point]) -> bool:
        """True when the span lies on the walls (within the tolerance)."""
        if not self.paths:
            return False
        (ax, ay), (bx, by) = span
        if ay == by:
            segments, lo, hi = self._rows.get(ay), min(ax, bx), max(ax, bx)
        elif ax == bx:
            segments, lo, hi = self._cols.get(ax), min(ay, by), max(ay, by)
        else:
            segments, lo, hi = None, 0.0, 0.0
        if segments and any(s0 <= lo and hi <= s1 for s0, s1 in segments):
            return True
        if self._shape is None:
            lines = [LineString(p) for p in self.paths]
            self._shape = MultiLineString(lines).buffer(ON_WALL_TOLERANCE, quad_segs=2)
        return LineString(span).difference(self._shape).length < 1e-9


def wall_cover(paths: Sequence[Sequence[Point]]) -> WallCover:
    """The walls of a level as the set its openings must lie in."""
    return WallCover(paths)


def on_wall(span: Sequence[Point], cover: WallCover | None) -> bool:
    return cover is not None and cover.holds(span)
