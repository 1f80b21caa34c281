"""Which steps between neighbouring lattice dots touch which features, found with arrays.

The movement graph needs, for every feature that hinders movement, the steps whose straight
segment (dot centre to dot centre) touches it, and for each such step whether it starts
inside the feature.  Building one shapely segment and one tree query per candidate step costs
seconds on a big city; here the features are cut into their straight pieces instead (lines
and polygon rings, from ``shapely.get_coordinates``), each piece lists the lattice cells it
passes through, each cell the few steps that lie in it, and every (step, piece) pair is tested
with orientation signs in numpy.  A polygon also holds the steps with an end strictly inside it
(``shapely.contains_xy`` on the dots of its box, once per polygon).

Exact as shapely's ``intersects`` and ``contains``: an orientation sign is taken from floats
only when it is certain (beyond Shewchuk's error bound, or computed exactly because every
coordinate is a small multiple of 1/8); the few pairs left undecided are asked of shapely.

Dots are handled as ``(X, row)`` integers: ``X`` is the column on a square lattice and twice
the x of the dot's centre on a hex lattice (odd rows are shifted by half a dot), so the
neighbours of every dot have the same offsets.
"""

from __future__ import annotations

import numpy as np
import shapely

from engine.lattice import SQRT3_2, Lattice

_EPS = 1e-7  # cell margin: a piece on a cell's edge lists the cells on both sides


def _fwd(hexl: bool) -> np.ndarray:
    """(dX, dr) of the steps towards the later row, then column; index = the step's code."""
    if hexl:
        return np.array([[2, 0], [-1, 1], [0, 0], [1, 1]], dtype=np.int64)  # code 2 unused
    return np.array([[1, 0], [-1, 1], [0, 1], [1, 1]], dtype=np.int64)


def step_codes(lat: Lattice) -> np.ndarray:
    """(column, row) offset from the first dot of a step to its second, per (row parity of the
    first dot, step code); code 2 of a hex lattice is no step (0, 0).  One table per lattice
    (read-only: a drag asks it per unit)."""
    got = _STEP_CODES.get(lat.name)
    if got is not None:
        return got
    hexl = lat.name == "hex"
    fwd = _fwd(hexl)
    out = np.zeros((2, 4, 2), dtype=np.int64)
    for par in (0, 1):
        X = np.full(4, par)  # column 0 of a row of this parity
        bX, br = X + fwd[:, 0], par + fwd[:, 1]
        out[par, :, 0] = _col(hexl, bX, br) - _col(hexl, X, np.full(4, par))
        out[par, :, 1] = fwd[:, 1]
    if hexl:
        out[:, 2] = 0
    out.flags.writeable = False
    _STEP_CODES[lat.name] = out
    return out


_STEP_CODES: dict[str, np.ndarray] = {}


def _xy(hexl: bool, X: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """World point of dots (X, row): the same floats :meth:`Lattice.points` gives."""
    if hexl:
        return X * 0.5, r * SQRT3_2
    return X.astype(float), r.astype(float)


def _col(hexl: bool, X: np.ndarray, r: np.ndarray) -> np.ndarray:
    return (X - (r & 1)) // 2 if hexl else X


def _segments(geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Straight pieces of the geometries' lines and polygon rings (a point is a piece of no
    length): (start (K, 2), end (K, 2), owner index (K,)), and which geometries are polygonal."""
    idx = np.arange(len(geoms))
    parts = geoms
    while True:
        multi = shapely.get_type_id(parts) >= 4
        if not multi.any():
            break
        sub, k = shapely.get_parts(parts[multi], return_index=True)
        parts = np.concatenate([parts[~multi], sub])
        idx = np.concatenate([idx[~multi], idx[multi][k]])
    kind = shapely.get_type_id(parts)
    poly = kind == 3
    polygonal = np.zeros(len(geoms), dtype=bool)
    polygonal[idx[poly]] = True
    rings, k = shapely.get_rings(parts[poly], return_index=True)
    lines = np.concatenate([parts[~poly], rings])
    owner = np.concatenate([idx[~poly], idx[poly][k]])
    xy, k = shapely.get_coordinates(lines, return_index=True)
    if not len(xy):
        z = np.zeros((0, 2))
        return z, z, np.zeros(0, dtype=np.int64), polygonal
    same = np.nonzero(k[1:] == k[:-1])[0]
    count = np.bincount(k, minlength=len(lines))
    single = np.nonzero(count[k] == 1)[0]
    a = np.concatenate([same, single])
    b = np.concatenate([same + 1, single])
    return xy[a], xy[b], owner[k[a]].astype(np.int64), polygonal


def _cells(hexl: bool, p: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(piece, cell column, cell row) of every lattice cell each piece p-q passes through (a
    few more near its ends).  Square cells are the unit squares between dots; hex cells are
    half a dot wide (in X) and one row pitch high.  A piece is split into as many parts as
    it crosses rows or columns, whichever is fewer, and each part lists the cells of its box."""
    if hexl:
        u0, u1, v0, v1 = 2 * p[:, 0], 2 * q[:, 0], p[:, 1] / SQRT3_2, q[:, 1] / SQRT3_2
    else:
        u0, u1, v0, v1 = p[:, 0], q[:, 0], p[:, 1], q[:, 1]
    n_part = (np.floor(np.minimum(np.abs(u1 - u0), np.abs(v1 - v0))) + 1).astype(np.int64)
    seg = np.repeat(np.arange(len(p)), n_part)
    m = np.arange(len(seg)) - np.repeat(np.cumsum(n_part) - n_part, n_part)
    t0, t1 = m / n_part[seg], (m + 1) / n_part[seg]
    du, dv = (u1 - u0)[seg], (v1 - v0)[seg]
    a_u, b_u = u0[seg] + du * t0, u0[seg] + du * t1
    a_v, b_v = v0[seg] + dv * t0, v0[seg] + dv * t1
    i0 = np.floor(np.minimum(a_u, b_u) - _EPS).astype(np.int64)
    i1 = np.floor(np.maximum(a_u, b_u) + _EPS).astype(np.int64)
    j0 = np.floor(np.minimum(a_v, b_v) - _EPS).astype(np.int64)
    j1 = np.floor(np.maximum(a_v, b_v) + _EPS).astype(np.int64)
    ni = i1 - i0 + 1
    nc = ni * (j1 - j0 + 1)
    part = np.repeat(np.arange(len(seg)), nc)
    ll = np.arange(len(part)) - np.repeat(np.cumsum(nc) - nc, nc)
    return seg[part], i0[part] + ll % ni[part], j0[part] + ll // ni[part]


def _cell_steps(hexl: bool, i: np.ndarray, j: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The steps lying in each cell, as (X, row, code) of their earlier end, one block per
    kind of step (so row k of every block belongs to cell k); returns also the block count."""
    if hexl:
        on = ((i - (j & 1)) & 1) == 0  # the cell's left edge holds a dot of row j
        # the diagonal between rows j and j + 1; the step along row j over the cell
        X = np.concatenate([np.where(on, i, i + 1), np.where(on, i, i - 1)])
        r = np.concatenate([j, j])
        code = np.concatenate([np.where(on, 3, 1), np.zeros(len(i), dtype=np.int64)])
        return X, r, code, 2
    X = np.concatenate([i, i, i, i + 1])
    r = np.concatenate([j, j, j, j])
    code = np.repeat(np.array([0, 2, 3, 1], dtype=np.int64), len(i))
    return X, r, code, 4


def _orient(ax, ay, bx, by, cx, cy, exact):  # noqa: ANN001, ANN202 - arrays only
    """Sign of the turn a -> b -> c: -1, 0 or 1, and whether that sign is certain: beyond
    the error bound, computed exactly, or one product zero (a float difference is zero only
    when the two coordinates are equal and keeps the sign of the true one otherwise, so the
    other product's sign is the true determinant's)."""
    u, v, s, t = bx - ax, cy - ay, by - ay, cx - ax
    left, right = u * v, s * t
    det = left - right
    sure = (exact | (u == 0) | (v == 0) | (s == 0) | (t == 0)
            | (np.abs(det) > 1e-15 * (np.abs(left) + np.abs(right))))
    return np.sign(det), sure


def _small_dyadic(v: np.ndarray) -> np.ndarray:
    """Coordinates on which the orientation's float arithmetic is exact."""
    w = v * 8
    return (w == np.floor(w)) & (np.abs(v) < 2.0 ** 20)


def _half(v: np.ndarray) -> np.ndarray:
    """Coordinates exactly halfway between two dot rows (or columns) of a square lattice."""
    return (np.mod(2 * v, 2) == 1) & (np.abs(v) < 2.0 ** 40)


def _half_line_hits(p: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, ...]:
    """The pieces of a square lattice lying along a line halfway between two rows of dots (or
    columns), where walls are drawn, and the steps they touch, found without any test: such
    a line meets only the steps that cross it, each at a point whose coordinate along the
    line is a whole or half number (exact in floats), so a step touches the piece exactly
    when that point lies between the piece's ends.

    Returns which pieces are of that kind and the hits as (piece, X, row, code) of
    :func:`_cell_steps`."""
    horiz = (p[:, 1] == q[:, 1]) & _half(p[:, 1])
    vert = ~horiz & (p[:, 0] == q[:, 0]) & _half(p[:, 0])
    out: list[tuple[np.ndarray, ...]] = []
    for sel, along, across in ((horiz, 0, 1), (vert, 1, 0)):
        k = np.nonzero(sel)[0]
        lo = np.minimum(p[k, along], q[k, along])
        hi = np.maximum(p[k, along], q[k, along])
        line = np.floor(p[k, across]).astype(np.int64)  # the line is ``line + 0.5``
        first = np.floor(lo).astype(np.int64) - 1
        n = np.ceil(hi).astype(np.int64) - first + 2
        piece = np.repeat(k, n)
        loc = np.repeat(np.arange(len(k)), n)
        t = first[loc] + np.arange(len(piece)) - np.repeat(np.cumsum(n) - n, n)
        lo_, hi_, at = lo[loc], hi[loc], line[loc]
        straight = (lo_ <= t) & (t <= hi_)  # the step across the line at ``t``
        mid = t + 0.5
        diag = (lo_ <= mid) & (mid <= hi_)  # the two diagonals crossing at ``t + 0.5``
        if along == 0:  # a row line: vertical steps (code 2) and diagonals from row ``at``
            cols = (t[straight], t[diag], t[diag] + 1)
            rows = (at[straight], at[diag], at[diag])
        else:  # a column line: steps along rows (code 0) and diagonals from column ``at``
            cols = (at[straight], at[diag], at[diag] + 1)
            rows = (t[straight], t[diag], t[diag])
        codes = (2 if along == 0 else 0, 3, 1)
        for m, X, r, code in zip((straight, diag, diag), cols, rows, codes):
            out.append((piece[m], X, r, np.full(len(X), code, dtype=np.int64)))
    parts = [np.concatenate(x) for x in zip(*out)]
    return horiz | vert, *parts


def step_hits(lat: Lattice, geoms: np.ndarray, sides: bool = True) -> tuple[np.ndarray, ...]:
    """Every lattice step (pair of neighbouring dots) whose segment intersects one of
    ``geoms``, once per (step, geometry): (first dots (K, 2) as (column, row), second dots
    (K, 2), geometry index (K,), first dot inside the geometry (K,), second dot inside (K,)),
    "inside" as ``shapely.contains``.  Sorted by (geometry, first dot, step).

    ``sides=False`` (geometries that block every step they touch): only (first dots, second
    dots, geometry index, the step's code: its index in :func:`step_codes`), in no order, a
    pair possibly more than once."""
    hexl = lat.name == "hex"
    fwd = _fwd(hexl)
    p, q, owner, polygonal = _segments(geoms)
    fast_f = fast_X = fast_r = fast_c = np.zeros(0, dtype=np.int64)
    if not hexl and len(p):
        fast, piece, fast_X, fast_r, fast_c = _half_line_hits(p, q)
        fast_f = owner[piece]
        p, q, owner = p[~fast], q[~fast], owner[~fast]
    seg, ci, cj = _cells(hexl, p, q)
    X, r, code, blocks = _cell_steps(hexl, ci, cj)
    seg = np.tile(seg, blocks)
    X2, r2 = X + fwd[code, 0], r + fwd[code, 1]
    ax, ay = _xy(hexl, X, r)
    bx, by = _xy(hexl, X2, r2)
    p1, p2 = p[seg], q[seg]
    # per point: its orientation with two others is computed exactly when all three are
    exact_ab = _small_dyadic(ax) & _small_dyadic(ay) & _small_dyadic(bx) & _small_dyadic(by)
    exact_p, exact_q = _small_dyadic(p).all(axis=1)[seg], _small_dyadic(q).all(axis=1)[seg]
    box = ((np.maximum(np.minimum(ax, bx), np.minimum(p1[:, 0], p2[:, 0]))
            <= np.minimum(np.maximum(ax, bx), np.maximum(p1[:, 0], p2[:, 0])))
           & (np.maximum(np.minimum(ay, by), np.minimum(p1[:, 1], p2[:, 1]))
              <= np.minimum(np.maximum(ay, by), np.maximum(p1[:, 1], p2[:, 1]))))
    s1, k1 = _orient(ax, ay, bx, by, p1[:, 0], p1[:, 1], exact_ab & exact_p)
    s2, k2 = _orient(ax, ay, bx, by, p2[:, 0], p2[:, 1], exact_ab & exact_q)
    exact_pq = exact_p & exact_q
    s3, k3 = _orient(p1[:, 0], p1[:, 1], p2[:, 0], p2[:, 1], ax, ay, exact_pq & exact_ab)
    s4, k4 = _orient(p1[:, 0], p1[:, 1], p2[:, 0], p2[:, 1], bx, by, exact_pq & exact_ab)
    apart = ~box | (k1 & k2 & (s1 * s2 > 0)) | (k3 & k4 & (s3 * s4 > 0))
    meet = box & k1 & k2 & k3 & k4 & (s1 * s2 <= 0) & (s3 * s4 <= 0)
    ask = np.nonzero(~apart & ~meet)[0]
    if len(ask):  # too close to call in floats: shapely decides, on the whole geometry
        seg_a = shapely.linestrings(np.stack([np.column_stack([ax[ask], ay[ask]]),
                                              np.column_stack([bx[ask], by[ask]])], axis=1))
        meet[ask] = shapely.intersects(seg_a, geoms[owner[seg[ask]]])
    hit = np.nonzero(meet)[0]
    lin = ~polygonal[owner[seg[hit]]]
    # an end of the step may lie on a line (a dot on a diagonal wall): shapely says whether
    # it is inside it (not at its ends)
    maybe_a = hit[lin & ((s3[hit] == 0) | ~k3[hit])]
    maybe_b = hit[lin & ((s4[hit] == 0) | ~k4[hit])]
    hit_f = np.concatenate([owner[seg[hit]], fast_f])
    hX, hr, hc = (np.concatenate([v[hit], w]) for v, w in
                  ((X, fast_X), (r, fast_r), (code, fast_c)))

    # polygons: their dots strictly inside, and the steps with an end there
    pg = np.nonzero(polygonal)[0]
    in_f = np.zeros(0, dtype=np.int64)
    in_X = in_r = in_f
    if len(pg):
        b = shapely.bounds(geoms[pg])
        if hexl:
            rr0 = np.ceil(b[:, 1] / SQRT3_2 - 1e-9).astype(np.int64)
            rr1 = np.floor(b[:, 3] / SQRT3_2 + 1e-9).astype(np.int64)
            xx0 = np.ceil(2 * b[:, 0] - 1e-9).astype(np.int64)
            xx1 = np.floor(2 * b[:, 2] + 1e-9).astype(np.int64)
        else:
            rr0, rr1 = np.ceil(b[:, 1]).astype(np.int64), np.floor(b[:, 3]).astype(np.int64)
            xx0, xx1 = np.ceil(b[:, 0]).astype(np.int64), np.floor(b[:, 2]).astype(np.int64)
        nx = np.maximum(xx1 - xx0 + 1, 0)
        nn = nx * np.maximum(rr1 - rr0 + 1, 0)
        k = np.repeat(np.arange(len(pg)), nn)
        ll = np.arange(len(k)) - np.repeat(np.cumsum(nn) - nn, nn)
        cX, cr = xx0[k] + ll % nx[k], rr0[k] + ll // nx[k]
        if hexl:
            ok = ((cX - cr) & 1) == 0
            k, cX, cr = k[ok], cX[ok], cr[ok]
        px, py = _xy(hexl, cX, cr)
        inside = shapely.contains_xy(geoms[pg][k], px, py)
        in_f, in_X, in_r = pg[k[inside]], cX[inside], cr[inside]
        codes = [0, 1, 3] if hexl else [0, 1, 2, 3]
        for cd in codes:  # the steps from an inside dot, and into it
            dX, dr = fwd[cd]
            hX = np.concatenate([hX, in_X, in_X - dX])
            hr = np.concatenate([hr, in_r, in_r - dr])
            hc = np.concatenate([hc, np.full(2 * len(in_X), cd, dtype=np.int64)])
            hit_f = np.concatenate([hit_f, in_f, in_f])

    if not sides:
        bX, br = hX + fwd[hc, 0], hr + fwd[hc, 1]
        return (np.column_stack([_col(hexl, hX, hr), hr]),
                np.column_stack([_col(hexl, bX, br), br]), hit_f, hc)
    # one row per (geometry, step): keys over the box of every dot involved
    empty = np.zeros((0, 2), dtype=np.int64)
    if not len(hX):
        z = np.zeros(0, dtype=bool)
        return empty, empty, np.zeros(0, dtype=np.int64), z, z
    x0, r0 = int(hX.min()) - 2, int(hr.min()) - 1
    wx, hy = int(hX.max()) - x0 + 3, int(hr.max()) - r0 + 2
    ndot = wx * hy

    def dot_key(XX: np.ndarray, rr: np.ndarray) -> np.ndarray:
        return (rr - r0) * wx + (XX - x0)

    def key(f: np.ndarray, XX: np.ndarray, rr: np.ndarray, cc: np.ndarray) -> np.ndarray:
        return (f * ndot + dot_key(XX, rr)) * 4 + cc

    all_keys = key(hit_f, hX, hr, hc)
    uk = np.sort(all_keys)
    uk = uk[np.concatenate([[True], uk[1:] != uk[:-1]])] if len(uk) else uk
    f = uk // (4 * ndot)
    rest = uk % (4 * ndot)
    cd = rest % 4
    d = rest // 4
    aX, ar = d % wx + x0, d // wx + r0
    bX, br = aX + fwd[cd, 0], ar + fwd[cd, 1]
    ins_a = np.zeros(len(uk), dtype=bool)
    ins_b = np.zeros(len(uk), dtype=bool)
    if len(in_f):
        inside_keys = np.sort(in_f * ndot + dot_key(in_X, in_r))
        for ins, XX, rr in ((ins_a, aX, ar), (ins_b, bX, br)):
            kk = f * ndot + dot_key(XX, rr)
            at = np.minimum(np.searchsorted(inside_keys, kk), len(inside_keys) - 1)
            ins |= inside_keys[at] == kk
    for ins, maybe, XX, rr in ((ins_a, maybe_a, aX, ar), (ins_b, maybe_b, bX, br)):
        if not len(maybe):
            continue
        need = np.nonzero(np.isin(uk, key(owner[seg[maybe]], X[maybe], r[maybe], code[maybe])))[0]
        if len(need):
            px, py = _xy(hexl, XX[need], rr[need])
            ins[need] = shapely.contains(geoms[f[need]], shapely.points(px, py))
    a = np.column_stack([_col(hexl, aX, ar), ar])
    b = np.column_stack([_col(hexl, bX, br), br])
    return a, b, f, ins_a, ins_b
