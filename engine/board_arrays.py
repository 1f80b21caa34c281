"""The unit compiler's geometry work done for many units at once with shapely's array functions.

``engine.board`` compiles each placement (a *unit*) into features; a cold compile of a large
city has hundreds of units and tens of thousands of openings, and doing their geometry one
shapely call at a time cost seconds in call overhead alone.  Here every unit waiting to be
compiled is handled in a few vectorised calls, with the same GEOS operations on the same
inputs as the one-at-a-time code (so the same geometry, bit for bit), except where plain
coordinates settle a question exactly (an opening lying inside one straight wall segment).

Features are built with ``type(f)(...)`` so this module needs nothing from ``engine.board``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from engine.lattice import SQRT3_2, Lattice

#: half-width of the cut made around an opening, in dots (as ``engine.board.EPS``)
EPS = 1e-7
#: how far an opening may lie from a wall and still be on it
ON_WALL = 1e-6
OPENINGS = ("door", "window", "hole")
CUTTERS = ("wall", "fence")
SOLID = ("wall", "fence", "trunk", "water")
#: a level with more openings than this gets its own union (the rest share padded arrays)
_PAD_MAX = 64


def cut_openings(units: list[dict[int, list[Any]]]) -> list[list[Any]]:
    """Remove every door/window/hole span from the walls and fences it lies on, unit by unit
    and level by level (each unit's level lists replaced in place); returns each unit's loose
    openings (those lying on no wall or fence of their level), in feature order."""
    groups: list[tuple[int, int, list[Any]]] = []
    span_f: list[Any] = []
    span_g: list[int] = []
    wall_f: list[Any] = []
    wall_g: list[int] = []
    group_walls: list[list[int]] = []  # per group: its walls' indexes in wall_f
    for u, feats in enumerate(units):
        for lv, fs in feats.items():
            spans = [f for f in fs if f.kind in OPENINGS]
            if not spans:
                continue
            g = len(groups)
            groups.append((u, lv, fs))
            span_f.extend(spans)
            span_g.extend([g] * len(spans))
            walls = [f for f in fs if f.kind in CUTTERS]
            group_walls.append(list(range(len(wall_f), len(wall_f) + len(walls))))
            wall_f.extend(walls)
            wall_g.extend([g] * len(walls))
    loose_out: list[list[Any]] = [[] for _ in units]
    if not groups:
        return loose_out
    S = np.array([f.geom for f in span_f], dtype=object)
    W = np.array([f.geom for f in wall_f], dtype=object)
    sg = np.array(span_g, dtype=np.int64)
    wg = np.array(wall_g, dtype=np.int64)

    loose = ~_on_one_segment(S, sg, W, wg)
    # the rest exactly as one at a time: the union of the walls near it, widened, covers it
    slow = np.nonzero(loose)[0]
    trees: dict[int, Any] = {}
    for s in slow.tolist():
        g = span_g[s]
        idx = group_walls[g]
        if not idx:
            continue
        walls = [wall_f[i].geom for i in idx]
        tree = trees.get(g)
        if tree is None:
            tree = trees[g] = shapely.STRtree(walls)
        geom = span_f[s].geom
        near = tree.query(geom, predicate="dwithin", distance=ON_WALL)
        if len(near) and shapely.union_all([walls[i] for i in near]).buffer(
                ON_WALL, cap_style="flat").covers(geom):
            loose[s] = False
    for s in np.nonzero(loose)[0].tolist():
        loose_out[groups[span_g[s]][0]].append(span_f[s])

    # one cut per level: the union of its openings widened by EPS; walls it meets lose it
    cuts = _unions(S, sg, len(groups))
    cuts = shapely.buffer(cuts, EPS, cap_style="flat")
    cut_wall: dict[int, Any] = {}
    if len(W):
        hit = np.nonzero(shapely.intersects(W, cuts[wg]))[0]
        diff = shapely.difference(W[hit], cuts[wg[hit]])
        cut_wall = {id(wall_f[i]): g for i, g in zip(hit.tolist(), diff.tolist())}
    if cut_wall:
        for _u, lv, fs in groups:
            out = []
            for f in fs:
                g = cut_wall.get(id(f))
                if g is not None:
                    if g.is_empty:
                        continue
                    f = type(f)(f.kind, f.id, f.level, g, f.building, f.props)
                out.append(f)
            units[_u][lv] = out
    return loose_out


def _unions(geoms: np.ndarray, group: np.ndarray, n: int) -> np.ndarray:
    """Per group (``group`` sorted, every group present), the union of its geometries:
    ``shapely.union_all`` of each row of a None-padded array (the same union as of a list)."""
    counts = np.bincount(group, minlength=n)
    start = np.concatenate([[0], np.cumsum(counts)[:-1]])
    out = np.empty(n, dtype=object)
    small = counts <= _PAD_MAX
    if small.any():
        width = int(counts[small].max())
        pad = np.full((n, width), None, dtype=object)
        rows = np.nonzero(small[group])[0]
        pad[group[rows], rows - start[group[rows]]] = geoms[rows]
        out[small] = shapely.union_all(pad[small], axis=1)
    for g in np.nonzero(~small)[0].tolist():
        out[g] = shapely.union_all(list(geoms[start[g]:start[g] + counts[g]]))
    return out


def _on_one_segment(S: np.ndarray, sg: np.ndarray, W: np.ndarray, wg: np.ndarray) -> np.ndarray:
    """Per span: True where it is a straight two-point line lying wholly on one straight
    segment of a wall of its own level, so the widened walls surely cover it.  Axis-parallel
    segments are decided exactly on coordinates; other ones only with a margin far larger
    than rounding (inside by 1e-4 dots, off the line by at most 1e-9), else left undecided
    (False) for the exact test."""
    out = np.zeros(len(S), dtype=bool)
    if not len(W) or not len(S):
        return out
    ok = (shapely.get_type_id(S) == 1) & (shapely.get_num_coordinates(S) == 2)
    if not ok.any():
        return out
    si, wi = shapely.STRtree(W).query(S)  # bounding boxes meet
    keep = ok[si] & (sg[si] == wg[wi])
    si, wi = si[keep], wi[keep]
    if not len(si):
        return out
    # every straight segment of every wall, ordered by wall
    seg_w, p, q, _rest, _rest_owner = _segments(W)
    order = np.argsort(seg_w, kind="stable")
    seg_w, p, q = seg_w[order], p[order], q[order]
    first = np.searchsorted(seg_w, np.arange(len(W)))
    count = np.searchsorted(seg_w, np.arange(len(W)), side="right") - first
    n = count[wi]
    si = np.repeat(si, n)
    seg = np.repeat(first[wi] - np.cumsum(n) + n, n) + np.arange(int(n.sum()))
    sxy = shapely.get_coordinates(S[ok]).reshape(-1, 2, 2)
    slot = np.cumsum(ok) - 1
    ab = sxy[slot[si]]
    a, b = ab[:, 0], ab[:, 1]
    p, q = p[seg], q[seg]
    lo, hi = np.minimum(p, q), np.maximum(p, q)
    horiz = p[:, 1] == q[:, 1]
    vert = p[:, 0] == q[:, 0]
    # axis-parallel: same line exactly, both ends within the segment's extent
    on_h = horiz & ~vert & (a[:, 1] == p[:, 1]) & (b[:, 1] == p[:, 1]) \
        & (a[:, 0] >= lo[:, 0]) & (a[:, 0] <= hi[:, 0]) & (b[:, 0] >= lo[:, 0]) & (b[:, 0] <= hi[:, 0])
    on_v = vert & ~horiz & (a[:, 0] == p[:, 0]) & (b[:, 0] == p[:, 0]) \
        & (a[:, 1] >= lo[:, 1]) & (a[:, 1] <= hi[:, 1]) & (b[:, 1] >= lo[:, 1]) & (b[:, 1] <= hi[:, 1])
    # slanted: near the line and inside the segment with a margin
    d = q - p
    length = np.hypot(d[:, 0], d[:, 1])
    slanted = ~horiz & ~vert & (length > 0)
    on_s = np.zeros(len(si), dtype=bool)
    if slanted.any():
        with np.errstate(invalid="ignore", divide="ignore"):
            u = d / length[:, None]
            on_s = slanted.copy()
            for e in (a, b):
                rel = e - p
                off = np.abs(rel[:, 0] * u[:, 1] - rel[:, 1] * u[:, 0])
                along = rel[:, 0] * u[:, 0] + rel[:, 1] * u[:, 1]
                on_s &= (off <= 1e-9) & (along >= 1e-4) & (along <= length - 1e-4)
    good = on_h | on_v | on_s
    out[si[good]] = True
    return out


def _segments(G: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every straight segment of the lines among ``G`` and their parts: (owner index, start
    points, end points), then the other parts (polygons, points) and their owners."""
    tid = shapely.get_type_id(G)
    simple = (tid == 1) | (tid == 2)  # a LineString or LinearRing is its only part
    owners = np.arange(len(G))
    if simple.all():
        parts, pg = G, owners
    else:
        multi = np.nonzero(~simple)[0]
        more, mi = shapely.get_parts(G[multi], return_index=True)
        parts = np.concatenate([G[simple], more])
        pg = np.concatenate([owners[simple], multi[mi]])
    linear = np.isin(shapely.get_type_id(parts), (1, 2))
    xy, pc = shapely.get_coordinates(parts[linear], return_index=True)
    k = np.nonzero(pc[:-1] == pc[1:])[0]
    return pg[linear][pc[k]], xy[k], xy[k + 1], parts[~linear], pg[~linear]


def dots_in_boxes(lat: Lattice, bx: np.ndarray, margin: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The dots of each box (x0, y0, x1, y1), widened by ``margin``: (box index, (N, 2) dots),
    box by box, row by row.  Exact on a square lattice; on a hex one a few dots beyond each
    row's ends come too (callers keep only the dots their geometry test accepts)."""
    x0, y0, x1, y1 = bx[:, 0] - margin, bx[:, 1] - margin, bx[:, 2] + margin, bx[:, 3] + margin
    if lat.name == "square":
        r0, r1 = np.ceil(y0), np.floor(y1)
        c0, c1 = np.ceil(x0), np.floor(x1)
    else:  # rows by pitch, columns widened by the odd rows' half shift
        r0, r1 = np.ceil(y0 / SQRT3_2 - 1e-9), np.floor(y1 / SQRT3_2 + 1e-9)
        c0, c1 = np.ceil(x0 - 0.5 - 1e-9), np.floor(x1 + 1e-9)
    nr = np.maximum(r1 - r0 + 1, 0).astype(np.int64)
    nc = np.maximum(c1 - c0 + 1, 0).astype(np.int64)
    n = nr * nc
    tot = int(n.sum())
    box = np.repeat(np.arange(len(bx)), n)
    k = np.arange(tot) - np.repeat(np.cumsum(n) - n, n)
    ncr = nc[box]
    rows = r0[box].astype(np.int64) + k // np.maximum(ncr, 1)
    cols = c0[box].astype(np.int64) + k % np.maximum(ncr, 1)
    return box, np.column_stack([cols, rows])


def footprint_owners(lat: Lattice, footprints: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """(index into ``footprints``, (N, 2) dots) of every dot inside each footprint (the
    point strictly inside, as ``shapely.contains_xy``), footprint by footprint."""
    fps = np.array(footprints, dtype=object)
    live = np.nonzero(~shapely.is_empty(fps))[0] if len(fps) else np.zeros(0, dtype=np.int64)
    if not len(live):
        return np.zeros(0, dtype=np.int64), np.zeros((0, 2), dtype=np.int64)
    box, dots = dots_in_boxes(lat, shapely.bounds(fps[live]))
    idx = live[box]
    pts = lat.points(dots)
    inside = shapely.contains_xy(fps[idx], pts[:, 0], pts[:, 1])
    return idx[inside], dots[inside]


def solid_dots(lat: Lattice, units: list[dict[int, list[Any]]]) -> list[np.ndarray]:
    """Per unit, the (K, 3) dots lying on a wall/fence/trunk, or inside an obstacle or water
    nobody can stand on, level by level in the unit's order and row by row within a level.

    A dot is tested only against the solids with a straight segment (or, for polygons and
    points, a part) whose box holds it: a wall running between dots has none.  The test is
    the one the one-level-at-a-time code made (the dot's point intersects the solid)."""
    geoms: list[Any] = []
    gid: list[int] = []
    glv: list[int] = []
    n_groups = 0
    unit_groups: list[list[int]] = []
    for feats in units:
        mine = []
        for lv, fs in feats.items():
            solid = [f.geom for f in fs if f.kind in SOLID
                     or (f.kind == "obstacle" and f.props.get("standable") == "none")]
            if not solid:
                continue
            mine.append(n_groups)
            geoms.extend(solid)
            gid.extend([n_groups] * len(solid))
            glv.append(lv)
            n_groups += 1
        unit_groups.append(mine)
    empty = np.zeros((0, 3), dtype=np.int64)
    if not geoms:
        return [empty for _ in units]
    G = np.array(geoms, dtype=object)
    gi = np.array(gid, dtype=np.int64)
    # where a dot may touch a solid: the box of each straight segment of its lines, the box
    # of each other part (a wall ring's own box would hold every dot of its building)
    seg_owner, a, b, rest, rest_owner = _segments(G)
    ob = shapely.bounds(rest)
    live = ~np.isnan(ob).any(axis=1)
    owner_of_box = np.concatenate([seg_owner, rest_owner[live]])
    bx = np.concatenate([np.column_stack([np.minimum(a, b), np.maximum(a, b)]), ob[live]])
    box, dots = dots_in_boxes(lat, bx, 1e-6)
    if not len(box):
        return [empty for _ in units]
    owner = owner_of_box[box]
    pts = lat.points(dots)
    hit = shapely.intersects_xy(G[owner], pts[:, 0], pts[:, 1])
    grp = gi[owner[hit]]
    dots = dots[hit]
    # unique per group, row by row (the order of the level's candidate dots)
    order = np.lexsort((dots[:, 0], dots[:, 1], grp))
    grp, dots = grp[order], dots[order]
    if len(grp):
        new = np.ones(len(grp), dtype=bool)
        new[1:] = (grp[1:] != grp[:-1]) | (dots[1:, 0] != dots[:-1, 0]) | (dots[1:, 1] != dots[:-1, 1])
        grp, dots = grp[new], dots[new]
    lvs = np.array(glv, dtype=np.int64)
    full = np.column_stack([dots, lvs[grp]]).astype(np.int64)
    cut = np.searchsorted(grp, np.arange(n_groups + 1))
    out = []
    for mine in unit_groups:
        parts = [full[cut[g]:cut[g + 1]] for g in mine]
        out.append(np.concatenate(parts) if parts else empty)
    return out


def boxes(units: list[dict[int, list[Any]]]) -> list[tuple | None]:
    """Per unit, the bounds of all its features' geometry (as ``shapely.total_bounds``: NaN
    where every geometry is empty), None for a unit with no features."""
    geoms = [f.geom for feats in units for fs in feats.values() for f in fs]
    counts = np.array([sum(len(fs) for fs in feats.values()) for feats in units], dtype=np.int64)
    out: list[tuple | None] = [None] * len(units)
    if not geoms:
        return out
    b = shapely.bounds(np.array(geoms, dtype=object))
    full = np.nonzero(counts)[0]
    starts = (np.cumsum(counts) - counts)[full]
    lo = np.fmin.reduceat(b[:, :2], starts, axis=0)
    hi = np.fmax.reduceat(b[:, 2:], starts, axis=0)
    for j, u in enumerate(full.tolist()):
        out[u] = (lo[j, 0], lo[j, 1], hi[j, 0], hi[j, 1])
    return out
