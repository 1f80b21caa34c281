"""Movement: what a step costs, the cheapest path, and every dot within reach of a budget.

Under dmz1990 a move is priced in MP by the Movement Cost Table (the numbers live in
:mod:`engine.rules.dmz1990`); under sr3, sr1 and darkcon it is measured in metres walked, each
book's way (its ``path_metres``): a step is 2 m, a diagonal 2.83 m in Shadowrun and every other
one 4 m in Dark Conspiracy, a flight of stairs or a climb 4 m per story.

The board is turned once into a directed graph whose edges carry two numbers: how many times
the mover's move ratio is paid (1 for a step to an adjacent dot, 0 for stairs, elevators and
climbs, which have no base cost) and the extra MP of the Movement Cost Table for what the step
crosses.  A query then weighs the edges for its move ratio (doubled when crawling) and runs
scipy's C Dijkstra, so a reach or a path on a 120x120-dot city takes milliseconds.

Every edge also keeps the list of (feature, extra MP) that made its cost, so each step of a path
can say *why* it cost what it did.

The graph is built with arrays: neighbours through a dense node grid, one segment per pair of
opposite steps queried against the level's feature tree in one call, each feature's effect on a
step (starting outside or inside it) tabled once, and the hits costed with numpy.
``tests/engine/test_movement_graph_arrays.py`` keeps the older per-edge construction and checks
the two agree exactly.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import shapely
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from engine.board import Board, Feature, cached_unit_ids, fmt_dot
from engine.lattice import Dot3, Lattice
from engine.rules import get_ruleset
from engine.rules.base import METERS_PER_DOT, METERS_PER_STORY
from engine.rules.dmz1990 import MOVEMENT_COSTS as _MC

#: extra MP of the DMZ Movement Cost Table (the one table: engine.rules.dmz1990)
OPEN_DOOR = _MC["through-door"]
CLOSED_DOOR_OPEN = _MC["open-door"]
OPEN_WINDOW = _MC["through-window"]
CLOSED_WINDOW_OPEN = _MC["open-window"]
HOLE = _MC["hole"]
STAIRS = _MC["stairs"]
ELEVATOR = _MC["elevator"]
CLIMB_UP, CLIMB_UP_ASSISTED = _MC["climb-up"], _MC["climb-up-assisted"]
CLIMB_DOWN, CLIMB_DOWN_ASSISTED = _MC["climb-down"], _MC["climb-down-assisted"]
DROP = _MC["drop"]

_BLOCKING = ("wall", "fence", "trunk")
_BLOCKED, _NONE = -1, -2  # crossing codes: impassable; no hindrance


@dataclass(frozen=True)
class Step:
    to: Dot3
    cost: int
    why: list[str] = field(default_factory=list)


@dataclass
class PathResult:
    reachable: bool
    cost: int | float | None  # MP (dmz1990) or metres (sr3, sr1, darkcon)
    dots: list[Dot3]
    steps: list[Step]
    units: str = "MP"
    length_m: float | None = None  # metres walked, by the ruleset's measure


class _Why(Mapping):
    """Edge -> the reasons for its extra MP, kept as arrays (a city has hundreds of thousands
    of such edges; a dict of them costs more than the rest of the graph).

    ``edges`` sorted, the reasons of ``edges[k]`` are ``texts[starts[k]:starts[k + 1]]``."""

    def __init__(self, edges: np.ndarray, starts: np.ndarray, texts: np.ndarray) -> None:
        self.edges, self.starts, self.texts = edges, starts, texts

    def __getitem__(self, e: int) -> list[str]:
        k = int(np.searchsorted(self.edges, e))
        if k < len(self.edges) and self.edges[k] == e:
            return list(self.texts[self.starts[k]:self.starts[k + 1]])
        raise KeyError(e)

    def __iter__(self) -> Iterator[int]:
        yield from self.edges.tolist()

    def __len__(self) -> int:
        return len(self.edges)


@dataclass
class MoveGraph:
    src: np.ndarray
    dst: np.ndarray
    base: np.ndarray  # multiples of the move ratio paid on this edge
    extra: np.ndarray  # extra MP
    why: Mapping[int, list[str]]  # edge -> reasons for its extra MP (edges with extras only)
    indptr: np.ndarray  # edges sorted by source: edges of node i are order[indptr[i]:indptr[i+1]]
    order: np.ndarray

    n: int = 0
    _mats: dict = field(default_factory=dict)
    #: per edge: a diagonal step of a square lattice; stories walked up or down (stairs, climbs)
    diag: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    stories: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    #: per edge: 1 for a step to a neighbouring dot (a drop too), 0 for stairs/elevator/climb
    flat: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    #: per reason of a step (``why.texts``): the level, index in the level and starting-inside
    #: flag of the feature that gave it (None: the graph cannot be patched, only rebuilt)
    made_by: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def replaced(self, level: int, index: int, old: Feature, new: Feature) -> MoveGraph | None:
        """This graph with feature ``index`` of ``level`` changed from ``old`` to ``new`` (a door
        opened or shut, a door blasted into a hole), or None when the change needs a rebuild.

        Patched in place of a rebuild when the shape is the same object and the feature
        hinders every step it touches, before and after, without making it impassable: then
        the same edges are touched and only their extra MP and reasons change.  The arrays
        are copied, never edited: forks share the graph they were made with."""
        if self.made_by is None or old.geom is not new.geom:
            return None
        was = [_crossing(old, False), _crossing(old, True)]
        now = [_crossing(new, False), _crossing(new, True)]
        if any(r is None or r[0] < 0 for r in was + now):
            return None
        lv, fi, inside = self.made_by
        hit = np.nonzero((lv == level) & (fi == index))[0]
        if not len(hit):
            return self  # it hinders no step that is not blocked anyway
        why = self.why
        assert isinstance(why, _Why)
        edge = why.edges[np.searchsorted(why.starts, hit, side="right") - 1]
        ins = inside[hit].astype(np.int64)
        extra = self.extra.copy()
        np.add.at(extra, edge, np.array([now[k][0] - was[k][0] for k in (0, 1)])[ins])
        texts = why.texts.copy()
        texts[hit] = np.array([now[0][1], now[1][1]], dtype=object)[ins]
        return replace(self, extra=extra, why=_Why(why.edges, why.starts, texts), _mats={})

    def metres(self, diagonal: float) -> np.ndarray:
        """Metres of each edge when a diagonal step is ``diagonal`` dots long (computed once
        per graph: play asks it for every step it prices)."""
        key = ("metres", diagonal)
        got = self._mats.get(key)
        if got is None:
            step = np.where(self.diag, diagonal, 1.0) * self.flat
            got = self._mats[key] = step * METERS_PER_DOT + self.stories * METERS_PER_STORY
        return got

    def metres_matrix(self, diagonal: float | None) -> csr_matrix:
        """Edge lengths in metres; ``diagonal`` None is Dark Conspiracy's rule (every other
        diagonal counts double, seed 003 l.128), exact on a graph of two layers: nodes
        ``0..n-1`` have made an even number of diagonal steps, ``n..2n-1`` an odd number."""
        key = ("m", diagonal)
        if key not in self._mats:
            n = self.n
            if diagonal is not None:
                w = np.maximum(self.metres(diagonal), 1e-6)  # an elevator ride walks nowhere
                self._mats[key] = _csr_min(w, self.src, self.dst, n, self._mats)
            else:
                w = np.maximum(self.metres(1.0), 1e-6)
                d = self.diag
                even = np.where(d, self.dst + n, self.dst)  # even -> odd on a diagonal: 2 m
                odd = np.where(d, self.dst, self.dst + n)  # odd -> even on a diagonal: 4 m
                rows = np.concatenate([self.src, self.src + n])
                cols = np.concatenate([even, odd])
                ww = np.concatenate([w, np.where(d, 2 * w, w)])
                self._mats[key] = _csr_min(ww, rows, cols, 2 * n, self._mats, "parity")
        return self._mats[key]

    def weights(self, ruleset: str, move_ratio: int, crawl: bool) -> csr_matrix:
        """The matrix a query runs Dijkstra on: MP for dmz1990, metres for the others."""
        mv = get_ruleset(ruleset).movement
        if mv.units == "MP":
            return self.matrix(move_ratio, crawl)
        return self.metres_matrix(mv.diagonal)

    def matrix(self, move_ratio: int, crawl: bool) -> csr_matrix:
        key = (move_ratio, crawl)
        if key not in self._mats:
            w = (self.base * move_ratio + self.extra).astype(float)
            if crawl:
                w *= 2
            self._mats[key] = _csr_min(w, self.src, self.dst, self.n, self._mats)
        return self._mats[key]


def _csr_min(w: np.ndarray, src: np.ndarray, dst: np.ndarray, n: int,
             cache: dict | None = None, tag: str = "") -> csr_matrix:
    """A sparse matrix of edge weights keeping the cheapest of parallel edges.  scipy sums
    duplicate entries, so a stair an author draws at both ends (up from level 0 and down from
    level 1) would cost twice its MP or metres.

    The edges' order by (source, target) does not depend on the weights: it is sorted once
    per graph (``cache``, one entry per ``tag``: the graph's own edges, or Dark Conspiracy's
    two layers) and each weighting is then a gather and a minimum per run of parallel edges,
    with the index arrays shared (the same matrix scipy would build from the triplets)."""
    got = None if cache is None else cache.get(("csr", tag, n))
    if got is None:
        key = src.astype(np.int64) * n + dst
        perm = np.argsort(key, kind="stable")
        k = key[perm]
        first = np.ones(len(k), dtype=bool)
        first[1:] = k[1:] != k[:-1]
        starts = np.nonzero(first)[0]
        itype = np.int32 if max(n, len(k)) < np.iinfo(np.int32).max else np.int64
        uk = k[starts]
        indices = (uk % n).astype(itype)
        indptr = np.searchsorted(uk, np.arange(n + 1, dtype=np.int64) * n).astype(itype)
        got = (perm, starts if not first.all() else None, indices, indptr)
        if cache is not None:
            cache[("csr", tag, n)] = got
    perm, starts, indices, indptr = got
    ws = np.asarray(w, dtype=float)[perm]
    data = ws if starts is None else np.minimum.reduceat(ws, starts) if len(ws) else ws
    return csr_matrix((data, indices, indptr), shape=(n, n))


def _step_code(parity: int, dc: np.ndarray | int, dr: np.ndarray | int) -> np.ndarray | int:
    """One small number per (row parity, step offset): offsets are -1, 0 or 1 on both lattices."""
    return parity * 9 + (dc + 1) * 3 + (dr + 1)


def _edges_of(board: Board, chunks: dict[int, tuple[int, np.ndarray]], hex_rows: bool,
              frm: np.ndarray, to: np.ndarray, level: int) -> np.ndarray:
    """The edge of each step ``frm`` -> ``to`` on ``level``, -1 where either end is no node."""
    a = _nodes_at(board, frm, level)
    b = _nodes_at(board, to, level)
    out = np.full(len(frm), -1, dtype=np.int64)
    code = _step_code(frm[:, 1] & 1 if hex_rows else 0, to[:, 0] - frm[:, 0], to[:, 1] - frm[:, 1])
    live = (a >= 0) & (b >= 0)
    for k in np.unique(code[live]).tolist():
        first, srcs = chunks[k]
        sel = np.nonzero(live & (code == k))[0]
        pos = np.searchsorted(srcs, a[sel])
        found = pos < len(srcs)
        found[found] = srcs[pos[found]] == a[sel[found]]
        out[sel[found]] = first + pos[found]
    return out


def _describe(f: Feature, extra: int) -> str:
    note = f.props.get("note")
    tail = f" ({note})" if note else ""
    return f"{f.kind} {f.id}{tail} +{extra}"


def _crossing(f: Feature, inside_start: bool) -> tuple[int, str] | None:
    """Extra MP for a step that touches feature ``f``; None if the feature is no hindrance.

    Returns (-1, reason) when the step is impassable.
    """
    k, p = f.kind, f.props
    if k in _BLOCKING:
        return (-1, f"{k} {f.id} is in the way")
    if k == "door":
        if p.get("state") == "closed":
            return (CLOSED_DOOR_OPEN + OPEN_DOOR,
                    f"closed door {f.id}: open +{CLOSED_DOOR_OPEN}, through +{OPEN_DOOR}")
        return (OPEN_DOOR, f"open door {f.id} +{OPEN_DOOR}")
    if k == "window":
        if p.get("state") == "closed":
            return (CLOSED_WINDOW_OPEN + OPEN_WINDOW,
                    f"closed window {f.id}: open +{CLOSED_WINDOW_OPEN}, through +{OPEN_WINDOW}")
        return (OPEN_WINDOW, f"open window {f.id} +{OPEN_WINDOW}")
    if k == "hole":
        return (HOLE, f"hole {f.id} +{HOLE}")
    if k == "obstacle":
        if p.get("los") == "blocks" and p.get("standable") == "none":
            return (-1, f"obstacle {f.id} cannot be crossed")
        if inside_start:
            return None  # moving about on (or off) an obstacle costs nothing extra
        c = int(p.get("cost", 1))
        return (c, _describe(f, c))
    if k in ("rubble", "undergrowth", "step", "incline", "contour", "low-wall"):
        c = int(p.get("cost", 1))
        return (c, _describe(f, c))
    return None


def _nodes_at(board: Board, dots: np.ndarray, level: int,
              levels: np.ndarray | None = None) -> np.ndarray:
    """Vectorised node lookup: the node of each (c, r) dot at ``level`` (or at its own of
    ``levels``), -1 where none stands."""
    cmin, rmin, _grid = board._owner_grid
    g = board._node_grid
    out = np.full(len(dots), -1, dtype=np.int64)
    lv = np.full(len(dots), level, dtype=np.int64) if levels is None else levels
    r, c = dots[:, 1] - rmin, dots[:, 0] - cmin
    ok = ((r >= 0) & (r < g.shape[1]) & (c >= 0) & (c < g.shape[2])
          & (lv >= 0) & (lv < g.shape[0]))
    out[ok] = g[lv[ok], r[ok], c[ok]]
    return out


def _near_features(fs: list[Feature], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Which segments a-b may touch a feature: their boxes share a cell with the box of a
    feature's line segment (walls, doors) or of a whole feature (areas, points).

    Conservative, so the tree query that follows on these alone finds every hit it would find
    on all segments; most steps (open floor, streets) never become a geometry at all.
    """
    eps = 1e-6
    geoms = np.array([f.geom for f in fs], dtype=object)
    kind = shapely.get_type_id(geoms)
    linear = np.isin(kind, (1, 2, 5))
    boxes = [shapely.bounds(geoms[~linear]).reshape(-1, 4)]
    if linear.any():
        parts = shapely.get_parts(geoms[linear])
        xy, part = shapely.get_coordinates(parts, return_index=True)
        same = part[1:] == part[:-1]
        p, q = xy[:-1][same], xy[1:][same]
        boxes.append(np.column_stack([np.minimum(p, q), np.maximum(p, q)]))
    box = np.concatenate(boxes)
    box = box[np.isfinite(box).all(axis=1)]
    if not len(box):
        return np.zeros(len(a), dtype=bool)
    lo_s, hi_s = np.minimum(a, b), np.maximum(a, b)
    x0 = np.floor(min(box[:, 0].min(), lo_s[:, 0].min())) - 2
    y0 = np.floor(min(box[:, 1].min(), lo_s[:, 1].min())) - 2
    x1 = np.floor(max(box[:, 2].max(), hi_s[:, 0].max())) + 2
    y1 = np.floor(max(box[:, 3].max(), hi_s[:, 1].max())) + 2
    # half-dot cells centred on dots and on the half-dot lines walls follow, so a step beside
    # a wall is not taken for one across it
    w, h = int(2 * (x1 - x0)) + 3, int(2 * (y1 - y0)) + 3

    def cell(v: np.ndarray, v0: float) -> np.ndarray:
        return np.floor(2 * (v - v0) + 0.5).astype(np.int64)

    def cells(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, ...]:
        return (cell(lo[:, 0] - eps, x0), cell(lo[:, 1] - eps, y0),
                cell(hi[:, 0] + eps, x0), cell(hi[:, 1] + eps, y0))

    # mark every cell a feature box covers (a difference array, then prefix sums)
    i0, j0, i1, j1 = cells(box[:, :2], box[:, 2:])
    diff = np.zeros((h + 1, w + 1), dtype=np.int64)
    np.add.at(diff, (j0, i0), 1)
    np.add.at(diff, (j0, i1 + 1), -1)
    np.add.at(diff, (j1 + 1, i0), -1)
    np.add.at(diff, (j1 + 1, i1 + 1), 1)
    marked = (diff.cumsum(0).cumsum(1) > 0).astype(np.int64)
    # a segment is near when a marked cell lies in its box (summed-area table)
    sat = np.zeros((h + 2, w + 2), dtype=np.int64)
    sat[1:, 1:] = marked.cumsum(0).cumsum(1)
    i0, j0, i1, j1 = cells(lo_s, hi_s)
    n = sat[j1 + 1, i1 + 1] - sat[j0, i1 + 1] - sat[j1 + 1, i0] + sat[j0, i0]
    return n > 0


#: crossings per compiled unit: id(unit) -> (unit, its _UnitHits per level); the unit cache
#: shares a unit's feature lists between boards, so a board that moved one building finds
#: every other unit's crossings here
_UNIT_HITS: dict[int, tuple[Any, dict[int, _LevelHits], str]] = {}
_UNIT_HITS_MAX = 4096


def _steps_near(lat: Lattice, fs: list[Feature]) -> tuple[np.ndarray, np.ndarray]:
    """Every step between neighbouring lattice dots (one direction per pair: towards the later
    row, then column) whose segment may touch one of ``fs``: (from dots (K, 2), to dots (K, 2)).

    Dots come from the box of the features, widened by one step and a half; the box of every
    feature piece then keeps only the steps that may touch it (:func:`_near_features`)."""
    x0, y0, x1, y1 = shapely.total_bounds([f.geom for f in fs])
    if not np.isfinite([x0, y0, x1, y1]).all():
        return np.zeros((0, 2), dtype=np.int64), np.zeros((0, 2), dtype=np.int64)
    cand = lat.dots_in_box(x0 - 1.5, y0 - 1.5, x1 + 1.5, y1 + 1.5).astype(np.int64)
    a_l, b_l = [], []
    for parity in (0, 1):
        sel = cand[(cand[:, 1] & 1) == parity] if lat.name == "hex" else cand
        if lat.name != "hex" and parity == 1:
            break
        probe = (0, parity)
        for dc, dr in (np.subtract(nb, probe) for nb in lat.neighbours(probe)):
            if (dr, dc) > (0, 0):
                a_l.append(sel)
                b_l.append(sel + (dc, dr))
    a, b = np.concatenate(a_l), np.concatenate(b_l)
    near = _near_features(fs, lat.points(a), lat.points(b)) if len(a) else np.zeros(0, dtype=bool)
    return a[near], b[near]


@dataclass
class _LevelHits:
    """What the features of one unit on one level do to the steps that touch them, one row
    per (directed step, feature): from dot, to dot, the feature's index in the unit's list,
    the extra MP (``_BLOCKED`` when impassable), the reason and whether the step starts inside
    the feature."""

    frm: np.ndarray
    to: np.ndarray
    feat: np.ndarray
    cost: np.ndarray
    text: np.ndarray
    inside: np.ndarray


def _level_hits(lat: Lattice, fs: list[Feature]) -> _LevelHits:
    """The crossings of the features ``fs`` (one unit, one level) with every step near them."""
    empty = np.zeros(0, dtype=np.int64)
    none = _LevelHits(np.zeros((0, 2), dtype=np.int64), np.zeros((0, 2), dtype=np.int64),
                      empty, empty, np.zeros(0, dtype=object), np.zeros(0, dtype=bool))
    if not fs:
        return none
    a, b = _steps_near(lat, fs)
    if not len(a):
        return none
    pa, pb = lat.points(a), lat.points(b)
    geoms = np.array([f.geom for f in fs], dtype=object)
    si, fi = shapely.STRtree(geoms).query(shapely.linestrings(np.stack([pa, pb], axis=1)),
                                          predicate="intersects")
    if not len(si):
        return none
    # what each feature does to a step, starting outside it [0] or inside it [1]
    table = [(_crossing(f, False), _crossing(f, True)) for f in fs]
    cost = np.array([[_NONE if r is None else r[0] for r in t] for t in table], dtype=np.int64)
    text = np.array([["" if r is None else r[1] for r in t] for t in table], dtype=object)
    out: list[tuple[np.ndarray, ...]] = []
    for start, end in ((a, b), (b, a)):  # the step and its way back
        inside = shapely.contains(geoms[fi], shapely.points(lat.points(start[si])))
        c = cost[fi, inside.astype(np.int64)]
        t = text[fi, inside.astype(np.int64)]
        ok = c != _NONE
        out.append((start[si][ok], end[si][ok], fi[ok], c[ok], t[ok], inside[ok]))
    return _LevelHits(*(np.concatenate(parts) for parts in zip(*out)))


def _units_hits(lat: Lattice, units: list[tuple[dict[int, list[Feature]], bool]]
                ) -> list[dict[int, _LevelHits]]:
    """The crossings of each unit's features, level by level.

    A shared unit's come from the cache when it has them.  The units still to do are done
    together, a level at a time (one tree, one query: a cold board pays no overhead per unit),
    then split by unit, each hit's feature index made local to its unit."""
    out: list[dict[int, _LevelHits] | None] = [None] * len(units)
    todo = []
    for k, (unit, shared) in enumerate(units):
        hit = _UNIT_HITS.get(id(unit)) if shared else None
        if hit is not None and hit[0] is unit and hit[2] == lat.name:
            out[k] = hit[1]
        else:
            todo.append(k)
            out[k] = {}
    for lv in sorted({lv for k in todo for lv in units[k][0]}):
        ks = [k for k in todo if lv in units[k][0]]
        fs_all = [f for k in ks for f in units[k][0][lv]]
        owner = np.repeat(np.arange(len(ks)), [len(units[k][0][lv]) for k in ks])
        local = np.arange(len(fs_all)) - np.repeat(
            np.cumsum([0] + [len(units[k][0][lv]) for k in ks])[:-1],
            [len(units[k][0][lv]) for k in ks])
        h = _level_hits(lat, fs_all)
        own = owner[h.feat]
        order = np.argsort(own, kind="stable")
        cut = np.searchsorted(own[order], np.arange(len(ks) + 1))
        for j, k in enumerate(ks):
            rows = order[cut[j]:cut[j + 1]]
            out[k][lv] = _LevelHits(h.frm[rows], h.to[rows], local[h.feat[rows]],  # type: ignore[index]
                                    h.cost[rows], h.text[rows], h.inside[rows])
    if any(units[k][1] for k in todo):
        live = cached_unit_ids()
        for key in [key for key in _UNIT_HITS if key not in live]:
            del _UNIT_HITS[key]
    for k in todo:
        unit, shared = units[k]
        if shared:
            _UNIT_HITS[id(unit)] = (unit, out[k], lat.name)  # type: ignore[assignment]
    while len(_UNIT_HITS) > _UNIT_HITS_MAX:
        _UNIT_HITS.pop(next(iter(_UNIT_HITS)))
    return out  # type: ignore[return-value]


def build_graph(board: Board) -> MoveGraph:
    """The movement graph of a board (cached on the board).

    The crossings (what a wall, door, obstacle ... does to the steps that touch it) are
    computed per compiled unit and cached with it, so a board that differs from an earlier
    one by a moved building (the editor's drag) or an opened door (play) recomputes only that
    unit's; the rest is array work over the nodes."""
    cached = board.__dict__.get("_move_graph")
    if cached is not None:
        return cached
    lat = board.lattice
    nodes = board._node_dots
    n = len(nodes)
    src_l: list[np.ndarray] = []
    dst_l: list[np.ndarray] = []
    #: the neighbour edges come in chunks, one per (row parity, offset): code -> (first edge,
    #: source nodes in order)
    chunks: dict[int, tuple[int, np.ndarray]] = {}
    chunk_diag: list[bool] = []
    n_edges = 0
    if n:
        # neighbour lookup through a dense grid per level
        c0, r0 = nodes[:, 0].min(), nodes[:, 1].min()
        w = nodes[:, 0].max() - c0 + 3
        h = nodes[:, 1].max() - r0 + 3
        lv_list = sorted(set(nodes[:, 2].tolist()))
        grid = np.full((len(lv_list), h, w), -1, dtype=np.int64)
        li = np.searchsorted(lv_list, nodes[:, 2])
        grid[li, nodes[:, 1] - r0 + 1, nodes[:, 0] - c0 + 1] = np.arange(n)
        for parity in (0, 1):
            sel = np.nonzero((nodes[:, 1] & 1) == parity)[0] if lat.name == "hex" else np.arange(n)
            if lat.name != "hex" and parity == 1:
                break
            probe = (0, parity)
            offs = [(dc, dr) for dc, dr in
                    (np.subtract(nb, probe) for nb in lat.neighbours(probe))]
            for dc, dr in offs:
                cc = nodes[sel, 0] - c0 + 1 + dc
                rr = nodes[sel, 1] - r0 + 1 + dr
                ok = (cc >= 0) & (cc < w) & (rr >= 0) & (rr < h)
                tgt = np.full(len(sel), -1, dtype=np.int64)
                tgt[ok] = grid[li[sel][ok], rr[ok], cc[ok]]
                good = tgt >= 0
                src_l.append(sel[good])
                dst_l.append(tgt[good])
                chunks[_step_code(parity, int(dc), int(dr))] = (n_edges, src_l[-1])
                chunk_diag.append(lat.name != "hex" and dc != 0 and dr != 0)
                n_edges += len(src_l[-1])
    # the crossings of every unit, as edges of this board
    e_l: list[np.ndarray] = []
    f_l: list[np.ndarray] = []
    c_l: list[np.ndarray] = []
    t_l: list[np.ndarray] = []
    i_l: list[np.ndarray] = []
    lv_l: list[np.ndarray] = []
    offset: dict[int, int] = {}
    per_level: dict[int, list[tuple[_LevelHits, int]]] = {}
    units = board.unit_features() if n else []
    for (unit, _shared), unit_hits in zip(units, _units_hits(lat, units)):
        for lv, hits in unit_hits.items():
            first = offset.get(lv, 0)
            offset[lv] = first + len(unit[lv])
            if len(hits.feat):
                per_level.setdefault(lv, []).append((hits, first))
    for lv, parts in per_level.items():
        frm = np.concatenate([h.frm for h, _ in parts])
        to = np.concatenate([h.to for h, _ in parts])
        e = _edges_of(board, chunks, lat.name == "hex", frm, to, lv)
        ok = e >= 0
        e_l.append(e[ok])
        f_l.append(np.concatenate([h.feat + first for h, first in parts])[ok])
        c_l.append(np.concatenate([h.cost for h, _ in parts])[ok])
        t_l.append(np.concatenate([h.text for h, _ in parts])[ok])
        i_l.append(np.concatenate([h.inside for h, _ in parts])[ok])
        lv_l.append(np.full(int(ok.sum()), lv, dtype=np.int64))
    # blocked steps leave the graph; every other edge keeps its order
    e_all = np.concatenate(e_l) if e_l else np.zeros(0, dtype=np.int64)
    c_all = np.concatenate(c_l) if c_l else np.zeros(0, dtype=np.int64)
    keep = np.ones(n_edges, dtype=bool)
    keep[e_all[c_all == _BLOCKED]] = False
    kept_before = np.zeros(n_edges + 1, dtype=np.int64)
    np.cumsum(keep, out=kept_before[1:])
    new_index = kept_before[1:] - 1
    m = int(kept_before[-1])
    kept = np.diff(kept_before[[first for first, _ in chunks.values()] + [n_edges]])
    src = np.concatenate(src_l)[keep] if src_l else np.zeros(0, dtype=np.int64)
    dst = np.concatenate(dst_l)[keep] if dst_l else np.zeros(0, dtype=np.int64)
    diag = np.repeat(np.array(chunk_diag, dtype=bool), kept)
    extra = np.zeros(m, dtype=np.int64)
    paid = c_all >= 0
    paid[paid] = keep[e_all[paid]]
    e_p = new_index[e_all[paid]]
    np.add.at(extra, e_p, c_all[paid])
    # the reasons of one edge in the order of the level's features
    o = np.lexsort((np.concatenate(f_l)[paid], e_p)) if e_l else np.zeros(0, dtype=np.int64)
    e_p = e_p[o]
    t_p = np.concatenate(t_l)[paid][o] if e_l else np.zeros(0, dtype=object)
    # which feature made each reason (level, index in the level, step starting inside it)
    made_by = ((np.concatenate(lv_l)[paid][o], np.concatenate(f_l)[paid][o],
                np.concatenate(i_l)[paid][o]) if e_l else None)

    # level changes: stairs, elevators, climbs, controlled drops
    links: list[tuple[int, int, int, int, int, int]] = []
    link_text: list[str] = []

    def link(a: Dot3, b: Dot3, ex: int, text: str, mr_paid: int = 0, walked: int = 0) -> None:
        """A level change; ``walked`` stories climbed on foot (stairs, climbs) for metres."""
        link_text.append(text)
        links.append((board.node(a), board.node(b), mr_paid, ex, walked, mr_paid))

    for a, b, f in board.stair_links:
        flights = abs(a[2] - b[2])
        link(a, b, STAIRS * flights, f"stairs {f.id} +{STAIRS * flights}", walked=flights)
        link(b, a, STAIRS * flights, f"stairs {f.id} +{STAIRS * flights}", walked=flights)
    for a, b, f in board.elevator_links:
        link(a, b, ELEVATOR, f"elevator {f.id} +{ELEVATOR}")
        link(b, a, ELEVATOR, f"elevator {f.id} +{ELEVATOR}")
    for a, b, f in board.climb_links:
        stories = abs(b[2] - a[2])
        assisted = bool(f.props.get("assisted"))
        up = CLIMB_UP_ASSISTED if assisted else CLIMB_UP
        down = CLIMB_DOWN_ASSISTED if assisted else CLIMB_DOWN
        lo, hi = (a, b) if a[2] < b[2] else (b, a)
        kind = "assisted climb" if assisted else "climb"
        link(lo, hi, up * stories, f"{kind} up {f.id} +{up * stories}", walked=stories)
        link(hi, lo, down * stories, f"{kind} down {f.id} +{down * stories}", walked=stories)
    # controlled drops: from a roof dot to a dot one level lower outside that building, in the
    # order building by building, roof dot by roof dot, neighbour by neighbour
    heights = np.array([b.height for b in board.buildings] + [-1], dtype=np.int64)
    rim = _rim(board)
    roofs = []
    for lv in sorted({b.height for b in board.buildings} - {0}):
        d = board.dots(lv)
        own = board.buildings_at(d) if len(d) else np.zeros(0, dtype=np.int64)
        top = heights[own] == lv
        top[top] = rim[d[top, 1] - board._owner_grid[1], d[top, 0] - board._owner_grid[0]]
        roofs.append((d[top], own[top], np.full(int(top.sum()), lv)))
    if roofs:
        rd = np.concatenate([r[0] for r in roofs]).astype(np.int64)
        rb = np.concatenate([r[1] for r in roofs])
        rl = np.concatenate([r[2] for r in roofs])
        o = np.argsort(rb, kind="stable")  # a building's roof is one level: dots stay in order
        rd, rb, rl = rd[o], rb[o], rl[o]
        offs = np.array([np.subtract(lat.neighbours((0, p)), (0, p)) for p in (0, 1)])
        k = offs.shape[1]
        nb = (rd[:, None, :] + offs[rd[:, 1] & 1]).reshape(-1, 2)
        top_n = np.repeat(_nodes_at(board, rd, -1, rl), k)
        low = _nodes_at(board, nb, -1, np.repeat(rl - 1, k))
        nb_b = np.repeat(rb, k)
        ok = (low >= 0) & (board.buildings_at(nb) != nb_b)
        texts = np.array([f"drop one story from roof of {b.placement_id} +{DROP}"
                          for b in board.buildings], dtype=object)
        drops = (top_n[ok], low[ok], texts[nb_b[ok]])
    else:
        drops = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
                 np.zeros(0, dtype=object))
    arr = np.array(links, dtype=np.int64).reshape(-1, 6)
    n_drop = len(drops[0])
    arr = np.concatenate([arr, np.column_stack([
        drops[0], drops[1], np.ones(n_drop), np.full(n_drop, DROP), np.zeros(n_drop),
        np.ones(n_drop)]).astype(np.int64)])
    total = m + len(arr)
    base = np.ones(total, dtype=np.int64)
    stories = np.zeros(total, dtype=np.int64)
    flat = np.ones(total, dtype=np.int64)
    if len(arr):
        src, dst = np.concatenate([src, arr[:, 0]]), np.concatenate([dst, arr[:, 1]])
        extra = np.concatenate([extra, arr[:, 3]])
        diag = np.concatenate([diag, np.zeros(len(arr), dtype=bool)])
        base[m:], stories[m:], flat[m:] = arr[:, 2], arr[:, 4], arr[:, 5]
    # every edge with reasons, in edge order: the steps', then one per level change
    heads = np.concatenate([[0], np.nonzero(np.diff(e_p))[0] + 1]).astype(np.int64) \
        if len(e_p) else np.zeros(0, dtype=np.int64)
    why = _Why(np.concatenate([e_p[heads], np.arange(m, total)]).astype(np.int64),
               np.concatenate([heads, len(e_p) + np.arange(len(arr) + 1)]).astype(np.int64),
               np.concatenate([t_p, np.array(link_text, dtype=object).reshape(-1), drops[2]]))
    order = np.argsort(src, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(np.bincount(src, minlength=n))]).astype(np.int64)
    g = MoveGraph(src, dst, base, extra, why, indptr, order, n, diag=diag, stories=stories,
                  flat=flat, made_by=made_by)
    board._move_graph = g  # type: ignore[attr-defined]
    return g


def _min_move(g: MoveGraph, board: Board, mat: csr_matrix) -> float:
    """The cheapest edge of ``mat`` that leaves its dot for another (cached per matrix)."""
    key = ("min-move", id(mat))
    got = g._mats.get(key)
    if got is None or got[0] is not mat:
        rows = np.repeat(np.arange(mat.shape[0]), np.diff(mat.indptr)) % g.n
        cols = mat.indices % g.n
        dots = board._node_dots
        moving = (dots[rows, 0] != dots[cols, 0]) | (dots[rows, 1] != dots[cols, 1])
        got = g._mats[key] = (mat, float(mat.data[moving].min()) if moving.any() else np.inf)
    return got[1]


def _per_dot(g: MoveGraph, board: Board, mat: csr_matrix) -> tuple[float, float]:
    """(k, w) of a matrix: no edge costs less than ``k`` per dot it moves (Chebyshev, in the
    board's columns and rows), and none costs more than ``w``.  ``k`` times the dots between
    two places is a lower bound of any walk between them (the A* heuristic of a grid), and a
    search whose limit grew by more than ``w`` without reaching a new node has exhausted its
    component.  Cached per matrix."""
    key = ("per-dot", id(mat))
    got = g._mats.get(key)
    if got is None or got[0] is not mat:
        # dots each entry moves: one array per matrix layout (matrices of one graph and
        # layout share their row pointers), so each weighting only divides
        mkey = ("moved", mat.shape[0])
        moved = g._mats.get(mkey)
        if moved is None or moved[0] is not mat.indptr:
            rows = np.repeat(np.arange(mat.shape[0]), np.diff(mat.indptr)) % g.n
            cols = mat.indices % g.n
            dots = board._node_dots
            moved = g._mats[mkey] = (mat.indptr, np.maximum(
                np.abs(dots[rows, 0] - dots[cols, 0]), np.abs(dots[rows, 1] - dots[cols, 1])))
        mv = moved[1]
        m = mv > 0
        k = float((mat.data[m] / mv[m]).min()) if m.any() else 0.0
        w = float(mat.data.max()) if len(mat.data) else 0.0
        got = g._mats[key] = (mat, k, w)
    return got[1], got[2]


def dijkstra_until(board: Board, g: MoveGraph, mat: csr_matrix, indices: Any,
                   done: Any, start: float, *, min_only: bool = False,
                   predecessors: bool = False) -> tuple[Any, float, bool]:
    """scipy's Dijkstra from ``indices``, searched only as far as the question needs: the
    limit starts at ``start`` and doubles until ``done(dist)`` holds or the search has
    reached every node it can.  Every node within the final limit has its exact cost (as a
    whole-board search gives); a node not reached costs more than the limit.

    Returns (scipy's answer, the limit searched, whether the search is exhausted: then a
    node not reached has no way at all)."""
    _k, wmax = _per_dot(g, board, mat)
    limit = max(float(start), 1.0)
    prev_limit, prev_count = -np.inf, -1
    while True:
        out = dijkstra(mat, indices=indices, limit=limit, min_only=min_only,
                       return_predecessors=predecessors)
        dist = out[0] if predecessors else out
        if not np.isfinite(limit):
            return out, limit, True
        if done(dist):
            return out, limit, False
        count = int(np.isfinite(dist).sum())
        if count == prev_count and limit - prev_limit > wmax:
            return out, limit, True  # no node beyond: the rest has no way at all
        prev_limit, prev_count = limit, count
        # twice the limit reaches about four times the nodes: past a quarter of the
        # board, one search of all of it costs less than more rounds
        limit = limit * 2 if 4 * count < mat.shape[0] and limit < 1e12 else np.inf


def _bounded(board: Board, g: MoveGraph, mat: csr_matrix, i: int, limit: float
             ) -> tuple[np.ndarray, np.ndarray]:
    """Every node of ``mat`` (its rows: ``g.n`` per parity layer) within ``limit`` of node
    ``i``, and its cost; as scipy's Dijkstra with ``limit`` on the whole matrix answers.

    The search runs on the window of the board the budget can reach: a path of cost at most
    ``limit`` takes at most ``limit / m`` steps that change dots (``m`` the cheapest such
    step), so it never leaves the rows and columns that far around the start, on any level.
    The whole board is searched only when that window is most of it."""
    n = g.n
    wmin = _min_move(g, board, mat)
    c, r, _lv = board.node_dot(i)
    cmin, rmin, _owner = board._owner_grid
    grid = board._node_grid
    reach_dots = int(limit / wmin) + 1 if wmin > 0 and np.isfinite(limit) else 1 << 30
    side = 2 * reach_dots + 1
    if side * side * grid.shape[0] * 4 >= n:  # the window holds a good part of the board
        dist = dijkstra(mat, indices=i, limit=limit)
        idx = np.nonzero(np.isfinite(dist))[0]
        return idx, dist[idx]
    r0, c0 = max(r - rmin - reach_dots, 0), max(c - cmin - reach_dots, 0)
    ids = grid[:, r0:r - rmin + reach_dots + 1, c0:c - cmin + reach_dots + 1]
    ids = np.sort(ids[ids >= 0])
    layers = mat.shape[0] // n
    win = np.concatenate([ids + k * n for k in range(layers)])
    ip = mat.indptr
    cnt = ip[win + 1] - ip[win]
    flat = np.repeat(ip[win] - np.cumsum(cnt) + cnt, cnt) + np.arange(int(cnt.sum()))
    cols = mat.indices[flat]
    loc = np.minimum(np.searchsorted(win, cols), len(win) - 1)
    ok = win[loc] == cols
    rows = np.repeat(np.arange(len(win)), cnt)[ok]
    sub = csr_matrix((mat.data[flat][ok], loc[ok], np.concatenate(
        [[0], np.cumsum(np.bincount(rows, minlength=len(win)))])), shape=(len(win), len(win)))
    dist = dijkstra(sub, indices=int(np.searchsorted(win, i)), limit=limit)
    fin = np.nonzero(np.isfinite(dist))[0]
    return win[fin], dist[fin]


def _window(board: Board, g: MoveGraph, mat: csr_matrix, c0: int, r0: int, c1: int, r1: int
            ) -> tuple[np.ndarray, csr_matrix, np.ndarray]:
    """The nodes of every level in the box of columns ``c0..c1`` and rows ``r0..r1`` (each
    parity layer of ``mat``), the submatrix among them, and which of them have an edge that
    leaves the box."""
    n = g.n
    cmin, rmin, _owner = board._owner_grid
    grid = board._node_grid
    ids = grid[:, max(r0 - rmin, 0):max(r1 - rmin + 1, 0), max(c0 - cmin, 0):max(c1 - cmin + 1, 0)]
    ids = ids[ids >= 0]
    layers = mat.shape[0] // n
    win = np.concatenate([ids + k * n for k in range(layers)])
    ip = mat.indptr
    cnt = ip[win + 1] - ip[win]
    flat = np.repeat(ip[win] - np.cumsum(cnt) + cnt, cnt) + np.arange(int(cnt.sum()))
    local = np.full(mat.shape[0], -1, dtype=np.int32)  # node -> its index in the window
    local[win] = np.arange(len(win), dtype=np.int32)
    loc = local[mat.indices[flat]]
    ok = loc >= 0
    rows_all = np.repeat(np.arange(len(win)), cnt)
    rows = rows_all[ok]
    exits = np.zeros(len(win), dtype=bool)
    exits[rows_all[~ok]] = True
    sub = csr_matrix((mat.data[flat][ok], loc[ok], np.concatenate(
        [[0], np.cumsum(np.bincount(rows, minlength=len(win)))])), shape=(len(win), len(win)))
    return win, sub, exits


def _astar(board: Board, g: MoveGraph, mat: csr_matrix, i: int, j: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """A* from node ``i`` to node ``j`` (either parity layer of ``mat``), exact: the search
    runs on a window around the two ends, as Dijkstra on costs reduced by the heuristic
    ``k * dots to j`` (``k``: the cheapest cost per dot of any edge, so no walk is cheaper
    and the reduced costs stay >= 0), with a limit that grows until ``j`` is settled.  A walk
    leaving the window first crosses its rim at a node ``u`` and costs at least ``u``'s cost
    plus its heuristic; while some rim node could be cheaper than the goal the window grows.

    Returns (window nodes, their cost from ``i``: inf beyond the limit, predecessors as
    indexes into the window or -9999), or None when the window became the whole board."""
    n = g.n
    per, wmax = _per_dot(g, board, mat)
    dots = board._node_dots
    ca, ra, _la = (int(v) for v in dots[i])
    cb, rb, _lb = (int(v) for v in dots[j])
    span = max(abs(cb - ca), abs(rb - ra))
    margin = max(8, span // 4)
    cmin, rmin, owner = board._owner_grid
    rows_n, cols_n = owner.shape
    while True:
        box = (min(ca, cb) - margin, min(ra, rb) - margin, max(ca, cb) + margin,
               max(ra, rb) + margin)
        if (box[0] <= cmin and box[1] <= rmin and box[2] >= cmin + cols_n - 1
                and box[3] >= rmin + rows_n - 1):
            return None  # the window is the board: a plain search costs less
        win, sub, exits = _window(board, g, mat, *box)
        wn = win % n
        h = per * np.maximum(np.abs(dots[wn, 0] - cb), np.abs(dots[wn, 1] - rb)).astype(float)
        src = np.repeat(np.arange(len(win)), np.diff(sub.indptr))
        red = csr_matrix((np.maximum(sub.data + h[sub.indices] - h[src], 0.0), sub.indices,
                          sub.indptr), shape=sub.shape)
        si = int(np.nonzero(win == i)[0][0])
        goals = np.nonzero(wn == j)[0]
        wred = float(red.data.max()) if len(red.data) else 0.0
        limit = max(h[si] * 0.25, 4 * wmax, 1.0)
        prev, prev_limit = -1, -np.inf
        while True:
            dist, pred = dijkstra(red, indices=si, limit=limit, return_predecessors=True)
            if np.isfinite(dist[goals]).any():
                break
            count = int(np.isfinite(dist).sum())
            if count == prev and limit - prev_limit > wred:
                break  # nothing more in the window
            prev, prev_limit = count, limit
            limit *= 2
        best = float(dist[goals].min())
        rim = exits & np.isfinite(dist)
        # a walk through rim node u costs >= its reduced cost: the goal's must not exceed it
        if not rim.any() or float(dist[rim].min()) >= best - 1e-9:
            return win, dist + h[si] - h, pred  # back to real costs
        margin *= 2


def _rim(board: Board) -> np.ndarray:
    """Per dot of the board's box: some neighbour belongs to another building (or the street,
    or lies off the box).  Only such roof dots can have a drop; the rest need no lookups."""
    _c, _r, owner = board._owner_grid
    pad = np.pad(owner, 1, constant_values=-2)
    h, w = owner.shape
    rim = np.zeros(owner.shape, dtype=bool)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            rim |= pad[1 + dr:1 + dr + h, 1 + dc:1 + dc + w] != owner
    return rim


def _edge(g: MoveGraph, i: int, j: int) -> int | None:
    cand = g.order[g.indptr[i]:g.indptr[i + 1]]
    hit = cand[g.dst[cand] == j]
    return int(hit[0]) if len(hit) else None


def _edge_step(board: Board, g: MoveGraph, i: int, j: int, move_ratio: int, crawl: bool,
               ruleset: str = "dmz1990") -> Step | None:
    e = _edge(g, i, j)
    if e is None:
        return None
    mv = get_ruleset(ruleset).movement
    if mv.units != "MP":
        # this edge alone (g.metres() would measure every edge of the graph for one step)
        diag = 1.5 if mv.diagonal is None else mv.diagonal
        metres = float((diag if g.diag[e] else 1.0) * g.flat[e] * METERS_PER_DOT
                       + g.stories[e] * METERS_PER_STORY)
        what = [w.rsplit(" +", 1)[0] for w in g.why.get(e, ())]  # the thing, not DMZ's MP
        return Step(board.node_dot(j), round(metres, 2), [f"{metres:g} m"] + what)  # type: ignore[arg-type]
    base = int(g.base[e]) * move_ratio
    cost = base + int(g.extra[e])
    why = ([f"move ratio {move_ratio}"] if base else []) + list(g.why.get(e, ()))
    if crawl:
        cost *= 2
        why.append("crawling: x2")
    return Step(board.node_dot(j), cost, why)


def step(board: Board, a: Dot3, b: Dot3, move_ratio: int, crawl: bool = False,
         ruleset: str = "dmz1990") -> Step | None:
    """Cost of one move from ``a`` to ``b`` (adjacent, or joined by stairs/elevator/climb/drop)."""
    g = build_graph(board)
    return _edge_step(board, g, board.node(a), board.node(b), move_ratio, crawl, ruleset)


def path_metres(g: MoveGraph, chain: list[int], ruleset: str) -> list[float]:
    """Metres walked after each node of a chain, by the ruleset's measure (its
    ``path_metres``: Dark Conspiracy counts every other diagonal of the move double, seed 003
    l.128, so a step's length depends on the steps before it)."""
    rs = get_ruleset(ruleset)
    straight = diagonal = stories = 0
    out = [0.0]
    for u, v in zip(chain, chain[1:]):
        e = _edge(g, u, v)
        if e is not None:
            if g.flat[e]:
                if g.diag[e]:
                    diagonal += 1
                else:
                    straight += 1
            stories += int(g.stories[e])
        out.append(round(float(rs.path_metres(straight, diagonal, stories)), 2))
    return out


def cheapest_path(board: Board, a: Dot3, b: Dot3, move_ratio: int = 1, crawl: bool = False,
                  ruleset: str = "dmz1990") -> PathResult:
    """The cheapest way from ``a`` to ``b``, with each step's cost and reasons: in MP under
    dmz1990, in metres under the rulesets that measure moves in metres."""
    g = build_graph(board)
    units = get_ruleset(ruleset).movement.units
    i, j = board.node(a), board.node(b)
    if i == j:
        return PathResult(True, 0, [board.node_dot(i)], [], units, 0.0)
    # goal-directed (A*): the search stays near the line between the two ends
    mat = g.weights(ruleset, move_ratio, crawl)
    n = g.n
    two = mat.shape[0] > n  # two parity layers: the goal on either
    found = _astar(board, g, mat, i, j)
    if found is None:  # a window as big as the board: one search, widened to the goal
        (dist, pred), _lim, _all = dijkstra_until(
            board, g, mat, i, lambda d: bool(np.isfinite(d[j]) or (two and np.isfinite(d[j + n]))),
            4 * _per_dot(g, board, mat)[1], predecessors=True)
        win = np.arange(mat.shape[0])
    else:
        win, dist, pred = found
    goals = np.nonzero(win % n == j)[0]  # two layers: the goal on either parity
    end = int(goals[np.argmin(dist[goals])])  # the even layer (listed first) on a tie
    if not np.isfinite(dist[end]):
        return PathResult(False, None, [], [], units, None)
    start = int(np.nonzero(win == i)[0][0]) if found is not None else i
    chain = [end]
    while chain[-1] != start:
        chain.append(int(pred[chain[-1]]))
    chain = [int(win[k]) for k in chain]
    chain = [k % n for k in reversed(chain)]
    steps = [_edge_step(board, g, u, v, move_ratio, crawl, ruleset) for u, v in zip(chain, chain[1:])]
    walked = path_metres(g, chain, ruleset)
    length = walked[-1]
    if units != "MP":  # each step as long as the book counts it at that point of the move
        steps = [Step(st.to, round(w1 - w0, 2), [f"{w1 - w0:g} m", *st.why[1:]])  # type: ignore[arg-type, union-attr]
                 for st, w0, w1 in zip(steps, walked, walked[1:])]
    cost: int | float = int(round(float(dist[end]))) if units == "MP" else length
    return PathResult(True, cost, [board.node_dot(k) for k in chain], steps, units, length)  # type: ignore[arg-type]


def reach(
    board: Board, a: Dot3, move_ratio: int = 1, mp: float = 12, crawl: bool = False,
    occupied: set[Dot3] | None = None, ruleset: str = "dmz1990",
) -> dict[Dot3, int | float]:
    """Every dot reachable from ``a`` within ``mp`` (MP under dmz1990, metres under the
    others), with its cheapest cost.

    ``occupied`` dots may be passed through but not ended on (DMZ stacking).
    """
    g = build_graph(board)
    i = board.node(a)
    metric = get_ruleset(ruleset).movement.units != "MP"
    idx, cost = _bounded(board, g, g.weights(ruleset, move_ratio, crawl), i,
                         mp + (1e-6 if metric else 0.5))
    if len(idx) and idx.max() >= g.n:  # two parity layers: the cheaper of the two
        order = np.lexsort((cost, idx % g.n))
        idx, cost = idx[order] % g.n, cost[order]
        first = np.concatenate([[True], idx[1:] != idx[:-1]])
        idx, cost = idx[first], cost[first]
    dots = board._node_dots[idx].tolist()
    if metric:
        out = {tuple(d): round(c, 2) for d, c in zip(dots, cost.tolist())}
    else:
        out = {tuple(d): int(round(c)) for d, c in zip(dots, cost.tolist())}
    if occupied:
        for d in occupied:
            if tuple(d) != tuple(a):
                out.pop(tuple(d), None)
    return out  # type: ignore[return-value]


def reach_arrays(board: Board, a: Dot3, move_ratio: int, mp: int = 12, crawl: bool = False
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Like :func:`reach` but as arrays (dots (N, 3), costs (N,)) for drawing."""
    g = build_graph(board)
    idx, cost = _bounded(board, g, g.matrix(move_ratio, crawl), board.node(a), mp + 0.5)
    return board._node_dots[idx], np.rint(cost).astype(int)


def describe_path(res: PathResult) -> str:
    if not res.reachable:
        return "no path"
    parts = [f"{fmt_dot(s.to)} ({s.cost}: {', '.join(s.why)})" for s in res.steps]
    return f"{res.cost} {res.units}: " + " -> ".join(parts)
