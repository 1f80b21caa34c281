"""Dot lattices: where dots sit, who their neighbours are, how far apart they are.

Two lattices are supported (SPEC section 2):

* ``square``: dot (c, r) sits at point (c, r); 8 neighbours; Chebyshev distance; a dot's cell
  is the unit square centred on it.
* ``hex``: odd rows are shifted right by half a spacing, row pitch sqrt(3)/2; 6 neighbours; hex
  distance; a dot's cell is its (pointy-top) hexagon.

Placements move a sheet onto the world with a grain-preserving :class:`Transform` (mirror, then
a clockwise rotation, then a translation), so every sheet dot lands on a world dot.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

SQRT3_2 = math.sqrt(3.0) / 2.0

#: The dot types of the whole project (engine, editor, tests import them from here):
#: a dot of one level (column, row), a dot of the board (column, row, level), and a point of
#: the world frame in dot units.
Dot = tuple[int, int]
Dot3 = tuple[int, int, int]
Point = tuple[float, float]


class Lattice(ABC):
    """Base class; use :func:`get_lattice` to obtain the shared instances."""

    name: str = ""
    rotation_step: int = 90

    @abstractmethod
    def point(self, dot: Dot) -> Point:
        """Where a dot sits, in dot spacings."""

    @abstractmethod
    def points(self, dots: np.ndarray) -> np.ndarray:
        """Vectorised :meth:`point` for an (N, 2) integer array."""

    @abstractmethod
    def dot_at(self, p: Point) -> Dot:
        """The dot whose cell contains point ``p`` (nearest dot)."""

    @abstractmethod
    def neighbours(self, dot: Dot) -> list[Dot]:
        """The dots one step away (8 on a square lattice, 6 on a hex one)."""

    @abstractmethod
    def distance(self, a: Dot, b: Dot) -> int:
        """Range in dots: the fewest steps from ``a`` to ``b``."""

    @abstractmethod
    def distances(self, a: Dot, dots: np.ndarray) -> np.ndarray:
        """Vectorised :meth:`distance` from ``a`` to each of an (N, 2) array of dots."""

    @abstractmethod
    def cell(self, dot: Dot) -> list[Point]:
        """Polygon (list of points) of the dot's cell."""

    @abstractmethod
    def dots_in_box(self, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        """All dots whose points lie in the closed box, as an (N, 2) int array."""

    # ------------------------------------------------------------ the crossed-cells rule
    def _cell_edges(self) -> tuple[np.ndarray, np.ndarray]:
        """(offsets of each cell edge's start, unit outward normals) relative to the centre;
        every cell of a lattice has the same shape."""
        got = self.__dict__.get("_edges_cache")
        if got is None:
            v = np.asarray(self.cell((0, 0)), dtype=float) - np.asarray(self.point((0, 0)))
            e = np.roll(v, -1, axis=0) - v
            n = np.column_stack([e[:, 1], -e[:, 0]])
            n /= np.linalg.norm(n, axis=1)[:, None]
            flip = (n * (-v)).sum(axis=1) > 0  # make every normal point away from the centre
            n[flip] *= -1
            got = self.__dict__["_edges_cache"] = (v, n)
        return got

    def cells_crossed(self, o: np.ndarray, t: np.ndarray, c: np.ndarray) -> np.ndarray:
        """THE crossed-cells rule: does the segment o->t pass through the (closed) cell centred
        on point c with positive length?  Touching a corner is not crossing; running along the
        edge between two cells (it happens on a hex lattice) crosses both.  All arguments are
        (N, 2) arrays of points, pairwise; exact for both lattices.
        """
        o, t, c = (np.asarray(x, dtype=float).reshape(-1, 2) for x in (o, t, c))
        v, nrm = self._cell_edges()
        d = t - o
        t0 = np.zeros(len(o))
        t1 = np.ones(len(o))
        ok = np.ones(len(o), dtype=bool)
        for p, n in zip(v, nrm):
            num = ((o - c - p) * n).sum(axis=1)  # < 0 inside this edge's half-plane
            den = (d * n).sum(axis=1)
            par = np.abs(den) < 1e-12
            ok &= ~par | (num < 1e-9)  # running along an edge is inside both cells
            with np.errstate(divide="ignore", invalid="ignore"):
                s = np.where(par, 0.0, -num / np.where(par, 1.0, den))
            t0 = np.where(~par & (den < 0), np.maximum(t0, s), t0)
            t1 = np.where(~par & (den > 0), np.minimum(t1, s), t1)
        return ok & (t1 - t0 > 1e-9)

    def crossed_dots(self, a: tuple[int, ...], b: tuple[int, ...]) -> list[Dot]:
        """Dots whose cells the open segment a-b crosses (:meth:`cells_crossed`), ends excluded,
        in order from a to b."""
        pa, pb = np.array(self.point(tuple(a[:2]))), np.array(self.point(tuple(b[:2])))
        if np.allclose(pa, pb):
            return []
        lo, hi = np.minimum(pa, pb) - 1.0, np.maximum(pa, pb) + 1.0
        cand = self.dots_in_box(lo[0], lo[1], hi[0], hi[1])
        if not len(cand):
            return []
        pts = self.points(cand)
        hit = self.cells_crossed(np.broadcast_to(pa, pts.shape), np.broadcast_to(pb, pts.shape), pts)
        ends = ((cand[:, 0] == a[0]) & (cand[:, 1] == a[1])) | ((cand[:, 0] == b[0]) & (cand[:, 1] == b[1]))
        hit &= ~ends
        along = ((pts - pa) * (pb - pa)).sum(axis=1)
        order = np.argsort(along[hit], kind="stable")
        return [(int(x), int(y)) for x, y in cand[hit][order]]


class SquareLattice(Lattice):
    name = "square"
    rotation_step = 90
    _OFFSETS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]

    def point(self, dot: Dot) -> Point:
        return (float(dot[0]), float(dot[1]))

    def points(self, dots: np.ndarray) -> np.ndarray:
        return np.asarray(dots, dtype=float).reshape(-1, 2)

    def dot_at(self, p: Point) -> Dot:
        return (int(math.floor(p[0] + 0.5)), int(math.floor(p[1] + 0.5)))

    def neighbours(self, dot: Dot) -> list[Dot]:
        c, r = dot
        return [(c + dc, r + dr) for dc, dr in self._OFFSETS]

    def distance(self, a: Dot, b: Dot) -> int:
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]))

    def distances(self, a: Dot, dots: np.ndarray) -> np.ndarray:
        d = np.asarray(dots)
        if not len(d):
            return np.zeros(0, dtype=int)
        # column by column: numpy reduces an (N, 2) array along its rows several times slower
        return np.maximum(np.abs(d[:, 0] - a[0]), np.abs(d[:, 1] - a[1]))

    def cell(self, dot: Dot) -> list[Point]:
        c, r = dot
        return [(c - 0.5, r - 0.5), (c + 0.5, r - 0.5), (c + 0.5, r + 0.5), (c - 0.5, r + 0.5)]

    def dots_in_box(self, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        cs = np.arange(math.ceil(x0), math.floor(x1) + 1)
        rs = np.arange(math.ceil(y0), math.floor(y1) + 1)
        if len(cs) == 0 or len(rs) == 0:
            return np.zeros((0, 2), dtype=int)
        cc, rr = np.meshgrid(cs, rs)
        return np.stack([cc.ravel(), rr.ravel()], axis=1).astype(int)


class HexLattice(Lattice):
    """Pointy-top hexes in 'odd-r' offset coordinates (odd rows shoved right)."""

    name = "hex"
    rotation_step = 60
    _EVEN = [(1, 0), (-1, 0), (0, -1), (-1, -1), (0, 1), (-1, 1)]
    _ODD = [(1, 0), (-1, 0), (1, -1), (0, -1), (1, 1), (0, 1)]

    def point(self, dot: Dot) -> Point:
        c, r = dot
        return (c + 0.5 * (r & 1), r * SQRT3_2)

    def points(self, dots: np.ndarray) -> np.ndarray:
        d = np.asarray(dots).reshape(-1, 2)
        return np.stack([d[:, 0] + 0.5 * (d[:, 1] & 1), d[:, 1] * SQRT3_2], axis=1)

    @staticmethod
    def to_cube(dot: Dot) -> tuple[int, int, int]:
        c, r = dot
        x = c - (r - (r & 1)) // 2
        z = r
        return (x, -x - z, z)

    @staticmethod
    def from_cube(x: int, y: int, z: int) -> Dot:
        return (x + (z - (z & 1)) // 2, z)

    def dot_at(self, p: Point) -> Dot:
        # fractional axial coordinates of a pointy-top hex of width 1, then cube rounding
        q = p[0] - p[1] / math.sqrt(3.0)
        r = p[1] / SQRT3_2
        x, z = q, r
        y = -x - z
        rx, ry, rz = round(x), round(y), round(z)
        dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
        if dx > dy and dx > dz:
            rx = -ry - rz
        elif dy > dz:
            ry = -rx - rz
        else:
            rz = -rx - ry
        return self.from_cube(int(rx), int(ry), int(rz))

    def neighbours(self, dot: Dot) -> list[Dot]:
        c, r = dot
        offs = self._ODD if r & 1 else self._EVEN
        return [(c + dc, r + dr) for dc, dr in offs]

    def distance(self, a: Dot, b: Dot) -> int:
        ax, ay, az = self.to_cube(a)
        bx, by, bz = self.to_cube(b)
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def distances(self, a: Dot, dots: np.ndarray) -> np.ndarray:
        d = np.asarray(dots).reshape(-1, 2)
        x = d[:, 0] - (d[:, 1] - (d[:, 1] & 1)) // 2
        z = d[:, 1]
        y = -x - z
        ax, ay, az = self.to_cube(a)
        return np.maximum(np.maximum(np.abs(x - ax), np.abs(y - ay)), np.abs(z - az))

    def cell(self, dot: Dot) -> list[Point]:
        cx, cy = self.point(dot)
        rad = 1.0 / math.sqrt(3.0)  # circumradius of a hex whose flat-to-flat width is 1
        return [
            (cx + rad * math.cos(math.radians(a)), cy + rad * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)
        ]

    def dots_in_box(self, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        r0, r1 = math.ceil(y0 / SQRT3_2 - 1e-9), math.floor(y1 / SQRT3_2 + 1e-9)
        out = []
        for r in range(r0, r1 + 1):
            shift = 0.5 * (r & 1)
            for c in range(math.ceil(x0 - shift - 1e-9), math.floor(x1 - shift + 1e-9) + 1):
                out.append((c, r))
        return np.array(out, dtype=int).reshape(-1, 2)


_LATTICES: dict[str, Lattice] = {"square": SquareLattice(), "hex": HexLattice()}


def get_lattice(name: str) -> Lattice:
    try:
        return _LATTICES[name]
    except KeyError:
        raise ValueError(f"unknown lattice {name!r} (expected square or hex)") from None


@dataclass(frozen=True)
class Transform:
    """An affine map x' = A x + t that keeps the dot grain (mirror, rotation, translation)."""

    a: tuple[float, float, float, float] = (1.0, 0.0, 0.0, 1.0)  # row-major 2x2
    t: tuple[float, float] = (0.0, 0.0)

    def apply(self, p: Point) -> Point:
        a, b, c, d = self.a
        return (a * p[0] + b * p[1] + self.t[0], c * p[0] + d * p[1] + self.t[1])

    def apply_many(self, pts: Iterable[Point]) -> list[Point]:
        return [self.apply(p) for p in pts]

    def apply_array(self, pts: np.ndarray) -> np.ndarray:
        m = np.array(self.a, dtype=float).reshape(2, 2)
        return np.asarray(pts, dtype=float) @ m.T + np.asarray(self.t)

    def inverse(self) -> Transform:
        a, b, c, d = self.a
        det = a * d - b * c
        ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
        tx, ty = self.t
        return Transform((ia, ib, ic, id_), (-(ia * tx + ib * ty), -(ic * tx + id_ * ty)))


def _clean(v: float) -> float:
    r = round(v)
    return float(r) if abs(v - r) < 1e-9 else v


def placement_transform(
    lattice: Lattice, size: tuple[int, int], at: tuple[int, int], rotation: int, mirror: bool
) -> Transform:
    """Sheet frame -> world frame for a placement (SPEC section 2).

    Square: mirror flips columns (c -> W-1-c) first, then a clockwise rotation (with y down,
    90 degrees maps (c, r) of a W x H sheet to (H-1-r, c)), then ``at`` is the world dot where
    the top-left dot of the placed sheet's box lands.

    Hex: mirror reflects about the column of dot (0, 0), rotation turns about dot (0, 0) in
    steps of 60 degrees, and ``at`` is the world dot where sheet dot (0, 0) lands (on a hex grid
    a rotated sheet has no well-defined top-left dot, so the origin dot is the handle).
    """
    step = lattice.rotation_step
    if rotation % step:
        raise ValueError(f"rotation {rotation} is not a multiple of {step} on a {lattice.name} lattice")
    rot = rotation % 360
    theta = math.radians(rot)
    cs, sn = _clean(math.cos(theta)), _clean(math.sin(theta))
    # clockwise as seen with y pointing down == the usual counter-clockwise matrix in y-up maths;
    # plain floats, not numpy (a city compiles hundreds of placements): the mirror multiplies
    # by -1 and 0 only, and a square's corners are turned by whole cosines and sines, so
    # every product is exact and the sums are those of the matrix products
    m00, m01, m10, m11 = cs, -sn, sn, cs
    if mirror:  # m @ [[-1, 0], [0, 1]]
        m00, m01, m10, m11 = -m00 + m01 * 0.0, m00 * 0.0 + m01, -m10 + m11 * 0.0, m10 * 0.0 + m11
    if lattice.name == "square":
        w, h = size
        corners = [(0.0, 0.0), (w - 1.0, 0.0), (0.0, h - 1.0), (w - 1.0, h - 1.0)]
        t = (at[0] - min(x * m00 + y * m01 for x, y in corners),
             at[1] - min(x * m10 + y * m11 for x, y in corners))
    else:
        t = lattice.point(at)
    return Transform((_clean(m00), _clean(m01), _clean(m10), _clean(m11)),
                     (_clean(t[0]), _clean(t[1])))


def transformed_size(lattice: Lattice, size: tuple[int, int], rotation: int) -> tuple[int, int]:
    """Box size (cols, rows) of a square sheet after rotation."""
    if lattice.name == "square" and (rotation // 90) % 2 == 1:
        return (size[1], size[0])
    return size
