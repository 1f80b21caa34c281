"""Line of sight: the facts between two dots, and the fan of facts from one dot to many.

Every feature that matters to sight is broken once per board into primitive segments (wall
pieces, opening spans, polygon edges, building footprints) and foliage cells.  A query tests
its sight segment(s) against candidate primitives with exact, vectorised orientation tests:
single lines take their candidates from the primitives' grid buckets, a fan takes them from an
angular sweep (each primitive only meets the targets whose bearing lies within the angle it
subtends).  Both use the same tracer, so a fan and a single query never disagree.  What a
single line meets does not depend on postures, light or the state of a door, so it is kept
per pair with the primitives, and many lines can be traced together in one pass
(:func:`warm_lines`, :func:`lines_fan`: play asks hundreds of lines from a few enemies' dots).

Which features count (SPEC section 5, decisions in docs/rules-decisions.md):

* the features of each end's own building, on that end's own level, count in full;
* street-level features (pavement sheets, layout extras) count where the sight line is below
  one story when it meets them (so a rooftop sniper sees over a fence down the street);
* every other building is a solid block up to its height: the line is blocked where it meets
  the footprint below the roof (the sight line's level is interpolated between the two ends);
* tree canopies count only when either end is above level 0;
* two dots of the same building on levels more than one apart, or one apart with neither on a
  stair dot, are blocked by the floor; a ground dot within floor(k/2) dots of the footprint of
  the building whose level k holds the other end lies in its dead zone.

The result is a :class:`LosFacts`: the engine reports facts; a ruleset turns them into
modifiers (:mod:`engine.rules`).
"""

from __future__ import annotations

import copy
import math
import operator
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import shapely

from engine.board import (
    Board,
    Feature,
    cached_unit_ids,
    fmt_dot,
    forget_dead_units,
    forget_oldest,
)
from engine.lattice import Dot3, Lattice

EPS = 1e-9

# primitive kinds
BLOCK, OPENING, OBST, OBST_PRONE, LOW, CANOPY, DARK, SMOKE, FOOT = range(9)
MODIFIER = 9
TRUNK = 10  # blocks like a wall unless the line's upper end is two levels or more above it
_SOLID = (BLOCK, FOOT, TRUNK)
_KIND_OF = {
    "wall": BLOCK, "fence": BLOCK, "trunk": TRUNK,
    "door": OPENING, "window": OPENING, "hole": OPENING,
    "low-wall": LOW, "canopy": CANOPY, "dark": DARK, "smoke": SMOKE,
}
#: kinds whose polygon, when it holds an end, is ignored (you stand on/in it)
_IGNORE_IF_HOLDS_END = (OBST, OBST_PRONE, BLOCK, TRUNK)
#: kinds whose polygon, when it holds an end, counts as crossed
_COUNT_IF_HOLDS_END = (CANOPY, DARK, SMOKE)

VISIBILITY_ORDER = ("clear", "partial-darkness", "full-darkness", "smoke")


@dataclass
class LosFacts:
    a: Dot3
    b: Dot3
    range: int
    blocked: bool
    blocked_by: dict[str, Any] | None
    interruptions: list[dict[str, Any]]
    visibility: list[str]
    elevation_stories: int
    dead_zone: bool
    target_modifier: int
    posture_a: str = "standing"
    posture_b: str = "standing"
    light: str = "day"
    notes: list[str] = field(default_factory=list)
    #: straight-line distance between the two dots' points, in dot spacings (None: ``range``)
    span: float | None = None
    #: every wall, fence, door and window the whole line meets, nearest first, with its
    #: material (for Firing Through: the sum of their ratings) and how far along the line it
    #: stands (``along``, dot spacings from ``a``: a blast meets it there)
    barriers: list[dict[str, Any]] = field(default_factory=list)
    #: where the two dots sit on the board, in dot spacings (their lattice points; None: the
    #: dots' own column/row, which is the same on a square lattice)
    ends: tuple[tuple[float, float], tuple[float, float]] | None = None

    @property
    def cover(self) -> int:
        return len(self.interruptions)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["a"], d["b"] = list(self.a), list(self.b)
        d["cover"] = self.cover
        return d


@dataclass
class Fan:
    origin: Dot3
    level: int
    dots: np.ndarray  # (N, 2)
    blocked: np.ndarray  # (N,) bool: blocked by geometry, floors or dead zone
    cover: np.ndarray  # (N,) int: interruptions (before visibility)
    visibility: np.ndarray  # (N,) int index into VISIBILITY_ORDER: worst condition met
    closed_doors: np.ndarray | None = None  # (N,) int: closed doors among the interruptions
    #: how far the farthest target's point lies from the origin's, plus a dot (None: not
    #: known): what a board compiled from this one finds the fan's reach by (_carry_fans)
    far: float | None = field(default=None, compare=False, repr=False)
    #: (N,) int, per target: the doors, windows and holes its line counts (0 also for a line
    #: a wall, floor or dead zone blocks whatever they are): a verdict on a target with 0 is
    #: the same in every door state.  None: not counted (a swept fan)
    opened: np.ndarray | None = field(default=None, compare=False, repr=False)


class _Part:
    """The sight primitives of a list of features (one compiled unit on one level), with
    indexes local to the list: kept per unit, so a board that differs from another by one
    moved building rebuilds that building's alone.  Built many at a time (:func:`_build_parts`)."""

    feats: list[Feature]
    batch: tuple[dict[str, Any], int]  # the arrays it was built with, and its place there
    seg: np.ndarray  # (K, 2, 2) segments, feature by feature
    owner: np.ndarray  # (K,) local feature of each segment
    kind: np.ndarray  # (K,) primitive kind of each segment
    poly: np.ndarray  # local features that are polygons (they may hold an end)
    fol_xy: np.ndarray  # (M, 2) foliage dots' points
    fol_feat: np.ndarray  # (M,) local feature of each foliage dot
    building: np.ndarray
    level: np.ndarray
    is_poly: np.ndarray
    full_dark: np.ndarray
    closed_door: np.ndarray


_OBST_KIND = {"blocks": BLOCK, "interrupts": OBST, "interrupts-prone": OBST_PRONE}
#: shapely's type ids of Polygon and MultiPolygon
_POLY_TYPES = (3, 6)


def _objects(items: list[Any]) -> np.ndarray:
    """A 1-d object array of ``items`` (geometries), never a 2-d one."""
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def _build_parts(lat: Lattice, lists: list[list[Feature]]) -> list[_Part]:
    """The :class:`_Part` of each list of features, built together: one Python pass over the
    features picks their kinds, then the segments of every feature come from a few shapely
    and numpy array calls (no call per feature), then each part takes its slices."""
    feats: list[Feature] = []
    counts: list[int] = []
    seg_feat: list[int] = []  # features (indexes into feats) with segments, and their kinds
    seg_kind: list[int] = []
    foliage: list[int] = []
    for fs in lists:
        before = len(feats)
        for f in fs:
            k = f.kind
            if k == "obstacle":
                los = f.props.get("los", "interrupts")
                if los == "none":
                    continue
                seg_feat.append(len(feats))
                seg_kind.append(_OBST_KIND[los])
            elif k in _KIND_OF:
                seg_feat.append(len(feats))
                seg_kind.append(_KIND_OF[k])
            elif f.props.get("target_modifier") and f.geom.geom_type in ("Polygon", "MultiPolygon"):
                pass  # modifier areas never touch the line: they matter when they hold the target
            elif k == "foliage":
                foliage.append(len(feats))
            else:
                continue
            feats.append(f)
        counts.append(len(feats) - before)
    n_feats = np.array(counts, dtype=np.int64)
    geoms = _objects([f.geom for f in feats])
    is_poly = np.isin(shapely.get_type_id(geoms), _POLY_TYPES)
    list_of = np.repeat(np.arange(len(lists)), n_feats)
    first = np.concatenate([[0], np.cumsum(n_feats)])  # each list's first feature
    sf = np.array(seg_feat, dtype=np.int64)
    seg, which = _segments_many(geoms[sf])
    s_feat = sf[which]  # feature of each segment
    s_kind = np.array(seg_kind, dtype=np.int64)[which]
    s_list = list_of[s_feat]
    s_first = np.searchsorted(s_list, np.arange(len(lists) + 1))
    in_poly = is_poly.copy()
    in_poly[foliage] = False  # foliage holds no end: its cells count instead
    poly_f = np.nonzero(in_poly)[0]
    p_first = np.searchsorted(list_of[poly_f], np.arange(len(lists) + 1))
    fol_xy: list[np.ndarray] = []
    fol_feat: list[int] = []
    for fi in foliage:
        g = feats[fi].geom
        x0, y0, x1, y1 = g.bounds
        cand = lat.dots_in_box(x0, y0, x1, y1)
        if len(cand):
            pts = lat.points(cand)
            inside = pts[shapely.contains_xy(g, pts[:, 0], pts[:, 1])]
            fol_xy.append(inside.astype(float))
            fol_feat.extend([fi] * len(inside))
    fxy = np.concatenate(fol_xy) if fol_xy else np.zeros((0, 2))
    ff = np.array(fol_feat, dtype=np.int64)
    x_first = np.searchsorted(list_of[ff], np.arange(len(lists) + 1))
    building = np.array([-1 if f.building is None else f.building for f in feats], dtype=np.int64)
    level = np.array([f.level for f in feats], dtype=np.int64)
    full_dark = np.array([f.props.get("darkness") == "full" for f in feats], dtype=bool)
    closed_door = np.array([f.kind == "door" and f.props.get("state") == "closed" for f in feats],
                           dtype=bool)
    out = []
    #: the whole arrays, for a board whose parts are exactly these lists in order (_Prims)
    whole = {"feats": feats, "seg": seg, "owner": s_feat, "kind": s_kind, "poly": poly_f,
             "fol_xy": fxy, "fol_feat": ff, "building": building, "level": level,
             "is_poly": is_poly, "full_dark": full_dark, "closed_door": closed_door,
             "f_first": first, "s_first": s_first, "x_first": x_first}
    for li in range(len(lists)):
        a, b = int(first[li]), int(first[li + 1])
        sa, sb = int(s_first[li]), int(s_first[li + 1])
        pa, pb = int(p_first[li]), int(p_first[li + 1])
        xa, xb = int(x_first[li]), int(x_first[li + 1])
        part = _Part()
        part.feats = feats[a:b]
        part.seg = seg[sa:sb]
        part.owner = s_feat[sa:sb] - a
        part.kind = s_kind[sa:sb]
        part.poly = poly_f[pa:pb] - a
        part.fol_xy = fxy[xa:xb]
        part.fol_feat = ff[xa:xb] - a
        part.building = building[a:b]
        part.level = level[a:b]
        part.is_poly = is_poly[a:b]
        part.full_dark = full_dark[a:b]
        part.closed_door = closed_door[a:b]
        part.batch = (whole, li)
        out.append(part)
    return out


def _prim_kind(f: Feature) -> int:
    """The primitive kind a feature's segments get (-1: none, or not segments alone)."""
    if f.kind == "obstacle":
        return _OBST_KIND.get(f.props.get("los", "interrupts"), -1)
    return _KIND_OF.get(f.kind, -1)


#: sight primitives per compiled unit: id(unit) -> (unit, lattice name, {level: _Part})
_PARTS: dict[int, tuple[Any, str, dict[int, _Part]]] = {}
_PARTS_MAX = 4096


def _units_parts(lat: Lattice, units: list[tuple[dict[int, list[Feature]], bool]]
                 ) -> list[dict[int, _Part]]:
    """Each unit's parts per level: the unit cache's own units (``shared``) are looked up by
    identity, the others and the misses built together (:func:`_build_parts`)."""
    out: list[dict[int, _Part] | None] = []
    todo: list[int] = []
    for k, (unit, shared) in enumerate(units):
        hit = _PARTS.get(id(unit)) if shared else None
        if hit is not None and hit[0] is unit and hit[1] == lat.name:
            out.append(hit[2])
        else:
            out.append(None)
            todo.append(k)
    if not todo:
        return out  # type: ignore[return-value]
    # in the order _Prims lists the parts (level, then unit): a board built cold takes the
    # batch's arrays whole
    keys = sorted(((k, lv) for k in todo for lv in units[k][0]), key=lambda kl: (kl[1], kl[0]))
    built = _build_parts(lat, [units[k][0][lv] for k, lv in keys])
    for k in todo:
        out[k] = {}
    for (k, lv), part in zip(keys, built):
        out[k][lv] = part  # type: ignore[index]
    fresh = [k for k in todo if units[k][1]]
    if fresh:
        alive = cached_unit_ids()
        if len(_PARTS) + len(fresh) >= 2 * len(alive) + 64:
            forget_dead_units(_PARTS)
        for k in fresh:
            _PARTS[id(units[k][0])] = (units[k][0], lat.name, out[k])
        forget_oldest(_PARTS, _PARTS_MAX)
    return out  # type: ignore[return-value]


#: a building's footprint as a sight feature, and its segments, per Building object (a board
#: compiled from a previous one keeps the Building objects of the buildings that did not move)
_FOOT: dict[int, tuple[Any, Feature, np.ndarray]] = {}


def _footprint_parts(bs: list[Any]) -> list[tuple[Feature, np.ndarray]]:
    """Each building's footprint feature and segments (cached per Building; the misses'
    segments come from one array pass)."""
    out: list[tuple[Feature, np.ndarray] | None] = []
    todo: list[int] = []
    for k, b in enumerate(bs):
        hit = _FOOT.get(id(b))
        if hit is not None and hit[0] is b:
            out.append((hit[1], hit[2]))
        else:
            out.append(None)
            todo.append(k)
    if todo:
        seg, which = _segments_many(_objects([bs[k].footprint for k in todo]))
        cut = np.searchsorted(which, np.arange(len(todo) + 1))
        if len(_FOOT) + len(todo) > 20_000:
            _FOOT.clear()
        for j, k in enumerate(todo):
            b = bs[k]
            f = Feature("building", b.placement_id, 0, b.footprint, b.index,
                        {"height": b.height, "note": b.label})
            segs = seg[cut[j]:cut[j + 1]]
            _FOOT[id(b)] = (b, f, segs)
            out[k] = (f, segs)
    return out  # type: ignore[return-value]


def _footprint_part(b: Any) -> tuple[Feature, np.ndarray]:
    return _footprint_parts([b])[0]


def _segments_many(geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The straight pieces of many lines and polygon boundaries: (K, 2, 2) segments and the
    index of the geometry each comes from, geometry by geometry, each in the order of its
    parts (multi-parts and collections depth first), a polygon's exterior ring before its
    holes, each line or ring from its first point.  Points give none."""
    idx = np.arange(len(geoms))
    g = geoms
    t = shapely.get_type_id(g) if len(g) else np.zeros(0, dtype=np.int64)
    while (multi := t >= 4).any():  # Multi* and collections: their parts, in place
        mi = np.nonzero(multi)[0]
        parts, pi = shapely.get_parts(g[mi], return_index=True)
        order = np.argsort(np.concatenate([np.nonzero(~multi)[0], mi[pi]]), kind="stable")
        g = np.concatenate([g[~multi], parts])[order]
        idx = np.concatenate([idx[~multi], idx[mi[pi]]])[order]
        t = shapely.get_type_id(g)
    poly = np.nonzero(t == 3)[0]
    rings, ri = shapely.get_rings(g[poly], return_index=True)
    line = np.nonzero((t == 1) | (t == 2))[0]
    pos = np.concatenate([poly[ri], line])
    order = np.argsort(pos, kind="stable")  # a polygon's rings keep their order
    lines = np.concatenate([rings, g[line]])[order]
    coords, ci = shapely.get_coordinates(lines, return_index=True)
    same = np.nonzero(ci[1:] == ci[:-1])[0]
    seg = np.stack([coords[same], coords[same + 1]], axis=1)
    return seg, idx[pos[order][ci[same]]]


def _whole(parts: list[_Part]) -> dict[str, Any] | None:
    """The arrays of the one :func:`_build_parts` call that made exactly ``parts``, in this
    order (a board's parts all built together, cold); None when they come from several."""
    whole = parts[0].batch[0] if parts else None
    if whole is None or len(whole["f_first"]) != len(parts) + 1:
        return None
    for i, part in enumerate(parts):
        if part.batch[0] is not whole or part.batch[1] != i:
            return None
    return whole


class _Prims:
    """Primitive segments of every sight-relevant feature of a board, in the order of
    ``board.all_features()`` (level by level), then one footprint per building."""

    def __init__(self, board: Board):
        self.board = board.view()  # not the board: it keeps these (no cycle)
        lat = board.lattice
        ufs = board.unit_features()
        units = _units_parts(lat, ufs)
        #: the units' feature dicts (a board compiled from this one finds its changed ones)
        self._unit_dicts = [u for u, _s in ufs]
        parts, at = [], {}
        for lv in sorted(board._features):
            for i, u in enumerate(units):
                if lv in u:
                    at[i, lv] = len(parts)
                    parts.append(u[lv])
        #: each unit's parts per level, and where each sits in ``_parts`` (_patched)
        self._units, self._part_at = units, at
        #: the parts in order, for a board compiled from this one to patch from (_patched)
        self._parts = parts
        whole = _whole(parts)
        if whole is not None:  # built cold in this order: the batch's arrays are the answer
            feats: list[Feature] = list(whole["feats"])
            first = whole["f_first"]

            def cat(name: str, empty: np.ndarray) -> np.ndarray:
                return np.concatenate([whole[name], empty])

            def shifted(name: str) -> np.ndarray:
                return whole[name]
        else:
            feats = [f for part in parts for f in part.feats]
            n_feat = np.array([len(part.feats) for part in parts], dtype=np.int64)
            first = np.cumsum(np.concatenate([[0], n_feat]))

            def cat(name: str, empty: np.ndarray) -> np.ndarray:
                return np.concatenate([getattr(part, name) for part in parts] + [empty])

            def shifted(name: str) -> np.ndarray:
                """A per-part array of feature indexes, made indexes into ``feats``."""
                got = [getattr(part, name) for part in parts]
                return np.concatenate(got + [np.zeros(0, dtype=np.int64)]) + np.repeat(
                    first[:-1], [len(x) for x in got])

        foot = len(feats)
        nb = len(board.buildings)
        foot_parts = _footprint_parts(board.buildings)
        feats.extend(f for f, _s in foot_parts)
        foot_segs = [s for _f, s in foot_parts]
        foot_n = [len(a) for a in foot_segs]
        self.feats = feats
        #: where each part's features, segments and foliage dots start, and each footprint's
        #: segments (a patched copy writes the changed ones over, _patched)
        self._f_first = first
        if whole is not None:
            self._s_first, self._x_first = whole["s_first"], whole["x_first"]
            seg = np.concatenate([whole["seg"], *foot_segs, np.zeros((0, 2, 2))])
        else:
            self._s_first = np.cumsum([0] + [len(part.seg) for part in parts])
            self._x_first = np.cumsum([0] + [len(part.fol_xy) for part in parts])
            seg = np.concatenate([part.seg for part in parts] + foot_segs + [np.zeros((0, 2, 2))])
        self._foot_seg = self._s_first[-1] + np.concatenate([[0], np.cumsum(foot_n)]).astype(np.int64)
        self.p = seg[:, 0, :].copy()
        self.q = seg[:, 1, :].copy()
        self.owner = np.concatenate([shifted("owner"), np.repeat(
            np.arange(foot, foot + nb, dtype=np.int64), foot_n)])
        self.kind = np.concatenate([cat("kind", np.zeros(0, dtype=np.int64)),
                                    np.full(sum(foot_n), FOOT, dtype=np.int64)])
        fb = cat("building", np.arange(nb, dtype=np.int64))
        fl = cat("level", np.zeros(nb, dtype=np.int64))
        fh = np.concatenate([np.zeros(foot, dtype=np.int64),
                             np.array([b.height for b in board.buildings], dtype=np.int64)])
        self.feat_building, self.feat_level, self.feat_height = fb, fl, fh
        self.feat_is_poly = cat("is_poly", np.zeros(nb, dtype=bool))
        self.feat_full_dark = cat("full_dark", np.zeros(nb, dtype=bool))
        self.feat_closed_door = cat("closed_door", np.zeros(nb, dtype=bool))
        self.bld = fb[self.owner]
        self.lvl = fl[self.owner]
        self.height = fh[self.owner]
        self.grid = _SegGrid(self.p, self.q)
        self.poly_feats = shifted("poly")
        self.poly_index = _PolyIndex(_objects([feats[i].geom for i in self.poly_feats]))
        self.fol_xy = cat("fol_xy", np.zeros((0, 2)))
        self.fol_feat = shifted("fol_feat")
        self.fol_bld = fb[self.fol_feat]
        self.fol_lvl = fl[self.fol_feat]
        self.fol_tree = shapely.STRtree(shapely.box(self.fol_xy[:, 0] - .5, self.fol_xy[:, 1] - .5,
                                                    self.fol_xy[:, 0] + .5, self.fol_xy[:, 1] + .5)
                                        ) if len(self.fol_xy) else None
        self.prim_kind_of_feat = np.full(len(feats), -1, dtype=np.int64)
        if len(self.owner):
            self.prim_kind_of_feat[self.owner] = self.kind
        self._holds: dict[tuple[float, float], np.ndarray] = {}
        #: what this constructor set: a patched copy (_patched) takes these and nothing a
        #: query cached later from the old board
        self._init_keys = frozenset(self.__dict__) | {"_init_keys"}

    def __getattr__(self, name: str) -> Any:
        got = self.__dict__.get("_feats_from")
        if name == "feats" and got is not None:  # a patched copy's list, made on first use
            base, over = got
            feats = list(base)
            for i, f in over.items():
                feats[i] = f
            self.feats = feats
            return feats
        raise AttributeError(name)

    def feat(self, i: int) -> Feature:
        """``feats[i]``, without making a patched copy's list."""
        got = self.__dict__.get("feats")
        if got is not None:
            return got[i]
        base, over = self._feats_from
        f = over.get(int(i))
        return base[i] if f is None else f

    def replaced(self, level: int, index: int, old: Feature, new: Feature) -> _Prims | None:
        """These primitives with ``old`` changed to ``new`` (a door opened or shut, blasted
        into a hole): the same shape and kind of primitive, so only the feature and its
        closed-door flag change.  A copy: forks share the primitives they were made with."""
        if old.geom is not new.geom or _prim_kind(old) != _prim_kind(new) or _prim_kind(old) < 0:
            return None
        where = [i for i, f in enumerate(self.feats) if f is old]
        if len(where) != 1:
            return None
        out = copy.copy(self)
        out.feats = list(self.feats)
        out.feats[where[0]] = new
        out.feat_closed_door = self.feat_closed_door.copy()
        out.feat_closed_door[where[0]] = new.kind == "door" and new.props.get("state") == "closed"
        out._fans, out._fans_carried = {}, {}  # a door changes what a fan meets
        return out

    def near_box(self, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        """Primitives (sorted) whose box meets the box x0..x1, y0..y1 (and a few more)."""
        return self.grid.query(x0, y0, x1, y1)

    def holding(self, xy: tuple[float, float]) -> np.ndarray:
        """Indexes of polygon features that contain the point (cached per point)."""
        key = (float(xy[0]), float(xy[1]))
        got = self._holds.get(key)
        if got is None:
            got = self.poly_feats[self.poly_index.point(*key)]
            if len(self._holds) > 50000:
                self._holds.clear()
            self._holds[key] = got
        return got


def _col_min(*arrays: np.ndarray) -> np.ndarray:
    """The least x and y of (N, 2) arrays (column by column: numpy reduces an (N, 2) array
    along its first axis ten times slower)."""
    return np.array([min(a[:, k].min() for a in arrays) for k in (0, 1)])


def _col_max(a: np.ndarray) -> np.ndarray:
    return np.array([a[:, 0].max(), a[:, 1].max()])


class _SegGrid:
    """Segments bucketed by the square cells (``CELL`` dots a side) their boxes cover: a box
    query returns every segment whose box meets it, as an envelope tree would, and a few more
    (the exact tests that follow decide); built with arrays, no geometry object per segment.
    The entries are sorted by (cell, segment); a move patches the cells it touches alone
    (:meth:`moved`), finding the moved segments' old cells from the ends the grid was built
    from (kept by reference: never written once a grid is built on them)."""

    CELL = 8.0

    def __init__(self, p: np.ndarray, q: np.ndarray):
        self._p, self._q = p, q
        lo, hi = np.minimum(p, q), np.maximum(p, q)
        self.count = len(p)
        self.origin = lo.min(axis=0) if len(p) else np.zeros(2)
        c0 = self._cells(lo)
        c1 = self._cells(hi)
        self.shape = (c1.max(axis=0) + 1) if len(p) else np.zeros(2, dtype=np.int64)
        cell, seg = self._entries(c0, c1, np.arange(len(p)))
        order = np.argsort(cell, kind="stable")
        self.seg = seg[order]
        self.start = np.concatenate([[0], np.cumsum(np.bincount(
            cell, minlength=int(self.shape[0] * self.shape[1])))]).astype(np.int64)

    def _cells(self, xy: np.ndarray) -> np.ndarray:
        return np.floor((xy - self.origin) / self.CELL).astype(np.int64)

    @property
    def c0(self) -> np.ndarray:
        """Each segment's first cell (column, row)."""
        return self._cells(np.minimum(self._p, self._q))

    @property
    def c1(self) -> np.ndarray:
        """Each segment's last cell."""
        return self._cells(np.maximum(self._p, self._q))

    def _entries(self, c0: np.ndarray, c1: np.ndarray, ids: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
        """(cell, segment) of every cell each box c0..c1 covers, box by box, row-major."""
        nx, ny = c1[:, 0] - c0[:, 0] + 1, c1[:, 1] - c0[:, 1] + 1
        cnt = nx * ny
        seg = np.repeat(ids, cnt)
        k = np.arange(int(cnt.sum())) - np.repeat(np.cumsum(cnt) - cnt, cnt)
        cx = np.repeat(c0[:, 0], cnt) + k % np.repeat(nx, cnt)
        cy = np.repeat(c0[:, 1], cnt) + k // np.repeat(nx, cnt)
        return cy * int(self.shape[0]) + cx, seg

    def moved(self, p: np.ndarray, q: np.ndarray, which: np.ndarray) -> _SegGrid:
        """The grid of segments ``p``-``q`` where only the segments ``which`` differ from
        this grid's: the run of cells (row-major) between the first and the last cell their
        old and new boxes cover is sorted again, the entries before and after it are copied
        as they are; equal to a grid built from scratch.  A new grid when the box of all
        segments changed its cells."""
        if not len(p) or len(p) != self.count:
            return _SegGrid(p, q)
        lo, hi = np.minimum(p[which], q[which]), np.maximum(p[which], q[which])
        op, oq = self._p[which], self._q[which]
        old_lo, old_hi = np.minimum(op, oq), np.maximum(op, oq)
        # the origin (least x, least y of all boxes) stays put when no moved box held it
        # before and none goes below it; else it is looked for again over every segment
        if ((old_lo <= self.origin).any() or (lo < self.origin).any()) \
                and not np.array_equal(_col_min(p, q), self.origin):
            return _SegGrid(p, q)
        c0, c1 = self._cells(lo), self._cells(hi)
        if (c1 >= self.shape).any():
            return _SegGrid(p, q)
        o0, o1 = self._cells(old_lo), self._cells(old_hi)
        # likewise the last row and column of cells: held by a moved box, it may have emptied
        if (o1 >= self.shape - 1).any() \
                and not np.array_equal(_col_max(self._cells(np.maximum(p, q))) + 1, self.shape):
            return _SegGrid(p, q)
        g = copy.copy(self)
        g._p, g._q = p, q
        if not len(which):
            return g
        w = int(self.shape[0])
        both0 = np.minimum(c0.min(axis=0), o0.min(axis=0))
        both1 = np.maximum(c1.max(axis=0), o1.max(axis=0))
        a = int(both0[1] * w + both0[0])  # the run of cells [a, b) holds every changed entry
        b = int(both1[1] * w + both1[0]) + 1
        ea, eb = int(self.start[a]), int(self.start[b])
        old_seg = self.seg[ea:eb]
        old_cell = np.repeat(np.arange(a, b, dtype=np.int64), np.diff(self.start[a:b + 1]))
        out = np.zeros(self.count, dtype=bool)
        out[which] = True
        keep = ~out[old_seg]
        new_cell, new_seg = self._entries(c0, c1, which)
        # the kept entries are sorted by (cell, segment): merge the few new ones in
        key_new = new_cell * self.count + new_seg
        o = np.argsort(key_new)
        at = np.searchsorted(old_cell[keep] * self.count + old_seg[keep], key_new[o])
        seg = np.insert(old_seg[keep], at, new_seg[o])
        cell = np.insert(old_cell[keep], at, new_cell[o])
        g.seg = np.concatenate([self.seg[:ea], seg, self.seg[eb:]])
        g.start = self.start.copy()
        g.start[a + 1:b + 1] = ea + np.cumsum(np.bincount(cell - a, minlength=b - a))
        if len(seg) != eb - ea:
            g.start[b + 1:] += len(seg) - (eb - ea)
        return g

    def pairs(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(point, segment) for every segment whose box's cells hold the point's cell: every
        box holding a point is among them."""
        if not len(self.seg) or not len(xy):
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        c = self._cells(xy)
        w, h = int(self.shape[0]), int(self.shape[1])
        pi = np.nonzero((c[:, 0] >= 0) & (c[:, 0] < w) & (c[:, 1] >= 0) & (c[:, 1] < h))[0]
        cell = c[pi, 1] * w + c[pi, 0]
        a = self.start[cell]
        cnt = self.start[cell + 1] - a
        idx = np.repeat(a - np.cumsum(cnt) + cnt, cnt) + np.arange(int(cnt.sum()))
        return np.repeat(pi, cnt), self.seg[idx]

    def query(self, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        if not len(self.seg):
            return np.zeros(0, dtype=np.int64)
        w, h = int(self.shape[0]), int(self.shape[1])
        (i0, j0), (i1, j1) = self._cells(np.array([[x0, y0], [x1, y1]], dtype=float))
        i0, j0, i1, j1 = max(i0, 0), max(j0, 0), min(i1, w - 1), min(j1, h - 1)
        if i0 > i1 or j0 > j1:
            return np.zeros(0, dtype=np.int64)
        rows = np.arange(j0, j1 + 1) * w
        a, b = self.start[rows + i0], self.start[rows + i1 + 1]
        cnt = b - a
        idx = np.repeat(a - np.concatenate([[0], np.cumsum(cnt)[:-1]]), cnt) + np.arange(cnt.sum())
        if len(idx) * 16 < self.count:
            return np.unique(self.seg[idx])
        hit = np.zeros(self.count, dtype=bool)  # a large box: a mask, no sort
        hit[self.seg[idx]] = True
        return np.nonzero(hit)[0]


class _PolyIndex:
    """The polygon features that may hold an end, by the bucket cells of their boxes (a
    :class:`_SegGrid` of the boxes' corners), and the exact test: which polygons hold a point
    is what an STRtree query with the ``intersects`` predicate answers (boundary included),
    and a move re-buckets the moved polygons alone."""

    def __init__(self, geoms: np.ndarray):
        self.geoms = geoms
        box = shapely.bounds(geoms).reshape(-1, 4)
        self.empty = np.isnan(box).any(axis=1)  # an empty geometry holds nothing
        box[self.empty] = 0.0
        self.lo, self.hi = box[:, :2], box[:, 2:]
        self.grid = _SegGrid(self.lo, self.hi)

    def moved(self, geoms: np.ndarray, which: np.ndarray) -> _PolyIndex:
        """The index of ``geoms``, where only ``which`` differ from this index's."""
        box = shapely.bounds(geoms[which]).reshape(-1, 4)
        if len(geoms) != len(self.geoms) or np.isnan(box).any() or self.empty[which].any():
            return _PolyIndex(geoms)
        out = copy.copy(self)
        out.geoms = geoms
        out.lo, out.hi = self.lo.copy(), self.hi.copy()
        out.lo[which], out.hi[which] = box[:, :2], box[:, 2:]
        out.grid = self.grid.moved(out.lo, out.hi, which)
        return out

    def point(self, x: float, y: float) -> np.ndarray:
        """Indexes (sorted) of the polygons that hold the point x, y."""
        cand = self.grid.query(x, y, x, y)
        return cand[shapely.intersects_xy(self.geoms[cand], x, y)] if len(cand) else cand

    def points(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(point, polygon) pairs: every polygon that holds each point of ``xy``."""
        pi, gi = self.grid.pairs(xy)
        ok = shapely.intersects_xy(self.geoms[gi], xy[pi, 0], xy[pi, 1]) if len(pi) else pi > 0
        return pi[ok], gi[ok]


def prims(board: Board) -> _Prims:
    got = board.__dict__.get("_los_prims")
    if got is None:
        parent = board._patch_from.get("_los_prims")
        if parent is not None:
            got = _patched(parent[0], board, parent[1])
            board._patch_from = {k: v for k, v in board._patch_from.items() if k != "_los_prims"}
        if got is None:
            got = _Prims(board)
        board._los_prims = got  # type: ignore[attr-defined]
    return got


_SAME_SHAPE = ("owner", "kind", "building", "level", "is_poly", "full_dark", "closed_door",
               "poly", "fol_feat")


def _patched(prev: _Prims, board: Board, win: tuple[int, int, int, int] | None = None
             ) -> _Prims | None:
    """The primitives of ``board`` from those of an earlier board it was compiled from, when
    every unit that changed has parts of the same shape as before (a building moved: the same
    sheet, so the same features, segments and kinds, elsewhere): the old arrays are copied and
    the changed parts' coordinates and features written over them; the bucket grids re-bucket
    the changed segments and polygons alone.  None when the shapes differ (then a build from
    scratch).  ``win`` (rows r0:r1, columns c0:c1 of the board's box): where its standable
    dots may differ from those of ``prev``'s board (None: anywhere)."""
    old_parts = getattr(prev, "_parts", None)
    if old_parts is None or len(prev.board.buildings) != len(board.buildings):
        return None
    lat = board.lattice
    ufs = board.unit_features()
    dicts = list(map(operator.itemgetter(0), ufs))
    old_units = prev._units
    if len(ufs) != len(old_units) or board._feature_levels() != prev.board._feature_levels():
        return None
    # the units that are the same objects keep their parts: the others are looked up
    redo = board.units_changed_from(prev.board)
    if redo is None:
        redo = np.flatnonzero(~np.fromiter(map(operator.is_, dicts, prev._unit_dicts),
                                           dtype=bool, count=len(dicts))).tolist()
    units = list(old_units)
    for k, got in zip(redo, _units_parts(lat, [ufs[k] for k in redo])):
        units[k] = got
    # the parts of the units that changed take their places; the rest are the old ones
    parts = list(old_parts)
    changed = []
    for i in [i for i in redo if units[i] is not old_units[i]]:
        if units[i].keys() != old_units[i].keys():
            return None
        for lv, part in units[i].items():
            k = prev._part_at[i, lv]
            if part is not parts[k]:
                parts[k] = part
                changed.append(k)
    changed.sort()
    for k in changed:
        a, b = parts[k], old_parts[k]
        if len(a.feats) != len(b.feats) or a.seg.shape != b.seg.shape \
                or a.fol_xy.shape != b.fol_xy.shape \
                or any(not np.array_equal(getattr(a, n), getattr(b, n)) for n in _SAME_SHAPE):
            return None
    moved = board.buildings_changed_from(prev.board)
    if moved is None:
        moved = np.flatnonzero(~np.fromiter(map(operator.is_, board.buildings,
                                                prev.board.buildings),
                                            dtype=bool, count=len(board.buildings))).tolist()
    seg0 = prev._foot_seg
    new_feet = _footprint_parts([board.buildings[i] for i in moved])
    for i, (_f, segs) in zip(moved, new_feet):
        if len(segs) != seg0[i + 1] - seg0[i] \
                or board.buildings[i].height != prev.board.buildings[i].height:
            return None
    out = _Prims.__new__(_Prims)
    out.__dict__.update({k: v for k, v in prev.__dict__.items() if k in prev._init_keys})
    out.board = board.view()
    out._parts, out._units, out._unit_dicts = parts, units, dicts
    # the feature list: prev's with the changed ones put over it, made into a list only when
    # asked for (a copy of a city's list and its freeing touched ~25k objects' counts)
    base, over = prev.__dict__.get("feats"), {}
    if base is None:
        base, over = prev._feats_from
    if len(over) > _FEATS_OVER_MAX:
        base, over = prev.feats, {}
    over = dict(over)
    out.__dict__.pop("feats", None)
    out._feats_from = (base, over)
    out.p, out.q = prev.p.copy(), prev.q.copy()
    f_first, s_first, x_first = prev._f_first, prev._s_first, prev._x_first
    fol = False
    which = [np.arange(s_first[k], s_first[k + 1]) for k in changed]
    feats_changed = [np.arange(f_first[k], f_first[k + 1]) for k in changed]
    for k in changed:
        part = parts[k]
        over.update(zip(range(int(f_first[k]), int(f_first[k + 1])), part.feats))
        out.p[s_first[k]:s_first[k + 1]] = part.seg[:, 0, :]
        out.q[s_first[k]:s_first[k + 1]] = part.seg[:, 1, :]
        if len(part.fol_xy):
            if not fol:
                out.fol_xy, fol = prev.fol_xy.copy(), True
            out.fol_xy[x_first[k]:x_first[k + 1]] = part.fol_xy
    foot = int(f_first[-1])
    for i, (f, segs) in zip(moved, new_feet):
        over[foot + i] = f
        out.p[seg0[i]:seg0[i + 1]] = segs[:, 0, :]
        out.q[seg0[i]:seg0[i + 1]] = segs[:, 1, :]
        which.append(np.arange(seg0[i], seg0[i + 1]))
    out.grid = prev.grid.moved(out.p, out.q, np.concatenate(which + [np.zeros(0, dtype=np.int64)]))
    # the polygons among the changed features (poly_feats is sorted: one search)
    fc = np.concatenate(feats_changed + [np.zeros(0, dtype=np.int64)])
    pos = np.searchsorted(out.poly_feats, fc)
    pw = pos[(pos < len(out.poly_feats)) & (out.poly_feats[np.minimum(pos, len(out.poly_feats) - 1)]
                                            == fc)] if len(out.poly_feats) else pos[:0]
    if len(pw):
        geoms = prev.poly_index.geoms.copy()
        geoms[pw] = _objects([out.feat(i).geom for i in out.poly_feats[pw].tolist()])
        out.poly_index = prev.poly_index.moved(geoms, pw)
    if fol:
        out.fol_tree = shapely.STRtree(shapely.box(
            out.fol_xy[:, 0] - .5, out.fol_xy[:, 1] - .5, out.fol_xy[:, 0] + .5,
            out.fol_xy[:, 1] + .5))
    out._holds = {}
    _carry_fan_caches(prev, out, changed, old_parts, moved, win)
    return out


#: changed features a patched copy keeps over its parent's feature list before making its own
_FEATS_OVER_MAX = 4096

#: dots kept between a changed feature's box and a fan cache taken over from an earlier board
_CARRY_MARGIN = 3.0


def _carry_fan_caches(prev: _Prims, out: _Prims, changed: list[int], old_parts: list[_Part],
                      moved: list[int], win: tuple[int, int, int, int] | None = None) -> None:
    """Take over what fans cached on the earlier board and a move did not touch: the
    target-holder tiles (feature, grid position) lying, with a margin, outside the boxes of
    every changed feature and moved footprint, old and new, whose standable dots are the same
    (same features in the same order: ``_patched`` checked it), and the rasters of the
    buildings that are the same objects (a raster depends on the footprint only).  A tile
    outside ``win`` (where the standable dots may differ) needs no comparison of its dots."""
    old, new = prev.board, out.board
    if old.lattice.name != new.lattice.name:
        return
    rb = old.__dict__.get("_raster_buildings")
    if rb:
        mine = new.__dict__.setdefault("_raster_buildings", {})
        for i, v in dict(rb).items():  # a copy: a fan in another thread may add to it
            if i < len(new.buildings) and new.buildings[i] is old.buildings[i]:
                mine.setdefault(i, v)
    tiles = prev.__dict__.get("_level_holders") or {}
    if old._owner_grid[:2] != new._owner_grid[:2] or old._stand.shape != new._stand.shape:
        return
    geoms = [f.geom for k in changed for part in (old_parts[k], out._parts[k]) for f in part.feats]
    geoms += [b.footprint for i in moved for b in (old.buildings[i], new.buildings[i])]
    if geoms:
        bx = shapely.bounds(np.array(geoms, dtype=object))
        if np.isnan(bx).any():
            return
        x0, y0 = bx[:, :2].min(axis=0) - _CARRY_MARGIN
        x1, y1 = bx[:, 2:].max(axis=0) + _CARRY_MARGIN
    cmin, rmin, _o = new._owner_grid
    _carry_fans(prev, out, (x0, y0, x1, y1) if geoms else None)
    keep = {}
    items = list(dict(tiles).items())  # a copy, as above
    near = [False] * len(items)
    if items and geoms:  # the tiles' corner points, all at once: those near the change
        k = np.array([key for key, _got in items], dtype=np.int64)
        c0, r0 = cmin + k[:, 2] * _TILE, rmin + k[:, 1] * _TILE
        pts = new.lattice.points(np.column_stack([
            np.concatenate([c0, c0 + _TILE, c0, c0 + _TILE]),
            np.concatenate([r0, r0, r0 + _TILE, r0 + _TILE])])).reshape(4, len(k), 2)
        lo, hi = pts.min(axis=0) - 1.0, pts.max(axis=0) + 1.0
        near = ((lo[:, 0] <= x1) & (x0 <= hi[:, 0]) & (lo[:, 1] <= y1)
                & (y0 <= hi[:, 1])).tolist()
    w = new._stand.shape[2]
    for (key, got), is_near in zip(items, near):
        lv, tr, tc = key
        rs, cs = slice(tr * _TILE, (tr + 1) * _TILE), slice(tc * _TILE, (tc + 1) * _TILE)
        was, now = old._stand[lv, rs, cs], new._stand[lv, rs, cs]
        if not is_near:
            if (win is not None and (rs.stop <= win[0] or rs.start >= win[1]
                                     or cs.stop <= win[2] or cs.start >= win[3])) \
                    or np.array_equal(was, now):
                keep[key] = got
            continue
        # near the change: the pairs of the dots outside its box stand (no changed polygon
        # reaches them, before or after), the dots inside are looked up again
        rr, cc = np.indices(now.shape)
        xy = new.lattice.points(np.column_stack([(cc + cmin + tc * _TILE).ravel(),
                                                 (rr + rmin + tr * _TILE).ravel()]))
        inside = ((xy[:, 0] >= x0) & (xy[:, 0] <= x1) & (xy[:, 1] >= y0)
                  & (xy[:, 1] <= y1)).reshape(now.shape)
        if not np.array_equal(was[~inside], now[~inside]):
            continue  # the dots changed outside the box too: the fan looks the tile up again
        hf, hp = got
        lr, lc = hp // w - tr * _TILE, hp % w - tc * _TILE
        stay = ~inside[lr, lc]
        ri, ci = np.nonzero(now & inside)
        ti, gi = out.poly_index.points(xy.reshape(*now.shape, 2)[ri, ci].astype(float)) \
            if len(ri) else (ri, ri)
        keep[key] = (np.concatenate([hf[stay], out.poly_feats[gi]]),
                     np.concatenate([hp[stay], (ri[ti] + tr * _TILE) * w + ci[ti] + tc * _TILE]))
    out._level_holders = keep


def _carry_fans(prev: _Prims, out: _Prims, changed: tuple[float, ...] | None) -> None:
    """Hand the fans traced on the earlier board to the new one when the change (``changed``:
    the box of every changed feature and moved footprint, old and new, with a margin; None:
    nothing changed) lies outside the fan's reach: the square its targets are taken from and
    the box its sight primitives are taken from.  Within that the standable dots and their
    buildings must be the same too (so are the buildings' heights: a patch keeps them)."""
    fans = prev.__dict__.get("_fans")
    if not fans:
        return
    old, new = prev.board, out.board
    lat = new.lattice
    cmin, rmin, _o = new._owner_grid
    carried = {}
    for key, fan in list(fans.items()):  # a copy: a fan in another thread may add to it
        (c, r, _la), lv, radius = key
        reach = int(min(radius, 1 << 30)) + 1
        corners = lat.points(np.array([[c - reach, r - reach], [c + reach, r + reach],
                                       [c - reach, r + reach], [c + reach, r - reach]]))
        o = np.array(new.dot_point((c, r)))
        far = fan.far
        if far is None:
            far = 0.0
            if len(fan.dots):
                tp = lat.points(fan.dots)
                far = float(np.hypot(tp[:, 0] - o[0], tp[:, 1] - o[1]).max()) + 1.0
        x0 = min(float(corners[:, 0].min()), o[0] - far) - 1.0
        y0 = min(float(corners[:, 1].min()), o[1] - far) - 1.0
        x1 = max(float(corners[:, 0].max()), o[0] + far) + 1.0
        y1 = max(float(corners[:, 1].max()), o[1] + far) + 1.0
        if changed is not None and changed[0] <= x1 and x0 <= changed[2] \
                and changed[1] <= y1 and y0 <= changed[3]:
            continue
        if 0 <= lv < new._stand.shape[0]:
            rs = slice(max(r - rmin - reach, 0), max(r - rmin + reach + 1, 0))
            cs = slice(max(c - cmin - reach, 0), max(c - cmin + reach + 1, 0))
            if not np.array_equal(old._stand[lv, rs, cs], new._stand[lv, rs, cs]) \
                    or not np.array_equal(old._owner_grid[2][rs, cs], new._owner_grid[2][rs, cs]):
                continue
        carried[key] = fan
    out._fans_carried = carried


def _cross(ax, ay, bx, by):
    return ax * by - ay * bx


def _hits(o: np.ndarray, t: np.ndarray, p: np.ndarray, q: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray]:
    """Do closed segments o-t and p-q touch?  Returns (hit mask, s of first contact on o-t).

    All arguments are (K, 2) arrays, pairwise.
    """
    rx, ry = t[:, 0] - o[:, 0], t[:, 1] - o[:, 1]
    sx, sy = q[:, 0] - p[:, 0], q[:, 1] - p[:, 1]
    qpx, qpy = p[:, 0] - o[:, 0], p[:, 1] - o[:, 1]
    den = _cross(rx, ry, sx, sy)
    s_num = _cross(qpx, qpy, sx, sy)
    u_num = _cross(qpx, qpy, rx, ry)
    scale = np.maximum(np.abs(rx) + np.abs(ry), 1e-12) * np.maximum(np.abs(sx) + np.abs(sy), 1e-12)
    par = np.abs(den) <= EPS * scale
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(par, 0.0, s_num / np.where(par, 1.0, den))
        u = np.where(par, 0.0, u_num / np.where(par, 1.0, den))
    tol = 1e-9
    hit = (~par) & (s >= -tol) & (s <= 1 + tol) & (u >= -tol) & (u <= 1 + tol)
    # collinear overlaps (a sight line running along a wall)
    coll = par & (np.abs(u_num) <= EPS * scale)
    if coll.any():
        rr = rx * rx + ry * ry
        with np.errstate(divide="ignore", invalid="ignore"):
            s0 = np.where(rr > 0, (qpx * rx + qpy * ry) / rr, 0.0)
            s1 = np.where(rr > 0, ((q[:, 0] - o[:, 0]) * rx + (q[:, 1] - o[:, 1]) * ry) / rr, 0.0)
        lo, hi = np.minimum(s0, s1), np.maximum(s0, s1)
        ov = coll & (hi >= -tol) & (lo <= 1 + tol)
        hit = hit | ov
        s = np.where(ov, np.clip(lo, 0.0, 1.0), s)
    # a line from a dot to itself is a point: it touches only the segments passing through it
    # (without this every candidate counted as a collinear overlap, so the answer depended on
    # which segments the bucket search happened to offer)
    point = (rx == 0) & (ry == 0)
    if point.any():
        ss = sx * sx + sy * sy
        with np.errstate(divide="ignore", invalid="ignore"):
            along = np.where(ss > 0, -(qpx * sx + qpy * sy) / ss, 0.0)
        on = (np.abs(s_num) <= EPS * np.maximum(np.abs(sx) + np.abs(sy), 1e-12)) & \
            (along >= -tol) & (along <= 1 + tol)
        on &= (ss > 0) | ((np.abs(qpx) + np.abs(qpy)) <= EPS)
        hit = np.where(point, on, hit)
        s = np.where(point, 0.0, s)
    return hit, np.clip(s, 0.0, 1.0)


@dataclass
class _Ends:
    """Per-target context of a trace: one origin, N targets on one level."""

    o: np.ndarray  # (2,)
    la: int
    ba: int  # building of the origin (-1 street)
    t: np.ndarray  # (N, 2)
    lb: int
    bt: np.ndarray  # (N,) building of each target (-1 street)
    prone: bool = False  # either end prone (for interrupts-prone obstacles)


def _relevant(P: _Prims, e: _Ends, prim: np.ndarray, tgt: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Which (primitive, target) contacts count under the 'whose features count' rules."""
    bld, lvl, kind = P.bld[prim], P.lvl[prim], P.kind[prim]
    bt = e.bt[tgt]
    level_at = e.la + (e.lb - e.la) * s
    own = ((bld == e.ba) & (lvl == e.la) & (bld >= 0)) | ((bld == bt) & (lvl == e.lb) & (bld >= 0))
    ground = (bld < 0) & (level_at < 1.0 - 1e-9)
    ok = own | ground
    foot = kind == FOOT
    ok = np.where(foot, (bld != e.ba) & (bld != bt) & (P.height[prim] > level_at + 1e-9), ok)
    canopy = kind == CANOPY
    if canopy.any():
        above = np.maximum(e.la, e.lb) > 0
        ok = np.where(canopy, above & ((bld < 0) | own), ok)
    if not e.prone:
        ok &= kind != OBST_PRONE
    trunk = kind == TRUNK
    if trunk.any():  # seed 000 l.826: two levels above the trunk, only its branches count
        ok &= ~trunk | (np.maximum(e.la, e.lb) - lvl < 2)
    return ok


def _trace(P: _Prims, e: _Ends, prim: np.ndarray, tgt: np.ndarray, cells: np.ndarray | None = None,
           cell_tgt: np.ndarray | None = None):
    """Exact contacts for candidate pairs; returns the pairs that count, with their s."""
    if len(prim):
        o = np.broadcast_to(e.o, (len(prim), 2))
        hit, s = _hits(o, e.t[tgt], P.p[prim], P.q[prim])
        prim, tgt, s = prim[hit], tgt[hit], s[hit]
        keep = _relevant(P, e, prim, tgt, s)
        prim, tgt, s = prim[keep], tgt[keep], s[keep]
    else:
        s = np.zeros(0)
    fol = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0))
    if cells is not None and len(cells):
        o = np.broadcast_to(e.o, (len(cells), 2))
        tt = e.t[cell_tgt]
        crossed = P.board.lattice.cells_crossed(o, tt, P.fol_xy[cells])
        # the two end dots never count as crossed
        crossed &= (np.abs(P.fol_xy[cells] - o).sum(axis=1) > 1e-6)
        crossed &= (np.abs(P.fol_xy[cells] - tt).sum(axis=1) > 1e-6)
        cells, ct = cells[crossed], cell_tgt[crossed]
        d = tt[crossed] - o[crossed]
        dd = np.maximum((d * d).sum(axis=1), 1e-12)
        cs = np.clip(((P.fol_xy[cells] - o[crossed]) * d).sum(axis=1) / dd, 0, 1)
        fb, fl = P.fol_bld[cells], P.fol_lvl[cells]
        bt = e.bt[ct]
        lvl_at = e.la + (e.lb - e.la) * cs
        own = ((fb == e.ba) & (fl == e.la) & (fb >= 0)) | ((fb == bt) & (fl == e.lb) & (fb >= 0))
        ok = own | ((fb < 0) & (lvl_at < 1.0 - 1e-9))
        fol = (cells[ok], ct[ok], cs[ok])
    return prim, tgt, s, fol


# ------------------------------------------------------------------------ single query


def _building_idx(board: Board, dot: Dot3) -> int:
    # kept per dot with the board's grid of owners (asked for both ends of every line, and
    # again by every fan target); a board compiled anew has a new grid
    got = board.__dict__.get("_bidx")
    if got is None or got[0] is not board._owner_grid or got[1] is not board.buildings:
        got = board.__dict__["_bidx"] = (board._owner_grid, board.buildings, {})
    known = got[2]
    i = known.get(dot) if dot.__class__ is tuple else None  # (a Dot3 already: no new key)
    if i is None:
        key = (int(dot[0]), int(dot[1]), int(dot[2]) if len(dot) > 2 else 0)
        i = known.get(key)
        if i is None:
            b = board.building_of(key)
            i = known[key] = -1 if b is None else b.index
    return i


def _feature_dots(board: Board, bidx: int) -> np.ndarray:
    cache = board.__dict__.setdefault("_bdots", {})
    got = cache.get(bidx)
    if got is None:
        got = cache[bidx] = board.building_dots(bidx)
    return got


def dead_zone_depth(level: int) -> int:
    """Dots of dead zone around the base of a building seen from ``level`` (DMZ: half, down)."""
    return level // 2


def _in_dead_zone(board: Board, ground: Dot3, high: Dot3) -> bool:
    if high[2] < 2 or ground[2] != 0:  # (before the building lookup: most lines end here)
        return False
    bidx = _building_idx(board, high)
    if bidx < 0:
        return False
    if _building_idx(board, ground) == bidx:
        return False
    # kept per (ground dot, building, depth) like the building's dots: a fan made of lines
    # asks it for every target
    cache = board.__dict__.setdefault("_dead_zones", {})
    key = (ground[0], ground[1], bidx, dead_zone_depth(high[2]))
    got = cache.get(key)
    if got is None:
        dots = _feature_dots(board, bidx)
        got = cache[key] = bool(len(dots)) and bool(
            board.lattice.distances((ground[0], ground[1]), dots).min() <= key[3])
    return got


class _Line:
    """What one sight line meets whatever the postures: every feature it counts (obstacles
    that only hide the prone included) with how far along it first meets each, the foliage
    cells it crosses in order.  Kept with the primitives per (a, b): a door opened or shut
    changes no primitive's shape (:meth:`_Prims.replaced`), so neither does this."""

    __slots__ = ("contacts", "fol", "order")

    def __init__(self, contacts: dict[int, float], fol: list[int]):
        self.contacts = contacts
        self.fol = fol
        #: (s, feature) nearest first, with and without the prone-only obstacles (made
        #: when first asked: every posture's facts read one of them)
        self.order: tuple[list, list] | None = None


#: lines kept per primitives (then the memo starts over)
_LINES_MAX = 200_000


def _line_memo(P: _Prims) -> dict[tuple[Dot3, Dot3], _Line]:
    got = P.__dict__.get("_lines")
    if got is None:
        got = P._lines = {}  # type: ignore[attr-defined]
    elif len(got) > _LINES_MAX:
        got.clear()
    return got


def _seg_table(P: _Prims) -> tuple[np.ndarray, ...]:
    """Per primitive: the grid cells its box spans and its coordinates as flat arrays (the
    grid's buckets as ranges, so many lines gather their candidates in one pass)."""
    got = P.__dict__.get("_seg_table")
    if got is None:
        g = P.grid
        lo, hi = np.minimum(P.p, P.q), np.maximum(P.p, P.q)
        c0, c1 = g._cells(lo), g._cells(hi)
        got = P._seg_table = (c0[:, 0].copy(), c0[:, 1].copy(), c1[:, 0].copy(),  # type: ignore[attr-defined]
                              c1[:, 1].copy(), P.p[:, 0].copy(), P.p[:, 1].copy(),
                              P.q[:, 0].copy(), P.q[:, 1].copy(),
                              np.abs(P.q - P.p).sum(axis=1) + 1.0)
    return got


def _box_prims(P: _Prims, i0: int, i1: int, j0: int, j1: int, solid: bool = False) -> np.ndarray:
    """The primitives (ascending) whose grid-cell box meets the cells ``i0..i1`` x ``j0..j1``,
    only the blocking ones (:data:`_SOLID`) when ``solid``; kept per cell box with the
    primitives (a board has a few hundred cell boxes)."""
    memo = P.__dict__.get("_box_prims")
    if memo is None:
        memo = P._box_prims = {}  # type: ignore[attr-defined]
    key = (i0, i1, j0, j1, solid)
    got = memo.get(key)
    if got is None:
        c0x, c0y, c1x, c1y = _seg_table(P)[:4]
        sel = (c0x <= i1) & (c1x >= i0) & (c0y <= j1) & (c1y >= j0)
        if solid:
            sel &= np.isin(P.kind, _SOLID)
        got = memo[key] = np.nonzero(sel)[0]
    return got


def _candidates(P: _Prims, oo: np.ndarray, tt: np.ndarray, solid: bool = False,
                ends: tuple[list[int], ...] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(line, primitive) pairs to test exactly: the primitives in the grid cells of each
    line's box (what :meth:`_Prims.near_box` returns) whose ends straddle or touch the line's
    supporting line (the rest cannot meet it); only the blocking primitives when ``solid``.
    Line by line, primitives ascending.  ``ends``: each line's (levels of a, levels of b,
    buildings of a, buildings of b): then without the primitives none of its contacts could
    count (:func:`_counted_cands`), which :func:`_relevant` would drop anyway."""
    none = np.zeros(0, dtype=np.int64)
    g = P.grid
    if not len(g.seg) or not len(oo):
        return none, none
    _c0x, _c0y, _c1x, _c1y, px, py, qx, qy, sab = _seg_table(P)
    w, h = int(g.shape[0]), int(g.shape[1])
    lo = np.floor((np.minimum(oo, tt) - g.origin) / g.CELL).astype(np.int64)
    hi = np.floor((np.maximum(oo, tt) - g.origin) / g.CELL).astype(np.int64)
    i0, j0 = np.maximum(lo[:, 0], 0), np.maximum(lo[:, 1], 0)
    i1, j1 = np.minimum(hi[:, 0], w - 1), np.minimum(hi[:, 1], h - 1)
    segs, counts = [], []
    if ends is not None:
        for a0, a1, b0, b1, la, lb, ba, bb in zip(i0.tolist(), i1.tolist(), j0.tolist(),
                                                  j1.tolist(), *ends, strict=True):
            got = _counted_cands(P, (a0, a1, b0, b1), la, lb, ba, bb, solid)[6] \
                if a0 <= a1 and b0 <= b1 else none
            segs.append(got)
            counts.append(len(got))
    else:
        for a0, a1, b0, b1 in zip(i0.tolist(), i1.tolist(), j0.tolist(), j1.tolist(), strict=True):
            got = _box_prims(P, a0, a1, b0, b1, solid) if a0 <= a1 and b0 <= b1 else none
            segs.append(got)
            counts.append(len(got))
    k = np.repeat(np.arange(len(oo)), counts)
    i = np.concatenate(segs)
    # the cull of line_of_sight before the exact test, pair by pair
    ox, oy = oo[:, 0], oo[:, 1]
    rx, ry = tt[:, 0] - ox, tt[:, 1] - oy
    tol = (1e-9 * (np.abs(rx) + np.abs(ry) + 1.0))[k] * sab[i]
    ox, oy, rx, ry = ox[k], oy[k], rx[k], ry[k]
    d3 = rx * (py[i] - oy) - ry * (px[i] - ox)
    d4 = rx * (qy[i] - oy) - ry * (qx[i] - ox)
    keep = (d3 * d4 <= 0) | (np.abs(d3) <= tol) | (np.abs(d4) <= tol)
    return k[keep], i[keep]


def _fol_cells(P: _Prims, oa: np.ndarray, tb: np.ndarray, moved: bool) -> np.ndarray:
    """Foliage cells whose box meets the line's box (the tree's answer, in its order)."""
    seg = shapely.LineString([oa, tb]) if moved else shapely.Point(oa)
    return np.asarray(P.fol_tree.query(seg), dtype=np.int64)


def _lines(board: Board, P: _Prims, pairs: list[tuple[Dot3, Dot3]]) -> list[_Line]:
    """What each line ``a``..``b`` of ``pairs`` meets (:class:`_Line`), from the memo or
    traced together: one gathering and one exact test for all the lines not known yet."""
    memo = _line_memo(P)
    out: list[_Line | None] = [memo.get(ab) for ab in pairs]
    todo = [j for j, got in enumerate(out) if got is None]
    if len(todo) <= _ONE_BY_ONE:
        # a few lines: each traced alone with scalars costs less than the arrays' set-up
        for j in todo:
            a, b = pairs[j]
            got = memo.get((a, b))
            out[j] = memo[(a, b)] = got if got is not None else _line_one(board, P, a, b)
        return out  # type: ignore[return-value]
    ab = [pairs[j] for j in todo]
    oo = np.array([board.dot_point(a) for a, _b in ab], dtype=float).reshape(-1, 2)
    tt = np.array([board.dot_point(b) for _a, b in ab], dtype=float).reshape(-1, 2)
    la = np.array([a[2] for a, _b in ab], dtype=np.int64)
    lb = np.array([b[2] for _a, b in ab], dtype=np.int64)
    ba = np.array([_building_idx(board, a) for a, _b in ab], dtype=np.int64)
    bb = np.array([_building_idx(board, b) for _a, b in ab], dtype=np.int64)
    k, prim = _candidates(P, oo, tt, ends=(la.tolist(), lb.tolist(), ba.tolist(), bb.tolist()))
    if len(prim):
        hit, s = _hits(oo[k], tt[k], P.p[prim], P.q[prim])
        k, prim, s = k[hit], prim[hit], s[hit]
        rows = np.arange(len(k))
        e = _Ends(oo, la[k], ba[k], tt, lb[k], bb[k], prone=True)  # (per contact)
        keep = _relevant(P, e, prim, rows, s)
        k, prim, s = k[keep], prim[keep], s[keep]
    else:
        s = np.zeros(0)
    order = np.argsort(k, kind="stable")
    k, prim, s = k[order], prim[order], s[order]
    cuts = np.searchsorted(k, np.arange(len(ab) + 1))
    fol_near = None
    if P.fol_tree is not None:  # a cheap box test first: most lines meet no foliage
        fx, fy = P.fol_xy[:, 0], P.fol_xy[:, 1]
        mn, mx = np.minimum(oo, tt), np.maximum(oo, tt)
        fol_near = ((fx - .5 <= mx[:, 0, None] + 1e-6) & (fx + .5 >= mn[:, 0, None] - 1e-6) &
                    (fy - .5 <= mx[:, 1, None] + 1e-6) & (fy + .5 >= mn[:, 1, None] - 1e-6)
                    ).any(axis=1)
    none = np.zeros(0, dtype=np.int64)
    owners, ss, cut = P.owner[prim].tolist(), s.tolist(), cuts.tolist()
    oxy, txy = oo.tolist(), tt.tolist()
    for n, j in enumerate(todo):
        a, b = ab[n]
        fol: tuple[np.ndarray, ...] | None = None
        if fol_near is not None and fol_near[n]:
            e1 = _Ends(oo[n], a[2], int(ba[n]), tt[n][None, :], b[2], bb[n:n + 1], prone=True)
            moved = a[:2] != b[:2] or a[2] != b[2]
            cells = _fol_cells(P, oo[n], tt[n], moved)
            _p, _t, _s, fol = _trace(P, e1, none, none, cells, np.zeros(len(cells), dtype=np.int64))
        out[j] = memo[pairs[j]] = _line_from(P, tuple(oxy[n]), tuple(txy[n]),
                                             (a[2], b[2], int(ba[n]), int(bb[n])),
                                             owners[cut[n]:cut[n + 1]], ss[cut[n]:cut[n + 1]], fol)
    return out  # type: ignore[return-value]


#: up to this many lines not known yet, :func:`_lines` traces them one by one (:func:`_line_one`)
_ONE_BY_ONE = 10


def _box_memo(P: _Prims, name: str) -> dict:
    """The per-cell-box table ``name`` kept in the primitives' own ``__dict__`` (made empty
    on first use), so it goes with them."""
    memo = P.__dict__.get(name)
    if memo is None:
        memo = P.__dict__[name] = {}
    return memo

def _cell_cands(P: _Prims, i0: int, i1: int, j0: int, j1: int) -> tuple[Any, ...]:
    """The primitives whose grid-cell box meets the cells ``i0..i1`` x ``j0..j1`` (what
    :func:`_candidates` takes for a line with that cell box), with their coordinates as arrays
    for the cull and their facts as tuples for the exact test; kept per cell box with the
    primitives (a board has a few hundred cell boxes)."""
    memo = _box_memo(P, "_cell_cands")
    key = (i0, i1, j0, j1)
    got = memo.get(key)
    if got is None:
        _c0x, _c0y, _c1x, _c1y, px, py, qx, qy, sab = _seg_table(P)
        idx = _box_prims(P, i0, i1, j0, j1)
        rows = tuple(zip(idx.tolist(), px[idx].tolist(), py[idx].tolist(), qx[idx].tolist(),
                        qy[idx].tolist(), P.bld[idx].tolist(), P.lvl[idx].tolist(),
                        P.kind[idx].tolist(), P.height[idx].tolist(), P.owner[idx].tolist(),
                        strict=True))
        got = memo[key] = (px[idx], py[idx], qx[idx], qy[idx], sab[idx], rows)
    return got


#: per-line candidate tables kept (then the memo starts over)
_COUNTED_MAX = 50_000


def _counted_cands(P: _Prims, box: tuple[int, int, int, int], la: int, lb: int, ba: int,
                   bb: int, solid: bool) -> tuple[Any, ...]:
    """:func:`_cell_cands` (:func:`_solid_cands` when ``solid``) of the cell box ``box``
    without the primitives no contact of a line from level ``la`` (building ``ba``) to ``lb``
    (``bb``) can count (:func:`_counts`), in the same order.  A line's level at a contact
    lies between its ends' levels, and :func:`_counts` asked at the lower one is true
    whenever it is true anywhere on the line, exactly so on one level (most lines): most
    candidates are other buildings' walls and the floors' features of other levels, which
    the exact test used to meet and throw away.  Kept per key with the primitives."""
    memo = _box_memo(P, "_counted_cands")
    key = (box, la, lb, ba, bb, solid)
    got = memo.get(key)
    if got is None:
        px, py, qx, qy, sab, rows = (_solid_cands if solid else _cell_cands)(P, *box)
        lo, top = min(la, lb), max(la, lb)
        at = float(lo)
        sel = [j for j, r in enumerate(rows)
               if _counts(r[7], r[5], r[6], r[8], at, ba, bb, la, lb, top)]
        idx = np.array(sel, dtype=np.int64)
        if len(memo) > _COUNTED_MAX:
            memo.clear()
        cx, cy = px[idx], py[idx]
        dx, dy = qx[idx], qy[idx]
        ss = sab[idx]
        got = memo[key] = (cx, cy, dx, dy, ss, [rows[j] for j in sel],
                           np.array([rows[j][0] for j in sel], dtype=np.int64),
                           np.stack([cx, dx]), np.stack([cy, dy]),
                           list(zip(cx.tolist(), cy.tolist(), dx.tolist(), dy.tolist(),
                                    ss.tolist(), strict=True)) if len(sel) <= _FEW else None,
                           {rows[j][0]: n for n, j in enumerate(sel)})
    return got


def _line_one(board: Board, P: _Prims, a: Dot3, b: Dot3) -> _Line:
    """What the line ``a``..``b`` meets, as :func:`_lines` traces it in a batch, for one
    line: the same candidates, cull, exact test (:func:`_hits`) and counting rules
    (:func:`_relevant`, prone obstacles included) with the same floating-point operations
    in the same order, on Python floats (tests/engine/test_single_line_agrees.py)."""
    ox, oy, ci, cj = _dot_end(board, P, a)
    tx, ty, ti, tj = _dot_end(board, P, b)
    la, lb = a[2], b[2]
    ba, bb = _building_idx(board, a), _building_idx(board, b)
    owners: list[int] = []
    ss: list[float] = []
    box = _ends_box(P, ci, cj, ti, tj)
    if box is not None:
        got = _counted_cands(P, box, la, lb, ba, bb, False)
        rows = got[5]
        rx, ry = tx - ox, ty - oy
        top = max(la, lb)
        point = rx == 0 and ry == 0
        rs = max(abs(rx) + abs(ry), 1e-12)
        few = got[9]
        for j in (_culled_few(few, ox, oy, rx, ry) if few is not None else
                  _culled_stacked(got[7], got[8], got[4], ox, oy, rx, ry)):
            _i, p0, p1, q0, q1, bld, lvl, kind, height, owner = rows[j]
            s = _hit_one(ox, oy, rx, ry, rs, point, p0, p1, q0, q1)
            if s is None:
                continue
            if _counts(kind, bld, lvl, height, la + (lb - la) * s, ba, bb, la, lb, top):
                owners.append(owner)
                ss.append(s)
    fol: tuple[np.ndarray, ...] | None = None
    if P.fol_tree is not None and _fol_near_one(P, ox, oy, tx, ty):
        e1 = _Ends(np.array((ox, oy)), la, ba, np.array([[tx, ty]]), lb,
                   np.array([bb], dtype=np.int64), prone=True)
        moved = a[:2] != b[:2] or a[2] != b[2]
        cells = _fol_cells(P, e1.o, e1.t[0], moved)
        _p, _t, _s, fol = _trace(P, e1, _NONE, _NONE, cells, np.zeros(len(cells), dtype=np.int64))
    return _line_from(P, (ox, oy), (tx, ty), (la, lb, ba, bb), owners, ss, fol)


def _cell_box(g: Any, ox: float, oy: float, tx: float, ty: float
              ) -> tuple[int, int, int, int] | None:
    """The cells ``(i0, i1, j0, j1)`` of the primitives' grid ``g`` that the box of the line
    ``o``..``t`` covers, clipped to the grid; None when the box lies outside it."""
    w, h = int(g.shape[0]), int(g.shape[1])
    gx, gy = float(g.origin[0]), float(g.origin[1])
    cell = g.CELL
    i0 = max(math.floor((min(ox, tx) - gx) / cell), 0)
    j0 = max(math.floor((min(oy, ty) - gy) / cell), 0)
    i1 = min(math.floor((max(ox, tx) - gx) / cell), w - 1)
    j1 = min(math.floor((max(oy, ty) - gy) / cell), h - 1)
    return (i0, i1, j0, j1) if i0 <= i1 and j0 <= j1 else None


def _culled(px: np.ndarray, py: np.ndarray, qx: np.ndarray, qy: np.ndarray, sab: np.ndarray,
            ox: float, oy: float, rx: float, ry: float) -> list[int]:
    """The candidate segments ``p``-``q`` whose ends are not both strictly on one side of
    the line from ``o`` along ``r`` (with the batch cull's tolerance, ``sab`` per segment):
    only these can touch it."""
    tol = (1e-9 * (abs(rx) + abs(ry) + 1.0)) * sab
    d3 = rx * (py - oy) - ry * (px - ox)
    d4 = rx * (qy - oy) - ry * (qx - ox)
    return np.nonzero((d3 * d4 <= 0) | (np.abs(d3) <= tol) | (np.abs(d4) <= tol))[0].tolist()


#: up to this many candidates a line culls them with Python floats (:func:`_culled_few`)
_FEW = 32


def _culled_few(cands: list[tuple[float, ...]], ox: float, oy: float, rx: float, ry: float
                ) -> list[int]:
    """:func:`_culled` on a few candidates ``(px, py, qx, qy, sab)`` with Python floats: the
    same operations on the same numbers, without the arrays' set-up."""
    t = 1e-9 * (abs(rx) + abs(ry) + 1.0)
    out = []
    for j, (px, py, qx, qy, sab) in enumerate(cands):
        tol = t * sab
        d3 = rx * (py - oy) - ry * (px - ox)
        d4 = rx * (qy - oy) - ry * (qx - ox)
        if d3 * d4 <= 0 or abs(d3) <= tol or abs(d4) <= tol:
            out.append(j)
    return out


def _culled_stacked(pqx: np.ndarray, pqy: np.ndarray, sab: np.ndarray, ox: float, oy: float,
                    rx: float, ry: float) -> list[int]:
    """:func:`_culled` with the candidates' ends stacked (row 0 the ``p`` ends, row 1 the
    ``q`` ends): each number worked out by the same operations, in half as many passes."""
    tol = (1e-9 * (abs(rx) + abs(ry) + 1.0)) * sab
    d = rx * (pqy - oy) - ry * (pqx - ox)
    near = np.abs(d) <= tol
    # (the array's own nonzero: np.flatnonzero's dispatch cost more than the test here)
    return ((d[0] * d[1] <= 0) | near[0] | near[1]).nonzero()[0].tolist()


def _dot_end(board: Board, P: _Prims, d: Dot3) -> tuple[float, float, int, int]:
    """(x, y, column of cells, row of cells) of dot ``d``'s point in the primitives' grid (the
    cell not clipped to the grid), kept per dot with the primitives: every line from or to the
    dot asks them.  A line's cell box (:func:`_cell_box`) is the least and greatest of its
    ends' cells (the cell of a coordinate never decreases as the coordinate grows)."""
    memo = P.__dict__.get("_dot_ends")
    if memo is None:
        memo = P._dot_ends = {}  # type: ignore[attr-defined]
    got = memo.get(d)
    if got is None:
        x, y = (float(v) for v in board.dot_point(d))
        g = P.grid
        cell = g.CELL
        got = memo[d] = (x, y, math.floor((x - float(g.origin[0])) / cell),
                         math.floor((y - float(g.origin[1])) / cell))
    return got


def _ends_box(P: _Prims, ci: int, cj: int, ti: int, tj: int) -> tuple[int, int, int, int] | None:
    """:func:`_cell_box` of the line between two dots whose cells are ``(ci, cj)`` and
    ``(ti, tj)`` (:func:`_dot_end`); None also when the grid holds no segment."""
    wh = P.__dict__.get("_grid_wh")
    if wh is None:
        g = P.grid
        wh = P._grid_wh = (int(g.shape[0]), int(g.shape[1])) if len(g.seg) else (0, 0)  # type: ignore[attr-defined]
    i0, i1 = (ci, ti) if ci <= ti else (ti, ci)
    j0, j1 = (cj, tj) if cj <= tj else (tj, cj)
    i0, j0 = max(i0, 0), max(j0, 0)
    i1, j1 = min(i1, wh[0] - 1), min(j1, wh[1] - 1)
    return (i0, i1, j0, j1) if i0 <= i1 and j0 <= j1 else None


def _counts(kind: int, bld: int, lvl: int, height: float, level_at: float, ba: int, bb: int,
            la: int, lb: int, top: int) -> bool:
    """:func:`_relevant` for one contact at level ``level_at`` of a line traced with its
    prone obstacles, from ``la`` (building ``ba``) to ``lb`` (``bb``); ``top``: the higher
    end's level."""
    own = (bld == ba and lvl == la and bld >= 0) or (bld == bb and lvl == lb and bld >= 0)
    if kind == FOOT:
        return bld != ba and bld != bb and height > level_at + 1e-9
    if kind == CANOPY:
        return top > 0 and (bld < 0 or own)
    ok = own or (bld < 0 and level_at < 1.0 - 1e-9)
    if kind == TRUNK:  # seed 000 l.826: two levels above, only branches
        ok = ok and top - lvl < 2
    return ok


_NONE = np.zeros(0, dtype=np.int64)
_NONE.flags.writeable = False


def _solid_cands(P: _Prims, i0: int, i1: int, j0: int, j1: int) -> tuple[Any, ...]:
    """:func:`_cell_cands` restricted to the primitives that block (:data:`_SOLID`), in the
    same order; kept per cell box with the primitives."""
    memo = _box_memo(P, "_solid_cands")
    key = (i0, i1, j0, j1)
    got = memo.get(key)
    if got is None:
        px, py, qx, qy, sab, rows = _cell_cands(P, i0, i1, j0, j1)
        sel = [j for j, row in enumerate(rows) if row[7] in _SOLID]
        idx = np.array(sel, dtype=np.int64)
        got = memo[key] = (px[idx], py[idx], qx[idx], qy[idx], sab[idx], tuple(rows[j] for j in sel))
    return got


def _solid_memo(P: _Prims) -> dict[tuple[Dot3, Dot3], bool]:
    """Per line ``(a, b)``: does it meet a feature that blocks (:func:`_blocked_one`)?  Kept
    with the primitives like the lines (no door is solid, so a door changes none of these)."""
    got = P.__dict__.get("_solid")
    if got is None:
        got = P._solid = {}  # type: ignore[attr-defined]
    elif len(got) > _LINES_MAX:
        got.clear()
    return got


def _blocked_many(board: Board, P: _Prims, pairs: list[tuple[Dot3, Dot3]], ba: list[int],
                  bb: list[int]) -> list[bool]:
    """:func:`_blocked_one` for many lines at once, as :func:`_lines` traces a batch: the same
    candidates (:func:`_candidates`), exact test (:func:`_hits`) and counting rules
    (:func:`_relevant`) on the blocking primitives alone."""
    out = [False] * len(pairs)
    if not pairs or not len(P.grid.seg):
        return out
    oo = np.array([board.dot_point(a) for a, _b in pairs], dtype=float).reshape(-1, 2)
    tt = np.array([board.dot_point(b) for _a, b in pairs], dtype=float).reshape(-1, 2)
    las, lbs = [a[2] for a, _b in pairs], [b[2] for _a, b in pairs]
    k, prim = _candidates(P, oo, tt, solid=True, ends=(las, lbs, ba, bb))
    if not len(k):
        return out
    hit, s = _hits(oo[k], tt[k], P.p[prim], P.q[prim])
    k, prim, s = k[hit], prim[hit], s[hit]
    la = np.array(las, dtype=np.int64)
    lb = np.array(lbs, dtype=np.int64)
    e = _Ends(oo, la[k], np.asarray(ba, dtype=np.int64)[k], tt, lb[k],
              np.asarray(bb, dtype=np.int64)[k], prone=True)  # (per contact)
    keep = _relevant(P, e, prim, np.arange(len(k)), s)
    feats, kinds = P.feats, P.kind
    for n, pi in zip(k[keep].tolist(), prim[keep].tolist()):
        if out[n]:
            continue
        fi = int(P.owner[pi])
        if int(kinds[pi]) in _IGNORE_IF_HOLDS_END and \
                feats[fi].geom.geom_type in ("Polygon", "MultiPolygon"):
            # (:func:`_line_from`: a polygon you stand in is ignored)
            if fi in P.holding(tuple(oo[n])).tolist() or fi in P.holding(tuple(tt[n])).tolist():
                continue
        out[n] = True
    return out


#: from this many lines :func:`lines_fan` asks :func:`_blocked_many` rather than one by one
#: (replayed fans of the six samples, 4-48 lines each: one by one, stopping at the first
#: blocking contact, costs 0.6-0.7x the batch at every size)
_MANY_SOLID = 64


def _blocked_one(board: Board, P: _Prims, a: Dot3, b: Dot3, ba: int, bb: int) -> bool:
    """Whether the line ``a``..``b`` counts a contact with a blocking feature (wall, fence,
    trunk, another building's footprint), exactly as :func:`_line_one` would list it among
    the line's contacts (``ba``, ``bb``: the ends' buildings): the same candidates, cull,
    exact test and counting rules, on the blocking primitives alone, stopping at the first.
    A fan needs no more of a blocked line, and most of a bot's fan lines are blocked
    (tests/engine/test_blocked_one_agrees.py).

    The primitive that last blocked a line from either end is tried first (:func:`_blocker`):
    a bot's lines from one dot mostly end behind the same wall, and one candidate put through
    the cull and the exact test costs a fraction of culling them all.  It answers True only
    when that candidate would have been found by the scan (tests/engine/test_last_blocker.py)."""
    ox, oy, ci, cj = _dot_end(board, P, a)
    tx, ty, ti, tj = _dot_end(board, P, b)
    box = _ends_box(P, ci, cj, ti, tj)
    if box is None:
        return False
    la, lb = a[2], b[2]
    got = _counted_cands(P, box, la, lb, ba, bb, True)
    rows = got[5]
    if not rows:
        return False
    rx, ry = tx - ox, ty - oy
    top = max(la, lb)
    point = rx == 0 and ry == 0
    rs = max(abs(rx) + abs(ry), 1e-12)
    last = _last_blockers(P)
    tried = -1
    for end in (a, b):
        g = last.get(end)
        if g is None or g == tried:
            continue
        tried = g
        j = got[10].get(g)
        if j is not None and _blocker(P, got, j, ox, oy, tx, ty, rx, ry, rs, point,
                                      (la, lb, ba, bb, top)):
            return True
    held: set[int] | None = None
    few = got[9]
    for j in (_culled_few(few, ox, oy, rx, ry) if few is not None else
              _culled_stacked(got[7], got[8], got[4], ox, oy, rx, ry)):
        _i, p0, p1, q0, q1, bld, lvl, kind, height, owner = rows[j]
        s = _hit_one(ox, oy, rx, ry, rs, point, p0, p1, q0, q1)
        if s is None:
            continue
        if not _counts(kind, bld, lvl, height, la + (lb - la) * s, ba, bb, la, lb, top):
            continue
        if kind in _IGNORE_IF_HOLDS_END and _is_polygon(P, owner):
            if held is None:  # (:func:`_line_from`: a polygon you stand in is ignored)
                held = set(P.holding((ox, oy)).tolist()) | set(P.holding((tx, ty)).tolist())
            if owner in held:
                continue
        if len(last) > _LINES_MAX:
            last.clear()
        last[a] = last[b] = _i
        return True
    return False


def _last_blockers(P: _Prims) -> dict[Dot3, int]:
    """Per dot, the primitive that last blocked a line from or to it (:func:`_blocked_one`'s
    first guess), kept with the primitives: a door opened or shut changes no blocking one."""
    got = P.__dict__.get("_last_blockers")
    if got is None:
        got = P._last_blockers = {}  # type: ignore[attr-defined]
    return got


def _blocker(P: _Prims, got: tuple, j: int, ox: float, oy: float, tx: float, ty: float,
             rx: float, ry: float, rs: float, point: bool, ends: tuple[int, ...]) -> bool:
    """Does candidate ``j`` of the line's blocking candidates ``got`` (:func:`_counted_cands`)
    pass :func:`_blocked_one`'s scan: its cull (:func:`_culled_few`'s test, the same numbers
    :func:`_culled_stacked` works out), the exact test and the counting rules, and is it no
    polygon an end stands in?  ``ends``: the line's levels, buildings and higher level."""
    la, lb, ba, bb, top = ends
    _i, p0, p1, q0, q1, bld, lvl, kind, height, owner = got[5][j]
    tol = 1e-9 * (abs(rx) + abs(ry) + 1.0) * got[4].item(j)
    d3 = rx * (p1 - oy) - ry * (p0 - ox)
    d4 = rx * (q1 - oy) - ry * (q0 - ox)
    if not (d3 * d4 <= 0 or abs(d3) <= tol or abs(d4) <= tol):
        return False
    s = _hit_one(ox, oy, rx, ry, rs, point, p0, p1, q0, q1)
    if s is None or not _counts(kind, bld, lvl, height, la + (lb - la) * s, ba, bb, la, lb, top):
        return False
    if kind in _IGNORE_IF_HOLDS_END and _is_polygon(P, owner):
        return owner not in P.holding((ox, oy)).tolist() and \
            owner not in P.holding((tx, ty)).tolist()
    return True


def _hit_one(ox: float, oy: float, rx: float, ry: float, rs: float, point: bool,
             px: float, py: float, qx: float, qy: float) -> float | None:
    """:func:`_hits` for one segment ``p``-``q`` against the line from ``o`` along ``r``
    (``rs``: max(|rx| + |ry|, 1e-12); ``point``: the line has no length): the ``s`` of the
    first contact, or None when they do not touch.  Each number is worked out by the same
    operations as the array version, so it is the same float."""
    sx, sy = qx - px, qy - py
    qpx, qpy = px - ox, py - oy
    den = rx * sy - ry * sx
    s_num = qpx * sy - qpy * sx
    u_num = qpx * ry - qpy * rx
    ssum = max(abs(sx) + abs(sy), 1e-12)
    scale = rs * ssum
    tol = 1e-9
    if point:  # a line from a dot to itself touches only the segments through it
        sq = sx * sx + sy * sy
        along = -(qpx * sx + qpy * sy) / sq if sq > 0 else 0.0
        on = abs(s_num) <= EPS * ssum and -tol <= along <= 1 + tol and \
            (sq > 0 or (abs(qpx) + abs(qpy)) <= EPS)
        return 0.0 if on else None
    if abs(den) <= EPS * scale:  # parallel: a hit only as a collinear overlap
        if not abs(u_num) <= EPS * scale:
            return None
        rr = rx * rx + ry * ry
        s0 = (qpx * rx + qpy * ry) / rr if rr > 0 else 0.0
        s1 = ((qx - ox) * rx + (qy - oy) * ry) / rr if rr > 0 else 0.0
        lo, hi = min(s0, s1), max(s0, s1)
        if not (hi >= -tol and lo <= 1 + tol):
            return None
        s = 0.0 if lo < 0.0 else (1.0 if lo > 1.0 else lo)  # (np.clip: -0.0 stays -0.0)
    else:
        s = s_num / den
        u = u_num / den
        if not (s >= -tol and s <= 1 + tol and u >= -tol and u <= 1 + tol):
            return None
    return 0.0 if s < 0.0 else (1.0 if s > 1.0 else s)


def _fol_near_one(P: _Prims, ox: float, oy: float, tx: float, ty: float) -> bool:
    """:func:`_lines`'s box test for one line: does any foliage cell's box meet its box?"""
    x0, x1, y0, y1 = min(ox, tx), max(ox, tx), min(oy, ty), max(oy, ty)
    fb = P.__dict__.get("_fol_box")
    if fb is None:
        fx, fy = P.fol_xy[:, 0], P.fol_xy[:, 1]
        fb = P._fol_box = (float((fx - .5).min()), float((fx + .5).max()),  # type: ignore[attr-defined]
                           float((fy - .5).min()), float((fy + .5).max()))
    if fb[0] > x1 + 1e-6 or fb[1] < x0 - 1e-6 or fb[2] > y1 + 1e-6 or fb[3] < y0 - 1e-6:
        return False  # (no cell's box can meet it: every cell lies in the boxes' union)
    fx, fy = P.fol_xy[:, 0], P.fol_xy[:, 1]
    return bool(((fx - .5 <= x1 + 1e-6) & (fx + .5 >= x0 - 1e-6) &
                 (fy - .5 <= y1 + 1e-6) & (fy + .5 >= y0 - 1e-6)).any())


def _line_from(P: _Prims, o: tuple[float, float], t: tuple[float, float],
               ends: tuple[int, int, int, int], owners: list[int], s: list[float],
               fol: tuple[np.ndarray, ...] | None) -> _Line:
    """The features one line from ``o`` to ``t`` counts, from its exact contacts (each
    primitive's feature and ``s``): the nearest contact per feature; polygons that hold an
    end: obstacles you stand on are ignored, canopies, dark and smoke count.  ``ends``: the
    line's levels and buildings (level of ``o``, of ``t``, building of ``o``, of ``t``);
    ``fol``: the foliage cells crossed (None: none)."""
    holds_a, holds_b = P.holding(o), P.holding(t)
    contacts: dict[int, float] = {}
    for pi, si in zip(owners, s):
        if pi in contacts and contacts[pi] <= si:
            continue
        contacts[pi] = si
    if len(holds_a) or len(holds_b):
        ha, hb = holds_a.tolist(), holds_b.tolist()
        held = set(ha) | set(hb)
        kinds = _kinds(P)
        for fi in list(contacts):
            if fi in held and kinds[fi] in _IGNORE_IF_HOLDS_END and _is_polygon(P, fi):
                contacts.pop(fi)
        for fi in ha:
            if kinds[fi] in _COUNT_IF_HOLDS_END:
                _count_holder_at(P, ends, kinds[fi], fi, 0.0, contacts)
        for fi in hb:
            if kinds[fi] in _COUNT_IF_HOLDS_END:
                _count_holder_at(P, ends, kinds[fi], fi, 1.0, contacts)
    cells: list[int] = []
    if fol is not None and len(fol[0]):
        seen: set[int] = set()
        for ci, _cs in sorted(zip(fol[0].tolist(), fol[2].tolist()), key=lambda x: x[1]):
            if ci not in seen:
                seen.add(ci)
                cells.append(ci)
    return _Line(contacts, cells)


def warm_lines(board: Board, pairs: list[tuple[Dot3, Dot3]]) -> None:
    """Trace the lines ``a``..``b`` of ``pairs`` together, so that :func:`line_of_sight`
    on any of them (any postures, light or ruleset) finds what it meets already known: play
    asks many lines from one enemy's dot, and one pass over them all costs far less than
    as many single traces.  Changes no answer."""
    if pairs:
        _lines(board, prims(board), [(_dot3(a), _dot3(b)) for a, b in pairs])


def line_meets(board: Board, a: Dot3, b: Dot3, fids: set[str] | frozenset[str]) -> bool | None:
    """Whether the line ``a``..``b`` meets any of the features ``fids`` (by id), when it is
    already traced (None when it is not): play keeps a verdict from before a door changed on
    the lines that do not meet the door (every fact of a line comes from what it meets, its
    ends' floors and the polygons holding its ends, and a door is none of those)."""
    P = prims(board)
    line = (P.__dict__.get("_lines") or {}).get((_dot3(a), _dot3(b)))
    if line is None:
        return None
    feats = P.feats
    return any(feats[fi].id in fids for fi in line.contacts)


def openings_met(board: Board, a: Dot3, b: Dot3) -> tuple[tuple[str, Any], ...] | None:
    """The doors, windows and holes the line ``a``..``b`` counts, as (feature id, state)
    pairs in the order it meets them, when the line is already traced (None when it is
    not): the only features whose state play changes while the map state stays one forks
    share.  Two door states give the line the same facts when they give these the same
    states (:func:`line_meets`: every fact comes from what the line counts, its ends'
    floors and the polygons holding its ends); a line counting none, ``()``, has the same
    facts in every door state."""
    P = prims(board)
    line = (P.__dict__.get("_lines") or {}).get((_dot3(a), _dot3(b)))
    if line is None:
        return None
    kinds = _kinds(P)
    out = ()
    for fi in line.contacts:
        if kinds[fi] == OPENING:
            f = P.feats[fi]
            out += ((f.id, f.props.get("state")),)
    return out


def _floor_or_dead_zone(board: Board, a: Dot3, b: Dot3, ba: int, bb: int) -> tuple[bool, bool]:
    """(blocked by a floor or a dead zone, seen up or down a stair) for the line ``a``..``b``,
    as :func:`line_of_sight` finds them."""
    if ba >= 0 and ba == bb and a[2] != b[2]:
        if abs(a[2] - b[2]) > 1 or not (board.is_stair_dot(a) or board.is_stair_dot(b)):
            return True, False
        stairs = True
    else:
        stairs = False
    return _in_dead_zone(board, a, b) or _in_dead_zone(board, b, a), stairs


def walled(board: Board, a: Dot3, b: Dot3) -> bool:
    """Is the line ``a``..``b`` blocked whatever the postures, eyes, light and ruleset: a
    floor, a dead zone or a blocking feature (wall, fence, trunk, another building) on it?
    What :func:`line_of_sight` would find blocked (every ruleset's verdict is then blocked)
    for the cost of :func:`_blocked_one` (a few times cheaper than a full trace, and kept
    with the primitives like :func:`lines_fan`'s answers).  False: ask the verdict."""
    a, b = _dot3(a), _dot3(b)
    ba, bb = _building_idx(board, a), _building_idx(board, b)
    if _floor_or_dead_zone(board, a, b, ba, bb)[0]:
        return True
    P = prims(board)
    line = _line_memo(P).get((a, b))
    if line is not None:
        kinds = _kinds(P)
        return any(kinds[fi] in _SOLID for fi in line.contacts)
    solid = _solid_memo(P)
    got = solid.get((a, b))
    if got is None:
        got = solid[(a, b)] = _blocked_one(board, P, a, b, ba, bb)
    return got


def lines_fan(board: Board, a: Dot3, level: int, targets: np.ndarray) -> Fan:
    """:func:`los_fan` from ``a`` to the given ``targets`` of ``level`` (standing), made of
    single lines traced together (:func:`warm_lines`): for a few targets this costs less than
    a fan's sweep, and leaves the lines kept for the single queries that follow.  The same
    arrays a fan gives (tests/engine/test_single_line_agrees.py)."""
    a = _dot3(a)
    ends = [(c, r, level) for c, r in np.asarray(targets, dtype=int).reshape(-1, 2).tolist()
            if not (c == a[0] and r == a[1] and level == a[2])]
    blocked, cover, vis, closed, opened = fan_lines(board, a, level, ends)
    dots = np.array([e[:2] for e in ends], dtype=np.int64).reshape(-1, 2)
    return Fan(a, level, dots, np.array(blocked, dtype=bool), np.array(cover, dtype=np.int64),
               np.array(vis, dtype=np.int64), np.array(closed, dtype=np.int64),
               opened=np.array(opened, dtype=np.int64))


def fan_lines(board: Board, a: Dot3, level: int, ends: list[Dot3]
              ) -> tuple[list[bool], list[int], list[int], list[int], list[int]]:
    """:func:`lines_fan`'s figures per target as Python lists (blocked, cover, visibility,
    closed doors, doors/windows/holes counted) for the dots ``ends`` of ``level`` (``a``
    not among them): a bot's fan has a few targets, and element-wise array writes cost
    more than the lines' look-ups."""
    a = _dot3(a)
    n = len(ends)
    blocked = [False] * n
    cover = [0] * n
    vis = [0] * n
    closed = [0] * n
    opened = [0] * n
    P = prims(board)
    ba = _building_idx(board, a)
    kind_of = _kinds(P)
    shut_door = P.feat_closed_door
    full_dark = P.feat_full_dark
    memo = _line_memo(P)
    solid = _solid_memo(P)
    lines: list[_Line | None] = []
    stairs_of: list[int] = []
    ask: list[int] = []  # lines not known yet: blocked?
    bbs: list[int] = []
    for i, b in enumerate(ends):
        # floors, dead zones and blocking features first: a blocked line needs no more
        bb = _building_idx(board, b)
        bbs.append(bb)
        stop, stairs = _floor_or_dead_zone(board, a, b, ba, bb)
        stairs_of.append(int(stairs))
        line = None if stop else memo.get((a, b))
        if line is None and not stop:
            got = solid.get((a, b))
            if got is None:
                ask.append(i)
            else:
                stop = got
        if stop:
            blocked[i] = True
            cover[i] = stairs_of[i]
        lines.append(line)
    if len(ask) >= _MANY_SOLID:
        found = _blocked_many(board, P, [(a, ends[i]) for i in ask], [ba] * len(ask),
                              [bbs[i] for i in ask])
    else:
        found = [_blocked_one(board, P, a, ends[i], ba, bbs[i]) for i in ask]
    for i, stop in zip(ask, found, strict=True):
        solid[(a, ends[i])] = stop
        if stop:
            blocked[i] = True
            cover[i] = stairs_of[i]
    todo = [i for i, line in enumerate(lines) if line is None and not blocked[i]]
    for i, line in zip(todo, _lines(board, P, [(a, ends[i]) for i in todo]), strict=True):
        lines[i] = line
    for i, line in enumerate(lines):
        if line is None:
            continue  # (blocked above)
        c = stairs_of[i]
        kinds = [(fi, kind_of[fi]) for fi in line.contacts]
        if any(k in _SOLID for _fi, k in kinds):
            blocked[i] = True
            cover[i] = c
            continue
        v = sh = op = 0
        for fi, k in kinds:
            if k in (OPENING, OBST, LOW, CANOPY):  # (interrupts-prone: not for standing)
                c += 1
                sh += int(shut_door[fi])
                op += k == OPENING
            elif k == DARK:
                v = max(v, 2 if full_dark[fi] else 1)
            elif k == SMOKE:
                v = 3
        cover[i] = c + len(line.fol)
        vis[i] = v
        closed[i] = sh
        opened[i] = op
    return blocked, cover, vis, closed, opened


_SPANS: dict[tuple[float, float], float] = {}


def _span(dx: float, dy: float) -> float:
    """``round(hypot(dx, dy), 6)`` as numpy's hypot gives it, kept per (dx, dy) (a board's
    lines have a few thousand; numpy's call on two floats costs more than the look-up)."""
    key = (dx, dy)
    got = _SPANS.get(key)
    if got is None:
        if len(_SPANS) > 200_000:
            _SPANS.clear()
        got = _SPANS[key] = round(float(np.hypot(dx, dy)), 6)
    return got


def line_of_sight(
    board: Board, a: Dot3, b: Dot3, *, posture_a: str = "standing", posture_b: str = "standing",
    light: str = "day",
) -> LosFacts:
    """The LOS facts between dots ``a`` (attacker) and ``b`` (target)."""
    a = _dot3(a)
    b = _dot3(b)
    levels = board.levels
    for d in (a, b):
        if not levels[0] <= d[2] <= levels[-1]:
            from engine.errors import QueryError
            raise QueryError(f"dot {fmt_dot(d)} is on level {d[2]}, but this layout has levels "
                             f"{board.levels[0]}..{board.levels[-1]}")
    P = prims(board)
    lat = board.lattice
    rng = lat.distance(a[:2], b[:2])
    # the ends' points as Python floats (the same numbers the arrays held: each result below
    # is worked out by the same operations)
    ox, oy, _i, _j = _dot_end(board, P, a)
    tx, ty, _i, _j = _dot_end(board, P, b)
    prone = "prone" in (posture_a, posture_b)
    ba, bb = _building_idx(board, a), _building_idx(board, b)
    facts = LosFacts(a, b, rng, False, None, [], [], abs(a[2] - b[2]), False, 0,
                     posture_a, posture_b, light, span=_span(tx - ox, ty - oy),
                     ends=((ox, oy), (tx, ty)))
    # floors between levels of one building
    if ba >= 0 and ba == bb and a[2] != b[2]:
        gap = abs(a[2] - b[2])
        stair = board.is_stair_dot(a) or board.is_stair_dot(b)
        if gap > 1 or not stair:
            why = ("the floors between levels more than one apart block it" if gap > 1
                   else "the floor between the levels blocks it (neither end is on a stair dot)")
            facts.blocked = True
            facts.blocked_by = {"kind": "floor", "feature": board.buildings[ba].placement_id,
                                "point": list(board.dot_point(a)), "reason": why}
        else:
            facts.interruptions.append({"kind": "stairs", "feature": None,
                                        "reason": "target on a stair dot one level away"})
    # dead zone
    for ground, high in ((a, b), (b, a)):
        if _in_dead_zone(board, ground, high):
            facts.dead_zone = True
            if not facts.blocked:
                bl = board.building_of(high)
                facts.blocked = True
                facts.blocked_by = {
                    "kind": "dead-zone", "feature": bl.placement_id if bl else None,
                    "point": list(board.dot_point(ground)),
                    "reason": f"{fmt_dot(ground)} lies within {dead_zone_depth(high[2])} dots of "
                              f"the base of the building whose level {high[2]} holds the other end "
                              f"(dead zone: half the stories, rounded down)",
                }
    # geometry: what the line meets (traced once per pair, whatever the postures)
    line = _line_memo(P).get((a, b)) or _lines(board, P, [(a, b)])[0]
    kind_of = _kinds(P)
    orders = line.order
    if orders is None:
        every = sorted((s0, fi) for fi, s0 in line.contacts.items())
        orders = line.order = (every, [sf for sf in every if kind_of[sf[1]] != OBST_PRONE])
    in_order = orders[0] if prone else orders[1]
    feats = P.feats
    if not facts.blocked:
        for s0, fi in in_order:
            if kind_of[fi] in _SOLID:
                f = feats[fi]
                facts.blocked = True
                facts.blocked_by = {"kind": f.kind, "feature": f.id,
                                    "point": [round(ox + (tx - ox) * s0, 3),
                                              round(oy + (ty - oy) * s0, 3)],
                                    "reason": _block_reason(f, a[2], b[2], s0), **_material(f)}
                break
    span = float(facts.span or 0.0)
    visibility = set()
    if light in ("partial-darkness", "full-darkness"):
        visibility.add(light)
    tkey = (tx, ty)
    kept = _facts_kept(P)
    for _s0, fi in in_order:
        f = feats[fi]
        if f.kind in ("wall", "fence", "door", "window"):  # along: dot spacings from a
            got = kept.get(fi)
            if got is None or got[0] is not f:
                got = kept[fi] = (f, {"kind": f.kind, "feature": f.id, **_material(f)})
            facts.barriers.append({**got[1], "along": round(float(_s0) * span, 4)})
    for _s0, fi in in_order:
        k = kind_of[fi]
        if k in (OPENING, OBST, OBST_PRONE, LOW, CANOPY):
            f = feats[fi]
            # (only an obstacle's nearness counts, l.826: no distance worked out for the rest)
            near = k in (OBST, OBST_PRONE, LOW) and _near(P, fi, f, tkey)
            got = kept.get((fi, near))
            if got is None or got[0] is not f:
                got = kept[(fi, near)] = (f, _interruption(f, None, k, near))
            facts.interruptions.append(dict(got[1]))
        elif k == DARK:
            visibility.add("full-darkness" if feats[fi].props.get("darkness") == "full"
                           else "partial-darkness")
        elif k == SMOKE:
            visibility.add("smoke")
    for ci in line.fol:
        f = feats[int(P.fol_feat[ci])]
        x, y = P.fol_xy[ci]
        facts.interruptions.append({"kind": "foliage", "feature": f.id,
                                    "reason": f"foliage dot {board.lattice.dot_at((x, y))} crossed",
                                    "adjacent": False})
    facts.visibility = sorted(visibility, key=VISIBILITY_ORDER.index)
    # the target's situation
    tm = 0
    for fi in P.holding(tkey).tolist():
        f = feats[fi]
        if f.props.get("target_modifier") and f.level == b[2] and _group_ok(f, bb):
            tm += int(f.props["target_modifier"])
    facts.target_modifier = tm
    return facts


def _facts_kept(P: _Prims) -> dict:
    """Per feature of the primitives, the parts of a line's facts that depend on the feature
    alone: its barrier entry without ``along`` and its interruption (per nearness), each
    with the feature object it was made from (a door opened or shut is a new object: its
    state is in both).  Every fact asks them again for each new line."""
    got = P.__dict__.get("_facts_kept")
    if got is None:
        got = P._facts_kept = {}  # type: ignore[attr-defined]
    return got


def _kinds(P: _Prims) -> list[int]:
    """Each feature's primitive kind as a Python list (read per contact by every query)."""
    got = P.__dict__.get("_kinds")
    if got is None:
        got = P._kinds = P.prim_kind_of_feat.tolist()  # type: ignore[attr-defined]
    return got


def _near(P: _Prims, fi: int, f: Feature, t: tuple[float, float]) -> bool:
    """Does feature ``fi`` lie within one dot of point ``t`` (the prone-target rule)?  Kept
    per (feature, point) with the primitives: its shape is all it depends on."""
    memo = P.__dict__.get("_near")
    if memo is None:
        memo = P._near = {}  # type: ignore[attr-defined]
    elif len(memo) > _LINES_MAX:
        memo.clear()
    key = (fi, t)
    got = memo.get(key)
    if got is None:
        got = memo[key] = bool(f.geom.distance(shapely.Point(t[0], t[1])) <= 1.0 + 1e-6)
    return got


def _group_ok(f: Feature, bb: int) -> bool:
    """Does a target modifier of ``f`` apply to a target in building ``bb`` (-1: street)?"""
    bidx = -1 if f.building is None else f.building
    return bidx == bb or bidx < 0


def _count_holder_at(P: _Prims, ends: tuple[int, int, int, int], k: int, fi: int, s0: float,
                     contacts: dict[int, float]) -> None:
    """:func:`_count_holder` for one line (``ends``: its levels and buildings as for
    :func:`_line_from`; ``k``: the kind of ``fi``, one that counts when it holds an end),
    on Python ints: the same tests on the same numbers."""
    la, lb, ba, bb = ends
    f = P.feats[fi]
    bld = -1 if f.building is None else f.building
    lvl_at = la + (lb - la) * s0
    own = (bld >= 0 and ((bld == ba and f.level == la) or (bld == bb and f.level == lb)))
    if k == CANOPY:
        ok = max(la, lb) > 0 and (bld < 0 or own)
    else:
        ok = own or (bld < 0 and lvl_at < 1.0 - 1e-9)
    if ok and (fi not in contacts or contacts[fi] > s0):
        contacts[fi] = s0


def _is_polygon(P: _Prims, fi: int) -> bool:
    """Whether feature ``fi``'s shape is a polygon, kept per feature with the primitives (a
    door opened or shut keeps its shape)."""
    memo = P.__dict__.get("_is_poly")
    if memo is None:
        memo = P._is_poly = {}  # type: ignore[attr-defined]
    got = memo.get(fi)
    if got is None:
        got = memo[fi] = P.feats[fi].geom.geom_type in ("Polygon", "MultiPolygon")
    return got


def _material(f: Feature) -> dict[str, Any]:
    """The facts a ruleset needs to price a barrier: its class (and an author's own numbers)."""
    out: dict[str, Any] = {}
    for key in ("class", "custom", "state"):
        if key in f.props:
            out[key] = f.props[key]
    return out


def _block_reason(f: Feature, la: int, lb: int, s: float) -> str:
    if f.kind == "building":
        lvl = la + (lb - la) * s
        return (f"building {f.id} ({f.props.get('height')} stories) stands above the sight line "
                f"(level {lvl:.1f} where it crosses the footprint)")
    if f.kind in ("wall", "fence"):
        return f"{f.props.get('class')} {f.kind} {f.id} blocks the line"
    if f.kind == "trunk":
        return f"tree trunk {f.id} blocks the line"
    return f"{f.kind} {f.id}{' (' + f.props['note'] + ')' if f.props.get('note') else ''} blocks the line"


def _interruption(f: Feature, target: np.ndarray | None, k: int, near: bool | None = None
                  ) -> dict[str, Any]:
    """One interruption as facts: what it is, its state and material, and whether it lies
    within one dot of the target (for the prone-target rule of seed 000 l.826)."""
    note = f" ({f.props['note']})" if f.props.get("note") else ""
    if f.kind in ("door", "window", "hole"):
        state = f.props.get("state", "open")
        what = f"{state} {f.kind}" if f.kind != "hole" else "hole"
        reason = f"line passes through {what} {f.id}{note}"
    elif f.kind == "canopy":
        reason = f"line passes through the branches of tree {f.id} above ground level"
    else:
        reason = f"line crosses {f.kind} {f.id}{note}"
    if near is None:
        near = f.geom.distance(shapely.Point(float(target[0]), float(target[1]))) <= 1.0 + 1e-6
    return {"kind": f.kind, "feature": f.id, "reason": reason, **_material(f),
            "adjacent": bool(near and k in (OBST, OBST_PRONE, LOW))}


def _dot3(d: tuple[int, ...]) -> Dot3:
    if d.__class__ is tuple and len(d) == 3 and d[0].__class__ is int and \
            d[1].__class__ is int and d[2].__class__ is int:
        return d  # type: ignore[return-value]  (already one: every sight query asks this)
    d = tuple(int(v) for v in d)
    return (d[0], d[1], d[2] if len(d) > 2 else 0)  # type: ignore[return-value]


# --------------------------------------------------------------------------------- fan


def los_fan(board: Board, a: Dot3, radius: int = 75, level: int | None = None,
            targets: np.ndarray | None = None) -> Fan:
    """LOS from ``a`` to every standable dot of ``level`` within ``radius`` dots.

    Geometry, floors and dead zones give ``blocked``; interruptions give ``cover``;
    darkness/smoke met along the line give ``visibility`` (a ruleset applies it per vision).

    A board compiled from an earlier one (the editor's drag) answers a fan the earlier board
    traced from its copy when nothing changed within the fan's reach (:func:`_carry_fans`).
    """
    a = _dot3(a)
    lv = a[2] if level is None else level
    if targets is not None:
        return _fan(board, a, radius, lv, targets)  # (targets given: traced every time)
    P = prims(board)
    key = (a, lv, radius)
    fan = P.__dict__.get("_fans_carried", {}).get(key)
    if fan is None:
        fan = _fan(board, a, radius, lv, None)
    mine = dict(P.__dict__.get("_fans", {}))  # a new dict: fans in other threads read it
    mine.pop(key, None)
    while len(mine) >= _FANS_KEPT:  # exposure maps run hundreds of fans: the last few
        mine.pop(next(iter(mine)))
    mine[key] = fan
    P._fans = mine  # type: ignore[attr-defined]
    return Fan(fan.origin, fan.level, *(np.array(x, copy=True) for x in (
        fan.dots, fan.blocked, fan.cover, fan.visibility, fan.closed_doors)), far=fan.far)


#: fans each board keeps for the boards compiled from it
_FANS_KEPT = 8


def _fan(board: Board, a: Dot3, radius: int, lv: int, targets: np.ndarray | None) -> Fan:
    """:func:`los_fan` traced."""
    P = prims(board)
    lat = board.lattice
    if targets is None:  # the level's dots in the square around the origin, in level order
        dots, kept = _level_window(board, lv, a, radius)
    else:
        dots, kept = np.asarray(targets, dtype=int).reshape(-1, 2), None
    keep = np.ones(len(dots), dtype=bool)
    if len(dots):
        keep &= lat.distances(a[:2], dots) <= radius
        keep &= ~((dots[:, 0] == a[0]) & (dots[:, 1] == a[1]) & (lv == a[2]))
    kept = kept[keep] if kept is not None else None  # grid positions in the level
    dots = dots[keep]
    n = len(dots)
    o = np.array(board.dot_point(a))
    tp = lat.points(dots) if n else np.zeros((0, 2))
    bt = board.buildings_at(dots)
    if n:
        nb = len(board.buildings)  # the footprints' heights close the primitives' features
        hb = np.concatenate([P.feat_height[len(P.feat_height) - nb:], [0]])
        bt = np.where((bt >= 0) & (hb[bt] >= lv), bt, -1)
    ba = _building_idx(board, a)
    e = _Ends(o, a[2], ba, tp, lv, bt)
    blocked = np.zeros(n, dtype=bool)
    cover = np.zeros(n, dtype=np.int64)
    vis = np.zeros(n, dtype=np.int64)
    closed = np.zeros(n, dtype=np.int64)
    if n == 0:
        return Fan(a, lv, dots, blocked, cover, vis, closed)

    # floors of one building and dead zones first: cheap, and they spare the sweep work
    _floors_and_dead_zones(board, a, lv, ba, dots, bt, blocked, cover)
    # the raster pre-pass: street targets behind another building are blocked without a trace
    if lv == a[2] and lat.name == "square":
        blocked |= raster_blocked(board, a, ba, dots, bt)

    ang = np.arctan2(tp[:, 1] - o[1], tp[:, 0] - o[0])
    by_ang = np.argsort(ang)  # the sweeps below pick their live targets from this order
    dist_t = np.hypot(tp[:, 0] - o[0], tp[:, 1] - o[1])
    # only the primitives in the box of the origin and every target can touch a sight line
    # (each line lies in the box of its two ends); a dot of slack for the tracer's tolerance
    x0, y0 = min(float(tp[:, 0].min()), o[0]) - 1.0, min(float(tp[:, 1].min()), o[1]) - 1.0
    x1, y1 = max(float(tp[:, 0].max()), o[0]) + 1.0, max(float(tp[:, 1].max()), o[1]) + 1.0
    near = P.near_box(x0, y0, x1, y1)
    seg_near = _seg_point_dist(P.p[near], P.q[near], o)  # per primitive of ``near``
    near_kind = P.kind[near]
    holds_o = P.holding(tuple(o))
    usable = np.ones(len(near), dtype=bool)
    if len(holds_o):  # obstacles the origin stands on are ignored
        own = P.owner[near]
        usable &= ~(np.isin(own, holds_o) & np.isin(near_kind, _IGNORE_IF_HOLDS_END)
                    & P.feat_is_poly[own])
    th_f, th_t = _target_holders(P, board, dots, lv, kept)
    held_keys = np.sort(th_f * n + th_t)

    def ignored(fi: np.ndarray, tgt: np.ndarray, k: np.ndarray) -> np.ndarray:
        """Pairs whose polygon holds the target: you stand on it, it does not hide you."""
        if not len(held_keys):
            return np.zeros(len(fi), dtype=bool)
        key = fi * n + tgt
        pos = np.clip(np.searchsorted(held_keys, key), 0, len(held_keys) - 1)
        return (held_keys[pos] == key) & np.isin(k, _IGNORE_IF_HOLDS_END) & P.feat_is_poly[fi]

    # pass 1: blockers, nearest first; each ring only meets the targets still in sight
    blk = usable & np.isin(near_kind, _SOLID)
    edges = (0.0, 6.0, 15.0, 35.0, np.inf)
    for r0, r1 in zip(edges[:-1], edges[1:]):
        sel_n = np.nonzero(blk & (seg_near >= r0) & (seg_near < r1))[0]
        sel = near[sel_n]
        live = np.nonzero(~blocked & (dist_t >= r0))[0]
        if not len(sel) or not len(live):
            continue
        pi, ti = _sweep(o, P.p[sel], P.q[sel], seg_near[sel_n], ang, dist_t, live, by_ang)
        prim, tgt, s, _ = _trace(P, e, sel[pi], ti)
        fi = P.owner[prim]
        bad = ~ignored(fi, tgt, P.kind[prim])
        blocked[tgt[bad]] = True

    # pass 2: what interrupts or darkens, for the targets still in sight
    live = np.nonzero(~blocked)[0]
    rest_n = np.nonzero(usable & ~np.isin(near_kind, _SOLID))[0]
    rest = near[rest_n]
    prim = tgt = np.zeros(0, dtype=np.int64)
    fol = (prim, prim, np.zeros(0))
    if len(live):
        pi, ti = _sweep(o, P.p[rest], P.q[rest], seg_near[rest_n], ang, dist_t, live, by_ang)
        cell_prim = cell_tgt = np.zeros(0, dtype=np.int64)
        if len(P.fol_xy):
            cp = P.fol_xy
            near_c = np.maximum(np.hypot(cp[:, 0] - o[0], cp[:, 1] - o[1]) - 0.75, 0.0)
            i1, t1 = _sweep(o, cp - 0.5, cp + 0.5, near_c, ang, dist_t, live, by_ang)
            i2, t2 = _sweep(o, cp + [0.5, -0.5], cp + [-0.5, 0.5], near_c, ang, dist_t, live,
                            by_ang)
            key = np.unique(np.concatenate([i1 * n + t1, i2 * n + t2]))
            cell_prim, cell_tgt = key // n, key % n
        prim, tgt, s, fol = _trace(P, e, rest[pi], ti, cell_prim, cell_tgt)
    fi = P.owner[prim]
    k = P.kind[prim]
    bad = ignored(fi, tgt, k)
    fi, tgt, k = fi[~bad], tgt[~bad], k[~bad]
    extra_f, extra_t = [], []
    for f0 in holds_o:
        if P.prim_kind_of_feat[f0] in _COUNT_IF_HOLDS_END:
            sel = _holder_ok_vec(P, e, int(f0), np.zeros(len(live)), live)
            extra_f.append(np.full(int(sel.sum()), f0))
            extra_t.append(live[sel])
    for f0 in np.unique(th_f):
        if P.prim_kind_of_feat[f0] in _COUNT_IF_HOLDS_END:
            tt = th_t[(th_f == f0)]
            tt = tt[~blocked[tt]]
            sel = _holder_ok_vec(P, e, int(f0), np.ones(len(tt)), tt)
            extra_f.append(np.full(int(sel.sum()), f0))
            extra_t.append(tt[sel])
    if extra_f:
        fi = np.concatenate([fi, *extra_f]).astype(np.int64)
        tgt = np.concatenate([tgt, *extra_t]).astype(np.int64)
        k = P.prim_kind_of_feat[fi]
    inter = np.isin(k, (OPENING, OBST, OBST_PRONE, LOW, CANOPY))
    if inter.any():
        uk = np.unique(fi[inter] * n + tgt[inter])
        np.add.at(cover, uk % n, 1)
        door = P.feat_closed_door[uk // n]
        np.add.at(closed, uk[door] % n, 1)
    if len(fol[0]):
        uk = np.unique(fol[0] * n + fol[1])
        np.add.at(cover, uk % n, 1)
    dk = k == DARK
    if dk.any():
        full = P.feat_full_dark[fi[dk]]
        np.maximum.at(vis, tgt[dk], np.where(full, 2, 1))
    sk = k == SMOKE
    if sk.any():
        np.maximum.at(vis, tgt[sk], 3)
    return Fan(a, lv, dots, blocked, cover, vis, closed, far=float(dist_t.max()) + 1.0)


#: interior dots of building footprints, per footprint shape (its coordinates: a recompiled
#: board makes new footprint objects for the buildings that did not move)
_INTERIOR: dict[bytes, np.ndarray] = {}
_INTERIOR_MAX = 8192
#: how deep inside its footprint a dot must lie to be opaque in the raster: more than half the
#: diagonal of its cell, so the whole cell lies in the footprint's interior
_INSET = 0.75


def _interior_dots(lat: Lattice, footprint: Any) -> np.ndarray:
    """Dots whose whole cell lies inside a building's footprint (cached per footprint: a drag
    recomputes the moved building's alone)."""
    key = lat.name.encode() + shapely.get_coordinates(footprint).tobytes()
    got = _INTERIOR.get(key)
    if got is not None:
        return got
    inner = footprint.buffer(-_INSET)
    out = np.zeros((0, 2), dtype=np.int64)
    if not inner.is_empty:
        x0, y0, x1, y1 = inner.bounds
        cand = lat.dots_in_box(x0, y0, x1, y1)
        if len(cand):
            pts = lat.points(cand)
            out = np.asarray(cand, dtype=np.int64)[shapely.contains_xy(inner, pts[:, 0],
                                                                          pts[:, 1])]
    forget_oldest(_INTERIOR, _INTERIOR_MAX - 1)
    _INTERIOR[key] = out
    return out


#: dots whose cell meets a footprint's outline and their box, per footprint shape
_RING: dict[bytes, tuple[np.ndarray, tuple[int, int, int, int]]] = {}


def _ring_dots(lat: Lattice, footprint: Any) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """Every dot whose cell meets the footprint's outline (within 0.75 of it: a cell's
    corners lie 0.71 from its dot), and their box (c0, r0, c1, r1), cached per footprint."""
    key = lat.name.encode() + shapely.get_coordinates(footprint).tobytes()
    got = _RING.get(key)
    if got is not None:
        return got
    band = footprint.boundary.buffer(_INSET)
    x0, y0, x1, y1 = band.bounds
    cand = lat.dots_in_box(x0, y0, x1, y1)
    out = np.zeros((0, 2), dtype=np.int64)
    if len(cand):
        pts = lat.points(cand)
        out = np.asarray(cand, dtype=np.int64)[shapely.intersects_xy(band, pts[:, 0], pts[:, 1])]
    box = ((int(out[:, 0].min()), int(out[:, 1].min()), int(out[:, 0].max()),
            int(out[:, 1].max())) if len(out) else (-(1 << 30), -(1 << 30), 1 << 30, 1 << 30))
    forget_oldest(_RING, _INTERIOR_MAX - 1)
    _RING[key] = (out, box)
    return out, box


def _building_raster(board: Board, bi: int
                     ) -> tuple[np.ndarray, tuple[np.ndarray, tuple[int, int, int, int]]]:
    """A building's interior dots and outline ring, kept with the board (the shape caches
    above serve a board compiled anew; this spares every later fan their lookups)."""
    cache = board.__dict__.setdefault("_raster_buildings", {})
    got = cache.get(bi)
    if got is None:
        fp = board.buildings[bi].footprint
        got = cache[bi] = (_interior_dots(board.lattice, fp), _ring_dots(board.lattice, fp))
    return got


def fan_raster(board: Board, a: Dot3, ba: int, box: tuple[int, int, int, int]) -> np.ndarray:
    """The transparency raster of a level-``a[2]`` fan over the dots ``box`` (c0, r0, c1, r1;
    indexed [row - r0, column - c0]): opaque where a dot's whole cell lies inside another
    building that rises above the level (every other building is a solid block up to its
    height, SPEC section 5)."""
    c0, r0, c1, r1 = box
    clear = np.ones((r1 - r0 + 1, c1 - c0 + 1), dtype=bool)
    cmin, rmin, owner = board._owner_grid
    sub = owner[max(r0 - rmin, 0):max(r1 - rmin + 1, 0), max(c0 - cmin, 0):max(c1 - cmin + 1, 0)]
    there = np.zeros(len(board.buildings) + 1, dtype=bool)  # (-1: no building)
    there[sub.ravel() + 1] = True
    inner = [_building_raster(board, b.index)[0]
             for b in (board.buildings[bi] for bi in (np.nonzero(there[1:])[0]).tolist())
             if b.index != ba and b.height > a[2]]
    if inner:
        d = np.concatenate(inner)
        d = d[(d[:, 0] >= c0) & (d[:, 0] <= c1) & (d[:, 1] >= r0) & (d[:, 1] <= r1)]
        clear[d[:, 1] - r0, d[:, 0] - c0] = False
    return clear


def raster_blocked(board: Board, a: Dot3, ba: int, dots: np.ndarray, bt: np.ndarray
                   ) -> np.ndarray:
    """Targets (same level as ``a``, on a square lattice) a raster proves blocked, without
    tracing them: tcod's precise permissive field of view (every line from any point of the
    origin's cell to any point of the target's) on :func:`fan_raster`.  A street target it
    does not see has every such line, the exact one too, through the inside of a building
    that is neither end's, so the line meets that footprint below its roof: blocked, as the
    exact tracer says.  A target inside another building is blocked when the raster sees no
    dot whose cell meets that building's outline: the line enters the building somewhere on
    its outline, and the part before it (outside that building, so not through its opaque
    cells) already runs through a third building."""
    out = np.zeros(len(dots), dtype=bool)
    street = bt < 0
    c0 = int(min(dots[:, 0].min(), a[0]))
    r0 = int(min(dots[:, 1].min(), a[1]))
    c1 = int(max(dots[:, 0].max(), a[0]))
    r1 = int(max(dots[:, 1].max(), a[1]))
    if 8 * len(dots) < (c1 - c0 + 1) * (r1 - r0 + 1):
        return out  # a few targets spread wide (a deployment zone): tracing them costs less
    clear = fan_raster(board, a, ba, (c0, r0, c1, r1))
    if clear.all():
        return out
    import tcod.constants  # a C library: loaded by the first fan that needs it
    import tcod.map

    seen = tcod.map.compute_fov(clear, (a[1] - r0, a[0] - c0), radius=0, light_walls=True,
                                algorithm=tcod.constants.FOV_PERMISSIVE_8)
    out[street] = ~seen[dots[street, 1] - r0, dots[street, 0] - c0]
    inside = np.unique(bt[~street])
    rings, ids = [], []
    for bi in inside[inside != ba].tolist():
        ring, (rc0, rr0, rc1, rr1) = _building_raster(board, bi)[1]
        if rc0 < c0 or rc1 > c1 or rr0 < r0 or rr1 > r1:
            continue  # part of its outline lies outside the raster: trace its targets
        rings.append(ring)
        ids.append(bi)
    if rings:  # every outline's dots looked up at once (an outline is never empty here:
        # an empty one's box is unbounded)
        ring = np.concatenate(rings)
        lit = seen[ring[:, 1] - r0, ring[:, 0] - c0]
        some = np.logical_or.reduceat(lit, np.cumsum([0] + [len(x) for x in rings[:-1]]))
        hidden = np.array(ids)[~some]
        if len(hidden):
            out |= np.isin(bt, hidden)
    return out


def _floors_and_dead_zones(board: Board, a: Dot3, lv: int, ba: int, dots: np.ndarray,
                           bt: np.ndarray, blocked: np.ndarray, cover: np.ndarray) -> None:
    n = len(dots)
    lat = board.lattice
    # floors of one building, and stairs
    if ba >= 0 and lv != a[2]:
        same_b = bt == ba
        gap = abs(lv - a[2])
        if gap > 1:
            blocked |= same_b
        else:
            stair_t = np.array([board.is_stair_dot((int(c), int(r), lv)) for c, r in dots]) if same_b.any() \
                else np.zeros(n, bool)
            ok = same_b & (stair_t | board.is_stair_dot(a))
            blocked |= same_b & ~ok
            cover += ok.astype(np.int64)
    # dead zones
    if a[2] >= 2 and ba >= 0 and lv == 0:
        bd = _feature_dots(board, ba)
        dz = dead_zone_depth(a[2])
        cand = np.nonzero(bt != ba)[0]
        if len(cand) and len(bd):
            lo, hi = bd.min(axis=0) - dz, bd.max(axis=0) + dz
            near = cand[np.all((dots[cand] >= lo) & (dots[cand] <= hi), axis=1)]
            for i in near:
                if lat.distances((int(dots[i, 0]), int(dots[i, 1])), bd).min() <= dz:
                    blocked[i] = True
    if a[2] == 0 and lv >= 2 and n:
        dz = dead_zone_depth(lv)
        for bidx in np.unique(bt[bt >= 0]):
            if bidx == ba:
                continue
            bd = _feature_dots(board, int(bidx))
            if len(bd) and lat.distances(a[:2], bd).min() <= dz:
                blocked[bt == bidx] = True


def _holder_ok_vec(P: _Prims, e: _Ends, fi: int, s: np.ndarray, tgt: np.ndarray) -> np.ndarray:
    f = P.feat(fi)
    bld = -1 if f.building is None else f.building
    bt = e.bt[tgt]
    own = (bld >= 0) & (((bld == e.ba) & (f.level == e.la)) | ((bld == bt) & (f.level == e.lb)))
    if P.prim_kind_of_feat[fi] == CANOPY:
        return np.full(len(tgt), max(e.la, e.lb) > 0) & ((bld < 0) | own)
    lvl_at = e.la + (e.lb - e.la) * s
    return own | ((bld < 0) & (lvl_at < 1.0 - 1e-9))


def _target_holders(P: _Prims, board: Board, dots: np.ndarray, lv: int,
                    kept: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(feature, target) pairs where a polygon feature holds a target dot.

    ``kept`` (the grid positions ``row * width + column`` of ``dots`` in the level, sorted)
    lets the pairs of a whole level be found once per board and reused by every fan to that
    level (exposure maps run hundreds)."""
    if not len(P.poly_feats) or not len(dots):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if kept is None:
        ti, gi = P.poly_index.points(board.lattice.points(dots).astype(float))
        return P.poly_feats[gi], ti.astype(np.int64)
    tiles = P.__dict__.setdefault("_level_holders", {})
    cmin, rmin, _o = board._owner_grid
    g = board._stand[lv]
    w = g.shape[1]
    # every tile row and column between the dots' first and last (a window: no gaps; a
    # tile with no dot in it adds no pair)
    rows = np.arange((int(dots[:, 1].min()) - rmin) // _TILE, (int(dots[:, 1].max()) - rmin) // _TILE + 1)
    cols = np.arange((int(dots[:, 0].min()) - cmin) // _TILE, (int(dots[:, 0].max()) - cmin) // _TILE + 1)
    hf_l, hp_l = [], []
    for tr in rows.tolist():
        for tc in cols.tolist():
            got = tiles.get((lv, tr, tc))
            if got is None:
                rr, cc = np.nonzero(g[tr * _TILE:(tr + 1) * _TILE, tc * _TILE:(tc + 1) * _TILE])
                rr, cc = rr + tr * _TILE, cc + tc * _TILE
                ti, gi = P.poly_index.points(board.lattice.points(
                    np.column_stack([cc + cmin, rr + rmin])).astype(float)) if len(rr) else (rr, rr)
                # pairs by grid position, not node: a drag elsewhere renumbers the nodes
                # but keeps the positions, so a dragged board takes the tile over (_patched)
                got = tiles[(lv, tr, tc)] = (P.poly_feats[gi], rr[ti] * w + cc[ti])
            hf_l.append(got[0])
            hp_l.append(got[1])
    hf = np.concatenate(hf_l) if hf_l else np.zeros(0, dtype=np.int64)
    hp = np.concatenate(hp_l) if hp_l else np.zeros(0, dtype=np.int64)
    pos = np.clip(np.searchsorted(kept, hp), 0, max(len(kept) - 1, 0))
    ok = (kept[pos] == hp) if len(kept) else np.zeros(len(hp), dtype=bool)
    return hf[ok], pos[ok]  # (the fan's use of the pairs does not depend on their order)


#: rows and columns of one tile of the fan's cached target holders
_TILE = 32


def _level_window(board: Board, lv: int, a: Dot3, radius: int) -> tuple[np.ndarray, np.ndarray]:
    """The level's standable dots in the square of half-side ``radius`` (+1 for hex rows)
    around ``a`` (in the level's order, row by row), and their grid positions ``row * width +
    column`` (sorted): the square holds every dot within ``radius`` of ``a`` on either
    lattice.  From the standable grid: the fan needs no node ids."""
    cmin, rmin, _grid = board._owner_grid
    s = board._stand
    if not 0 <= lv < s.shape[0]:  # (a level with no dot gives an empty window)
        return np.zeros((0, 2), dtype=int), np.zeros(0, dtype=np.int64)
    reach = int(min(radius, 1 << 30)) + 1
    r0, r1 = max(a[1] - rmin - reach, 0), max(a[1] - rmin + reach + 1, 0)
    c0, c1 = max(a[0] - cmin - reach, 0), max(a[0] - cmin + reach + 1, 0)
    rr, cc = np.nonzero(s[lv, r0:r1, c0:c1])  # row-major, as the level's dots are
    rr += r0
    cc += c0
    kept = rr * s.shape[2] + cc
    # the dots from their grid positions: a fresh board (a drag) need not list the level's
    return np.column_stack([cc + cmin, rr + rmin]).astype(int), kept


def _sweep(o: np.ndarray, p: np.ndarray, q: np.ndarray, seg_near: np.ndarray, ang: np.ndarray,
           dist_t: np.ndarray, live: np.ndarray, by_ang: np.ndarray | None = None
           ) -> tuple[np.ndarray, np.ndarray]:
    """Candidate (segment, target) pairs among the ``live`` targets (global indexes), in no
    particular order.  ``by_ang``: every target sorted by bearing, so the live ones are
    picked in order instead of sorted again (a fan sweeps a ring at a time)."""
    if by_ang is None:
        order = live[np.argsort(ang[live])]
    else:
        mask = np.zeros(len(ang), dtype=bool)
        mask[live] = True
        order = by_ang[mask[by_ang]]
    return _sweep_pairs(o, p, q, ang[order], order, dist_t, seg_near)


def _sweep_pairs(o: np.ndarray, p: np.ndarray, q: np.ndarray, sang: np.ndarray, order: np.ndarray,
                 dist_t: np.ndarray, seg_near: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Candidate (segment, target) pairs: targets whose bearing lies within each segment's angle.

    ``sang`` are the targets' bearings sorted, ``order`` maps sorted position -> target index.
    Segments are widened by a hair so touching at an end point is never missed.
    """
    if not len(p):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    a1 = np.arctan2(p[:, 1] - o[1], p[:, 0] - o[0])
    a2 = np.arctan2(q[:, 1] - o[1], q[:, 0] - o[0])
    lo = np.minimum(a1, a2)
    hi = np.maximum(a1, a2)
    wrap = (hi - lo) > np.pi  # the segment straddles the -pi/pi seam
    # segments through (or touching) the origin see every bearing on their side: take all
    through = seg_near < 1e-9
    tol = 1e-9
    seg_ids = []
    tgt_ids = []
    ranges = []
    # normal case: [lo, hi]
    norm = ~wrap & ~through
    i0 = np.searchsorted(sang, lo - tol, side="left")
    i1 = np.searchsorted(sang, hi + tol, side="right")
    ranges.append((np.nonzero(norm)[0], i0[norm], i1[norm]))
    # wrapped: [hi, pi] and [-pi, lo]
    w = np.nonzero(wrap & ~through)[0]
    if len(w):
        j0 = np.searchsorted(sang, hi[w] - tol, side="left")
        ranges.append((w, j0, np.full(len(w), len(sang))))
        j1 = np.searchsorted(sang, lo[w] + tol, side="right")
        ranges.append((w, np.zeros(len(w), dtype=np.int64), j1))
    th = np.nonzero(through)[0]
    if len(th):
        ranges.append((th, np.zeros(len(th), dtype=np.int64), np.full(len(th), len(sang))))
    for ids, s0, s1 in ranges:
        cnt = np.maximum(s1 - s0, 0)
        tot = int(cnt.sum())
        if tot == 0:
            continue
        rep = np.repeat(ids, cnt)
        start = np.repeat(s0 - np.concatenate([[0], np.cumsum(cnt)[:-1]]), cnt)
        pos = np.arange(tot) + start
        seg_ids.append(rep)
        tgt_ids.append(order[pos])
    # a target just past +-pi of a near-seam bearing is handled by the tolerance on both ends
    if not seg_ids:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    si = np.concatenate(seg_ids).astype(np.int64)
    ti = np.concatenate(tgt_ids).astype(np.int64)
    # cheap prefilter: the segment's nearest point must not be farther than the target
    keep = seg_near[si] <= dist_t[ti] + 1e-9
    return si[keep], ti[keep]


def _seg_point_dist(p: np.ndarray, q: np.ndarray, o: np.ndarray) -> np.ndarray:
    d = q - p
    dd = (d * d).sum(axis=1)
    w = o - p
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.clip(np.where(dd > 0, (w * d).sum(axis=1) / dd, 0.0), 0.0, 1.0)
    near = p + d * s[:, None]
    return np.hypot(near[:, 0] - o[0], near[:, 1] - o[1])


def describe(facts: LosFacts) -> str:
    """One readable paragraph of the facts."""
    if facts.blocked and facts.blocked_by:
        return f"blocked: {facts.blocked_by['reason']}"
    parts = [f"clear, range {facts.range}"]
    if facts.interruptions:
        parts = [f"interrupted ({facts.cover} cover), range {facts.range}"]
        parts += [i["reason"] for i in facts.interruptions]
    if facts.visibility:
        parts.append("visibility: " + ", ".join(facts.visibility))
    return "; ".join(parts)
