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
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from engine import model as m
from engine.errors import QueryError
from engine.lattice import Dot3, Lattice, Transform, get_lattice, placement_transform

#: radius of a tree trunk, in dots: trunks stand on a dot and block what passes through it
TRUNK_RADIUS = 0.25
EPS = 1e-7



@dataclass(frozen=True)
class Feature:
    """One piece of world geometry the rules care about."""

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
        self._dots: dict[int, np.ndarray] = {}
        self._node_dots: np.ndarray = np.zeros((0, 3), dtype=int)
        #: (first column, first row, building index per dot or -1) over the board's box
        self._owner_grid: tuple[int, int, np.ndarray] = (0, 0, np.full((1, 1), -1, dtype=np.int64))
        #: node index per (level, row, column) of the same box, -1 where nobody can stand
        self._node_grid: np.ndarray = np.full((1, 1, 1), -1, dtype=np.int64)
        self.bounds: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
        #: what play changed on a fork: feature id -> the feature as it now is
        self.overlay: dict[str, Feature] = {}
        #: the compiled units (placements, extras) in order, each its features per level as the
        #: unit cache holds them (shared between boards): each level's feature list is their
        #: concatenation, so tables built per unit (movement crossings) are reused by identity
        self.units: list[dict[int, list[Feature]]] = []

    # ------------------------------------------------------------------ queries
    @cached_property
    def levels(self) -> list[int]:
        top = max((b.height for b in self.buildings), default=0)
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
        """Standable dots of a level as an (N, 2) int array."""
        return self._dots.get(level, np.zeros((0, 2), dtype=int))

    def _node_of(self, dot: tuple[int, ...]) -> int:
        cmin, rmin, _grid = self._owner_grid
        lv = dot[2] if len(dot) > 2 else 0
        r, c = int(dot[1]) - rmin, int(dot[0]) - cmin
        g = self._node_grid
        if 0 <= lv < g.shape[0] and 0 <= r < g.shape[1] and 0 <= c < g.shape[2]:
            return int(g[lv, r, c])
        return -1

    def standable(self, dot: Dot3) -> bool:
        return self._node_of(dot) >= 0

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
        return len(self._node_dots)

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

    def unit_features(self) -> list[tuple[dict[int, list[Feature]], bool]]:
        """The features as compiled units, and whether each is the unit cache's own (shared
        with other boards, so tables built from it may be cached by its identity): per level,
        the units' lists put end to end are exactly ``features(level)``.

        A fork that play changed keeps the units it did not touch; a unit holding a replaced
        feature comes back rebuilt with it, and the features play added form one last unit.
        Anything else is one unit: the whole board."""
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
        for name in ("_move_graph", "_los_prims", "_trees", "_feature_by_id"):
            self.__dict__.pop(name, None)

    def dot_point(self, dot: tuple[int, ...]) -> tuple[float, float]:
        return self.lattice.point((int(dot[0]), int(dot[1])))


def fmt_dot(dot: tuple[int, ...]) -> str:
    return ",".join(str(int(v)) for v in dot)


# ---------------------------------------------------------------------- compiling


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
        self.used_ids = {p.id for p in (*layout.pavement, *layout.placements) if p.id}

    def fresh_id(self, sheet_id: str) -> str:
        """The id engine.io would give a placement that has none: ``<sheet>-<n>``, n unused."""
        used = self.used_ids
        n = 1
        while f"{sheet_id}-{n}" in used:
            n += 1
        used.add(f"{sheet_id}-{n}")
        return f"{sheet_id}-{n}"

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
        """
        hit = _UNITS.get(key)
        if hit is not None and hit[0] is owner:
            _UNITS.move_to_end(key)
            feats, loose, blocked = hit[1], hit[2], hit[3]
        else:
            saved, saved_loose = self.feats, self.board.loose_openings
            self.feats, self.board.loose_openings = {}, []
            fill()
            self.cut_openings()
            feats, loose = self.feats, self.board.loose_openings
            blocked = _solid_dots(self.lattice, feats)
            self.feats, self.board.loose_openings = saved, saved_loose
            _UNITS[key] = (owner, feats, loose, blocked)
            while len(_UNITS) > _UNITS_MAX:
                _UNITS.popitem(last=False)
        for lv, fs in feats.items():
            self.feats.setdefault(lv, []).extend(fs)
        self.board.units.append(feats)
        self.board.loose_openings.extend(loose)
        self.blocked.append(blocked)

    def run(self) -> Board:
        lat = self.lattice.name
        self.blocked: list[np.ndarray] = []
        pave_polys = []
        for pl in self.layout.pavement:
            sheet = self.sheet(pl.sheet)
            t = placement_transform(self.lattice, sheet.size, pl.at, pl.rotation, pl.mirror)
            pid = pl.id or self.fresh_id(pl.sheet)
            outline = _poly(t.apply_many(sheet.outline)) if sheet.outline else None
            if outline is None or outline.is_empty:
                outline = _poly(t.apply_many(_box_outline(sheet.size)))
            pave_polys.append(outline)

            def fill(sheet=sheet, t=t, pid=pid, outline=outline) -> None:
                for lv in sheet.levels:
                    if lv.level == 0:
                        self.add_level(lv, sheet, t, pid, None, outline)
            self.unit(("pave", lat, id(sheet), t, pid), sheet, fill)
        self.board.pavement_area = unary_union(pave_polys) if pave_polys else Polygon()

        for i, pl in enumerate(self.layout.placements):
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
                continue
            b = Building(len(self.board.buildings), pl, pid, sheet, sheet.height, outline, t)
            self.board.buildings.append(b)

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

        ex = self.layout.extras

        def fill_x() -> None:
            extras_level = m.Level(0, areas=ex.areas, lines=ex.lines, trees=ex.trees)
            self.add_level(extras_level, None, Transform(), "extras", None, None)
        self.unit(("extras", lat, id(ex)), ex, fill_x)
        self.board._features = self.feats
        self.find_dots()
        self.link_levels()
        return self.board

    # --------------------------------------------------------------- features
    def add_level(
        self, lv: m.Level, sheet: m.Sheet | None, t: Transform, pid: str,
        bidx: int | None, clip: Any,
    ) -> None:
        k = lv.level
        d = sheet.defaults if sheet else m.Defaults()

        def fid(x: Any, kind: str, j: int) -> str:
            return f"{pid}/{x.id or f'L{k}-{kind}-{j}'}"

        def clipped(g: Any) -> Any:
            if clip is None:
                return g
            return g.intersection(clip) if not clip.covers(g) else g

        for j, w in enumerate(lv.walls):
            g = clipped(LineString(t.apply_many(w.path)))
            if not g.is_empty and g.length > 0:
                self.add(Feature("wall", fid(w, "wall", j), k, g, bidx,
                                 _wall_props(w.cls, d.wall, w.exterior, w.note)))
        for kind, items, dflt in (
            ("door", lv.doors, d.door), ("window", lv.windows, d.window), ("hole", lv.holes, None),
        ):
            for j, o in enumerate(items):
                g = clipped(LineString(t.apply_many(o.span)))
                if g.is_empty or g.length == 0:
                    continue
                props: dict[str, Any] = {"state": "open" if kind == "hole" else o.state, "note": o.note}
                if dflt is not None:
                    props.update(class_props(o.cls, dflt))
                self.add(Feature(kind, fid(o, kind, j), k, g, bidx, props))
        for j, a in enumerate(lv.areas):
            g = clipped(_poly(t.apply_many(a.polygon)))
            if g.is_empty:
                continue
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
            self.add(Feature(a.kind, fid(a, a.kind, j), k, g, bidx, props))
        for j, ln in enumerate(lv.lines):
            g = clipped(LineString(t.apply_many(ln.path)))
            if g.is_empty or g.length == 0:
                continue
            props = {"note": ln.note}
            if ln.kind == "fence":
                props.update(class_props(ln.cls, d.wall))
            elif ln.kind == "low-wall":
                props.update({"cost": 1 if ln.cost is None else ln.cost, "los": ln.los or "interrupts"})
                if ln.cls is not None:  # a low wall may say what it is made of (hard cover)
                    props.update(class_props(ln.cls, "average"))
            else:
                props["cost"] = {"step": 1, "incline": 1, "contour": 2}[ln.kind] if ln.cost is None else ln.cost
            self.add(Feature(ln.kind, fid(ln, ln.kind, j), k, g, bidx, props))
        for j, tr in enumerate(lv.trees):
            p = Point(t.apply(tr.trunk))
            if clip is not None and not clip.covers(p):
                continue
            base = fid(tr, "tree", j)
            self.add(Feature("trunk", base, k, p.buffer(TRUNK_RADIUS, 8), bidx, {"note": tr.note}))
            if len(tr.canopy) >= 3:
                self.add(Feature("canopy", base + "/canopy", k, _poly(t.apply_many(tr.canopy)),
                                 bidx, {"note": tr.note}))
        for kind, items in (("stair", lv.stairs), ("elevator", lv.elevators), ("climb", lv.climbs)):
            for j, s in enumerate(items):
                p = Point(t.apply(s.at))
                if clip is not None and not clip.covers(p):
                    continue
                props = {"note": s.note}
                if kind == "elevator":
                    props["levels"] = tuple(s.levels)
                else:
                    props["to"] = s.to
                if kind == "climb":
                    props["assisted"] = s.assisted
                self.add(Feature(kind, fid(s, kind, j), k, p, bidx, props))

    def cut_openings(self) -> None:
        """Remove every door/window/hole span from the walls and fences it lies on."""
        for lv, fs in self.feats.items():
            spans = [f for f in fs if f.kind in ("door", "window", "hole")]
            if not spans:
                continue
            walls = [f.geom for f in fs if f.kind in ("wall", "fence")]
            wtree = shapely.STRtree(walls) if walls else None
            for f in spans:
                near = wtree.query(f.geom, predicate="dwithin", distance=1e-6) if wtree else []
                if not len(near) or not unary_union([walls[i] for i in near]).buffer(
                        1e-6, cap_style="flat").covers(f.geom):
                    self.board.loose_openings.append(f)
            cut = unary_union([f.geom for f in spans]).buffer(EPS, cap_style="flat")
            out = []
            for f in fs:
                if f.kind in ("wall", "fence") and f.geom.intersects(cut):
                    g = f.geom.difference(cut)
                    if g.is_empty:
                        continue
                    f = Feature(f.kind, f.id, f.level, g, f.building, f.props)
                out.append(f)
            self.feats[lv] = out

    # ------------------------------------------------------------------- dots
    def find_dots(self) -> None:
        board, lat = self.board, self.lattice
        geoms = [board.pavement_area] + [b.footprint for b in board.buildings]
        geoms = [g for g in geoms if not g.is_empty]
        if not geoms:
            board._node_dots = np.zeros((0, 3), dtype=int)
            return
        x0, y0, x1, y1 = unary_union(geoms).bounds
        board.bounds = (x0, y0, x1, y1)
        cand = lat.dots_in_box(x0, y0, x1, y1)
        cmin, rmin = cand.min(axis=0)
        cmax, rmax = cand.max(axis=0)
        shape = (int(rmax - rmin + 1), int(cmax - cmin + 1))
        # which building's footprint holds each dot (first placed wins; overlaps are findings)
        owner = np.full(shape, -1, dtype=np.int64)
        for b in board.buildings:
            inside = _footprint_dots(lat, b.footprint)
            if len(inside):
                rr, cc = inside[:, 1] - rmin, inside[:, 0] - cmin
                ok = (rr >= 0) & (cc >= 0) & (rr < shape[0]) & (cc < shape[1])
                rr, cc = rr[ok], cc[ok]
                free = owner[rr, cc] < 0
                owner[rr[free], cc[free]] = b.index
        board._owner_grid = (int(cmin), int(rmin), owner)
        pave = np.zeros(shape, dtype=bool)
        if not board.pavement_area.is_empty:
            pts = lat.points(cand)
            pave[cand[:, 1] - rmin, cand[:, 0] - cmin] = shapely.contains_xy(
                board.pavement_area, pts[:, 0], pts[:, 1])
        heights = np.array([b.height for b in board.buildings] + [0])
        blocked = np.concatenate(self.blocked) if self.blocked else np.zeros((0, 3), dtype=np.int64)
        levels = board.levels
        node_grid = np.full((len(levels), *shape), -1, dtype=np.int64)
        all_nodes = []
        n = 0
        for li, lv in enumerate(levels):
            ok = (owner >= 0) | pave if lv == 0 else (owner >= 0) & (heights[owner] >= lv)
            bl = blocked[blocked[:, 2] == lv]
            if len(bl):
                rr, cc = bl[:, 1] - rmin, bl[:, 0] - cmin
                inb = (rr >= 0) & (cc >= 0) & (rr < shape[0]) & (cc < shape[1])
                ok[rr[inb], cc[inb]] = False
            rr, cc = np.nonzero(ok)  # row-major: rows then columns, a stable order
            dots = np.column_stack([cc + cmin, rr + rmin]).astype(int)
            board._dots[lv] = dots
            node_grid[li, rr, cc] = np.arange(n, n + len(dots))
            n += len(dots)
            all_nodes.append(np.column_stack([dots, np.full(len(dots), lv)]))
        board._node_dots = np.concatenate(all_nodes).astype(int) if all_nodes else np.zeros((0, 3), dtype=int)
        board._node_grid = node_grid

    def link_levels(self) -> None:
        board = self.board
        for f in board.all_features():
            if f.kind not in ("stair", "elevator", "climb"):
                continue
            dot = self.lattice.dot_at((f.geom.x, f.geom.y))
            if f.kind == "stair":
                a, b = (*dot, f.level), (*dot, f.props["to"])
                if board.standable(a) and board.standable(b):
                    board.stair_links.append((a, b, f))
                elif board.standable(a):  # a stair standing in a wall is reported as such
                    board.broken_links.append((f, b))
            elif f.kind == "elevator":
                lvls = [lv for lv in f.props["levels"] if board.standable((*dot, lv))]
                for lv in f.props["levels"]:
                    if not board.standable((*dot, lv)):
                        board.broken_links.append((f, (*dot, lv)))
                for i, la in enumerate(lvls):
                    for lb in lvls[i + 1:]:
                        board.elevator_links.append(((*dot, la), (*dot, lb), f))
            else:
                a = (*dot, f.level)
                to = f.props["to"]
                targets = [(*dot, to)] if board.standable((*dot, to)) else [
                    (*n, to) for n in self.lattice.neighbours(dot) if board.standable((*n, to))
                ]
                if board.standable(a) and targets:
                    for b in targets:
                        board.climb_links.append((a, b, f))
                elif board.standable(a):
                    board.broken_links.append((f, (*dot, to)))


def _wall_props(cls: m.BarrierClass, default: Any, exterior: bool, note: str) -> dict[str, Any]:
    return {**class_props(cls, default), "exterior": exterior, "note": note}


def _box_outline(size: tuple[int, int]) -> list[tuple[float, float]]:
    w, h = size
    return [(-0.5, -0.5), (w - 0.5, -0.5), (w - 0.5, h - 0.5), (-0.5, h - 0.5)]


def _poly(pts: list[tuple[float, float]] | tuple) -> Polygon:
    pts = list(pts)
    if len(pts) < 3:
        return Polygon()
    p = Polygon(pts)
    return p if p.is_valid else p.buffer(0)


#: compiled units (placements, extras), most recently used last
_UNITS: OrderedDict[tuple, tuple[Any, dict[int, list[Feature]], list[Feature], np.ndarray]] = OrderedDict()
_UNITS_MAX = 2048


def cached_unit_ids() -> set[int]:
    """ids of the units' feature dicts the unit cache holds: a table kept per unit elsewhere
    (movement crossings, sight primitives) drops the units this cache has let go."""
    return {id(entry[1]) for entry in _UNITS.values()}


def _solid_dots(lat: Lattice, feats: dict[int, list[Feature]]) -> np.ndarray:
    """(K, 3) dots lying on a wall/fence/trunk, or inside an obstacle or water nobody can stand on
    (vehicles and swimmers of the zone scale have no dot-scale rules yet)."""
    out = []
    for lv, fs in feats.items():
        solid = [f.geom for f in fs if f.kind in ("wall", "fence", "trunk", "water")
                 or (f.kind == "obstacle" and f.props.get("standable") == "none")]
        if not solid:
            continue
        x0, y0, x1, y1 = shapely.total_bounds(solid)
        cand = lat.dots_in_box(x0 - 1e-6, y0 - 1e-6, x1 + 1e-6, y1 + 1e-6)
        if not len(cand):
            continue
        pts = shapely.points(lat.points(cand))
        pi, _gi = shapely.STRtree(solid).query(pts, predicate="intersects")
        hit = cand[np.unique(pi)]
        out.append(np.column_stack([hit, np.full(len(hit), lv)]))
    return np.concatenate(out).astype(np.int64) if out else np.zeros((0, 3), dtype=np.int64)


def _footprint_dots(lat: Lattice, footprint: Any) -> np.ndarray:
    if footprint.is_empty:
        return np.zeros((0, 2), dtype=int)
    cand = lat.dots_in_box(*footprint.bounds)
    if not len(cand):
        return cand
    pts = lat.points(cand)
    return cand[shapely.contains_xy(footprint, pts[:, 0], pts[:, 1])]


def compile_board(layout: m.Layout, sheets: Mapping[str, m.Sheet]) -> Board:
    """Compile a layout with the sheets it names (id -> Sheet) into a :class:`Board`."""
    return _Compiler(layout, sheets).run()
