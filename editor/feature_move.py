"""Moving one feature of a level by an offset in its own frame (Qt-free, pure).

Walls, areas and lines move by half dots (walls run between dots); stairs, elevators, climbs
and trees by whole dots, so a marker stays on its dot.  A door, window or hole slides along
its wall segment by whole dots and stops at the segment's ends; a wall takes the openings lying on it
along.
"""

from __future__ import annotations

import math
from dataclasses import replace

from engine.lattice import Point
from engine.model import Level

HALF = ("walls", "areas", "lines")
WHOLE = ("stairs", "elevators", "climbs", "trees")
OPENINGS = ("doors", "windows", "holes")
EPS = 1e-6


def snap_offset(list_name: str, d: Point) -> Point:
    """The offset a drag of ``d`` gives this kind of feature (openings: see slide)."""
    if list_name in HALF:
        return (round(d[0] * 2) / 2, round(d[1] * 2) / 2)
    return (float(round(d[0])), float(round(d[1])))


def _shift(pts, d: Point) -> tuple:
    return tuple((round(x + d[0], 6), round(y + d[1], 6)) for x, y in pts)


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    ab = math.dist(a, b)
    return ab > 0 and abs(math.dist(a, p) + math.dist(p, b) - ab) <= EPS


def _segments(paths) -> list[tuple[Point, Point]]:
    return [(a, b) for path in paths for a, b in zip(path, path[1:], strict=False)]


def slide(span: tuple[Point, Point], d: Point, wall_paths) -> tuple[Point, Point]:
    """The span moved along the wall segment it lies on by the whole-dot part of ``d``
    projected on that segment, stopping at the segment's ends; ``ValueError`` when the span
    lies on no wall segment (then it cannot slide anywhere)."""
    for a, b in _segments(wall_paths):
        if _on_segment(span[0], a, b) and _on_segment(span[1], a, b):
            ln = math.dist(a, b)
            ux, uy = (b[0] - a[0]) / ln, (b[1] - a[1]) / ln
            s0, s1 = sorted((p[0] - a[0]) * ux + (p[1] - a[1]) * uy for p in span)
            lo, hi = math.ceil(-s0 - EPS), math.floor(ln - s1 + EPS)
            t = min(max(round(d[0] * ux + d[1] * uy), lo), hi)
            return _shift(span, (ux * t, uy * t))  # type: ignore[return-value]
    raise ValueError("this opening is on no wall, so it cannot slide")


def move_in_level(lv: Level, list_name: str, index: int, d: Point,
                  wall_paths: tuple = ()) -> Level:
    """``lv`` with feature ``index`` of ``list_name`` moved by the raw drag offset ``d``.

    ``wall_paths`` are the walls openings may slide on besides the level's own (a building's
    outline when its level has no walls drawn).
    """
    seq = list(getattr(lv, list_name))
    f = seq[index]
    changes: dict[str, tuple] = {}
    if list_name in OPENINGS:
        paths = tuple(w.path for w in lv.walls) + tuple(wall_paths)
        seq[index] = replace(f, span=slide(f.span, d, paths))
    else:
        off = snap_offset(list_name, d)
        if list_name == "walls":
            seq[index] = replace(f, path=_shift(f.path, off))
            segs = _segments([f.path])
            for name in OPENINGS:  # openings on this wall go with it
                ops = getattr(lv, name)
                moved = tuple(
                    replace(o, span=_shift(o.span, off))
                    if any(_on_segment(o.span[0], a, b) and _on_segment(o.span[1], a, b)
                           for a, b in segs) else o
                    for o in ops)
                if moved != ops:
                    changes[name] = moved
        elif list_name in ("areas",):
            seq[index] = replace(f, polygon=_shift(f.polygon, off))
        elif list_name == "lines":
            seq[index] = replace(f, path=_shift(f.path, off))
        elif list_name == "trees":
            seq[index] = replace(f, trunk=_shift([f.trunk], off)[0],
                                 canopy=_shift(f.canopy, off))
        elif list_name in WHOLE:
            seq[index] = replace(f, at=_shift([f.at], off)[0])
        else:
            raise ValueError(f"cannot move {list_name}")
    changes[list_name] = tuple(seq)
    return replace(lv, **changes)
