"""Compile a :class:`~engine.model.Layout` into a :class:`Board`: world geometry per level.

The board is what every question is asked of.  Compiling it does, once, everything the rules
need: sheets moved onto the world by their placement transforms, cut pieces clipped, sheet-wide
default classes resolved into barrier values, openings cut out of the walls they sit on, the
standable dots of every level found, and spatial indexes built.  Queries (movement, LOS,
validation) then never touch the document model again.

Levels: level 0 is the street; a building of height H has floors 0..H-1 and its roof is level H.
A floor not described by its sheet is a plain floor walled by the footprint's outline; the roof
has no walls unless the sheet lists some.
"""

from __future__ import annotations

import copy
import gc
import operator
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, zip_longest
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from engine import board_arrays
from engine import model as m
from engine.errors import QueryError
from engine.lattice import Dot3, Lattice, Transform, get_lattice, placement_transform

#: radius of a tree trunk, in dots: trunks stand on a dot and block what passes through it
TRUNK_RADIUS = 0.25
EPS = board_arrays.EPS  # half-width of the cut an opening makes in its wall



@dataclass(frozen=True, slots=True)
class Feature:
    """One piece of world geometry the rules care about.  Slotted: a 16x16-block city holds
    ~26k features, and a ``__dict__`` each was as many more objects for the cyclic garbage
    collector to walk in every full collection."""

    kind: str
    id: str
    level: int
    geom: Any  # shapely geometry in the world frame
    building: int | None = None  # index into Board.buildings, None for the street
    props: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def label(self) -> str:
        note = self.props.get("note")
        return f"{self.kind} {self.id}" + (f" ({note})" if note else "")


@dataclass(frozen=True)
class Building:
    index: int
    placement: m.Placement
    placement_id: str
    sheet: m.Sheet
    height: int
    footprint: Polygon
    transform: Transform

    @property
    def label(self) -> str:
        return f"{self.sheet.title or self.sheet.id} [{self.placement_id}]"


#: a feature's fields set in place while the compile makes it (bypassing the frozen
#: ``__setattr__``: a feature is made once and never changed after the compile)
_set_kind, _set_id, _set_level, _set_geom, _set_building, _set_props = (
    Feature.__dict__[name].__set__ for name in ("kind", "id", "level", "geom", "building", "props"))


def class_props(cls: m.BarrierClass, default: str | m.Barrier) -> dict[str, Any]:
    """The material facts of a barrier: its class name, or the numbers its author wrote.

    Only the class is kept: what a class is worth is the ruleset's business
    (``Ruleset.barrier``).  An explicit ``{barrier, armor}`` is the author's own DMZ-scale
    statement and is kept as written under ``custom``.
    """
    c = default if cls is None else cls
    if isinstance(c, m.Barrier):
        return {"class": "custom", "custom": (c.barrier, c.armor)}
    return {"class": c}


class Board:
    """World geometry, standable dots and indexes for one layout."""

    def __init__(self, layout: m.Layout, lattice: Lattice):
        self.layout = layout
        self.lattice = lattice
        self.buildings: list[Building] = []
        self._features: dict[int, list[Feature]] = {}
        self.pavement_area: Any = Polygon()
        self.stair_links: list[tuple[Dot3, Dot3, Feature]] = []
        self.elevator_links: list[tuple[Dot3, Dot3, Feature]] = []
        self.climb_links: list[tuple[Dot3, Dot3, Feature]] = []
        #: openings that lie on no wall or fence of their level (a validation finding)
        self.loose_openings: list[Feature] = []
        #: stairs/elevators/climbs whose other end is not a standable dot: (feature, missing dot)
        self.broken_links: list[tuple[Feature, Dot3]] = []
        #: standable dots per level, filled on first use from ``_stand``
        self._dots: dict[int, np.ndarray] = {}
        #: standable or not per (level, row, column) of the board's box (the box of
        #: ``_owner_grid``): what the node ids and the movement graph's core are built from
        self._stand: np.ndarray = np.zeros((1, 1, 1), dtype=bool)
        self._n_nodes = 0
        #: (first column, first row, building index per dot or -1) over the board's box; int32
        #: (a drag copies it: half the bytes), so a reader multiplying an index casts first
        self._owner_grid: tuple[int, int, np.ndarray] = (0, 0, np.full((1, 1), -1, dtype=np.int32))
        #: node index per (level, row, column) of the same box, -1 where nobody can stand
        self._node_grid: np.ndarray = np.full((1, 1, 1), -1, dtype=np.int64)
        #: per unit: the box (c0, r0, c1, r1) of its stairs/elevators/climbs, NaN for none
        self._link_boxes: np.ndarray | None = None
        #: per level: its links (stairs, elevators, climbs, broken) unit after unit, and
        #: where each unit's start in each, for a board compiled from this one to splice
        self._link_blocks: dict[int, tuple[tuple[list, list, list, list], np.ndarray]] | None = None
        #: per level, where each unit's features start in ``features(level)`` (one more entry
        #: for the end): what a board compiled from this one splices its lists by
        self._unit_offsets: dict[int, np.ndarray] | None = None
        #: compiled from a board (a weak reference) with as many units, these of them others
        #: (Board.units_changed_from)
        self._units_from: tuple[weakref.ref, list[int]] | None = None
        #: likewise the buildings (as many: the others are the same objects at the same index)
        self._buildings_from: tuple[weakref.ref, list[int]] | None = None
        #: compiled from a board (a weak reference) whose links differ from these only at the
        #: given indices of each kind (stairs, elevators, climbs), or None (_links_redone)
        self._links_redone: tuple[weakref.ref, list[np.ndarray]] | None = None
        #: standable dots per (level, row) of the box: what a board compiled from this one
        #: renumbers its changed rows from (None until the dots are found)
        self._row_counts: np.ndarray | None = None
        self.bounds: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
        #: what play changed on a fork: feature id -> the feature as it now is
        self.overlay: dict[str, Feature] = {}
        #: the compiled units (placements, extras) in order, each its features per level as the
        #: unit cache holds them (shared between boards): each level's feature list is their
        #: concatenation, so tables built per unit (movement crossings) are reused by identity
        self.units: list[dict[int, list[Feature]]] = []
        #: per unit: its unit-cache entry (owner, features, loose openings, solid dots, box)
        self._recs: list[tuple] = []
        #: per placement: the index of its unit in ``units``
        self._placement_unit: list[int] = []
        #: the sheets the compile found by name (what a board compiled from this one
        #: compares its own with, to take placements over in bulk)
        self._sheets: dict[str, m.Sheet] | None = None
        #: per unit: its stairs, elevators, climbs and broken links, level by level
        self._unit_links: list[dict[int, tuple[tuple, tuple, tuple, tuple]]] = []
        #: the street's dots (pavement) over the box, kept for the next incremental compile
        self._pave: np.ndarray | None = None
        #: compiled from ``previous`` (compile_board): the box rows r0:r1, columns c0:c1 where
        #: anything may differ from it (None: compiled from scratch) ...
        self._changed: tuple[int, int, int, int] | None = None
        #: ... and the tables of it (or of its own parent, if it never built them) that may be
        #: patched instead of rebuilt: name -> (table, the window where this board differs)
        self._patch_from: dict[str, tuple[Any, tuple[int, int, int, int]]] = {}

    # ------------------------------------------------------------------ queries
    @property
    def _features(self) -> dict[int, list[Feature]]:
        """Each level's features: the compiled units' lists end to end (a drag's board makes
        them from its parent's on first use: :class:`_LevelLists`)."""
        d = self.__dict__
        got = d.get("_features_d")
        if got is None:
            got = d["_features_d"] = d["_feat_src"].get()
        return got

    @_features.setter
    def _features(self, value: dict[int, list[Feature]]) -> None:
        self.__dict__["_features_d"] = value
        self.__dict__.pop("_feat_src", None)

    def _feature_levels(self) -> list[int]:
        """The levels that have features, sorted (without making a drag's lists)."""
        src = self.__dict__.get("_feat_src") if "_features_d" not in self.__dict__ else None
        return sorted(src.base if src is not None else self._features)

    @cached_property
    def levels(self) -> list[int]:
        heights = self.building_rows()[1]
        top = max(int(heights.max()), 0) if len(heights) else 0
        return list(range(0, top + 1))

    def features(self, level: int) -> list[Feature]:
        return self._features.get(level, [])

    def all_features(self) -> list[Feature]:
        return [f for lv in sorted(self._features) for f in self._features[lv]]

    def feature(self, fid: str) -> Feature | None:
        return self._feature_by_id.get(fid)

    @cached_property
    def _feature_by_id(self) -> dict[str, Feature]:
        return {f.id: f for f in self.all_features()}

    def dots(self, level: int) -> np.ndarray:
        """Standable dots of a level as an (N, 2) int array (row by row)."""
        got = self._dots.get(level)
        if got is None:
            if not 0 <= level < self._stand.shape[0] or not self._n_nodes:
                return np.zeros((0, 2), dtype=int)
            cmin, rmin, _o = self._owner_grid
            rr, cc = np.nonzero(self._stand[level])
            got = self._dots[level] = np.column_stack([cc + cmin, rr + rmin]).astype(int)
        return got

    @property
    def _node_dots(self) -> np.ndarray:
        """(c, r, level) of every node, in node order (levels, then rows, then columns)."""
        got = self.__dict__.get("_node_dots_cache")
        if got is None:
            if not self._n_nodes:
                got = np.zeros((0, 3), dtype=int)
            else:
                cmin, rmin, _o = self._owner_grid
                lv, rr, cc = np.nonzero(self._stand)
                got = np.column_stack([cc + cmin, rr + rmin, lv]).astype(int)
            self.__dict__["_node_dots_cache"] = got
        return got

    def _node_of(self, dot: tuple[int, ...]) -> int:
        cmin, rmin, _grid = self._owner_grid
        lv = dot[2] if len(dot) > 2 else 0
        r, c = int(dot[1]) - rmin, int(dot[0]) - cmin
        g = self._node_grid
        if 0 <= lv < g.shape[0] and 0 <= r < g.shape[1] and 0 <= c < g.shape[2]:
            return int(g[lv, r, c])
        return -1

    def standable(self, dot: Dot3) -> bool:
        cmin, rmin, _grid = self._owner_grid
        lv = dot[2] if len(dot) > 2 else 0
        r, c = int(dot[1]) - rmin, int(dot[0]) - cmin
        s = self._stand  # (the node grid is -1 exactly where this is False)
        return 0 <= lv < s.shape[0] and 0 <= r < s.shape[1] and 0 <= c < s.shape[2] \
            and bool(s[lv, r, c])

    @property
    def _node_grid(self) -> np.ndarray:
        """Node index per (level, row, column) of the box, -1 where nobody can stand; a board
        compiled from an earlier one numbers its nodes on first use (:class:`_LazyGrid`)."""
        g = self.__dict__["_node_grid_v"]
        return g if type(g) is np.ndarray else g.get()

    @_node_grid.setter
    def _node_grid(self, value: np.ndarray | _LazyGrid) -> None:
        self.__dict__["_node_grid_v"] = value

    def node(self, dot: Dot3) -> int:
        """Index of a standable dot in the movement graph (raises QueryError)."""
        i = self._node_of(dot)
        if i < 0:
            raise QueryError(f"dot {fmt_dot(dot)} is not a standable dot of this layout")
        return i

    def node_dot(self, i: int) -> Dot3:
        c, r, lv = self._node_dots[i]
        return (int(c), int(r), int(lv))

    @property
    def node_count(self) -> int:
        return self._n_nodes

    def building_at(self, dot: tuple[int, ...]) -> Building | None:
        """The building whose footprint holds the dot (any level), or None for the street."""
        cmin, rmin, grid = self._owner_grid
        r, c = int(dot[1]) - rmin, int(dot[0]) - cmin
        if 0 <= r < grid.shape[0] and 0 <= c < grid.shape[1]:
            i = int(grid[r, c])
            return self.buildings[i] if i >= 0 else None
        return None

    def building_dots(self, index: int) -> np.ndarray:
        """(N, 2) dots inside a building's footprint."""
        cmin, rmin, grid = self._owner_grid
        rr, cc = np.nonzero(grid == index)
        return np.column_stack([cc + cmin, rr + rmin]).astype(int)

    def buildings_at(self, dots: np.ndarray) -> np.ndarray:
        """Vectorised :meth:`building_at`: building index per (c, r) dot, -1 for the street."""
        dots = np.asarray(dots, dtype=np.int64).reshape(-1, 2)
        cmin, rmin, grid = self._owner_grid
        c, r = dots[:, 0] - cmin, dots[:, 1] - rmin
        ok = (c >= 0) & (r >= 0) & (r < grid.shape[0]) & (c < grid.shape[1])
        out = np.full(len(dots), -1, dtype=np.int64)
        out[ok] = grid[r[ok], c[ok]]
        return out

    def building_of(self, dot: Dot3) -> Building | None:
        """The building that holds a dot at its level (a roof belongs to its building)."""
        b = self.building_at(dot)
        if b is None:
            return None
        lv = dot[2] if len(dot) > 2 else 0
        return b if lv <= b.height else None

    def is_stair_dot(self, dot: Dot3) -> bool:
        return tuple(dot) in self._stair_dots

    @cached_property
    def _stair_dots(self) -> set[Dot3]:
        out: set[Dot3] = set()
        for a, b, _f in self.stair_links:
            out.add(a)
            out.add(b)
        return out

    def units_changed_from(self, prev: Board | BoardView) -> list[int] | None:
        """The units (indices) of this board that are not ``prev``'s, when it was compiled from
        ``prev`` (with as many units), else None: the tables a drag patches compare no city's
        units one by one again."""
        return _changed_from(self._units_from, prev)

    def buildings_changed_from(self, prev: Board | BoardView) -> list[int] | None:
        """As :meth:`units_changed_from`, the buildings."""
        return _changed_from(self._buildings_from, prev)

    def unit_features(self) -> list[tuple[dict[int, list[Feature]], bool]]:
        """The features as compiled units, and whether each is the unit cache's own (shared
        with other boards, so tables built from it may be cached by its identity): per level,
        the units' lists put end to end are exactly ``features(level)``.

        A fork that play changed keeps the units it did not touch; a unit holding a replaced
        feature comes back rebuilt with it, and the features play added form one last unit.
        Anything else is one unit: the whole board."""
        if not self.overlay and "_features_d" not in self.__dict__ \
                and self.__dict__.get("_feat_src") is not None:
            # the lists a drag made from its parent's are the units' end to end (assemble)
            src = self.__dict__["_feat_src"]
            got = self.__dict__.get("_unit_feats")
            if got is None or got[0] is not src:
                got = self.__dict__["_unit_feats"] = (src, [(u, True) for u in self.units])
            return list(got[1])
        if not self.overlay and self._recs and len(self._recs) == len(self.units):
            got = self.__dict__.get("_unit_feats")
            if got is not None and got[0] is self._features:
                return list(got[1])
            # the compiler put the units' lists end to end (a count per level to be sure:
            # the units' counts end to end, as ``assemble`` kept them, or counted here)
            off = self._unit_offsets
            if off is not None and off.keys() == self._features.keys():
                n = {lv: int(off[lv][-1]) for lv in off}
            else:
                n = {}
                for u in self.units:
                    for lv, fs in u.items():
                        n[lv] = n.get(lv, 0) + len(fs)
            if all(n.get(lv, 0) == len(fs) for lv, fs in self._features.items()):
                out = [(u, True) for u in self.units]
                self.__dict__["_unit_feats"] = (self._features, out)  # (put_feature drops it)
                return list(out)
        out = [(u, True) for u in self.units]
        if self.overlay:
            ov = self.overlay
            out = [(u, True) if not any(f.id in ov for fs in u.values() for f in fs)
                   else ({lv: [ov.get(f.id, f) for f in fs] for lv, fs in u.items()}, False)
                   for u in self.units]
            added: dict[int, list[Feature]] = {}
            for lv, fs in self._features.items():
                n = sum(len(u.get(lv, ())) for u, _ in out)
                if len(fs) > n:
                    added[lv] = fs[n:]
            out.append((added, False))
        for lv, fs in self._features.items():
            got = [f for u, _ in out for f in u.get(lv, ())]
            if len(got) != len(fs) or any(g is not f for g, f in zip(got, fs)):
                return [(self._features, False)]
        return out

    def tree(self, level: int) -> shapely.STRtree:
        return self._trees[level]

    @cached_property
    def _trees(self) -> dict[int, shapely.STRtree]:
        return {lv: shapely.STRtree([f.geom for f in fs]) for lv, fs in self._features.items()}

    def features_near(self, level: int, geom: Any) -> list[Feature]:
        fs = self.features(level)
        if not fs:
            return []
        idx = self.tree(level).query(geom, predicate="intersects")
        return [fs[i] for i in sorted(idx)]

    # ------------------------------------------------------------------ changes
    def fork(self) -> Board:
        """A copy play may change (doors opened, smoke laid, walls holed) without touching this one.

        The compiled features stay frozen and shared: every change is a replacement feature
        recorded in the copy's ``overlay`` (feature id -> the feature as it now is), so what
        play changed can always be told apart from what the map says.
        """
        nb = copy.copy(self)
        nb.__dict__.pop("_view", None)  # a view of its own: its feature lists are its own
        nb._features = {lv: list(fs) for lv, fs in self._features.items()}
        nb.overlay = dict(self.overlay)
        # same features, so the tables derived from them (movement graph, LOS primitives,
        # spatial indexes) hold for the copy too: it keeps them until its first change
        return nb

    def put_feature(self, f: Feature, replaces: str | None = None, patch: bool = False) -> None:
        """Add ``f``, or put it in place of the feature whose id is ``replaces``.

        Standable dots do not change (a blasted hole or a smoke cloud does not move floors);
        the movement graph and LOS indexes are dropped and rebuilt on next use.  With
        ``patch`` they patch themselves instead when they can (a door or window opened or
        shut, an opening blasted into a hole): a caller that keeps the tables of the state
        before (play's memo) must take them first.
        """
        fs = self._features.setdefault(f.level, [])
        if replaces is not None:
            for i, g in enumerate(fs):
                if g.id == replaces:
                    fs[i] = f
                    break
            else:
                raise KeyError(replaces)
        else:
            fs.append(f)
        self.overlay[f.id] = f
        self.__dict__.pop("_unit_feats", None)
        self._patch_from = {}  # an earlier board's tables no longer tell this one's
        if replaces is None or not patch:
            self.invalidate()
            return
        # a table derived from the features may patch itself (``replaced`` gives an updated
        # copy, or None when it must be rebuilt): a door opened or shut changes a few edges
        for name in ("_move_graph", "_los_prims"):
            table = self.__dict__.get(name)
            patched = table.replaced(f.level, i, g, f) if table is not None else None
            if patched is None:
                self.__dict__.pop(name, None)
            else:
                self.__dict__[name] = patched
        if f.geom is not g.geom:
            self.__dict__.pop("_trees", None)
        self.__dict__.pop("_feature_by_id", None)

    def set_state(self, fid: str, state: str, patch: bool = False) -> None:
        """Open or close a door or window: a new feature in the overlay, the old one untouched
        (``patch``: the movement graph and sight primitives are patched, not rebuilt)."""
        f = self.feature(fid)
        if f is None:
            raise KeyError(fid)
        if f.props.get("state") != state:
            self.put_feature(Feature(f.kind, f.id, f.level, f.geom, f.building,
                                     {**f.props, "state": state}), f.id, patch)

    def invalidate(self) -> None:
        """Drop every cache derived from the features."""
        self._patch_from = {}
        for name in ("_move_graph", "_los_prims", "_trees", "_feature_by_id"):
            self.__dict__.pop(name, None)

    def dot_point(self, dot: tuple[int, ...]) -> tuple[float, float]:
        return self.lattice.point((int(dot[0]), int(dot[1])))

    def unit_rows(self, prev: Board | None = None) -> np.ndarray:
        """Per unit: whether it has solid dots (1/0), then the bounds of its features
        (-inf/inf when it has none, NaN when all are empty).  Kept with the board, ``prev``'s
        rows lent for the units that are the same objects (as :meth:`building_rows`)."""
        recs = self._recs
        got = self.__dict__.get("_unit_rows")
        if got is not None and got[0] is recs and got[1] == len(recs):
            return got[2]
        old = prev.__dict__.get("_unit_rows") if prev is not None else None
        n = len(recs)
        if old is not None and old[1] == len(old[0]) == n:
            redo = self.units_changed_from(prev) if old[0] is prev._recs else None
            if redo is None:
                same = np.fromiter(map(operator.is_, old[0], recs), dtype=bool, count=n)
                redo = np.flatnonzero(~same).tolist()
            rows = old[2].copy() if redo else old[2]
        else:
            redo = list(range(n))
            rows = np.empty((n, 5))
        for k in redo:
            r = recs[k]
            rows[k] = (float(len(r[3]) > 0), *((-np.inf, -np.inf, np.inf, np.inf)
                                               if r[4] is None else r[4]))
        self.__dict__["_unit_rows"] = (recs, n, rows)
        return rows

    def building_rows(self, prev: Board | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Per building: its footprint's bounds (N, 4; NaN when empty) and its height (N,),
        kept with the board.  ``prev`` (the board this one is compiled from) lends the rows
        of the buildings that are the same objects at the same index: a drag makes one."""
        bs = self.buildings
        got = self.__dict__.get("_building_rows")
        if got is not None and got[0] is bs and got[1] == len(bs):
            return got[2], got[3]
        old = prev.__dict__.get("_building_rows") if prev is not None else None
        n = len(bs)
        if old is not None and old[1] == len(old[0]) == n:
            redo = self.buildings_changed_from(prev) if old[0] is prev.buildings else None
            if redo is None:
                same = np.fromiter(map(operator.is_, old[0], bs), dtype=bool, count=n)
                redo = np.flatnonzero(~same).tolist()
            bounds, heights = old[2].copy(), old[3].copy()
        else:
            redo = list(range(n))
            bounds, heights = np.empty((n, 4)), np.empty(n, dtype=np.int64)
        if redo:
            bounds[redo] = shapely.bounds(np.array([bs[i].footprint for i in redo],
                                                   dtype=object)).reshape(-1, 4)
            heights[redo] = [bs[i].height for i in redo]
        self.__dict__["_building_rows"] = (bs, n, bounds, heights)
        return bounds, heights

    def view(self) -> BoardView:
        """What the tables derived from this board (movement graph, sight primitives) keep of
        it (:class:`BoardView`), one per board."""
        got = self.__dict__.get("_view")
        if got is None:
            got = self.__dict__["_view"] = BoardView(self)
        return got


class BoardView:
    """A board's facts for the tables derived from it, without holding the board.

    The board keeps its movement graph and sight primitives; were they to keep the board, each
    pair would be a reference cycle that only Python's cyclic collector frees.  The editor
    drops the board of every drag, and at city scale a board is tens of MB: they would pile
    up until a collection, and every drag would write to fresh pages (a fault each).  The view
    holds the compiled facts those tables read (grids, links, buildings, feature lists; none
    of them changes once compiled) and asks the board itself, while it lives, for the rest."""

    def __init__(self, board: Board) -> None:  # noqa: D107
        self._ref = weakref.ref(board)
        for name in ("layout", "lattice", "buildings", "stair_links", "elevator_links",
                     "climb_links", "_owner_grid", "_stand", "_n_nodes", "bounds",
                     "_row_counts"):
            setattr(self, name, getattr(board, name))
        d = board.__dict__
        if "_features_d" in d:
            self._features_d = d["_features_d"]
        else:  # (a drag's lists, made on first use by whichever asks first: the same dict)
            self._feat_src = d["_feat_src"]
        self._node_grid_v = board.__dict__["_node_grid_v"]  # numbered or not: shared
        # the fans' building rasters (los): one dict, the board's
        self._raster_buildings = board.__dict__.setdefault("_raster_buildings", {})

    def __getattr__(self, name: str) -> Any:
        board = self._ref()
        if board is None:
            raise AttributeError(f"{name} (its board is gone)")
        return getattr(board, name)

    @property
    def _node_dots(self) -> np.ndarray:
        board = self._ref()
        return board._node_dots if board is not None else Board._node_dots.fget(self)

    _features = Board._features
    _feature_levels = Board._feature_levels
    _node_grid = Board._node_grid
    node_count = Board.node_count
    node = Board.node
    node_dot = Board.node_dot
    standable = Board.standable
    _node_of = Board._node_of
    building_at = Board.building_at
    buildings_at = Board.buildings_at
    dot_point = Board.dot_point


def fmt_dot(dot: tuple[int, ...]) -> str:
    return ",".join(str(int(v)) for v in dot)


# ---------------------------------------------------------------------- compiling


class _Pending:
    """Features made by ``add_level`` whose geometry is still to make: one list per shape
    (lines from sheet points, areas from sheet polygons, points that must lie in the clip),
    and per ``add_level`` call a block (end index, transform, clip, the list the features
    sit in, its level dict and level) so that geometry is made for all of them at once
    (:func:`_make_pending`) and a feature left with none leaves its list."""

    __slots__ = ("feats", "pts", "blocks")

    def __init__(self) -> None:
        self.feats: list[Feature] = []
        self.pts: list[Any] = []
        self.blocks: list[tuple[int, Transform, Any, list, dict, int]] = []


def _moved(pts: list[Any], tix: np.ndarray, ts: list[Transform]) -> tuple[np.ndarray, np.ndarray]:
    """The points of every item moved by its transform (``tix``: index into ``ts``) with the
    same float operations, in the same order, as ``Transform.apply``; and the item of each
    point."""
    n = np.fromiter(map(len, pts), dtype=np.int64, count=len(pts))
    tot = int(n.sum())
    xy = np.fromiter(chain.from_iterable(chain.from_iterable(pts)), dtype=float,
                     count=2 * tot).reshape(-1, 2)
    tr = np.array([(*t.a, *t.t) for t in ts], dtype=float).reshape(-1, 6)
    item = np.repeat(np.arange(len(pts)), n)
    tp = tr[tix[item]]
    xs = tp[:, 0] * xy[:, 0] + tp[:, 1] * xy[:, 1] + tp[:, 4]
    ys = tp[:, 2] * xy[:, 0] + tp[:, 3] * xy[:, 1] + tp[:, 5]
    return np.column_stack([xs, ys]), item


def _block_index(p: _Pending, ts: dict[int, int], clips: dict[int, int]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Per pending feature, the index of its transform in ``ts`` and of its clip in
    ``clips`` (-1: none); both dicts (id -> index) are filled as met."""
    ends = np.array([b[0] for b in p.blocks], dtype=np.int64)
    sizes = np.diff(np.concatenate([[0], ends]))
    tb = np.array([ts.setdefault(id(b[1]), len(ts)) for b in p.blocks], dtype=np.int64)
    cb = np.array([-1 if b[2] is None else clips.setdefault(id(b[2]), len(clips))
                   for b in p.blocks], dtype=np.int64)
    return np.repeat(tb, sizes), np.repeat(cb, sizes)


def _make_pending(lines: _Pending, areas: _Pending, points: _Pending) -> None:
    """Give every pending feature its geometry, with array functions: lines made from their
    moved points in one call, areas as polygons (mended by ``buffer(0)`` where invalid), both
    clipped to their placement's clip (the intersection where the clip does not cover them),
    points kept only where the clip covers them; a line left empty or of no length, an area
    left empty or a point outside, leaves its list (a level left with none is dropped), as
    one at a time."""
    ts: dict[int, int] = {}
    clips: dict[int, int] = {}
    t_objs: dict[int, Transform] = {}
    c_objs: dict[int, Any] = {}
    for p in (lines, areas, points):
        for b in p.blocks:
            t_objs.setdefault(id(b[1]), b[1])
            if b[2] is not None:
                c_objs.setdefault(id(b[2]), b[2])
    made: list[tuple[_Pending, np.ndarray, np.ndarray]] = []  # (pending, geoms, clip index)
    for p, what in ((lines, 0), (areas, 1), (points, 2)):
        if not p.feats:
            continue
        tix, cix = _block_index(p, ts, clips)
        tl = [t_objs[k] for k in ts]
        if what == 0:
            n = np.fromiter(map(len, p.pts), dtype=np.int64, count=len(p.pts))
            geoms = np.empty(len(p.pts), dtype=object)
            two = np.nonzero(n >= 2)[0]
            if len(two):
                xy, item = _moved([p.pts[i] for i in two.tolist()], tix[two], tl)
                geoms[two] = shapely.linestrings(xy, indices=item)
            for i in np.nonzero(n < 2)[0].tolist():  # fewer than two points: refused as before
                geoms[i] = LineString(tl[tix[i]].apply_many(p.pts[i]))
        elif what == 1:
            n = np.fromiter(map(len, p.pts), dtype=np.int64, count=len(p.pts))
            geoms = np.array([Polygon()] * len(p.pts), dtype=object)
            three = np.nonzero(n >= 3)[0]
            if len(three):
                xy, item = _moved([p.pts[i] for i in three.tolist()], tix[three], tl)
                polys = shapely.polygons(shapely.linearrings(xy, indices=item))
                bad = np.nonzero(~shapely.is_valid(polys))[0]
                for i in bad.tolist():
                    polys[i] = polys[i].buffer(0)
                geoms[three] = polys
        else:
            xy, _item = _moved([(q,) for q in p.pts], tix, tl)
            geoms = shapely.points(xy)
        made.append((p, geoms, cix))
    cl = [c_objs[k] for k in clips]
    clip_arr = np.array(cl + [None], dtype=object)[:-1] if cl else np.zeros(0, dtype=object)
    boxes = board_arrays.upright_boxes(clip_arr)
    for p, geoms, cix in made:
        drop = np.zeros(len(geoms), dtype=bool)
        has = np.nonzero(cix >= 0)[0]
        if p is points:
            if len(has):
                drop[has] = ~shapely.covers(clip_arr[cix[has]], geoms[has])
        elif len(has):
            g, c = geoms[has], clip_arr[cix[has]]
            # an upright rectangle covers whatever lies within its bounds: asked of GEOS
            # only for the rest
            cb, gb = boxes[cix[has]], shapely.bounds(g)
            covered = (gb[:, 0] >= cb[:, 0]) & (gb[:, 1] >= cb[:, 1]) \
                & (gb[:, 2] <= cb[:, 2]) & (gb[:, 3] <= cb[:, 3])
            ask = np.nonzero(~covered)[0]
            if len(ask):
                covered[ask] = shapely.covers(c[ask], g[ask])
            out = np.nonzero(~covered)[0]
            if len(out):
                geoms[has[out]] = shapely.intersection(g[out], c[out])
        if p is not points:
            drop |= shapely.is_empty(geoms)
            if p is lines:
                drop |= ~drop & (shapely.length(geoms) == 0)
        for f, g in zip(p.feats, geoms.tolist()):
            _set_geom(f, g)
        if drop.any():
            ends = np.array([b[0] for b in p.blocks], dtype=np.int64)
            gone: dict[int, tuple[list, dict, int, set]] = {}
            for i in np.nonzero(drop)[0].tolist():
                b = p.blocks[int(np.searchsorted(ends, i, side="right"))]
                got = gone.setdefault(id(b[3]), (b[3], b[4], b[5], set()))
                got[3].add(id(p.feats[i]))
            for fs, feats, lv, ids in gone.values():
                fs[:] = [f for f in fs if id(f) not in ids]
                if not fs and feats.get(lv) is fs:
                    del feats[lv]


class _LevelLists:
    """Each level's features of a board a drag compiled: an earlier board's lists (``base``)
    with the lists of a few units (``over``: level -> unit -> its features, each as long as
    the unit's slice it replaces) in their places, made into lists on first use.  Copying a
    city's lists (25k features) and freeing them again touched every feature's count, ~0.4
    ms a drag at 16x16; a drag whose board nobody asks for its lists pays none of it."""

    __slots__ = ("base", "offsets", "over", "done")

    #: units a chain of drags keeps over its base before making lists
    MAX_UNITS = 16

    def __init__(self, base: dict[int, list[Feature]], offsets: dict[int, np.ndarray],
                 over: dict[int, dict[int, list[Feature]]]) -> None:
        self.base, self.offsets, self.over = base, offsets, over
        self.done: dict[int, list[Feature]] | None = None

    @classmethod
    def after(cls, prev: Board, changed: list[int], recs: list[tuple]) -> _LevelLists | None:
        """``prev``'s lists with the units ``changed`` taken from ``recs``; None when a
        changed unit's count of features on a level differs (the lists are spliced then)."""
        src = prev.__dict__.get("_feat_src") if "_features_d" not in prev.__dict__ else None
        if src is not None:
            base, offsets, over = src.base, src.offsets, src.over
        else:
            base, offsets, over = prev._features, prev._unit_offsets, {}
        if offsets is None or offsets.keys() != base.keys():
            return None
        over = {lv: dict(units) for lv, units in over.items()}
        for k in changed:
            mine = recs[k][1]
            if any(lv not in base for lv in mine):
                return None
            for lv, off in offsets.items():
                fs = mine.get(lv, [])
                if len(fs) != off[k + 1] - off[k]:
                    return None
                if len(fs):
                    over.setdefault(lv, {})[k] = fs
                else:
                    over.get(lv, {}).pop(k, None)
        if len({k for units in over.values() for k in units}) > cls.MAX_UNITS:
            return None
        return cls(base, offsets, over)

    def get(self) -> dict[int, list[Feature]]:
        got = self.done
        if got is None:
            got = {}
            for lv, old in self.base.items():
                fs = list(old)
                off = self.offsets[lv]
                for k, mine in self.over.get(lv, {}).items():
                    fs[off[k]:off[k + 1]] = mine
                got[lv] = fs
            self.done = got
        return got


@dataclass
class _Waiting:
    """A unit compiled for the board but not finished yet (``_Compiler.flush``)."""

    key: tuple
    owner: Any
    feats: dict[int, list[Feature]]
    rec: tuple | None = None


class _Compiler:
    def __init__(self, layout: m.Layout, sheets: Mapping[str, m.Sheet]):
        self.layout = layout
        self.sheets = dict(sheets)
        for s in layout.sheets:
            self.sheets.setdefault(s.id, s)
        self.lattice = get_lattice(layout.lattice)
        self.board = Board(layout, self.lattice)
        self.feats: dict[int, list[Feature]] = {}
        self.pieces = {p.id: p for p in layout.pieces}
        self._used_ids: frozenset[str] | None = None  # (made by the first placement with no id)
        self._fresh_ids: set[str] = set()  # the ids fresh_id gave
        self._prev: Board | None = None  # (run: the board compiled from, if reusable)
        self._runs: list[tuple[int, int]] | None = None  # (kept_runs, once)
        #: the units that are not the previous board's (as many units: assemble), or None
        self.changed: list[int] | None = None
        self.new_buildings: list[int] = []  # (placement: the buildings made, not taken over)
        #: units for the board, in order: cache entries, or units still to finish (flush)
        self.queue: list[tuple | _Waiting] = []
        self.waiting_at: list[int] = []  # where in the queue the waiting units are
        self.waiting: dict[tuple, _Waiting] = {}
        #: features of the waiting units whose geometry flush() makes: lines, areas, points
        self.pending = (_Pending(), _Pending(), _Pending())

    def fresh_id(self, sheet_id: str) -> str:
        """The id engine.io would give a placement that has none: ``<sheet>-<n>``, n unused."""
        used = self._used_ids
        if used is None:
            used = self._used_ids = self.ids_in_use()
        mine = self._fresh_ids
        n = 1
        while f"{sheet_id}-{n}" in used or f"{sheet_id}-{n}" in mine:
            n += 1
        mine.add(f"{sheet_id}-{n}")
        return f"{sheet_id}-{n}"

    def ids_in_use(self) -> frozenset[str]:
        """The ids the layout's pavement and placements have (kept on the board): the board
        compiled from's when every placement that is not the same object has the id the one
        before it had (a drag), instead of hashing a city's ids again."""
        lay, prev = self.layout, self._prev
        got = prev.__dict__.get("_ids_in_use") if prev is not None else None
        if got is not None:
            old, new = prev.layout.placements, lay.placements
            gaps, start = [], 0
            if len(old) == len(new):
                for s, e in [*self.kept_runs(prev), (len(new), len(new))]:
                    gaps.extend(range(start, s))
                    start = e
            if len(old) != len(new) or len(gaps) > 64 \
                    or any(old[i].id != new[i].id for i in gaps):
                got = None
        if got is None:
            used = set(map(_PL_ID, lay.pavement))
            used.update(map(_PL_ID, lay.placements))
            used.discard(None)
            used.discard("")
            got = frozenset(used)
        self.board.__dict__["_ids_in_use"] = got
        return got

    def sheet(self, sid: str) -> m.Sheet:
        try:
            return self.sheets[sid]
        except KeyError:
            raise QueryError(f"layout uses sheet {sid!r}, which was not found") from None

    def add(self, f: Feature) -> None:
        self.feats.setdefault(f.level, []).append(f)

    def unit(self, key: tuple, owner: Any, fill: Any) -> None:
        """Compile one placement (or the extras) through the unit cache.

        A unit's features depend only on its sheet, transform, clip, id and building index, so
        moving one building in the editor recompiles that building alone.  ``owner`` (the sheet
        or the extras object) is kept in the entry so its ``id()`` in the key stays unique.
        A unit not in the cache gets its features now and its geometry work (openings cut,
        solid dots, box) in :meth:`flush`, together with every other unit waiting.
        """
        hit = _UNITS.get(key)
        if hit is None or hit[0] is not owner:
            hit = self.waiting.get(key)
            if hit is None or hit.owner is not owner:
                saved, self.feats = self.feats, {}
                fill()
                hit = self.waiting[key] = _Waiting(key, owner, self.feats)
                self.feats = saved
        if type(hit) is _Waiting:
            self.waiting_at.append(len(self.queue))
        self.queue.append(hit)

    def flush(self) -> None:
        """Finish the units waiting (their openings cut out of walls, solid dots, boxes: array
        work over all of them at once, see :mod:`engine.board_arrays`), put them in the unit
        cache, and add every queued unit to the board in order."""
        todo = list(self.waiting.values())
        if todo:
            units = [w.feats for w in todo]
            _make_pending(*self.pending)
            self.pending = (_Pending(), _Pending(), _Pending())
            loose = board_arrays.cut_openings(units)
            blocked = board_arrays.solid_dots(self.lattice, units)
            boxes = board_arrays.boxes(units)
            for w, lo, bl, box in zip(todo, loose, blocked, boxes):
                w.rec = (w.owner, w.feats, lo, bl, box, w.key)
        units, recs, loose_all = self.board.units, self.board._recs, self.board.loose_openings
        waiting, queue = self.waiting, self.queue
        start = 0
        # the cache entries between the waiting units in bulk (a drag queues a city's entries
        # and one waiting unit), each waiting unit as its entry, now made
        for i in [*self.waiting_at, len(queue)]:
            run = queue[start:i]
            recs.extend(run)
            units.extend(map(_ITEM1, run))
            for rec in filter(_ITEM2, run):
                loose_all.extend(rec[2])
            if i < len(queue):
                w = queue[i]
                if w.key in waiting:
                    del waiting[w.key]
                    _UNITS[w.key] = w.rec
                rec = w.rec
                units.append(rec[1])
                recs.append(rec)
                if rec[2]:
                    loose_all.extend(rec[2])
            start = i + 1
        if len(_UNITS) > _UNITS_MAX:
            # units must go, the least recently used first: this board's are the most recent
            # (refreshed only now, not on every compile: a key hashes its transform, and a
            # drag of a city would hash every unit's)
            to_end = _UNITS.move_to_end
            for rec in recs:
                try:
                    to_end(rec[5])
                except KeyError:
                    pass
            while len(_UNITS) > _UNITS_MAX:
                _UNITS.popitem(last=False)
        self.queue = []
        self.waiting_at = []
        self.waiting = {}

    def assemble(self, prev: Board | None) -> None:
        """Each level's features: the units' lists end to end.  Compiled from ``prev`` with
        the same units but a few (a drag), prev's lists are spliced where those few sit."""
        board = self.board
        recs = board._recs
        n = len(recs)
        if prev is not None and not prev.overlay and prev._unit_offsets is not None \
                and len(prev._recs) == n:
            changed = np.flatnonzero(~np.fromiter(map(operator.is_, prev._recs, recs),
                                                  dtype=bool, count=n)).tolist()
            self.changed = changed
            board._units_from = (weakref.ref(prev), changed)
            if len(changed) <= 16 and all(list(recs[k][1]) == list(prev._recs[k][1])
                                          for k in changed):
                lazy = _LevelLists.after(prev, changed, recs)
                if lazy is not None:
                    board.__dict__.pop("_features_d", None)
                    board.__dict__["_feat_src"] = lazy
                    was = prev.__dict__.get("_unit_feats")
                    if was is not None and len(was[1]) == n:
                        # prev's units as (unit, True) (unit_features), the changed replaced
                        mine = list(was[1])
                        for k in changed:
                            mine[k] = (recs[k][1], True)
                        board.__dict__["_unit_feats"] = (lazy, mine)
                    board._unit_offsets = prev._unit_offsets  # (never written)
                    return
                feats: dict[int, list[Feature]] = {}
                offsets: dict[int, np.ndarray] = {}
                for lv, old in prev._features.items():
                    off = prev._unit_offsets[lv]
                    mine = [recs[k][1].get(lv, []) for k in changed]
                    if not any(mine) and all(off[k + 1] == off[k] for k in changed):
                        feats[lv], offsets[lv] = list(old), off  # (offsets: never written)
                        continue
                    new_off = off.copy()
                    got: list[Feature] = []
                    start = 0
                    for k, fs in zip(changed, mine):
                        got += old[off[start]:off[k]]
                        got += fs
                        start = k + 1
                        grew = len(fs) - int(off[k + 1] - off[k])
                        if grew:
                            new_off[k + 1:] += grew
                    got += old[off[start]:]
                    feats[lv] = got
                    offsets[lv] = new_off
                board._features = feats
                board._unit_offsets = offsets
                return
        feats = {}
        counts: dict[int, np.ndarray] = {}
        for k, rec in enumerate(recs):
            for lv, fs in rec[1].items():
                got = feats.get(lv)
                if got is None:
                    got = feats[lv] = []
                    counts[lv] = np.zeros(n + 1, dtype=np.int64)
                got.extend(fs)
                counts[lv][k + 1] = len(fs)
        board._features = feats
        board._unit_offsets = {lv: np.cumsum(c) for lv, c in counts.items()}

    def reusable(self, prev: Board | None) -> Board | None:
        """``prev`` when its placements can be taken over one by one (same lattice, pieces and
        pavement), else None."""
        if prev is None or prev.lattice.name != self.lattice.name or not prev._placement_unit \
                or prev.layout.pieces != self.layout.pieces \
                or prev.layout.pavement != self.layout.pavement:
            return None
        return prev

    def run(self, previous: Board | None = None) -> Board:
        lat = self.lattice.name
        prev = self._prev = self.reusable(previous)
        pave_at = []  # (sheet, transform) of each pavement: its outline is made when needed

        def pave_outline(sheet: m.Sheet, t: Transform) -> Any:
            outline = _poly(t.apply_many(sheet.outline)) if sheet.outline else None
            if outline is None or outline.is_empty:
                outline = _poly(t.apply_many(_box_outline(sheet.size)))
            return outline
        for pl in self.layout.pavement:
            sheet = self.sheet(pl.sheet)
            t = placement_transform(self.lattice, sheet.size, pl.at, pl.rotation, pl.mirror)
            pid = pl.id or self.fresh_id(pl.sheet)
            pave_at.append((sheet, t))

            def fill(sheet=sheet, t=t, pid=pid) -> None:
                outline = pave_outline(sheet, t)
                for lv in sheet.levels:
                    if lv.level == 0:
                        self.add_level(lv, sheet, t, pid, None, outline)
            self.unit(("pave", lat, id(sheet), t, pid), sheet, fill)
        self.flush()
        n_pave = len(self.board.units)
        if prev is not None and len(prev._recs) >= n_pave \
                and all(a is b for a, b in zip(prev._recs, self.board._recs)):
            # the same pavement units as ``prev``'s: the same sheets and transforms
            self.board.pavement_area = prev.pavement_area
            self.board._pave = prev._pave
        else:
            prev = None
            self.board.pavement_area = unary_union([pave_outline(*x) for x in pave_at]) \
                if pave_at else Polygon()

        old_pl = prev.layout.placements if prev is not None else ()
        n_old = len(old_pl)
        board, sheets, pieces = self.board, self.sheets, self.pieces
        buildings, pl_unit, units = board.buildings, board._placement_unit, board.units
        p_recs, p_unit = (prev._recs, prev._placement_unit) if prev is not None else ((), ())
        p_buildings = prev.buildings if prev is not None else []
        queue, base, n_pb = self.queue, len(units), len(p_buildings)  # (units: flush adds)
        board._sheets = self.sheets

        def one(i: int, pl: m.Placement, nb: int) -> int:
            """Placement ``i``; returns the number of buildings after it."""
            if i < n_old and old_pl[i] is pl and pl.id:
                # the same placement object as the board before: its building and unit as they were
                rec = p_recs[p_unit[i]]
                sheet = sheets.get(pl.sheet if not pl.piece else pieces[pl.piece].sheet)
                if rec[0] is sheet:
                    if sheet.kind == "pavement":
                        pl_unit.append(base + len(queue))
                        queue.append(rec)
                        return nb
                    b = p_buildings[nb] if nb < n_pb else None
                    if b is not None and b.placement is pl and b.sheet is sheet:
                        buildings.append(b)
                        pl_unit.append(base + len(queue))
                        queue.append(rec)
                        return nb + 1
            pl_unit.append(base + len(queue))
            self.placement(i, pl)
            return len(buildings)

        placements = self.layout.placements
        nb = len(buildings)
        i = 0
        runs = self.kept_runs(prev) if prev is not None else []
        first = _placement_buildings(prev) if runs else None
        same_first = first is not None and len(placements) == n_old
        for s, e in [*runs, (len(placements), len(placements))]:
            for k in range(i, s):
                was = nb
                nb = one(k, placements[k], nb)
                same_first = same_first and first[k] == was and first[k + 1] == nb
            i = e
            if s == e:
                continue
            if first[s] == nb:
                # a run of placements as they were (the same objects, sheets and index of
                # their first building): the one-by-one checks above hold for each of them
                pl_unit.extend(range(base + len(queue), base + len(queue) + e - s))
                queue.extend(map(p_recs.__getitem__, p_unit[s:e]))
                buildings.extend(p_buildings[nb:int(first[e])])
                nb = int(first[e])
            else:
                same_first = False
                for k in range(s, e):
                    nb = one(k, placements[k], nb)
        if same_first:
            board.__dict__["_pl_buildings"] = first  # (never written)
        if prev is not None and len(prev.buildings) == len(buildings):
            # (a building taken over sits at its index in prev: the others are new)
            board._buildings_from = (weakref.ref(prev), self.new_buildings)

        ex = self.layout.extras

        def fill_x() -> None:
            extras_level = m.Level(0, areas=ex.areas, lines=ex.lines, trees=ex.trees)
            self.add_level(extras_level, None, Transform(), "extras", None, None)
        self.unit(("extras", lat, id(ex)), ex, fill_x)
        self.flush()
        self.assemble(prev)
        self.find_dots(prev)
        self.link_levels(prev)
        return self.board

    def kept_runs(self, prev: Board) -> list[tuple[int, int]]:
        """Runs [s, e) of placements that are the objects ``prev`` has at the same index and
        have an id, when this compile finds every sheet as ``prev``'s did (the same objects
        by the same names): their units and buildings are ``prev``'s (checked one by one
        otherwise)."""
        if self._runs is not None and prev is self._prev:
            return self._runs
        was = prev._sheets
        now = self.sheets
        if was is None or len(was) != len(now) \
                or not all(map(operator.is_, was.values(), now.values())) or list(was) != list(now):
            return []  # (or the same sheets in another order: one by one too)
        old, new = prev.layout.placements, self.layout.placements
        n = min(len(old), len(new))
        ok = np.zeros(n + 2, dtype=bool)
        same = ok[1:n + 1]
        same[:] = np.fromiter(map(operator.is_, old, new), dtype=bool, count=n)
        # which placements have an id: prev's answer for the same objects (reading a city's
        # placements' ids again touched every one of them), looked up for the others
        has = prev.__dict__.get("_pl_has_id")
        if has is None or len(has) != len(old):
            mine = np.fromiter(map(bool, map(_PL_ID, new)), dtype=bool, count=len(new))
        else:
            mine = np.empty(len(new), dtype=bool)
            mine[:n] = has[:n]
            redo = [*np.flatnonzero(~same).tolist(), *range(n, len(new))]
            mine[redo] = [bool(new[i].id) for i in redo]
        self.board.__dict__["_pl_has_id"] = mine
        same &= mine[:n]
        edge = np.flatnonzero(ok[1:] != ok[:-1]).tolist()  # starts and ends, in turn
        runs = list(zip(edge[0::2], edge[1::2]))
        if prev is self._prev:
            self._runs = runs
        return runs

    def placement(self, i: int, pl: m.Placement) -> None:
        lat = self.lattice.name
        piece = self.pieces.get(pl.piece) if pl.piece else None
        if pl.piece and piece is None:
            raise QueryError(f"placement {pl.id or i + 1} uses piece {pl.piece!r}, which is not defined")
        sheet = self.sheet(piece.sheet if piece else pl.sheet)
        t = placement_transform(self.lattice, sheet.size, pl.at, pl.rotation, pl.mirror)
        pid = pl.id or self.fresh_id(pl.sheet)
        outline = _poly(t.apply_many(sheet.outline or _box_outline(sheet.size)))
        clip = outline
        if piece is not None:
            clip = _poly(t.apply_many(piece.polygon))
            outline = outline.intersection(clip)
            if outline.geom_type != "Polygon":
                polys = [g for g in getattr(outline, "geoms", []) if g.geom_type == "Polygon"]
                outline = max(polys, key=lambda g: g.area) if polys else Polygon()
        cut_key = piece.polygon if piece is not None else None
        if sheet.kind == "pavement":
            # a pavement sheet placed as a placement just adds street furniture
            def fill_p(sheet=sheet, t=t, pid=pid, clip=clip) -> None:
                for lv in sheet.levels:
                    if lv.level == 0:
                        self.add_level(lv, sheet, t, pid, None, clip)
            self.unit(("street", lat, id(sheet), t, pid, cut_key), sheet, fill_p)
            return
        b = Building(len(self.board.buildings), pl, pid, sheet, sheet.height, outline, t)
        self.board.buildings.append(b)
        self.new_buildings.append(b.index)

        def fill_b(sheet=sheet, t=t, pid=pid, b=b, clip=clip, outline=outline) -> None:
            listed = {lv.level: lv for lv in sheet.levels}
            for k in range(0, sheet.height + 1):
                if k in listed:
                    self.add_level(listed[k], sheet, t, pid, b.index, clip)
                elif k < sheet.height:
                    self.add(Feature(
                        "wall", f"{pid}/L{k}-outline", k, outline.exterior,
                        b.index, _wall_props(None, sheet.defaults.wall, True, "outline"),
                    ))
        self.unit(("building", lat, id(sheet), t, pid, b.index, cut_key), sheet, fill_b)

    # --------------------------------------------------------------- features
    def add_level(
        self, lv: m.Level, sheet: m.Sheet | None, t: Transform, pid: str,
        bidx: int | None, clip: Any,
    ) -> None:
        k = lv.level
        d = sheet.defaults if sheet else m.Defaults()
        out: list[Feature] = []
        new = object.__new__
        lines, areas, points = self.pending
        n0 = (len(lines.feats), len(areas.feats), len(points.feats))

        # walls, openings, areas, lines, stairs, elevators and climbs are made with no
        # geometry yet: flush() makes it for every waiting unit at once (the same shapes, in
        # the same order), and drops those left with none
        def make(kind: str, x: Any, j: int, props: dict[str, Any], p: _Pending, pts: Any) -> None:
            f = new(Feature)
            _set_kind(f, kind)
            _set_id(f, f"{pid}/{x.id or f'L{k}-{kind}-{j}'}")
            _set_level(f, k)
            _set_geom(f, None)
            _set_building(f, bidx)
            _set_props(f, props)
            out.append(f)
            p.feats.append(f)
            p.pts.append(pts)
        for j, w in enumerate(lv.walls):
            make("wall", w, j, _wall_props(w.cls, d.wall, w.exterior, w.note), lines, w.path)
        for kind, items, dflt in (
            ("door", lv.doors, d.door), ("window", lv.windows, d.window), ("hole", lv.holes, None),
        ):
            for j, o in enumerate(items):
                c = dflt if o.cls is None else o.cls  # as class_props, written out (thousands)
                if dflt is None:
                    props: dict[str, Any] = {"state": "open", "note": o.note}
                elif isinstance(c, m.Barrier):
                    props = {"state": o.state, "note": o.note, "class": "custom",
                             "custom": (c.barrier, c.armor)}
                else:
                    props = {"state": o.state, "note": o.note, "class": c}
                make(kind, o, j, props, lines, o.span)
        for j, a in enumerate(lv.areas):
            props = {"note": a.note}
            if a.kind == "obstacle":
                props.update({"cost": 1 if a.cost is None else a.cost,
                              "los": a.los or "interrupts", "standable": a.standable or "on"})
                if a.cls is not None:  # what it is made of, for hard cover (sr1)
                    props.update(class_props(a.cls, "average"))
            elif a.kind in ("rubble", "undergrowth"):
                props["cost"] = 1 if a.cost is None else a.cost
            elif a.kind == "dark":
                props["darkness"] = a.darkness or "partial"
            if a.target_modifier is not None:
                props["target_modifier"] = a.target_modifier
            if a.effect:
                props["effect"] = a.effect
            if a.cost is not None:
                props["cost"] = a.cost
            make(a.kind, a, j, props, areas, a.polygon)
        for j, ln in enumerate(lv.lines):
            props = {"note": ln.note}
            if ln.kind == "fence":
                props.update(class_props(ln.cls, d.wall))
            elif ln.kind == "low-wall":
                props.update({"cost": 1 if ln.cost is None else ln.cost, "los": ln.los or "interrupts"})
                if ln.cls is not None:  # a low wall may say what it is made of (hard cover)
                    props.update(class_props(ln.cls, "average"))
            else:
                props["cost"] = {"step": 1, "incline": 1, "contour": 2}[ln.kind] if ln.cost is None else ln.cost
            make(ln.kind, ln, j, props, lines, ln.path)
        for j, tr in enumerate(lv.trees):
            p = Point(t.apply(tr.trunk))
            if clip is not None and not clip.covers(p):
                continue
            base = f"{pid}/{tr.id or f'L{k}-tree-{j}'}"
            out.append(Feature("trunk", base, k, p.buffer(TRUNK_RADIUS, 8), bidx, {"note": tr.note}))
            if len(tr.canopy) >= 3:
                out.append(Feature("canopy", base + "/canopy", k, _poly(t.apply_many(tr.canopy)),
                                   bidx, {"note": tr.note}))
        for kind, items in (("stair", lv.stairs), ("elevator", lv.elevators), ("climb", lv.climbs)):
            for j, s in enumerate(items):
                props = {"note": s.note}
                if kind == "elevator":
                    props["levels"] = tuple(s.levels)
                else:
                    props["to"] = s.to
                if kind == "climb":
                    props["assisted"] = s.assisted
                make(kind, s, j, props, points, s.at)
        if not out:
            return
        fs = self.feats.setdefault(k, [])
        fs.extend(out)
        for p, n in zip(self.pending, n0):
            if len(p.feats) > n:
                p.blocks.append((len(p.feats), t, clip, fs, self.feats, k))

    # ------------------------------------------------------------------- dots
    def changed_box(self, prev: Board) -> tuple[float, float, float, float] | None:
        """The box (world coordinates) holding everything that differs from ``prev``: the
        features and footprints of the units and buildings that are not the same objects.
        None when nothing differs."""
        board = self.board
        boxes = []
        pairs = [(prev._recs[k], board._recs[k]) for k in self.changed] \
            if self.changed is not None else \
            [(a, b) for a, b in zip_longest(prev._recs, board._recs) if a is not b]
        for a, b in pairs:
            boxes.extend(r[4] for r in (a, b) if r is not None and r[4] is not None)
        moved = board.buildings_changed_from(prev)
        for a, b in [(prev.buildings[i], board.buildings[i]) for i in moved] if moved is not None \
                else [(a, b) for a, b in zip_longest(prev.buildings, board.buildings) if a is not b]:
            boxes.extend(x.footprint.bounds for x in (a, b)
                         if x is not None and not x.footprint.is_empty)
        if not boxes:
            return None
        arr = np.array(boxes, dtype=float)
        return (arr[:, 0].min(), arr[:, 1].min(), arr[:, 2].max(), arr[:, 3].max())

    def find_dots(self, prev: Board | None = None) -> None:
        """Standable dots: over the whole box, or, compiled from ``prev`` (same box and
        levels), only in the part of the box where anything changed."""
        board, lat = self.board, self.lattice
        foot, _heights = board.building_rows(prev)
        board.unit_rows(prev)
        every = np.vstack([np.array(shapely.bounds(board.pavement_area), dtype=float)[None],
                           foot])
        every = every[~np.isnan(every[:, 0])]  # (an empty geometry's bounds are NaN)
        if not len(every):
            return
        x0, y0 = (float(v) for v in every[:, :2].min(axis=0))
        x1, y1 = (float(v) for v in every[:, 2:].max(axis=0))
        board.bounds = (x0, y0, x1, y1)
        levels = board.levels
        if prev is not None and prev.bounds == board.bounds and prev._pave is not None \
                and prev._stand.shape[0] == len(levels):
            box = self.changed_box(prev)
            cmin, rmin, owner0 = prev._owner_grid
            h, w = owner0.shape
            if box is None:
                win = (0, 0, 0, 0)
            else:
                near = lat.dots_in_box(box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3)
                win = (max(int(near[:, 1].min()) - rmin, 0), min(int(near[:, 1].max()) - rmin + 1, h),
                       max(int(near[:, 0].min()) - cmin, 0), min(int(near[:, 0].max()) - cmin + 1, w)) \
                    if len(near) else (0, 0, 0, 0)
            owner = owner0.copy()
            stand = prev._stand.copy()
            board._pave = prev._pave
            self.fill_dots(owner, stand, cmin, rmin, win)
            tables: dict[str, tuple[Any, tuple[int, int, int, int]]] = {}
            # a board play changed (doors opened, walls holed) has tables of its own state,
            # not of its layout: those are not patched from
            for name in _PATCHED if not prev.overlay else ():
                got = prev.__dict__.get(name)
                if got is not None:
                    tables[name] = (got, win)
                elif name in prev._patch_from:
                    # prev never built it: its parent's, patched over both changes
                    got, pw = prev._patch_from[name]
                    tables[name] = (got, _union(pw, win))
            board._patch_from = tables
            board._changed = win
        else:
            cand = lat.dots_in_box(x0, y0, x1, y1)
            cmin, rmin = (int(v) for v in cand.min(axis=0))
            cmax, rmax = cand.max(axis=0)
            shape = (int(rmax - rmin + 1), int(cmax - cmin + 1))
            owner = np.full(shape, -1, dtype=np.int32)
            pave = np.zeros(shape, dtype=bool)
            if not board.pavement_area.is_empty:
                pts = lat.points(cand)
                area = np.array([board.pavement_area], dtype=object)
                pave[cand[:, 1] - rmin, cand[:, 0] - cmin] = board_arrays.contains_xy(
                    area, board_arrays.upright_boxes(area), pts[:, 0], pts[:, 1])
            board._pave = pave
            stand = np.zeros((len(levels), *shape), dtype=bool)
            self.fill_dots(owner, stand, cmin, rmin, (0, shape[0], 0, shape[1]))
        board._owner_grid = (cmin, rmin, owner)
        board._stand = stand
        if prev is not None and board._changed is not None and prev._row_counts is not None \
                and prev._stand.shape == stand.shape:
            _renumber(board, prev, board._changed)
            return
        flat = stand.ravel()
        ids = np.cumsum(flat, dtype=np.int32)  # int32: half the memory to write per compile
        board._n_nodes = int(ids[-1]) if len(ids) else 0
        ids *= flat  # 0 where nobody stands, the node + 1 elsewhere
        ids -= 1
        board._node_grid = ids.reshape(stand.shape)
        board._row_counts = stand.sum(axis=2, dtype=np.int64)

    def fill_dots(self, owner: np.ndarray, stand: np.ndarray, cmin: int, rmin: int,
                  win: tuple[int, int, int, int]) -> None:
        """Owner and standable dots of the box rows r0:r1, columns c0:c1 (``win``), in place."""
        r0, r1, c0, c1 = win
        if r1 <= r0 or c1 <= c0:
            return
        board, lat = self.board, self.lattice
        part = owner[r0:r1, c0:c1]
        part[:] = -1
        # the window's box in world coordinates, widened by a dot
        corners = lat.points(np.array([[c0 + cmin, r0 + rmin], [c1 - 1 + cmin, r1 - 1 + rmin]]))
        wx0, wy0 = corners.min(axis=0) - 1.0
        wx1, wy1 = corners.max(axis=0) + 1.0
        whole = part.shape == owner.shape
        # which building's footprint holds each dot (first placed wins; overlaps are findings)
        if board.buildings:
            fb = board.building_rows()[0]
            near = np.nonzero(whole | ((fb[:, 0] <= wx1) & (fb[:, 2] >= wx0)
                                       & (fb[:, 1] <= wy1) & (fb[:, 3] >= wy0)))[0]
        else:
            near = []
        if len(near):
            which, inside = board_arrays.footprint_owners(
                lat, [board.buildings[i].footprint for i in near.tolist()])
            idx = near[which]
            rr, cc = inside[:, 1] - rmin - r0, inside[:, 0] - cmin - c0
            ok = (rr >= 0) & (cc >= 0) & (rr < part.shape[0]) & (cc < part.shape[1])
            rr, cc, idx = rr[ok], cc[ok], idx[ok]
            # the first placed wins: per dot the smallest building index
            at = rr * part.shape[1] + cc
            order = np.lexsort((idx, at))
            at, idx = at[order], idx[order]
            first = np.ones(len(at), dtype=bool)
            first[1:] = at[1:] != at[:-1]
            part[rr[order][first], cc[order][first]] = idx[first]
        heights = np.append(board.building_rows()[1], 0)
        pave = board._pave[r0:r1, c0:c1]
        ub = board.unit_rows()  # per unit: solid dots or not, the box of its features
        pick = np.flatnonzero((ub[:, 0] > 0) if whole else (ub[:, 0] > 0) & (
            (ub[:, 1] <= wx1) & (ub[:, 3] >= wx0) & (ub[:, 2] <= wy1) & (ub[:, 4] >= wy0)))
        recs = [board._recs[k] for k in pick.tolist()]
        blocked = np.concatenate([r[3] for r in recs]) if recs else np.zeros((0, 3), dtype=np.int64)
        for lv in range(stand.shape[0]):
            ok = (part >= 0) | pave if lv == 0 else (part >= 0) & (heights[part] >= lv)
            bl = blocked[blocked[:, 2] == lv]
            if len(bl):
                rr, cc = bl[:, 1] - rmin - r0, bl[:, 0] - cmin - c0
                inb = (rr >= 0) & (cc >= 0) & (rr < ok.shape[0]) & (cc < ok.shape[1])
                ok[rr[inb], cc[inb]] = False
            stand[lv, r0:r1, c0:c1] = ok

    def link_levels(self, prev: Board | None = None) -> None:
        """Stairs, elevators and climbs, unit by unit: a unit that is the same as in ``prev``
        and has none of its ends in the changed part of the box keeps its links."""
        board = self.board
        win = board._changed if prev is not None else None
        cmin, rmin, _o = board._owner_grid
        recs = board._recs
        n = len(recs)
        nan = (np.nan,) * 4
        if win is not None and prev._link_boxes is not None and len(prev._recs) == n:
            # the same units as prev: only those changed or with an end near the changed
            # part of the box are linked again (boxes tested as arrays)
            if self.changed is not None:  # (assemble compared them)
                same = np.ones(n, dtype=bool)
                same[self.changed] = False
            else:
                same = np.fromiter(map(operator.is_, prev._recs, recs), dtype=bool, count=n)
            boxes = prev._link_boxes.copy()
            for k in np.nonzero(~same)[0].tolist():
                boxes[k] = _link_feats(self.lattice, recs[k][1])[1] or nan
            r0, r1, c0, c1 = win
            near = np.zeros(n, dtype=bool)
            if r1 > r0 and c1 > c0:
                with np.errstate(invalid="ignore"):
                    near = ~(np.isnan(boxes[:, 0]) | (boxes[:, 3] - rmin + 1 < r0)
                             | (boxes[:, 1] - rmin - 1 >= r1) | (boxes[:, 2] - cmin + 1 < c0)
                             | (boxes[:, 0] - cmin - 1 >= c1))
            per_unit = list(prev._unit_links)
            redo = np.nonzero(~same | near)[0].tolist()
            for k in redo:
                per_unit[k] = self.unit_links(_link_feats(self.lattice, recs[k][1])[0])
        else:
            redo = None
            per_unit = []
            boxes = np.full((n, 4), np.nan)
            for k, rec in enumerate(recs):
                feats_box = _link_feats(self.lattice, rec[1])
                if feats_box[1] is not None:
                    boxes[k] = feats_box[1]
                if win is not None and k < len(prev._recs) and prev._recs[k] is rec:
                    box = feats_box[1]
                    r0, r1, c0, c1 = win
                    if box is None or r1 <= r0 or c1 <= c0 or box[3] - rmin + 1 < r0 \
                            or box[1] - rmin - 1 >= r1 or box[2] - cmin + 1 < c0 \
                            or box[0] - cmin - 1 >= c1:
                        per_unit.append(prev._unit_links[k])
                        continue
                per_unit.append(self.unit_links(feats_box[0]))
        board._unit_links = per_unit
        board._link_boxes = boxes
        blocks = _spliced_links(prev, per_unit) if prev is not None else None
        if blocks is None:
            blocks = {}
            n = len(per_unit)
            for lv in sorted({lv for got in per_unit for lv in got}):
                lists: tuple[list, list, list, list] = ([], [], [], [])
                off = np.zeros((n + 1, 4), dtype=np.int64)
                for k, got in enumerate(per_unit):
                    links = got.get(lv)
                    if links is not None:
                        for j in range(4):
                            lists[j].extend(links[j])
                            off[k + 1, j] = len(links[j])
                blocks[lv] = (lists, np.cumsum(off, axis=0))
        board._link_blocks = blocks
        if redo is not None and prev is not None:
            board._links_redone = _links_redone(prev, blocks, redo)
        for lv in sorted(blocks):
            lists = blocks[lv][0]
            board.stair_links.extend(lists[0])
            board.elevator_links.extend(lists[1])
            board.climb_links.extend(lists[2])
            board.broken_links.extend(lists[3])

    def unit_links(self, feats: list[tuple[Feature, tuple[int, int]]]
                   ) -> dict[int, tuple[tuple, tuple, tuple, tuple]]:
        """A unit's stairs, elevators, climbs and broken links, level by level, as tuples
        (the empty ones the one empty tuple): a city's 1.8k unit levels with links kept four
        lists each, 7.4k objects for every full collection of the garbage collector to walk,
        6.2k of them empty."""
        board = self.board
        out: dict[int, tuple[list, list, list, list]] = {}
        for f, dot in feats:
            stairs, elevators, climbs, broken = out.setdefault(f.level, ([], [], [], []))
            if f.kind == "stair":
                a, b = (*dot, f.level), (*dot, f.props["to"])
                if board.standable(a) and board.standable(b):
                    stairs.append((a, b, f))
                elif board.standable(a):  # a stair standing in a wall is reported as such
                    broken.append((f, b))
            elif f.kind == "elevator":
                lvls = [lv for lv in f.props["levels"] if board.standable((*dot, lv))]
                for lv in f.props["levels"]:
                    if not board.standable((*dot, lv)):
                        broken.append((f, (*dot, lv)))
                for i, la in enumerate(lvls):
                    for lb in lvls[i + 1:]:
                        elevators.append(((*dot, la), (*dot, lb), f))
            else:
                a = (*dot, f.level)
                to = f.props["to"]
                targets = [(*dot, to)] if board.standable((*dot, to)) else [
                    (*n, to) for n in self.lattice.neighbours(dot) if board.standable((*n, to))
                ]
                if board.standable(a) and targets:
                    for b in targets:
                        climbs.append((a, b, f))
                elif board.standable(a):
                    broken.append((f, (*dot, to)))
        return {lv: (tuple(a), tuple(b), tuple(c), tuple(d)) for lv, (a, b, c, d) in out.items()}


#: per unit (its feature dict): its stairs, elevators and climbs with their dots, and the box
#: (c0, r0, c1, r1) of those dots
_LINK_FEATS: dict[int, tuple[Any, str, list[tuple[Feature, tuple[int, int]]],
                             tuple[int, int, int, int] | None]] = {}


def _link_feats(lat: Lattice, feats: dict[int, list[Feature]]
                ) -> tuple[list[tuple[Feature, tuple[int, int]]], tuple[int, int, int, int] | None]:
    hit = _LINK_FEATS.get(id(feats))
    if hit is not None and hit[0] is feats and hit[1] == lat.name:
        return hit[2], hit[3]
    out = [(f, lat.dot_at((f.geom.x, f.geom.y))) for lv in sorted(feats) for f in feats[lv]
           if f.kind in ("stair", "elevator", "climb")]
    box = None
    if out:
        cs = [int(dot[0]) for _f, dot in out]
        rs = [int(dot[1]) for _f, dot in out]
        box = (min(cs), min(rs), max(cs), max(rs))
    if len(_LINK_FEATS) > 2 * _UNITS_MAX:
        forget_dead_units(_LINK_FEATS)
    _LINK_FEATS[id(feats)] = (feats, lat.name, out, box)
    return out, box


def _spliced_links(prev: Board, per_unit: list[dict[int, tuple[tuple, tuple, tuple, tuple]]]
                   ) -> dict[int, tuple[tuple[list, list, list, list], np.ndarray]] | None:
    """The links of each level (stairs, elevators, climbs, broken; unit after unit) with
    prev's blocks spliced where a few units' links changed, or None when that does not fit
    (other units, too many changed, a level prev had no block for)."""
    old = prev._link_blocks
    if old is None or len(prev._unit_links) != len(per_unit):
        return None
    changed = np.flatnonzero(~np.fromiter(map(operator.is_, prev._unit_links, per_unit),
                                          dtype=bool, count=len(per_unit))).tolist()
    if len(changed) > 16 or any(lv not in old for k in changed for lv in per_unit[k]):
        return None
    out = {}
    for lv, (lists, off) in old.items():
        if not any(lv in per_unit[k] or lv in prev._unit_links[k] for k in changed):
            out[lv] = (lists, off)  # untouched: shared (never changed in place)
            continue
        new_off = off.copy()
        new_lists: list[list] = []
        for j in range(4):
            pieces = []
            start = 0
            for k in changed:
                mine = per_unit[k].get(lv)
                mine_j = mine[j] if mine is not None else ()
                pieces.append(lists[j][off[start, j]:off[k, j]])
                pieces.append(mine_j)
                start = k + 1
                grew = len(mine_j) - int(off[k + 1, j] - off[k, j])
                if grew:
                    new_off[k + 1:, j] += grew
            pieces.append(lists[j][off[start, j]:])
            new_lists.append(list(chain.from_iterable(pieces)))
        out[lv] = ((new_lists[0], new_lists[1], new_lists[2], new_lists[3]), new_off)
    return out


def _changed_from(got: tuple[weakref.ref, list[int]] | None, prev: Board | BoardView
                  ) -> list[int] | None:
    was = got[0]() if got is not None else None
    if was is None:
        return None
    ref = getattr(prev, "_ref", None)
    return got[1] if (ref() if ref is not None else prev) is was else None


def _links_redone(prev: Board, blocks: dict[int, tuple[tuple[list, list, list, list], np.ndarray]],
                  redo: list[int]) -> tuple[weakref.ref, list[np.ndarray]] | None:
    """Where the stairs, elevators and climbs of the units ``redo`` (their links made again)
    sit in the board's lists, per kind, when every other link sits where it sat in ``prev``'s
    (each level's offsets unchanged): the movement graph redoes the level-change rows of those
    alone (engine.movement), without comparing every link of a city.  None: not so."""
    old = prev._link_blocks
    if old is None or list(old) != list(blocks):
        return None
    idx: list[list[np.ndarray]] = [[], [], []]
    base = [0, 0, 0]
    for lv in sorted(blocks):
        lists, off = blocks[lv]
        if off is not old[lv][1] and not np.array_equal(off, old[lv][1]):
            return None
        for j in range(3):
            idx[j] += [np.arange(base[j] + off[k, j], base[j] + off[k + 1, j]) for k in redo]
            base[j] += len(lists[j])
    return weakref.ref(prev), [np.concatenate(x + [np.zeros(0, dtype=np.int64)]).astype(np.int64)
                               for x in idx]


def _renumber(board: Board, prev: Board, win: tuple[int, int, int, int]) -> None:
    """Node ids of a board compiled from ``prev`` where only the rows r0:r1 (``win``) of each
    level may differ: the standable counts per row now, the ids on first use (a drag's
    board, sight tables, graph and fan need none): those rows numbered afresh and the ids
    after them shifted by what the rows gained or lost, from the last board that numbered
    its nodes (:class:`_LazyGrid`)."""
    stand = board._stand
    r0, r1 = win[0], win[1]
    rows = prev._row_counts.copy()
    if r1 > r0:
        rows[:, r0:r1] = stand[:, r0:r1].sum(axis=2, dtype=np.int64)
    board._row_counts = rows
    board._n_nodes = int(rows.sum())
    pg = prev.__dict__["_node_grid_v"]
    base, base_rows = (pg.base, pg.base_rows) if type(pg) is _LazyGrid else (None, None)
    if base is not None and base_rows is not None:  # prev numbered none: from its base
        lo, hi = (r0, r1) if pg.rows_win[1] <= pg.rows_win[0] else \
            (pg.rows_win if r1 <= r0 else (min(r0, pg.rows_win[0]), max(r1, pg.rows_win[1])))
        board._node_grid = _LazyGrid(base, base_rows, (lo, hi), stand, rows)
    else:
        board._node_grid = _LazyGrid(prev._node_grid, prev._row_counts, (r0, r1), stand, rows)


class _LazyGrid:
    """The node grid of a board compiled from an earlier one, numbered when first asked:
    ``base`` (a numbered grid, its standable counts per row ``base_rows``) with the rows
    ``rows_win`` of every level numbered again from the board's ``stand`` and counts, the ids
    after them shifted by what those rows gained or lost."""

    __slots__ = ("base", "base_rows", "rows_win", "stand", "rows", "grid")

    def __init__(self, base: np.ndarray, base_rows: np.ndarray, rows_win: tuple[int, int],
                 stand: np.ndarray, rows: np.ndarray) -> None:  # noqa: D107
        self.base, self.base_rows, self.rows_win = base, base_rows, rows_win
        self.stand, self.rows = stand, rows
        self.grid: np.ndarray | None = None

    def get(self) -> np.ndarray:
        """The grid (numbered once; two threads asking at once number it twice, alike)."""
        grid, base, base_rows = self.grid, self.base, self.base_rows
        if grid is not None:
            return grid
        if base is None or base_rows is None:  # numbered by another thread meanwhile
            return self.grid  # type: ignore[return-value]
        stand, rows = self.stand, self.rows
        nl, h, w = stand.shape
        r0, r1 = self.rows_win
        grid = base.copy()
        if r1 > r0:
            before_new = np.concatenate([[0], np.cumsum(rows.ravel())])
            before_old = np.concatenate([[0], np.cumsum(base_rows.ravel())])
            flat = grid.reshape(-1)
            sflat = stand.reshape(-1)
            for lv in range(nl):
                a, b = (lv * h + r0) * w, (lv * h + r1) * w
                s = sflat[a:b]
                ids = np.cumsum(s, dtype=np.int32)
                ids += np.int32(before_new[lv * h + r0])
                ids *= s
                ids -= 1
                flat[a:b] = ids
                shift = int(before_new[lv * h + r1] - before_old[lv * h + r1])
                if shift:  # the ids up to the next level's changed rows move with the count
                    tail = flat[b:((lv + 1) * h + r0) * w if lv + 1 < nl else len(flat)]
                    tail[tail >= 0] += shift
        self.grid = grid
        self.base = self.base_rows = None  # (the earlier grid may go)
        return grid


def _wall_props(cls: m.BarrierClass, default: Any, exterior: bool, note: str) -> dict[str, Any]:
    c = default if cls is None else cls
    if isinstance(c, m.Barrier):  # as class_props, with the wall's own facts after
        return {"class": "custom", "custom": (c.barrier, c.armor), "exterior": exterior, "note": note}
    return {"class": c, "exterior": exterior, "note": note}


def _box_outline(size: tuple[int, int]) -> list[tuple[float, float]]:
    w, h = size
    return [(-0.5, -0.5), (w - 0.5, -0.5), (w - 0.5, h - 0.5), (-0.5, h - 0.5)]


def _poly(pts: list[tuple[float, float]] | tuple) -> Polygon:
    pts = list(pts)
    if len(pts) < 3:
        return Polygon()
    p = Polygon(pts)
    return p if p.is_valid else p.buffer(0)


class _UnitCache(OrderedDict):
    """The unit cache: an OrderedDict that also keeps the ids of its entries' feature dicts up
    to date, so :func:`cached_unit_ids` costs nothing (tables kept per unit elsewhere ask it
    once per unit they build)."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[int] = set()

    def __setitem__(self, key: Any, value: Any) -> None:
        old = self.get(key)
        if old is not None:
            self.ids.discard(id(old[1]))
        super().__setitem__(key, value)
        self.ids.add(id(value[1]))

    def __delitem__(self, key: Any) -> None:
        self.ids.discard(id(self[key][1]))
        super().__delitem__(key)

    def popitem(self, last: bool = True) -> tuple[Any, Any]:
        key, value = super().popitem(last)
        self.ids.discard(id(value[1]))
        return key, value

    def pop(self, key: Any, *default: Any) -> Any:
        if key in self:
            self.ids.discard(id(self[key][1]))
        return super().pop(key, *default)

    def clear(self) -> None:
        super().clear()
        self.ids = set()


#: compiled units (placements, extras), most recently used last: key -> (owner, features per
#: level, loose openings, solid dots, box, key)
_UNITS: _UnitCache = _UnitCache()
_UNITS_MAX = 2048


def cached_unit_ids() -> set[int]:
    """ids of the units' feature dicts the unit cache holds: a table kept per unit elsewhere
    (movement crossings, sight primitives) drops the units this cache has let go.  The
    cache's own live set: read it, never change it."""
    return _UNITS.ids


def forget_dead_units(table: dict[int, Any]) -> None:
    """Drop the entries of a table kept per unit (``id(unit) -> ...``) whose unit the unit
    cache has let go.

    The editor compiles and searches boards on its GUI thread and two workers at once, and
    they share these tables: the keys are copied in one step (``list()`` of a dict lets no
    other thread in) and each popped with a default, so another thread adding or dropping
    entries meanwhile breaks neither the walk ("dictionary changed size during iteration")
    nor the pop (KeyError)."""
    live = _UNITS.ids
    for key in [key for key in list(table) if key not in live]:
        table.pop(key, None)


def forget_oldest(table: dict[Any, Any], most: int) -> None:
    """Drop a cache's oldest entries until it holds at most ``most``, safe while other
    threads use it (as :func:`forget_dead_units`)."""
    over = len(table) - most
    if over > 0:
        for key in list(table)[:over]:
            table.pop(key, None)


def compile_board(layout: m.Layout, sheets: Mapping[str, m.Sheet],
                  previous: Board | None = None) -> Board:
    """Compile a layout with the sheets it names (id -> Sheet) into a :class:`Board`.

    ``previous``, a board compiled from an earlier state of the same document (the editor's
    last one, before a building was dragged, added or removed), makes the compile
    incremental: placements that are the same objects keep their buildings and units, the
    standable dots and links are redone only where something changed, and the movement graph
    of ``previous`` is patched there instead of rebuilt.  The answers are those of a compile
    from scratch; ``previous`` itself is not changed.

    Python's cyclic garbage collector is paused meanwhile: a city's compile makes some
    hundred thousand objects that live on (features, geometries, props), and every few
    hundred of them set off a collection walking the objects alive, a third of a cold
    compile spent finding nothing to free."""
    was = gc.isenabled()
    gc.disable()
    try:
        return _Compiler(layout, sheets).run(previous)
    finally:
        if was:
            gc.enable()


_PL_ID = operator.attrgetter("id")
_ITEM1, _ITEM2 = operator.itemgetter(1), operator.itemgetter(2)


def _placement_buildings(board: Board) -> np.ndarray:
    """Per placement of ``board`` the index of its first building at or after it (one more
    entry: the number of buildings): a building per placement of a sheet that is not
    pavement, in order (cached)."""
    got = board.__dict__.get("_pl_buildings")
    if got is None:
        recs = board._recs
        got = np.zeros(len(board._placement_unit) + 1, dtype=np.int64)
        got[1:] = np.cumsum(np.fromiter((recs[u][0].kind != "pavement"
                                         for u in board._placement_unit), dtype=bool,
                                        count=len(board._placement_unit)))
        board.__dict__["_pl_buildings"] = got
    return got


#: tables a board compiled from a previous one patches from that one's (name in the board's
#: ``__dict__``)
_PATCHED = ("_move_graph", "_los_prims")


def _union(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The window (r0, r1, c0, c1) holding two windows (either may be empty)."""
    if a[1] <= a[0] or a[3] <= a[2]:
        return b
    if b[1] <= b[0] or b[3] <= b[2]:
        return a
    return (min(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), max(a[3], b[3]))
