"""Characters standing in a line of fire: the one LOS fact only play knows.

The board's LOS knows walls and furniture but not where the characters are.  A human, elf or
ork on a crossed dot in the target's posture adds one level of cover; a troll there blocks
the line; a dwarf only gets in the way of a shot at another dwarf.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from shapely.geometry import LineString, Polygon

from engine.lattice import Dot3, Lattice


def crossed_dots(lattice: Lattice, a: Dot3, b: Dot3) -> set[tuple[int, int]]:
    """Dots whose cell the open segment a..b passes through with positive length (the one
    crossed-cells rule, :meth:`engine.lattice.Lattice.crossed_dots`)."""
    return set(lattice.crossed_dots(a, b))


def _seg_dist(p: tuple[float, float], q: tuple[float, float], o: tuple[float, float]) -> float:
    dx, dy = q[0] - p[0], q[1] - p[1]
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((o[0] - p[0]) * dx + (o[1] - p[1]) * dy) / ll))
    return ((p[0] + t * dx - o[0]) ** 2 + (p[1] + t * dy - o[1]) ** 2) ** 0.5


#: (lattice, a, b, dot) -> does the line a..b cross the dot's cell (kept: a bot's scoring asks
#: the same few lines past the same characters thousands of times a game)
_CROSSED: dict[tuple, bool] = {}


#: lattice -> its cell's edges as (start x, start y, outward unit normal x, y) from the centre
_EDGES: dict[Lattice, list[tuple[float, float, float, float]]] = {}
#: how far clear of a cell's edges (and of the 1e-9 length rule) a clip must be to be sure
_CLEAR = 1e-6


def _clear_crossing(lattice: Lattice, pa: tuple[float, float], pb: tuple[float, float],
                    pc: tuple[float, float]) -> bool | None:
    """Does the segment ``pa``-``pb`` cross the cell centred on ``pc`` with positive length,
    when the answer is clear: the part of the segment inside the cell (clipped edge by edge,
    :meth:`engine.lattice.Lattice.cells_crossed`) longer than a millionth of a dot, or the
    segment that far outside the cell; None near an edge or a corner, where shapely's
    intersection decides (a line along a row of a square lattice runs on cell edges)."""
    edges = _EDGES.get(lattice)
    if edges is None:
        v, n = lattice._cell_edges()
        edges = _EDGES[lattice] = [(float(a), float(b), float(c), float(e))
                                   for (a, b), (c, e) in zip(v.tolist(), n.tolist(), strict=True)]
    dx, dy = pb[0] - pa[0], pb[1] - pa[1]
    length = math.hypot(dx, dy)
    if length < 1e-3:
        return None
    ox, oy = pa[0] - pc[0], pa[1] - pc[1]
    t0, t1 = 0.0, 1.0
    for vx, vy, nx, ny in edges:
        num = (ox - vx) * nx + (oy - vy) * ny  # the start's distance outside this edge
        den = dx * nx + dy * ny
        if den == 0.0:  # along the edge: all of it outside, or all of it inside
            if num > _CLEAR:
                return False
            if num < -_CLEAR:
                continue
            return None
        if abs(den) < _CLEAR * length:
            return None  # (nearly along it: where it crosses is not sure enough)
        s = -num / den
        if den < 0:
            t0 = max(t0, s)
        else:
            t1 = min(t1, s)
    inside = (t1 - t0) * length
    if inside > _CLEAR:
        return True
    if inside < -_CLEAR:
        return False
    return None


def _crossed(lattice: Lattice, a: tuple[int, int], b: tuple[int, int], d: tuple[int, int]
             ) -> bool:
    """Does the segment between dots ``a`` and ``b`` cross the cell of dot ``d`` with
    positive length?"""
    key = (lattice, a, b, d)
    got = _CROSSED.get(key)
    if got is None:
        pa, pb = lattice.point(a), lattice.point(b)
        # (too far from the line for its cell to be crossed: no geometry)
        pc = lattice.point(d)
        if _seg_dist(pa, pb, pc) > 1.0:
            got = False
        else:
            got = _clear_crossing(lattice, pa, pb, pc)
            if got is None:  # (at or near an edge or a corner of the cell: as shapely finds)
                got = LineString([pa, pb]).intersection(Polygon(lattice.cell(d))).length > 1e-9
        if len(_CROSSED) > 200_000:
            _CROSSED.clear()
        _CROSSED[key] = got
    return got


def character_cover(
    lattice: Lattice, a: Dot3, b: Dot3, target_posture: str, target_metatype: str,
    others: Iterable[tuple[Dot3, str, str]],
) -> tuple[bool, int, list[str]]:
    """(blocked, cover levels, reasons) from ``others`` = (dot, posture, metatype) in the way.

    Only characters on the same level as both ends count.
    """
    if a[2] != b[2]:
        return False, 0, []
    others = [o for o in others if o[0][2] == a[2] and o[0] not in (a, b)]
    if not others:
        return False, 0, []
    a2, b2 = (a[0], a[1]), (b[0], b[1])
    cover, why = 0, []
    for dot, posture, meta in others:
        if not _crossed(lattice, a2, b2, (dot[0], dot[1])):
            continue
        if meta == "troll" and posture == "standing":
            return True, 0, [f"troll at {dot}"]
        if posture != target_posture:
            continue
        if meta == "dwarf" and target_metatype != "dwarf":
            continue
        cover += 1
        why.append(f"{meta} at {list(dot)}")
    return False, cover, why
