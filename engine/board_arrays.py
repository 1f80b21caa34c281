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
    wall_at: list[int] = []  # per wall: where it sits in its level's list
    for u, feats in enumerate(units):
        for lv, fs in feats.items():
            kinds = [f.kind for f in fs]
            spans = [fs[i] for i, k in enumerate(kinds) if k in OPENINGS]
            if not spans:
                continue
            g = len(groups)
            groups.append((u, lv, fs))
            span_f.extend(spans)
            span_g.extend([g] * len(spans))
            at = [i for i, k in enumerate(kinds) if k in CUTTERS]
            group_walls.append(list(range(len(wall_f), len(wall_f) + len(at))))
            wall_f.extend([fs[i] for i in at])
            wall_at.extend(at)
            wall_g.extend([g] * len(at))
    loose_out: list[list[Any]] = [[] for _ in units]
    if not groups:
        return loose_out
    S = np.array([f.geom for f in span_f], dtype=object)
    W = np.array([f.geom for f in wall_f], dtype=object)
    sg = np.array(span_g, dtype=np.int64)
    wg = np.array(wall_g, dtype=np.int64)

    # cuts first (worked out from coordinates where exact): on the way they find the openings
    # lying on one straight segment of a wall they handle; the rest are tested as before
    decided = np.zeros(len(W), dtype=bool)
    on_coords = np.full(len(W), None, dtype=object)
    loose = np.ones(len(S), dtype=bool)
    if len(W):
        decided, on_coords, on_wall = _cuts_on_coordinates(S, sg, W, wg, len(groups))
        loose = ~on_wall
    ask = np.nonzero(loose)[0]
    if len(ask):
        loose[ask] = ~_on_one_segment(S[ask], sg[ask], W, wg)
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

    # one cut per level: the union of its openings widened by EPS; walls it meets lose it.
    # Worked out from coordinates where that is exact, asked of GEOS for the rest
    cut_wall: dict[int, Any] = {}  # wall index -> its geometry once cut
    if len(W):
        for i in np.nonzero(decided)[0].tolist():
            if on_coords[i] is not None:
                cut_wall[i] = on_coords[i]
        rest = np.nonzero(~decided)[0]
        if len(rest):
            need = np.unique(wg[rest])
            which = np.full(len(groups), -1, dtype=np.int64)
            which[need] = np.arange(len(need))
            mine = np.nonzero(which[sg] >= 0)[0]
            cuts = _unions(S[mine], which[sg[mine]], len(need))
            cuts = shapely.buffer(cuts, EPS, cap_style="flat")
            cw = cuts[which[wg[rest]]]
            hit = np.nonzero(shapely.intersects(W[rest], cw))[0]
            diff = shapely.difference(W[rest[hit]], cw[hit])
            for i, g in zip(rest[hit].tolist(), diff.tolist()):
                cut_wall[i] = g
    # each cut wall a new feature (the same fields, the cut geometry) in its place; one cut
    # to nothing leaves its list
    new_lists: dict[int, list[Any]] = {}
    gone: set[int] = set()
    new = object.__new__
    for i, g in cut_wall.items():
        grp = wall_g[i]
        out = new_lists.get(grp)
        if out is None:
            out = new_lists[grp] = list(groups[grp][2])
        if g.is_empty:
            gone.add(grp)
            out[wall_at[i]] = None
            continue
        f = wall_f[i]
        nf = new(type(f))
        for name in f.__slots__:  # a copy with its own geometry (fields set in place)
            object.__setattr__(nf, name, g if name == "geom" else getattr(f, name))
        out[wall_at[i]] = nf
    for grp, out in new_lists.items():
        u, lv, _fs = groups[grp]
        units[u][lv] = [f for f in out if f is not None] if grp in gone else out
    return loose_out


def _cuts_on_coordinates(S: np.ndarray, sg: np.ndarray, W: np.ndarray, wg: np.ndarray,
                         n_groups: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cut of each wall worked out from coordinates where that is exact: the wall a
    straight two-point line or a closed rectangle with axis-parallel sides, and every
    opening of its level whose cut meets it a straight axis-parallel two-point line whose cut
    meets no other opening's.  Then the cut (GEOS's flat buffer of the opening, by EPS) is an
    upright rectangle whose corners are the opening's ends moved by EPS as GEOS moves them,
    the wall meets it along an interval of one side, and GEOS's difference is the wall's
    stretches between those intervals, each a line of its own, in the wall's direction, split
    where a ring starts and ends.  Returns per wall: decided here or not, and the cut wall
    (None: not cut, left as it is; an empty geometry: nothing left); and per opening: whether
    it was found lying on one straight segment of such a wall (as ``_on_one_segment`` finds
    an axis-parallel one; False: not looked at)."""
    nw, ns = len(W), len(S)
    decided = np.zeros(nw, dtype=bool)
    result = np.full(nw, None, dtype=object)
    on_wall = np.zeros(ns, dtype=bool)
    if not nw or not ns:
        return decided, result, on_wall
    # ---- openings: axis-parallel two-point lines and the rectangles GEOS cuts with
    ok_s = (shapely.get_type_id(S) == 1) & (shapely.get_num_coordinates(S) == 2)
    sxy = np.zeros((ns, 2, 2))
    sxy[ok_s] = shapely.get_coordinates(S[ok_s]).reshape(-1, 2, 2)
    a, b = sxy[:, 0], sxy[:, 1]
    dx, dy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    ok_s &= ((dx == 0) != (dy == 0))
    with np.errstate(invalid="ignore", divide="ignore"):
        # OffsetSegmentGenerator::computeOffsetSegment: sideSign * distance * d / len
        length = np.sqrt(dx * dx + dy * dy)
        ex = (EPS * np.abs(dy)) / length  # how far the cut's long sides lie off a vertical
        ey = (EPS * np.abs(dx)) / length  # ... or a horizontal opening
    ex[~ok_s] = 0.0
    ey[~ok_s] = 0.0
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    rx0, rx1 = lo[:, 0] - ex, hi[:, 0] + ex
    ry0, ry1 = lo[:, 1] - ey, hi[:, 1] + ey
    # a level with an opening of another shape: its walls are left to GEOS
    bad_group = np.zeros(n_groups, dtype=bool)
    bad_group[sg[~ok_s]] = True
    # an opening another one of its level crosses, meets inside it or overlaps is split by
    # the union, and GEOS's buffer then moves the pieces' sides by their own rounding: left
    # to GEOS where that matters.  Ends meeting (at a corner or in line) split nothing.  An
    # axis-parallel opening is its own box, so boxes meeting is lines meeting
    i, j = shapely.STRtree(S).query(S)
    pair = (i != j) & (sg[i] == sg[j]) & ok_s[i] & ok_s[j]
    i, j = i[pair], j[pair]
    hi_ = dy[i] == 0  # i horizontal
    perp = hi_ != (dy[j] == 0)
    # perpendicular: the crossing point, inside i (not one of its ends)?
    cross = np.where(hi_, a[j, 0], a[j, 1])  # j's fixed coordinate, along i
    inside = perp & (cross != a[i, np.where(hi_, 0, 1)]) & (cross != b[i, np.where(hi_, 0, 1)])
    # in line: overlapping along a stretch?
    ax_i = np.where(hi_, 0, 1)
    over = ~perp & (np.minimum(hi[i, ax_i], hi[j, ax_i]) > np.maximum(lo[i, ax_i], lo[j, ax_i]))
    tangled = np.zeros(ns, dtype=bool)
    tangled[i[inside | over]] = True
    # ---- walls: two-point axis-parallel lines and axis-parallel rectangles (closed)
    tid = shapely.get_type_id(W)
    nc = shapely.get_num_coordinates(W)
    ok_w = (tid == 1) & ((nc == 2) | (nc == 5)) & ~bad_group[wg]
    cand = np.nonzero(ok_w)[0]
    xy, owner = shapely.get_coordinates(W[cand], return_index=True)
    first = np.searchsorted(owner, np.arange(len(cand)))
    ncw = nc[cand]
    seg_p = np.ones(len(xy), dtype=bool)
    seg_p[first + ncw - 1] = False  # a segment starts at every point but each wall's last
    k = np.nonzero(seg_p)[0]
    P, Q = xy[k], xy[k + 1]
    seg_w = cand[owner[k]]
    horiz = (P[:, 1] == Q[:, 1]) & (P[:, 0] != Q[:, 0])
    vert = (P[:, 0] == Q[:, 0]) & (P[:, 1] != Q[:, 1])
    good = np.ones(nw, dtype=bool)
    np.logical_and.at(good, seg_w, horiz | vert)
    rect = ncw == 5
    if rect.any():
        r = np.nonzero(rect)[0]
        pts = xy[first[r][:, None] + np.arange(5)]
        closed = (pts[:, 0] == pts[:, 4]).all(axis=1)
        h = pts[:, 1:, 1] == pts[:, :-1, 1]
        alt = (h[:, 0] != h[:, 1]) & (h[:, 1] != h[:, 2]) & (h[:, 2] != h[:, 3])
        two = ((pts[:, :4, 0] == pts[:, :1, 0]).sum(axis=1) == 2) \
            & ((pts[:, :4, 1] == pts[:, :1, 1]).sum(axis=1) == 2)
        good[cand[r]] &= closed & alt & two
    ok_w[cand] &= good[cand]
    # ---- wall/opening pairs of a level whose boxes meet
    wb = shapely.bounds(W)
    ws = np.searchsorted(wg, np.arange(n_groups))
    nwg = np.searchsorted(wg, np.arange(n_groups), side="right") - ws
    ss = np.searchsorted(sg, np.arange(n_groups))
    nsg = np.searchsorted(sg, np.arange(n_groups), side="right") - ss
    per = nwg * nsg
    tot = int(per.sum())
    grp = np.repeat(np.arange(n_groups), per)
    q = np.arange(tot) - np.repeat(np.cumsum(per) - per, per)
    pw = ws[grp] + q // np.maximum(nsg[grp], 1)
    ps = ss[grp] + q % np.maximum(nsg[grp], 1)
    # (boxes widened a little: a tangled opening's sides may lie an ulp off ours)
    meet = (wb[pw, 0] <= rx1[ps] + 1e-9) & (wb[pw, 2] >= rx0[ps] - 1e-9) \
        & (wb[pw, 1] <= ry1[ps] + 1e-9) & (wb[pw, 3] >= ry0[ps] - 1e-9)
    pw, ps = pw[meet], ps[meet]
    decided[:] = ok_w
    keep = ok_w[pw]
    pw, ps = pw[keep], ps[keep]
    if not len(pw):
        return decided, result, on_wall
    # ---- every segment of those walls against each rectangle: the interval they share
    seg_first = np.searchsorted(seg_w, np.arange(nw))  # seg_w is sorted by wall
    seg_n = np.searchsorted(seg_w, np.arange(nw), side="right") - seg_first
    # a place on a wall is (segment, coordinate along it times the segment's direction):
    # compared as a pair of exact values, never as a length so far (which would round away
    # differences of an ulp)
    seg_k = np.arange(len(P)) - seg_first[seg_w]
    seg_ax = np.where(horiz, 0, 1)
    seg_sign = np.sign(Q - P)[np.arange(len(P)), seg_ax]
    seg_v0 = P[np.arange(len(P)), seg_ax] * seg_sign
    seg_v1 = Q[np.arange(len(P)), seg_ax] * seg_sign
    n = seg_n[pw]
    rs = np.repeat(ps, n)
    rseg = np.repeat(seg_first[pw] - np.cumsum(n) + n, n) + np.arange(int(n.sum()))
    p, qq = P[rseg], Q[rseg]
    hz = horiz[rseg]
    ax = np.where(hz, 0, 1)  # the axis the segment runs along
    fixed = np.where(hz, p[:, 1], p[:, 0])
    f_lo = np.where(hz, ry0[rs], rx0[rs])
    f_hi = np.where(hz, ry1[rs], rx1[rs])
    s_lo = np.minimum(p, qq)[np.arange(len(p)), ax]
    s_hi = np.maximum(p, qq)[np.arange(len(p)), ax]
    c_lo = np.maximum(np.where(hz, rx0[rs], ry0[rs]), s_lo)
    c_hi = np.minimum(np.where(hz, rx1[rs], ry1[rs]), s_hi)
    on = (f_lo <= fixed) & (fixed <= f_hi) & (c_lo <= c_hi)
    # a rectangle touching a wall at one point (GEOS splits the wall there), or a tangled
    # opening's cut anywhere but along its own line (where only its ends count): left to GEOS
    rw = seg_w[rseg]
    along = (hz == (dy[rs] == 0)) & (fixed == np.where(hz, a[rs, 1], a[rs, 0]))
    on_wall[rs[along & (lo[rs, ax] >= s_lo) & (hi[rs, ax] <= s_hi)]] = True
    unsure = (on & (c_lo == c_hi)) | (tangled[rs] & ~along)
    if unsure.any():
        decided[rw[unsure]] = False
    on &= decided[rw]
    rw, rseg, c_lo, c_hi, fixed, hz, p = rw[on], rseg[on], c_lo[on], c_hi[on], fixed[on], hz[on], p[on]
    if not len(rw):
        return decided, result, on_wall
    sign = seg_sign[rseg]
    d_lo = c_lo * sign
    d_hi = c_hi * sign
    fwd = sign > 0
    last = seg_n[rw] - 1

    def place(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(segment, distance) with a segment's end read as the next one's start."""
        k = seg_k[rseg].copy()
        end = (d == seg_v1[rseg]) & (k < last)
        k[end] += 1
        return k, np.where(end, seg_v0[np.minimum(rseg + 1, len(P) - 1)], d)

    k0, d0 = place(np.where(fwd, d_lo, d_hi))
    k1, d1 = place(np.where(fwd, d_hi, d_lo))
    v0 = np.where(fwd, c_lo, c_hi)  # the coordinate along the segment at the start, and end
    v1 = np.where(fwd, c_hi, c_lo)
    pt0 = np.where(hz[:, None], np.column_stack([v0, fixed]), np.column_stack([fixed, v0]))
    pt1 = np.where(hz[:, None], np.column_stack([v1, fixed]), np.column_stack([fixed, v1]))

    def after(ka, da, kb, db):
        return (ka > kb) | ((ka == kb) & (da > db))

    # ---- per wall, the intervals merged; the stretches between them are what is left
    order = np.lexsort((d1, k1, d0, k0, rw))
    rw, k0, d0, k1, d1, pt0, pt1 = (x[order] for x in (rw, k0, d0, k1, d1, pt0, pt1))
    m = len(rw)
    pos = np.arange(m) - np.searchsorted(rw, rw)
    best = np.arange(m)  # per row, the row whose interval ends last so far in its wall
    step = 1
    while step <= int(pos.max()):
        i = np.nonzero(pos >= step)[0]
        other = best[i - step]
        better = after(k1[other], d1[other], k1[best[i]], d1[best[i]])
        best[i[better]] = other[better]
        step *= 2
    prev = best[np.maximum(np.arange(m) - 1, 0)]
    opens = (pos == 0) | after(k0, d0, k1[prev], d1[prev])  # a merged interval starts here
    starts = np.nonzero(opens)[0]
    ends = best[np.append(starts[1:], m) - 1]  # the row its end comes from
    iw = rw[starts]
    # stretches: wall start -> first interval, between intervals, last interval -> wall end
    wfirst = xy[first]  # the first and last point of each candidate wall
    wlast = xy[first + ncw - 1]
    slot = np.full(nw, -1)
    slot[cand] = np.arange(len(cand))
    newwall = np.ones(len(iw), dtype=bool)
    newwall[1:] = iw[1:] != iw[:-1]
    tail = np.nonzero(np.append(newwall[1:], True))[0]
    before = np.roll(ends, 1)
    wk = seg_n[iw[tail]] - 1
    s_w = np.concatenate([iw, iw[tail]])
    st_k = np.concatenate([np.where(newwall, 0, k1[before]), k1[ends[tail]]])
    st_d = np.concatenate([np.where(newwall, seg_v0[seg_first[iw]], d1[before]), d1[ends[tail]]])
    st_p = np.concatenate([np.where(newwall[:, None], wfirst[slot[iw]], pt1[before]),
                           pt1[ends[tail]]])
    en_k = np.concatenate([k0[starts], wk])
    en_d = np.concatenate([d0[starts], seg_v1[seg_first[iw[tail]] + wk]])
    en_p = np.concatenate([pt0[starts], wlast[slot[iw[tail]]]])
    o = np.lexsort((st_d, st_k, s_w))
    live = after(en_k[o], en_d[o], st_k[o], st_d[o])
    o = o[live]
    s_w, st_k, st_d, st_p, en_k, en_d, en_p = (x[o] for x in (s_w, st_k, st_d, st_p, en_k, en_d, en_p))
    # the walls' inner points go to the stretch holding them (strictly inside it)
    cut_walls = np.unique(rw)
    inner = np.nonzero(np.isin(seg_w, cut_walls) & (seg_k > 0))[0]
    # events sorted by wall, place, then end (0) < inner point (1) < start (2)
    ns_ = len(s_w)
    ev_w = np.concatenate([s_w, seg_w[inner], s_w])
    ev_k = np.concatenate([st_k, seg_k[inner], en_k])
    ev_d = np.concatenate([st_d, seg_v0[inner], en_d])
    kind = np.concatenate([np.full(ns_, 2), np.ones(len(inner), dtype=np.int64),
                           np.zeros(ns_, dtype=np.int64)])
    ev_p = np.concatenate([st_p, P[inner], en_p])
    o = np.lexsort((kind, ev_d, ev_k, ev_w))
    kind, ev_p = kind[o], ev_p[o]
    depth = np.cumsum(np.where(kind == 2, 1, np.where(kind == 0, -1, 0)))
    take = (kind != 1) | (depth == 1)
    piece = np.cumsum(kind == 2) - 1
    lines = shapely.linestrings(ev_p[take], indices=piece[take])
    count = np.bincount(s_w, minlength=nw)
    for w in cut_walls.tolist():
        result[w] = shapely.LineString() if not count[w] else None
    single = np.nonzero(count[s_w] == 1)[0]
    for w, g in zip(s_w[single].tolist(), lines[single].tolist()):
        result[w] = g
    multi = np.nonzero(count[s_w] > 1)[0]
    if len(multi):
        uw, mi = np.unique(s_w[multi], return_inverse=True)
        made = shapely.multilinestrings(lines[multi], indices=mi)
        for w, g in zip(uw.tolist(), made.tolist()):
            result[w] = g
    return decided, result, on_wall


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


def upright_boxes(clips: np.ndarray) -> np.ndarray:
    """Per clip, its bounds if it is an axis-parallel rectangle (a polygon without holes,
    four corners, every side upright or level), NaN (nothing passes a bounds test) else."""
    out = np.full((len(clips), 4), np.nan)
    if not len(clips):
        return out
    ok = (shapely.get_type_id(clips) == 3) & (shapely.get_num_interior_rings(clips) == 0)
    ok[ok] &= shapely.get_num_coordinates(clips[ok]) == 5
    if ok.any():
        xy = shapely.get_coordinates(shapely.get_exterior_ring(clips[ok])).reshape(-1, 5, 2)
        d = np.diff(xy, axis=1)
        sides = ((d[:, :, 0] == 0) != (d[:, :, 1] == 0)).all(axis=1)
        distinct = (np.diff(np.sort(xy, axis=1), axis=1) != 0).sum(axis=1) + 1
        two = (distinct == 2).all(axis=1)  # two different x, two different y
        good = np.nonzero(ok)[0][sides & two]
        out[good] = shapely.bounds(clips[good])
    return out


def contains_xy(geoms: np.ndarray, boxes: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``shapely.contains_xy(geoms, x, y)`` (the point strictly inside), settled on coordinates
    where the geometry is an upright rectangle (``boxes``: its row of :func:`upright_boxes`
    per point; one geometry and one row: for every point): its inside is the open box,
    exactly."""
    if len(boxes) == 1:
        b = boxes[0]
        if np.isnan(b[0]):
            return shapely.contains_xy(geoms[0], x, y)
        return (x > b[0]) & (x < b[2]) & (y > b[1]) & (y < b[3])
    rect = ~np.isnan(boxes[:, 0])
    out = np.empty(len(x), dtype=bool)
    bx = boxes[rect]
    xr, yr = x[rect], y[rect]
    out[rect] = (xr > bx[:, 0]) & (xr < bx[:, 2]) & (yr > bx[:, 1]) & (yr < bx[:, 3])
    rest = np.nonzero(~rect)[0]
    if len(rest):
        out[rest] = shapely.contains_xy(geoms[rest], x[rest], y[rest])
    return out


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
    inside = contains_xy(fps[idx], upright_boxes(fps[live])[box], pts[:, 0], pts[:, 1])
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
