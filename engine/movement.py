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

The graph is built with arrays: neighbours through a dense node grid, the steps each feature
touches found by :mod:`engine.step_crossings` (the features' straight pieces against the few
steps in the lattice cells they pass, orientation tests in numpy, no geometry per step), each
feature's effect on a step (starting outside or inside it) tabled once, and the hits costed
with numpy.
``tests/engine/test_movement_graph_arrays.py`` keeps the older per-edge construction and checks
the two agree exactly.
"""

from __future__ import annotations

import operator
import threading
import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from engine.board import Board, BoardView, Feature, cached_unit_ids, fmt_dot
from engine.lattice import SQRT3_2, Dot3, Lattice
from engine.rules import get_ruleset
from engine.rules.base import METERS_PER_DOT, METERS_PER_STORY
from engine.rules.dmz1990 import MOVEMENT_COSTS as _MC
from engine.step_crossings import step_codes, step_hits

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

_BLOCKING = ("wall", "fence", "trunk", "force-field")  # force-field: a Barrier spell
#: the kinds :func:`_crossing` may price or block (the others never hinder a step)
_HINDERS = frozenset(_BLOCKING + ("door", "window", "hole", "obstacle", "rubble", "undergrowth",
                                  "step", "incline", "contour", "low-wall"))
_BLOCKING_SET = frozenset(_BLOCKING)
#: what a step through a door or window costs and says, closed and open: (extra MP closed,
#: extra MP open, the reason's head closed, head open, tail closed, tail open); the reason is
#: head + feature id + tail.  One table for :func:`_crossing` and :func:`_level_hits`.
_OPENINGS = {
    "door": (CLOSED_DOOR_OPEN + OPEN_DOOR, OPEN_DOOR, "closed door ", "open door ",
             f": open +{CLOSED_DOOR_OPEN}, through +{OPEN_DOOR}", f" +{OPEN_DOOR}"),
    "window": (CLOSED_WINDOW_OPEN + OPEN_WINDOW, OPEN_WINDOW, "closed window ", "open window ",
               f": open +{CLOSED_WINDOW_OPEN}, through +{OPEN_WINDOW}", f" +{OPEN_WINDOW}"),
}
#: how the reason of a step through a door or window begins (under the metre rulesets the
#: " +MP" tail is cut, never the head): the only reasons whose step changes when play opens
#: or shuts one (:meth:`engine.play.engine_board.EngineBoard.step` shares the others)
OPENING_REASONS = tuple(h for how in _OPENINGS.values() for h in how[2:4])
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

    def get(self, e: int, default: Any = None) -> Any:
        """``self[e]``, or ``default`` when ``e`` has no reasons (without raising: play
        prices steps one by one)."""
        edges = self.edges
        k = int(np.searchsorted(edges, e))
        if k < len(edges) and edges.item(k) == e:
            return list(self.texts[self.starts.item(k):self.starts.item(k + 1)])
        return default

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
        return replace(self, extra=extra, why=_Why(why.edges, why.starts, texts),
                       _mats=_kept_on_patch(self._mats))

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


#: the entries of a graph's ``_mats`` a door opened or shut leaves as they are (a patch
#: changes only extra MP and reasons): the metres of the steps and their matrices, and the
#: layouts every weighting of the same steps shares
_DOOR_FREE = ("m", "metres", "csr", "moved")


def _kept_on_patch(mats: dict) -> dict:
    """What of ``mats`` a patched graph (:meth:`MoveGraph.replaced`) takes over: the
    :data:`_DOOR_FREE` entries, and the cheapest and dearest steps found of the matrices among
    them (tests/engine/test_patch_kept.py: equal to a graph built with the door so)."""
    kept = {k: v for k, v in mats.items() if k[0] in _DOOR_FREE}
    mats_kept = {id(v) for k, v in kept.items() if k[0] == "m"}
    kept.update({k: v for k, v in mats.items()
                 if k[0] in ("min-move", "per-dot") and k[1] in mats_kept})
    return kept


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
    how = _OPENINGS.get(k)
    if how is not None:
        return _opening_crossing(how, f)
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


#: crossings per compiled unit: id(unit) -> (unit, its _UnitHits per level); the unit cache
#: shares a unit's feature lists between boards, so a board that moved one building finds
#: every other unit's crossings here
_UNIT_HITS: dict[int, tuple[Any, Any, str]] = {}
_UNIT_HITS_MAX = 4096


def _opening_crossing(how: tuple, f: Feature) -> tuple[int, str]:
    """(extra MP, reason) of a step through door or window ``f``, ``how`` its row of
    :data:`_OPENINGS`."""
    if f.props.get("state") == "closed":
        return (how[0], how[2] + f.id + how[4])
    return (how[1], how[3] + f.id + how[5])


def _crossings(f: Feature) -> tuple[tuple[int, str] | None, tuple[int, str] | None]:
    """:func:`_crossing` of a step starting outside ``f`` and of one starting inside it."""
    out_ = _crossing(f, False)
    if f.kind != "obstacle":  # the same either way
        return out_, out_
    return out_, _crossing(f, True)


def _blocks(f: Feature) -> bool:
    """Whether ``f`` makes every step that touches it impassable, either way."""
    if f.kind in _BLOCKING:
        return True
    return f.kind == "obstacle" and f.props.get("los") == "blocks" \
        and f.props.get("standable") == "none"


@dataclass
class _LevelHits:
    """What the features of one unit on one level (or of several units, :class:`_Batch`) do
    to the steps that touch them.  A step through a feature that lets it pass at a price is
    one row per (directed step, feature): from dot, to dot, the feature's index in the list,
    the extra MP, the reason and whether the step starts inside the feature.  The steps the
    features block (walls: most of them) are kept apart, once per (step, feature), as the
    first dot and the step's code of :func:`engine.step_crossings.step_codes` (``bfrm``,
    ``bcode``, ``bfeat``): they need no reason, they are closed both ways."""

    frm: np.ndarray
    to: np.ndarray
    feat: np.ndarray
    cost: np.ndarray
    text: np.ndarray
    inside: np.ndarray
    bfrm: np.ndarray
    bcode: np.ndarray
    bfeat: np.ndarray

    def __len__(self) -> int:
        return len(self.feat) + len(self.bfeat)

    def box(self, lat: Lattice) -> tuple[int, int, int, int]:
        """(c0, r0, c1, r1) of the dots the steps start from, either way (kept: the hits are
        shared)."""
        got = self.__dict__.get("_box")
        if got is None:
            ends = np.concatenate([self.frm, self.bfrm, _other_end(lat, self.bfrm, self.bcode)])
            lo, hi = ends.min(axis=0), ends.max(axis=0)
            got = self.__dict__["_box"] = (int(lo[0]), int(lo[1]), int(hi[0]), int(hi[1]))
        return got


def _other_end(lat: Lattice, frm: np.ndarray, code: np.ndarray) -> np.ndarray:
    """The second dots of the steps from ``frm`` with codes ``code``."""
    return frm + step_codes(lat)[frm[:, 1] & 1, code]


def _no_hits() -> _LevelHits:
    z2, z = np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64)
    return _LevelHits(z2, z2, z, z, np.zeros(0, dtype=object), np.zeros(0, dtype=bool),
                      z2, np.zeros(0, dtype=np.int8), z)


def _step_dirs(lat: Lattice) -> tuple[np.ndarray, np.ndarray]:
    """Per (row parity of a step's first dot, step code of :func:`step_codes`): the neighbour
    index of the second dot from the first, and of the first from the second (-1: no step)."""
    offs = _offsets(lat)
    d = step_codes(lat)
    there = np.full((2, 4), -1, dtype=np.int64)
    back = np.full((2, 4), -1, dtype=np.int64)
    for par in (0, 1):
        for code in range(4):
            dc, dr = d[par, code].tolist()
            if dc == dr == 0:
                continue
            there[par, code] = [tuple(o) for o in offs[par].tolist()].index((dc, dr))
            back[par, code] = [tuple(o) for o in offs[(par + dr) & 1].tolist()].index((-dc, -dr))
    return there, back


def _level_hits(lat: Lattice, fs: list[Feature]) -> _LevelHits:
    """The crossings of the features ``fs`` (one unit, one level) with every step touching
    them (:func:`engine.step_crossings.step_hits`), each way."""
    # what each feature that hinders a step does to it, starting outside it [0] or inside it [1]
    rel_l: list[int] = []
    geom_l: list[Any] = []
    out_l: list[Any] = []  # (cost, text) of each, starting outside
    in_l: list[Any] = []  # and starting inside
    blk_l: list[int] = []
    blk_g: list[Any] = []
    # doors, windows and holes (most of a city's features) priced here as _crossing does,
    # the same either way
    opening = _OPENINGS
    hole_tail = f" +{HOLE}"
    hinders, blocking = _HINDERS, _BLOCKING_SET
    for k, f in enumerate(fs):
        kind = f.kind
        if kind not in hinders:
            continue
        if kind in blocking:
            blk_l.append(k)
            blk_g.append(f.geom)
            continue
        how = opening.get(kind)
        if how is not None:
            cr = _opening_crossing(how, f)
            rel_l.append(k)
            geom_l.append(f.geom)
            out_l += cr
            in_l += cr
            continue
        if kind == "hole":
            cr = (HOLE, "hole " + f.id + hole_tail)
            rel_l.append(k)
            geom_l.append(f.geom)
            out_l += cr
            in_l += cr
            continue
        if _blocks(f):
            blk_l.append(k)
            blk_g.append(f.geom)
            continue
        out_, in_ = _crossings(f)
        if out_ is None and in_ is None:
            continue
        rel_l.append(k)
        geom_l.append(f.geom)
        out_l += (_NONE, "") if out_ is None else out_
        in_l += (_NONE, "") if in_ is None else in_
    got = _no_hits()
    if blk_l:
        ba, _bb, bg, code = step_hits(lat, np.array(blk_g, dtype=object), sides=False)
        got.bfrm, got.bcode, got.bfeat = ba, code.astype(np.int8), np.array(blk_l)[bg]
    if not rel_l:
        return got
    a, b, g, in_a, in_b = step_hits(lat, np.array(geom_l, dtype=object))
    if not len(g):
        return got
    cost = np.column_stack([np.array(out_l[0::2], dtype=np.int64),
                            np.array(in_l[0::2], dtype=np.int64)])
    text = np.column_stack([np.array(out_l[1::2], dtype=object),
                            np.array(in_l[1::2], dtype=object)])
    rel = np.array(rel_l, dtype=np.int64)
    cost, text = cost[g], text[g]
    fi = rel[g]
    out: list[tuple[np.ndarray, ...]] = []
    rows = np.arange(len(g))
    for start, end, inside in ((a, b, in_a), (b, a, in_b)):  # the step and its way back
        c = cost[rows, inside.astype(np.int64)]
        ok = c != _NONE
        out.append((start[ok], end[ok], fi[ok], c[ok],
                    text[rows[ok], inside[ok].astype(np.int64)], inside[ok]))
    got.frm, got.to, got.feat, got.cost, got.text, got.inside = (
        np.concatenate(parts) for parts in zip(*out))
    return got


def _split(n: int, own: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows grouped by owner (0..n-1, order kept within each): the order and the cuts."""
    small = own.astype(np.int16 if n < 1 << 15 else np.int64)  # int16 sorts by radix
    order = np.argsort(small, kind="stable")
    return order, np.searchsorted(small[order], np.arange(n + 1))


class _Batch:
    """The crossings of several units on one level, computed together (a cold board: one
    pass, no overhead per unit).  ``hits.feat`` indexes ``fs`` (the units' lists end to
    end); ``owner``/``local`` give each feature's unit (``units``: their feature dicts and
    :class:`_UnitHits`) and its index in that unit's list.  A whole-board build reads the
    batch as it is; anything asking some units' crossings takes just those out
    (:meth:`take`): the rest stay in the batch, unsorted."""

    def __init__(self, lat: Lattice, lv: int, hits: _LevelHits, fs: list[Feature],
                 owner: np.ndarray, local: np.ndarray, units: list[tuple[dict, _UnitHits]]
                 ) -> None:  # noqa: D107
        self.lat, self.lv, self.hits, self.fs = lat, lv, hits, fs
        self.owner, self.local, self.units = owner, local, units
        #: per unit its first feature in ``fs`` (and the end): the units' lists end to end
        self.first = np.searchsorted(owner, np.arange(len(units) + 1))
        self._runs: tuple[np.ndarray, np.ndarray] | None = None
        self._index: dict[int, int] | None = None
        #: how many units were taken out (:meth:`take`): the batch is no longer whole
        self.taken = 0

    def index(self, uh: _UnitHits) -> int:
        """Where ``uh`` sits in ``units``."""
        if self._index is None:
            self._index = {id(u): j for j, (_d, u) in enumerate(self.units)}
        return self._index[id(uh)]

    def _rows(self, feat: np.ndarray, cut: np.ndarray, js: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
        """The rows of the units ``js`` (sorted), unit after unit in row order, and where
        each unit's start (one more for the end).  The rows are runs sorted by feature
        (:func:`engine.step_crossings.step_hits` gives a few), and a unit's features are one
        range of ``fs``: per run, a unit's rows are one slice found by bisection."""
        lo, hi = self.first[js], self.first[js + 1]
        a = np.stack([np.searchsorted(feat[c0:c1], lo) + c0
                      for c0, c1 in zip(cut[:-1].tolist(), cut[1:].tolist())], axis=1)
        b = np.stack([np.searchsorted(feat[c0:c1], hi) + c0
                      for c0, c1 in zip(cut[:-1].tolist(), cut[1:].tolist())], axis=1)
        a, n = a.reshape(-1), (b - a).reshape(-1)  # unit-major, runs in row order
        ends = np.cumsum(n)
        rows = np.repeat(a - ends + n, n) + np.arange(int(ends[-1]) if len(ends) else 0)
        per = n.reshape(len(js), -1).sum(axis=1)
        return rows, np.concatenate([[0], np.cumsum(per)])

    def take(self, js: list[int]) -> None:
        """Give the units ``js`` (indices in ``units``) their own :class:`_LevelHits` on this
        level: their rows in the batch's order, features counted in their own lists."""
        lv, h = self.lv, self.hits
        js = sorted(set(js))
        if len(self.units) == 1:  # a batch of one unit (a moved building): its own rows
            uh = self.units[0][1]
            if self in uh.pending:
                uh[lv] = h
                uh.pending.remove(self)
                self.taken = 1
            return
        if self._runs is None:
            self._runs = tuple(np.concatenate([[0], np.flatnonzero(f[1:] < f[:-1]) + 1,
                                               [len(f)]]) for f in (h.feat, h.bfeat))
        sel = np.array(js, dtype=np.int64)
        rows, cut = self._rows(h.feat, self._runs[0], sel)
        brows, bcut = self._rows(h.bfeat, self._runs[1], sel)
        frm, to, feat, cost, text, inside = (
            x[rows] for x in (h.frm, h.to, h.feat, h.cost, h.text, h.inside))
        bfrm, bcode, bfeat = h.bfrm[brows], h.bcode[brows], h.bfeat[brows]
        first = self.first[sel]
        feat -= np.repeat(first, np.diff(cut))
        bfeat -= np.repeat(first, np.diff(bcut))
        # each unit's box of step ends, for all of them at once (as _LevelHits.box)
        n = len(js)
        lo = np.full((n, 2), np.iinfo(np.int64).max, dtype=np.int64)
        hi = np.full((n, 2), np.iinfo(np.int64).min, dtype=np.int64)
        for ends, cc in ((frm, cut), (bfrm, bcut), (_other_end(self.lat, bfrm, bcode), bcut)):
            some = np.flatnonzero(cc[1:] > cc[:-1])
            if len(some):
                lo[some] = np.minimum(lo[some], np.minimum.reduceat(ends, cc[some], axis=0))
                hi[some] = np.maximum(hi[some], np.maximum.reduceat(ends, cc[some], axis=0))
        boxes = np.column_stack([lo, hi]).tolist()
        for i, j in enumerate(js):
            uh = self.units[j][1]
            if self not in uh.pending:
                continue
            a, b, ba, bb = int(cut[i]), int(cut[i + 1]), int(bcut[i]), int(bcut[i + 1])
            hits = uh[lv] = _LevelHits(frm[a:b], to[a:b], feat[a:b], cost[a:b], text[a:b],
                                       inside[a:b], bfrm[ba:bb], bcode[ba:bb], bfeat[ba:bb])
            if b > a or bb > ba:
                hits.__dict__["_box"] = tuple(boxes[i])
            uh.pending.remove(self)
            self.taken += 1


class _UnitHits(dict):
    """A unit's crossings by level (:class:`_LevelHits`), with the box of all of them; the
    levels still in a :class:`_Batch` (``pending``) are taken out on first use
    (:meth:`levels`, :func:`_take_levels`)."""

    def __init__(self) -> None:  # noqa: D107
        super().__init__()
        self.pending: list[_Batch] = []

    def levels(self) -> _UnitHits:
        """This, with every level taken out of its batch."""
        while self.pending:
            b = self.pending[0]
            b.take([b.index(self)])
        return self

    def box(self, lat: Lattice) -> tuple[int, int, int, int] | None:
        """(c0, r0, c1, r1) of the steps' start dots on every level; None: no crossing."""
        if "_box" not in self.__dict__:
            boxes = [h.box(lat) for h in self.levels().values() if len(h)]
            self.__dict__["_box"] = (
                min(b[0] for b in boxes), min(b[1] for b in boxes),
                max(b[2] for b in boxes), max(b[3] for b in boxes)) if boxes else None
        return self.__dict__["_box"]


def _take_levels(hits: list[_UnitHits]) -> None:
    """Every level of these units taken out of its batch, one :meth:`_Batch.take` per batch."""
    want: dict[int, tuple[_Batch, list[int]]] = {}
    for uh in hits:
        for b in uh.pending:
            want.setdefault(id(b), (b, []))[1].append(b.index(uh))
    for b, js in want.values():
        b.take(js)


#: at most this many features (a few units: a drag) have their levels' crossings found in one
#: pass (:func:`step_hits` costs a fixed part per call, a few in a building of six levels)
_ONE_PASS = 4000


def _cut_hits(h: _LevelHits, a: int, b: int) -> _LevelHits:
    """The rows of ``h`` of the features ``a..b-1``, counted from ``a``: what
    :func:`_level_hits` gives for those features alone (the same rows in the same order; the
    blocked ones, in no order anyway, as a subsequence)."""
    m = (h.feat >= a) & (h.feat < b)
    bm = (h.bfeat >= a) & (h.bfeat < b)
    return _LevelHits(h.frm[m], h.to[m], h.feat[m] - a, h.cost[m], h.text[m], h.inside[m],
                      h.bfrm[bm], h.bcode[bm], h.bfeat[bm] - a)


def _units_hits(lat: Lattice, units: list[tuple[dict[int, list[Feature]], bool]]
                ) -> list[_UnitHits]:
    """The crossings of each unit's features, level by level.

    A shared unit's come from the cache when it has them.  The units still to do are done
    together, a level at a time (one pass: a cold board pays no overhead per unit), and
    left in those batches (:class:`_Batch`) until a unit's own are asked for."""
    out: list[_UnitHits | None] = [None] * len(units)
    todo = []
    for k, (unit, shared) in enumerate(units):
        hit = _UNIT_HITS.get(id(unit)) if shared else None
        if hit is not None and hit[0] is unit and hit[2] == lat.name:
            out[k] = hit[1]
        else:
            todo.append(k)
            out[k] = _UnitHits()
    levels = sorted({lv for k in todo for lv in units[k][0]})
    per = [(lv, [k for k in todo if lv in units[k][0]]) for lv in levels]
    fss = [[f for k in ks for f in units[k][0][lv]] for lv, ks in per]
    if 1 < len(levels) and sum(map(len, fss)) <= _ONE_PASS:
        # a few units (a drag): every level's features in one pass, then cut by level
        ends = np.cumsum([0] + [len(fs) for fs in fss])
        whole = _level_hits(lat, [f for fs in fss for f in fs])
        level_hits = [_cut_hits(whole, int(a), int(b)) for a, b in zip(ends[:-1], ends[1:])]
    else:
        level_hits = [_level_hits(lat, fs) for fs in fss]
    for (lv, ks), fs_all, hits in zip(per, fss, level_hits):
        counts = [len(units[k][0][lv]) for k in ks]
        owner = np.repeat(np.arange(len(ks)), counts)
        local = np.arange(len(fs_all)) - np.repeat(np.cumsum([0] + counts)[:-1], counts)
        batch = _Batch(lat, lv, hits, fs_all, owner, local,
                       [(units[k][0], out[k]) for k in ks])
        for k in ks:
            out[k].pending.append(batch)  # type: ignore[union-attr]
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


#: windows a core's reasons or drops may wait to be merged over (then merged at once)
_ROWS_PENDING = 16


class _Rows:
    """Arrays sorted by the first (a key), the rest riding along: the reasons or the drops of
    a core.  A patched core's are its parent's with the rows in the patched window taken out
    and the window's own put in; a drag neither reads them nor needs them merged (reach and
    fans read the tiles), so the merge waits for the first read (:meth:`get`), and a patch of
    a patch only adds its window to those waiting: what a drag copied was every row of the
    city, four arrays twice.  ``pos(arrays)``: each row's lattice position (what the windows
    are tested against)."""

    __slots__ = ("base", "wins", "add", "shape", "pos", "_got")

    def __init__(self, arrays: tuple[np.ndarray, ...]) -> None:  # noqa: D107
        self._got: tuple[np.ndarray, ...] | None = arrays
        self.base = self.add = None
        self.wins: list[tuple[int, int, int, int]] = []

    def patched(self, shape: tuple[int, int, int], win: tuple[int, int, int, int],
                new: tuple[np.ndarray, ...], pos: Any) -> _Rows:
        """These rows with those in ``win`` replaced by ``new`` (sorted, all in ``win``)."""
        got, base, add, wins = self._got, self.base, self.add, self.wins
        if got is None and (base is None or add is None):
            got = self._got  # merged by another thread meanwhile
        out = _Rows.__new__(_Rows)
        out._got, out.shape, out.pos = None, shape, pos
        if got is not None:
            out.base, out.wins, out.add = got, [win], new
        else:
            keep = _outside(pos(add), shape, [win])
            add = tuple(a[keep] for a in add)
            at = np.searchsorted(add[0], new[0])
            out.base, out.wins = base, [*wins, win]
            out.add = tuple(np.insert(a, at, b) for a, b in zip(add, new))
        if len(out.wins) > _ROWS_PENDING:
            out.get()
        return out

    def get(self) -> tuple[np.ndarray, ...]:
        """The arrays, merged now if they wait (two threads asking at once merge twice, alike)."""
        got = self._got
        if got is None:
            base, add = self.base, self.add
            if base is None or add is None:  # merged by another thread meanwhile
                return self._got  # type: ignore[return-value]
            keep = _outside(self.pos(base), self.shape, self.wins)
            at = np.searchsorted(base[0][keep], add[0])
            got = self._got = tuple(np.insert(a[keep], at, b) for a, b in zip(base, add))
            self.base = self.add = None  # (the parent's arrays may go)
        return got


def _outside(pos: np.ndarray, shape: tuple[int, int, int],
             wins: list[tuple[int, int, int, int]]) -> np.ndarray:
    """Which lattice positions lie outside every window (rows r0:r1, columns c0:c1 of every
    level): only those in the box of all the windows are tested window by window."""
    _L, H, W = shape
    keep = np.ones(len(pos), dtype=bool)
    if not len(pos):
        return keep
    c = pos % W
    r = (pos // W) % H
    cand = np.flatnonzero((r >= min(w[0] for w in wins)) & (r < max(w[1] for w in wins))
                          & (c >= min(w[2] for w in wins)) & (c < max(w[3] for w in wins)))
    rc, cc = r[cand], c[cand]
    for r0, r1, c0, c1 in wins:
        keep[cand[(rc >= r0) & (rc < r1) & (cc >= c0) & (cc < c1)]] = False
    return keep


class _Texts:
    """The reasons' texts of a core and of the cores patched from it, each once, by number:
    a core keeps a number per reason (a drag copies those, not a Python object each).  Only
    ever added to, so a number means the same text to every core sharing the table."""

    def __init__(self) -> None:
        self._code: dict[str, int] = {}
        self._items: list[str] = []
        self._arr = np.zeros(0, dtype=object)
        self._lock = threading.Lock()  # two engine threads may patch from one core

    def encode(self, texts: np.ndarray) -> np.ndarray:
        """The numbers of ``texts`` (new ones are added)."""
        code = self._code
        new = [t for t in dict.fromkeys(texts.tolist()) if t not in code]
        if new:
            with self._lock:
                for t in new:
                    if t not in code:
                        self._items.append(t)
                        code[t] = len(self._items) - 1
        return np.fromiter(map(code.__getitem__, texts), dtype=np.int32, count=len(texts))

    def decode(self, codes: np.ndarray) -> np.ndarray:
        """The texts (an object array) of ``codes``."""
        arr = self._arr
        if len(arr) < len(self._items):
            arr = self._arr = np.array(self._items, dtype=object)
        return arr[codes]


@dataclass
class _Core:
    """The movement graph by lattice position, the part a drag patches: node ids that no change
    elsewhere on the board moves.

    A position is ``(level * H + row) * W + column`` over the board's box (``Board._stand``).
    ``ext[j, pos]`` is the extra MP of the step from ``pos`` to its ``j``-th lattice neighbour
    (the neighbours of its row's parity on a hex lattice), -1 when there is no such step (an
    end nobody stands on, or a wall between).  It is kept in tiles of ``_TILE_ROWS`` rows
    (``level * H + row``, padded at the end): a patched core shares the tiles it did not
    change with the core it came from, so a drag copies a few tiles, not the whole table.
    A tile is never written once its core is built (forks and earlier boards read it).  The reasons of the steps are sorted by
    ``key = chunk * npos + pos`` (``chunk``: the neighbour index, after the row parity on a hex
    lattice), which is the order of the compact graph's edges; per reason the ``id()`` of the
    feature that gave it and whether the step starts inside it (for doors patched in play).
    The controlled drops off roofs are kept sorted by (building, roof dot, neighbour)."""

    lat: str
    shape: tuple[int, int, int]
    offs: np.ndarray  # (2, K, 2): (dc, dr) of each neighbour, rows of parity 0 and 1
    tiles: list[np.ndarray]  # (K, _TILE_ROWS, W) int16 each: ``ext`` by rows
    #: the reasons (key, text: int32, the number of its text in ``texts``, feature id,
    #: inside) and the drops (key, from, to, building), merged on first read (:class:`_Rows`)
    r: _Rows
    d: _Rows
    #: the board's units (their feature dicts) and each one's box of crossings (c0, r0, c1,
    #: r1; empty when it has none), once a patch has asked them: the next patch re-boxes
    #: only the units that are other objects and reads the crossings of those near it
    unit_boxes: tuple[list, np.ndarray, Any] | None = None
    #: the reasons' texts by number (shared with the cores patched from this one)
    texts: _Texts = field(default_factory=_Texts)

    @property
    def npos(self) -> int:
        return int(np.prod(self.shape))

    r_key = property(lambda self: self.r.get()[0])
    r_text = property(lambda self: self.r.get()[1])
    r_fid = property(lambda self: self.r.get()[2])
    r_inside = property(lambda self: self.r.get()[3])
    d_key = property(lambda self: self.d.get()[0])
    d_src = property(lambda self: self.d.get()[1])
    d_dst = property(lambda self: self.d.get()[2])
    d_bld = property(lambda self: self.d.get()[3])

    @property
    def ext(self) -> np.ndarray:
        """The whole (K, npos) table, assembled from the tiles (a new array: for readers of
        all of it, which pay O(board) anyway)."""
        k, _t, w = self.tiles[0].shape
        return np.concatenate(self.tiles, axis=1).reshape(k, -1)[:, :self.npos]

    def gather(self, pos: np.ndarray) -> np.ndarray:
        """``ext[:, pos]`` read from the tiles the positions fall in."""
        k, t, w = self.tiles[0].shape
        size = t * w
        order = None
        if len(pos) > 1 and (np.diff(pos) < 0).any():
            order = np.argsort(pos, kind="stable")
            pos = pos[order]
        tile = pos // size
        cut = np.searchsorted(tile, np.arange(len(self.tiles) + 1))
        out = np.empty((k, len(pos)), dtype=np.int16)
        for ti in np.nonzero(cut[1:] > cut[:-1])[0].tolist():
            a, b = cut[ti], cut[ti + 1]
            out[:, a:b] = self.tiles[ti].reshape(k, size)[:, pos[a:b] - ti * size]
        if order is not None:
            back = np.empty_like(out)
            back[:, order] = out
            out = back
        return out

    @property
    def chunks(self) -> list[tuple[int, int]]:
        """(row parity, neighbour index) of each chunk of edges, in edge order."""
        k = self.offs.shape[1]
        return [(p, j) for p in ((0, 1) if self.lat == "hex" else (0,)) for j in range(k)]


def _offsets(lat: Lattice) -> np.ndarray:
    return np.array([np.subtract(lat.neighbours((0, p)), (0, p)) for p in (0, 1)], dtype=np.int64)


#: rows (``level * H + row``) per tile of a core's table: a few per building a drag moves
_TILE_ROWS = 16


def _empty_core(board: Board) -> _Core:
    lat = board.lattice
    offs = _offsets(lat)
    L, H, W = shape = board._stand.shape
    z = np.zeros(0, dtype=np.int64)
    blank = np.full((offs.shape[1], _TILE_ROWS, W), -1, dtype=np.int16)  # shared, never written
    n_tiles = max(-(-L * H // _TILE_ROWS), 1)
    return _Core(lat.name, shape, offs, [blank] * n_tiles,
                 _Rows((z, np.zeros(0, dtype=np.int32), z, np.zeros(0, dtype=bool))),
                 _Rows((z, z, z, z)))


def _fill(core: _Core, board: Board, win: tuple[int, int, int, int]
          ) -> tuple[np.ndarray, ...]:
    """Redo the steps leaving the box rows r0:r1, columns c0:c1 (every level) in ``core.ext``
    from the board's standable dots and the crossings of its units; returns the reasons of
    those steps (key, text, feature id, inside), sorted.

    The window (every level) is worked on as one block, then written into fresh copies of
    the tiles of its rows: ``core.tiles`` must be this core's own list, its tiles may be
    shared."""
    r0, r1, c0, c1 = win
    L, H, W = core.shape
    npos = L * H * W
    k_n = core.offs.shape[1]
    T = _TILE_ROWS
    cmin, rmin, _o = board._owner_grid
    stand = board._stand
    h, w = r1 - r0, c1 - c0
    whole = h == H and w == W
    if whole:  # every row anew: one padded block whose row slices become the tiles
        dense = np.full((k_n, len(core.tiles) * T, W), -1, dtype=np.int16)
        block = dense[:, :L * H].reshape(k_n, L, H, W)
        col0, BW = 0, W  # the block's first column and width
    else:
        dense = None
        col0, BW = c0, w
        block = np.empty((k_n, L, h, w), dtype=np.int16)
        for lv in range(L):
            g0 = lv * H + r0
            for ti in range(g0 // T, (g0 + h - 1) // T + 1):
                a, b = max(g0, ti * T), min(g0 + h, ti * T + T)
                block[:, lv, a - g0:b - g0] = core.tiles[ti][:, a - ti * T:b - ti * T, c0:c1]
    ext = block  # rows r0.. of each level at row 0.., columns col0.. at 0..
    # the window's standable dots with a border of one dot (False off the box)
    pad = np.zeros((L, h + 2, w + 2), dtype=bool)
    a0, a1, b0, b1 = max(r0 - 1, 0), min(r1 + 1, H), max(c0 - 1, 0), min(c1 + 1, W)
    pad[:, a0 - r0 + 1:a1 - r0 + 1, b0 - c0 + 1:b1 - c0 + 1] = stand[:, a0:a1, b0:b1]
    hexl = core.lat == "hex"
    for p in ((0, 1) if hexl else (0,)):
        first = (p - r0 - rmin) & 1 if hexl else 0  # the window's first row of this parity
        step = 2 if hexl else 1
        for j, (dc, dr) in enumerate(core.offs[p].tolist()):
            live = (pad[:, 1 + first:h + 1:step, 1:w + 1]
                    & pad[:, 1 + first + dr:h + 1 + dr:step, 1 + dc:1 + dc + w])
            out = ext[j][:, first::step, c0 - col0:c1 - col0]
            out[...] = -1
            out[live] = 0
    # the crossings of every unit with the steps leaving the window
    lat = board.lattice
    code_j = np.full(18, -1, dtype=np.int64)
    for p in ((0, 1) if hexl else (0,)):
        for j, (dc, dr) in enumerate(core.offs[p].tolist()):
            code_j[_step_code(p, dc, dr)] = j
    units = board.unit_features()
    if whole:
        ks, unit_hits = range(len(units)), _units_hits(lat, units)
    else:
        ks, unit_hits = _near_units(core, board, units, (c0 + cmin, r0 + rmin, c1 - 1 + cmin,
                                                         r1 - 1 + rmin))
        _take_levels(unit_hits)
    # parts: (level, features, per feature its rank in the level's list, hits); a step's
    # reasons follow the level's feature list (units in turn)
    parts: list[tuple[int, list[Feature], np.ndarray, _LevelHits]] = []
    batches: dict[int, _Batch] = {}
    for k, uh in zip(ks, unit_hits):
        unit = units[k][0]
        if whole:
            batches.update((id(b), b) for b in uh.pending)  # read whole, unless taken below
        for lv, hits in uh.items():
            if not len(hits) or not 0 <= lv < L:
                continue
            if not whole:
                bc0, br0, bc1, br1 = hits.box(lat)
                if br1 - rmin < r0 or br0 - rmin >= r1 or bc1 - cmin < c0 or bc0 - cmin >= c1:
                    continue
            parts.append((lv, unit[lv], (k << 32) + np.arange(len(unit[lv])), hits))
    if batches:
        rank = {id(unit): k for k, (unit, _s) in enumerate(units)}
        for b in batches.values():
            ks = [rank.get(id(unit), -1) for unit, _uh in b.units]
            if min(ks) < 0 or b.taken:
                # a unit this board no longer has, or units taken out already (read above):
                # the rest of the batch unit by unit
                js = [j for j, (unit, uh) in enumerate(b.units)
                      if id(unit) in rank and b in uh.pending]
                b.take(js)
                parts.extend((b.lv, unit[b.lv], (rank[id(unit)] << 32)
                              + np.arange(len(unit[b.lv])), uh[b.lv])
                             for unit, uh in (b.units[j] for j in js)
                             if len(uh[b.lv]) and 0 <= b.lv < L)
            elif 0 <= b.lv < L and len(b.hits):
                parts.append((b.lv, b.fs, (np.array(ks, dtype=np.int64)[b.owner] << 32)
                              + b.local, b.hits))
    flat = block.reshape(k_n, -1)
    lvs = np.array([p[0] for p in parts], dtype=np.int64)

    def at(frm: np.ndarray, to: np.ndarray, lv: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The steps ``frm -> to`` leaving the window: which rows, their neighbour index and
        their index in the block (one neighbour's rows of every level)."""
        r, c = frm[:, 1] - rmin, frm[:, 0] - cmin
        sel = np.flatnonzero((r >= r0) & (r < r1) & (c >= c0) & (c < c1))
        if len(sel) < len(frm):
            frm, to, r, c, lv = frm[sel], to[sel], r[sel], c[sel], lv[sel]
        par = (frm[:, 1] & 1) if hexl else 0
        jj = code_j[_step_code(par, to[:, 0] - frm[:, 0], to[:, 1] - frm[:, 1])]
        return sel, jj, (lv * h + r - r0) * BW + c - col0

    # the steps a feature blocks, both ways: closed
    hs = [p[3] for p in parts]
    bsize = np.array([len(x.bfeat) for x in hs], dtype=np.int64)
    if bsize.sum():
        blv = np.repeat(lvs, bsize) * h
        one = np.concatenate([x.bfrm for x in hs])
        code = np.concatenate([x.bcode for x in hs])
        par = one[:, 1] & 1 if hexl else 0
        there, back = _step_dirs(lat)
        for ends, j in ((one, there[par, code]),
                        (one + step_codes(lat)[par, code], back[par, code])):
            r, c = ends[:, 1] - (rmin + r0), ends[:, 0] - cmin
            idx = (blv + r) * BW + c - col0
            if not whole or r.min() < 0 or r.max() >= h or c.min() < 0 or c.max() >= W:
                ok = (r >= 0) & (r < h) & (c >= c0) & (c < c1)
                idx, j = idx[ok], j[ok]
            flat[j, idx] = -1
    size = np.array([len(x.feat) for x in hs], dtype=np.int64)
    empty = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32),
             np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool))
    if not size.sum():
        _store(core, block, dense, r0, col0)
        return empty
    # the steps a feature lets through at a price, on the steps still open
    sel, jj, bpos = at(np.concatenate([x.frm for x in hs]), np.concatenate([x.to for x in hs]),
                       np.repeat(lvs, size))
    live = np.nonzero(flat[jj, bpos] >= 0)[0]
    if not len(live):
        _store(core, block, dense, r0, col0)
        return empty
    jj, bpos = jj[live], bpos[live]
    # each feature's id() and rank: one pass over every part's feature list
    nf = np.array([len(p[1]) for p in parts], dtype=np.int64)
    ids = np.fromiter(map(id, [f for p in parts for f in p[1]]), dtype=np.int64,
                      count=int(nf.sum()))
    ranks = np.concatenate([p[2] for p in parts])
    rows = sel[live]  # in the parts' rows end to end
    feat = np.concatenate([x.feat for x in hs])[rows] + np.repeat(np.cumsum(nf) - nf, size)[rows]
    ord_all = ranks[feat]
    cost = np.concatenate([x.cost for x in hs])[rows]
    # key: the edge order (chunk, position) of the whole table
    lv_b, rest = np.divmod(bpos, h * BW)
    pos = (lv_b * H + rest // BW + r0) * W + rest % BW + col0
    chunk = jj + (k_n * ((pos // W) % H + rmin & 1) if hexl else 0)
    key = chunk * npos + pos
    o = np.lexsort((ord_all, key))
    key, jj, bpos, cost = key[o], jj[o], bpos[o], cost[o]
    heads = np.concatenate([[0], np.nonzero(key[1:] != key[:-1])[0] + 1])
    flat[jj[heads], bpos[heads]] += np.add.reduceat(cost, heads).astype(np.int16)
    _store(core, block, dense, r0, col0)
    rows = rows[o]
    text = core.texts.encode(np.concatenate([x.text for x in hs])[rows])
    fid = ids[feat[o]]
    ins = np.concatenate([x.inside for x in hs])[rows]
    return key, text, fid, ins


_NO_BOX = (1 << 40, 1 << 40, -(1 << 40), -(1 << 40))


def _GONE() -> None:
    """A dead reference's answer (a board gone)."""
    return None


def _near_units(core: _Core, board: Board, units: list, box: tuple[int, int, int, int]
                ) -> tuple[list[int], list[_UnitHits]]:
    """The units whose crossings may start a step in ``box`` (c0, r0, c1, r1, inclusive) and
    their crossings.  The boxes of the units come from ``core.unit_boxes`` (the parent's)
    for the units that are the same objects; ``core.unit_boxes`` is set for this board.

    A unit whose crossings still sit in a cold build's batch is boxed from its features'
    bounds (the compiler's, widened by two dots: a step touching a feature has both ends
    within one step of it), so a first drag takes out only the near units' rows: a wider
    box only reads a unit whose rows then all fall outside the window."""
    lat = board.lattice
    known = core.unit_boxes
    dicts = list(map(operator.itemgetter(0), units))
    if known is not None and len(known[0]) == len(dicts):
        was = known[2]()  # the board they were boxed for: this one compiled from it knows
        redo = board.units_changed_from(was) if was is not None else None  # which differ
        if redo is None:
            same = np.fromiter(map(operator.is_, known[0], dicts), dtype=bool, count=len(dicts))
            redo = np.flatnonzero(~same).tolist()
        else:
            redo = [k for k in redo if known[0][k] is not dicts[k]]
        boxes = known[1].copy() if redo else known[1]
    else:
        redo = list(range(len(dicts)))
        boxes = np.empty((len(dicts), 4), dtype=np.int64)
    got = dict(zip(redo, _units_hits(lat, [units[k] for k in redo])))
    recs = board._recs
    wide = [k for k in redo if got[k].pending and "_box" not in got[k].__dict__
            and k < len(recs) and recs[k][1] is dicts[k] and recs[k][4] is not None]
    if wide:
        wb = np.array([recs[k][4] for k in wide], dtype=float)
        ok = np.isfinite(wb).all(axis=1)
        wb = wb[ok]
        wide = [k for k, o in zip(wide, ok.tolist()) if o]
        if lat.name == "hex":
            wb[:, 1::2] /= SQRT3_2
        boxes[wide] = np.column_stack([np.floor(wb[:, :2]) - 2,
                                       np.ceil(wb[:, 2:]) + 2]).astype(np.int64)
    done = set(wide)
    for k in redo:
        if k not in done:
            boxes[k] = got[k].box(lat) or _NO_BOX
    real = board._ref() if isinstance(board, BoardView) else board
    core.unit_boxes = (dicts, boxes, weakref.ref(real) if real is not None else _GONE)
    near = np.flatnonzero((boxes[:, 2] >= box[0]) & (boxes[:, 0] <= box[2])
                          & (boxes[:, 3] >= box[1]) & (boxes[:, 1] <= box[3])).tolist()
    more = [k for k in near if k not in got]
    got.update(zip(more, _units_hits(lat, [units[k] for k in more])))
    return near, [got[k] for k in near]


def _store(core: _Core, block: np.ndarray, dense: np.ndarray | None, r0: int, c0: int
           ) -> None:
    """Put the block of rows ``r0..``, columns ``c0..`` (every level) into the core's tiles:
    each tile it touches is copied first (it may be shared), or, for a whole table
    (``dense``, padded), the tiles become its row slices."""
    T = _TILE_ROWS
    if dense is not None:
        core.tiles = [dense[:, t * T:(t + 1) * T] for t in range(len(core.tiles))]
        return
    _k, L, h, w = block.shape
    H = core.shape[1]
    mine: set[int] = set()
    for lv in range(L):
        g0 = lv * H + r0
        for ti in range(g0 // T, (g0 + h - 1) // T + 1):
            if ti not in mine:
                core.tiles[ti] = core.tiles[ti].copy()
                mine.add(ti)
            a, b = max(g0, ti * T), min(g0 + h, ti * T + T)
            core.tiles[ti][:, a - ti * T:b - ti * T, c0:c0 + w] = block[:, lv, a - g0:b - g0]


def _drops(core: _Core, board: Board, win: tuple[int, int, int, int]) -> tuple[np.ndarray, ...]:
    """The controlled drops from the roof dots in the window: from a roof dot to a dot one
    level lower outside that building (key, from, to, building), sorted by key."""
    r0, r1, c0, c1 = win
    L, H, W = core.shape
    npos = L * H * W
    k_n = core.offs.shape[1]
    cmin, rmin, owner = board._owner_grid
    stand = board._stand
    out: list[tuple[np.ndarray, ...]] = []
    o = owner[r0:r1, c0:c1]
    # the heights of the buildings (index -1: the street, no roof)
    heights = np.append(board.building_rows()[1], -1)
    # only a dot on the rim of its building can drop: one with a neighbour of another owner
    # (or off the board), on either row parity
    oh, ow = o.shape
    ring = np.full((oh + 2, ow + 2), -2, dtype=owner.dtype)  # -2: off the board
    a0, a1, b0, b1 = max(r0 - 1, 0), min(r1 + 1, H), max(c0 - 1, 0), min(c1 + 1, W)
    ring[a0 - r0 + 1:a1 - r0 + 1, b0 - c0 + 1:b1 - c0 + 1] = owner[a0:a1, b0:b1]
    rim = np.zeros(o.shape, dtype=bool)
    for dc, dr in {tuple(d) for d in core.offs.reshape(-1, 2).tolist()}:
        rim |= ring[1 + dr:1 + dr + oh, 1 + dc:1 + dc + ow] != o
    rim_r, rim_c = np.nonzero(rim & (heights[o] > 0))
    rim_o = o[rim_r, rim_c]
    rim_h = heights[rim_o]
    for lv in range(1, L):
        roof = np.nonzero((rim_h == lv) & stand[lv, rim_r + r0, rim_c + c0])[0]
        if not len(roof):
            continue
        rr, cc = rim_r[roof] + r0, rim_c[roof] + c0
        own = rim_o[roof].astype(np.int64)  # (an int32 grid: the keys below need 64 bits)
        par = (rr + rmin) & 1 if core.lat == "hex" else np.zeros(len(rr), dtype=np.int64)
        pos = (lv * H + rr) * W + cc
        for k in range(k_n):
            dc, dr = core.offs[par, k, 0], core.offs[par, k, 1]
            nr, nc = rr + dr, cc + dc
            inb = (nr >= 0) & (nr < H) & (nc >= 0) & (nc < W)
            ok = np.zeros(len(rr), dtype=bool)
            ok[inb] = stand[lv - 1, nr[inb], nc[inb]] & (owner[nr[inb], nc[inb]] != own[inb])
            if ok.any():
                out.append(((own[ok] * npos + pos[ok]) * k_n + k, pos[ok],
                            ((lv - 1) * H + nr[ok]) * W + nc[ok], own[ok]))
    if not out:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z, z
    key, src, dst, bld = (np.concatenate(x) for x in zip(*out))
    srt = np.argsort(key)
    return key[srt], src[srt], dst[srt], bld[srt]


def _build_core(board: Board) -> _Core:
    core = _empty_core(board)
    _L, H, W = core.shape
    if board.node_count:
        win = (0, H, 0, W)
        core.r = _Rows(_fill(core, board, win))
        core.d = _Rows(_drops(core, board, win))
    return core


def _patch_core(prev: _Core, board: Board, win: tuple[int, int, int, int]) -> _Core:
    """``prev`` (a board's core) with the steps leaving ``win`` redone for ``board``: the
    same as a core built from scratch when ``board`` differs from that board only there."""
    _L, H, W = prev.shape
    # the steps into the window leave it from a dot or two outside (and roofs drop into it)
    r0, r1, c0, c1 = win
    win = (max(r0 - 2, 0), min(r1 + 2, H), max(c0 - 2, 0), min(c1 + 2, W))
    core = replace(prev, tiles=list(prev.tiles))  # shared: _fill copies those it writes
    if win[1] <= win[0] or win[3] <= win[2]:
        return core
    npos = core.npos
    core.r = prev.r.patched(core.shape, win, _fill(core, board, win),
                            lambda rows: rows[0] % npos)  # (key: chunk * npos + pos)
    core.d = prev.d.patched(core.shape, win, _drops(core, board, win),
                            operator.itemgetter(1))  # (from: a roof dot)
    return core


def _link_rows(stairs: list, elevators: list, climbs: list) -> np.ndarray:
    """Rows (from c, r, level, to c, r, level, move ratios paid, extra MP, stories walked) of
    the level changes, each way, link after link: stairs, elevators, then climbs."""
    parts = []

    def both(a: np.ndarray, b: np.ndarray, there: np.ndarray, back: np.ndarray,
             walked: np.ndarray) -> None:
        """Rows a -> b then b -> a, link after link."""
        out = np.zeros((2 * len(a), 9), dtype=np.int64)
        out[0::2, 0:3], out[0::2, 3:6], out[0::2, 7], out[0::2, 8] = a, b, there, walked
        out[1::2, 0:3], out[1::2, 3:6], out[1::2, 7], out[1::2, 8] = b, a, back, walked
        parts.append(out)

    if stairs:
        ab = np.array([(*a, *b) for a, b, _f in stairs], dtype=np.int64)
        flights = np.abs(ab[:, 2] - ab[:, 5])
        both(ab[:, 0:3], ab[:, 3:6], STAIRS * flights, STAIRS * flights, flights)
    if elevators:
        ab = np.array([(*a, *b) for a, b, _f in elevators], dtype=np.int64)
        lift = np.full(len(ab), ELEVATOR)
        both(ab[:, 0:3], ab[:, 3:6], lift, lift, np.zeros(len(ab), dtype=np.int64))
    if climbs:
        ab = np.array([(*a, *b, bool(f.props.get("assisted"))) for a, b, f in climbs],
                      dtype=np.int64)
        up_first = (ab[:, 2] < ab[:, 5])[:, None]
        lo = np.where(up_first, ab[:, 0:3], ab[:, 3:6])
        hi = np.where(up_first, ab[:, 3:6], ab[:, 0:3])
        stories = np.abs(ab[:, 5] - ab[:, 2])
        assisted = ab[:, 6].astype(bool)
        up = np.where(assisted, CLIMB_UP_ASSISTED, CLIMB_UP)
        down = np.where(assisted, CLIMB_DOWN_ASSISTED, CLIMB_DOWN)
        both(lo, hi, up * stories, down * stories, stories)
    return np.concatenate(parts) if parts else np.zeros((0, 9), dtype=np.int64)


_LAZY = ("src", "dst", "base", "extra", "why", "diag", "stories", "flat")


class _CoreGraph(MoveGraph):
    """The graph :func:`build_graph` returns: its core (by lattice position) is what is built
    or patched; the compact arrays of :class:`MoveGraph` (node ids of the board, edges in the
    order a build from scratch gives them) are laid out from it on first use."""

    def __init__(self, core: _Core, board: Board | BoardView) -> None:  # noqa: D107
        self.core = core
        # what it reads of the board later, not the board: no cycle board <-> graph
        self._board = board.view() if isinstance(board, Board) else board
        self.n = board.node_count
        self._mats = {}
        self.made_by = None

    def __getattr__(self, name: str) -> Any:
        if name in _LAZY:
            self._lay_out()
        elif name in ("indptr", "order"):
            src = self.src
            self.__dict__["order"] = np.argsort(src, kind="stable")
            self.__dict__["indptr"] = np.concatenate(
                [[0], np.cumsum(np.bincount(src, minlength=self.n))]).astype(np.int64)
        else:
            raise AttributeError(name)
        return self.__dict__[name]

    def _lay_out(self) -> None:
        core, board = self.core, self._board
        L, H, W = core.shape
        npos = L * H * W
        gid = board._node_grid.reshape(-1)
        _c, rmin, _o = board._owner_grid
        hexl = core.lat == "hex"
        odd = ((np.arange(npos) // W) % H + rmin) & 1 if hexl else None
        src_l, dst_l, ext_l, diag_l = [], [], [], []
        firsts, poss = [], []
        n_e = 0
        table = core.ext
        for p, j in core.chunks:
            live = table[j] >= 0
            if hexl:
                live &= odd == p
            pos = np.flatnonzero(live)
            dc, dr = core.offs[p, j].tolist()
            src_l.append(gid[pos])
            dst_l.append(gid[pos + dr * W + dc])
            ext_l.append(table[j, pos].astype(np.int64))
            diag_l.append(np.full(len(pos), not hexl and dc != 0 and dr != 0))
            firsts.append(n_e)
            poss.append(pos)
            n_e += len(pos)
        # the reasons' edges: a chunk's edges are its live positions in order
        e_p = np.zeros(len(core.r_key), dtype=np.int64)
        bounds = np.searchsorted(core.r_key, np.arange(len(poss) + 1, dtype=np.int64) * npos)
        for k, pos in enumerate(poss):
            a, b = bounds[k], bounds[k + 1]
            e_p[a:b] = firsts[k] + np.searchsorted(pos, core.r_key[a:b] - k * npos)
        m = n_e
        arr, link_texts = self._links()
        total = m + len(arr)
        src = np.concatenate(src_l + [arr[:, 0]])
        dst = np.concatenate(dst_l + [arr[:, 1]])
        extra = np.concatenate(ext_l + [arr[:, 3]])
        diag = np.concatenate(diag_l + [np.zeros(len(arr), dtype=bool)])
        base = np.ones(total, dtype=np.int64)
        stories = np.zeros(total, dtype=np.int64)
        flat = np.ones(total, dtype=np.int64)
        base[m:], stories[m:], flat[m:] = arr[:, 2], arr[:, 4], arr[:, 5]
        heads = np.concatenate([[0], np.nonzero(np.diff(e_p))[0] + 1]).astype(np.int64) \
            if len(e_p) else np.zeros(0, dtype=np.int64)
        why = _Why(np.concatenate([e_p[heads], np.arange(m, total)]).astype(np.int64),
                   np.concatenate([heads, len(e_p) + np.arange(len(arr) + 1)]).astype(np.int64),
                   np.concatenate([core.texts.decode(core.r_text), link_texts]))
        self.__dict__.update(src=src, dst=dst, base=base, extra=extra, why=why, diag=diag,
                             stories=stories, flat=flat)

    def _link_dots(self) -> np.ndarray:
        """The stairs, elevators and climbs in edge order (each way, as laid out): rows (from
        c, r, level, to c, r, level, move ratios paid, extra MP, stories walked), cached."""
        got = self.__dict__.get("_link_dot_rows")
        if got is None:
            b = self._board
            got = self.__dict__["_link_dot_rows"] = _link_rows(
                b.stair_links, b.elevator_links, b.climb_links)
        return got

    def _link_texts(self) -> np.ndarray:
        """The reasons of :meth:`_link_dots`' rows."""
        board = self._board
        texts: list[str] = []
        for a, b, f in board.stair_links:
            t = f"stairs {f.id} +{STAIRS * abs(a[2] - b[2])}"
            texts += (t, t)
        for _a, _b, f in board.elevator_links:
            texts += (f"elevator {f.id} +{ELEVATOR}",) * 2
        for a, b, f in board.climb_links:
            stories = abs(b[2] - a[2])
            assisted = bool(f.props.get("assisted"))
            up = CLIMB_UP_ASSISTED if assisted else CLIMB_UP
            down = CLIMB_DOWN_ASSISTED if assisted else CLIMB_DOWN
            kind = "assisted climb" if assisted else "climb"
            texts += (f"{kind} up {f.id} +{up * stories}", f"{kind} down {f.id} +{down * stories}")
        return np.array(texts, dtype=object).reshape(-1)

    def _links(self) -> tuple[np.ndarray, np.ndarray]:
        """The level changes, in edge order (stairs, elevators, climbs, then the drops): rows
        (from, to, move ratios paid, extra MP, stories walked, flat) and their reasons."""
        got = self.__dict__.get("_link_rows")
        if got is not None:
            return got
        core, board = self.core, self._board
        gid = board._node_grid.reshape(-1)
        rows, link_text = self._link_dots(), self._link_texts()
        L, H, W = core.shape
        cmin, rmin, _o = board._owner_grid
        ends = []
        for d in (rows[:, 0:3], rows[:, 3:6]):
            c, r, lv = d[:, 0] - cmin, d[:, 1] - rmin, d[:, 2]
            ok = (lv >= 0) & (lv < L) & (r >= 0) & (r < H) & (c >= 0) & (c < W)
            node = np.full(len(d), -1, dtype=np.int64)
            node[ok] = gid[((lv * H + r) * W + c)[ok]]
            for k in np.nonzero(node < 0)[0]:
                board.node(tuple(int(v) for v in d[k]))  # raises: not a standable dot
            ends.append(node)
        links = np.column_stack([ends[0], ends[1], rows[:, 6], rows[:, 7], rows[:, 8],
                                 rows[:, 6]])
        texts = np.array([f"drop one story from roof of {b.placement_id} +{DROP}"
                          for b in board.buildings], dtype=object)
        n_drop = len(core.d_key)
        arr = np.concatenate([links, np.column_stack([
            gid[core.d_src], gid[core.d_dst], np.ones(n_drop), np.full(n_drop, DROP),
            np.zeros(n_drop), np.ones(n_drop)]).astype(np.int64)])
        got = self.__dict__["_link_rows"] = (arr, np.concatenate([link_text, texts[core.d_bld]]))
        return got

    def matrix(self, move_ratio: int, crawl: bool) -> csr_matrix:
        """As :meth:`MoveGraph.matrix`, built from the core without laying out the compact
        arrays (the first reach after a drag pays this, not the lay-out)."""
        key = (move_ratio, crawl)
        got = self._mats.get(key)
        if got is None:
            got = self._direct(move_ratio, crawl)
            if got is None:
                return super().matrix(move_ratio, crawl)
            self._mats[key] = got
        return got

    def _direct_rows(self) -> tuple[np.ndarray, ...] | None:
        """What every weight matrix of this graph shares, built from the core once: per entry
        (rows in node order, columns ascending, as the general way sorts them) its extra MP
        and column, the row pointers, the cheapest step's extra, and where the level changes
        sit (entry, move ratios paid, extra MP, moves to another dot).  None when the general
        way must build the matrices (a level change within one level, parallel stairs)."""
        if "_direct_layout" in self.__dict__:
            return self.__dict__["_direct_layout"]
        core, board = self.core, self._board
        arr, _texts = self._links()
        nd = board._node_dots
        got: tuple[np.ndarray, ...] | None = None
        if not len(arr) or not ((nd[arr[:, 0], 2] == nd[arr[:, 1], 2]).any()
                                or len(np.unique(arr[:, 0] * self.n + arr[:, 1])) < len(arr)):
            L, H, W = core.shape
            _c, rmin, _o = board._owner_grid
            grid = board._node_grid.reshape(-1)
            pos = np.flatnonzero(grid >= 0)  # node i's position (ids follow positions)
            n = len(pos)
            delta = core.offs[:, :, 1] * W + core.offs[:, :, 0]  # (parity, neighbour)
            ext = np.ascontiguousarray(core.gather(pos).T)  # (node, neighbour)
            if core.lat == "hex":  # neighbours by position, so columns come out ascending
                par = ((pos // W) % H + rmin) & 1
                col = grid.take(pos[:, None] + delta[par], mode="clip")
                order = np.argsort(delta, axis=1, kind="stable")[par]
                ext = np.take_along_axis(ext, order, axis=1)
                col = np.take_along_axis(col, order, axis=1)
            else:
                col = grid.take(pos[:, None] + delta[0], mode="clip")
            live = ext >= 0
            cnt = live.sum(axis=1)
            ev = ext[live].astype(np.int32)
            cols = col[live]
            # where each (node, neighbour) step sits among the entries (a door patch reads
            # the steps it touched again into a copy: _patched_layout)
            nl, kl = np.nonzero(live)
            slot = order[nl, kl] if core.lat == "hex" else kl
            step_min = np.array([ev.min() if len(ev) else -1, ev.max() if len(ev) else -1])
            l_at = l_base = l_ext = np.zeros(0, dtype=np.int64)
            l_move = np.zeros(0, dtype=np.int64)
            if len(arr):
                # a level change goes to a node of another level: before the row's steps
                # when that level is lower, after them when higher (ids are level-major)
                o = np.lexsort((arr[:, 1], arr[:, 0]))
                src, dst = arr[o, 0], arr[o, 1]
                starts = np.concatenate([[0], np.cumsum(cnt)])
                at = np.where(dst < src, starts[src], starts[src + 1])
                ev = np.insert(ev, at, arr[o, 3])
                cols = np.insert(cols, at, dst)
                l_at = at + np.arange(len(at))
                l_base, l_ext = arr[o, 2], arr[o, 3]
                l_move = np.maximum(np.abs(nd[src, 0] - nd[dst, 0]),  # dots moved
                                    np.abs(nd[src, 1] - nd[dst, 1]))
                cnt = cnt + np.bincount(src, minlength=n)
            q = np.arange(len(nl))
            if len(l_at):  # (``at`` ascends: the links come in (from, to) order)
                q = q + np.searchsorted(l_at - np.arange(len(l_at)), q, side="right")
            entries = np.full(ext.shape, -1, dtype=np.int64)
            entries[nl, slot] = q
            self.__dict__["_direct_entries"] = (pos, entries)
            itype = np.int32 if max(len(ev), n) < np.iinfo(np.int32).max else np.int64
            indptr = np.zeros(n + 1, dtype=itype)
            np.cumsum(cnt, out=indptr[1:])
            got = (ev, cols.astype(itype), indptr, step_min, l_at, l_base, l_ext, l_move)
        self.__dict__["_direct_layout"] = got
        return got

    def _patched_layout(self, out: _CoreGraph, touched: np.ndarray) -> None:
        """Hand ``out`` (this graph with a door patched at core positions ``touched``) this
        graph's :meth:`_direct_rows` with the steps of the nodes there read again from its
        core: the same entries in the same places (a door changes no step's existence), so a
        new map state's matrices are not laid out from the whole core again.  Nothing is
        handed on when this graph has none, or a step came or went."""
        lay = self.__dict__.get("_direct_layout")
        ent = self.__dict__.get("_direct_entries")
        if lay is None or ent is None:
            return
        pos, entries = ent
        grid = self._board._node_grid.reshape(-1)
        nodes = np.unique(grid[touched])
        nodes = nodes[nodes >= 0]
        ev = lay[0]
        if len(nodes):
            old = self.core.gather(pos[nodes]).T
            new = out.core.gather(pos[nodes]).T
            if not np.array_equal(old >= 0, new >= 0):
                return
            e = entries[nodes]
            live = e >= 0
            ev = ev.copy()
            ev[e[live]] = new[live]
        steps = np.ones(len(ev), dtype=bool)
        steps[lay[4]] = False  # the level changes' entries
        sv = ev[steps]
        step_min = np.array([sv.min() if len(sv) else -1, sv.max() if len(sv) else -1])
        out.__dict__["_direct_layout"] = (ev, lay[1], lay[2], step_min, *lay[4:])
        out.__dict__["_direct_entries"] = ent

    def _direct(self, move_ratio: int, crawl: bool) -> csr_matrix | None:
        rows = self._direct_rows()
        if rows is None:
            return None
        ev, cols, indptr, step_min, l_at, l_base, l_ext, l_move = rows
        w = ev.astype(float)
        w += move_ratio
        lw = l_base * move_ratio + l_ext
        w[l_at] = lw
        k = 2 if crawl else 1
        if crawl:
            w *= 2
        least = float((step_min[0] + move_ratio) * k) if step_min[0] >= 0 else np.inf
        per, most = least, float((step_min[1] + move_ratio) * k) if step_min[0] >= 0 else 0.0
        if len(l_at):
            most = max(most, float((lw * k).max()))
        go = l_move > 0
        if go.any():
            least = min(least, float(lw[go].min() * k))
            per = min(per, float(((lw * k).astype(float)[go] / l_move[go]).min()))
        mat = csr_matrix((w, cols, indptr), shape=(self.n, self.n))
        mat.has_sorted_indices = True  # as the general way's matrix (ties in paths break the same)
        # what _min_move and _per_dot would find, without a pass over every entry
        self._mats[("min-move", id(mat))] = (mat, least)
        self._mats[("per-dot", id(mat))] = (mat, per if np.isfinite(per) else 0.0, most)
        return mat

    def _reach_links(self) -> tuple[np.ndarray, ...]:
        """The stairs, elevators and climbs as positions of the core (from, to, those that
        start on the board's box), the move ratios paid, the extra MP and the dots each moves
        (Chebyshev); cached, for reach windows."""
        got = self.__dict__.get("_reach_link_rows")
        if got is None:
            core, board = self.core, self._board
            L, H, W = core.shape
            cmin, rmin, _o = board._owner_grid
            links = self._link_dots()
            fr, to = links[:, 0:3], links[:, 3:6]
            on = ((fr[:, 2] >= 0) & (fr[:, 2] < L) & (fr[:, 1] - rmin >= 0)
                  & (fr[:, 1] - rmin < H) & (fr[:, 0] - cmin >= 0) & (fr[:, 0] - cmin < W))
            fr, to, links = fr[on], to[on], links[on]
            got = self.__dict__["_reach_link_rows"] = (
                (fr[:, 2] * H + fr[:, 1] - rmin) * W + fr[:, 0] - cmin,
                (to[:, 2] * H + to[:, 1] - rmin) * W + to[:, 0] - cmin,
                links[:, 6], links[:, 7],
                np.maximum(np.abs(fr[:, 0] - to[:, 0]), np.abs(fr[:, 1] - to[:, 1])).astype(float))
        return got

    def reach_window(self, a: Dot3, move_ratio: int, crawl: bool, limit: float
                     ) -> tuple[np.ndarray, np.ndarray] | None:
        """Every dot within ``limit`` MP of ``a`` and its cost, as scipy's Dijkstra on the
        whole MP matrix answers (dots in node order), searched on the box of the board the
        budget can reach, built straight from the core: the first reach on a dragged board
        builds no matrix of the whole board.  None when that box is a good part of the board."""
        core, board = self.core, self._board
        L, H, W = core.shape
        cmin, rmin, _o = board._owner_grid
        c, r, lv = int(a[0]) - cmin, int(a[1]) - rmin, int(a[2])
        got = self._box_steps(np.array([c]), np.array([r]), move_ratio, crawl, limit, 0.25)
        if got is None:
            return None  # most of the board: the whole matrix serves better
        pos, ids, r0, c0, to, w, ls, lt, wl = got
        il, jl = np.nonzero(to >= 0)
        src, dst = np.concatenate([il, ls]), np.concatenate([to[il, jl], lt])
        wt = np.concatenate([w[il, jl], wl])
        keep = dst >= 0
        mat = _csr_min(wt[keep], src[keep], dst[keep], len(pos))
        i = int(ids[lv, r - r0, c - c0]) if 0 <= lv < L else -1
        if i < 0:
            return np.zeros((0, 3), dtype=np.int64), np.zeros(0)
        dist = dijkstra(mat, indices=i, limit=limit)
        fin = np.nonzero(np.isfinite(dist))[0]
        p = pos[fin]
        dots = np.column_stack([p % W + cmin, (p // W) % H + rmin, p // (H * W)])
        return dots, dist[fin]

    def _box_steps(self, cs: np.ndarray, rs: np.ndarray, move_ratio: int, crawl: bool,
                   limit: float, most: float, known: dict | None = None
                   ) -> tuple[Any, ...] | None:
        """The MP steps among the standable dots of the box every walk of cost <= ``limit``
        from the dots at columns ``cs``, rows ``rs`` of the core (any level) stays in, built
        from the core: (positions of the box's dots in order, their index by (level, row,
        column) of the box (-1: none), the box's first row and column, the steps to
        neighbours as two (dot, neighbour) tables: the dot stepped to (index in the box, -1:
        none there) and the step's MP (inf: no step), then the stairs, elevators, climbs and
        drops as (from, to, MP) with their ends as indexes of the box (-1: outside it)).
        None when the box is more than ``most`` of the board's rows x columns.  ``known``
        keeps the weight-free part of the boxes built (another move ratio reads it again).

        A walk of cost <= ``limit`` moves at most ``limit / k`` dots (Chebyshev) when no edge
        leaving a dot of the box costs less than ``k`` per dot it moves, so it never leaves the
        box of that half-width; ``k`` starts at a step's base cost and drops (the box grows)
        while an edge of the box is cheaper per dot."""
        core = self.core
        L, H, W = core.shape
        mul = 2 if crawl else 1
        l_src, l_dst, l_base, l_extra, l_moved = self._reach_links()
        l_w = ((l_base * move_ratio + l_extra) * mul).astype(float)
        per = float(move_ratio * mul)
        c_lo, c_hi, r_lo, r_hi = int(cs.min()), int(cs.max()), int(rs.min()), int(rs.max())
        while True:
            half = int(limit / per) + 1 if per > 0 else H + W
            r0, r1, c0, c1 = max(r_lo - half, 0), min(r_hi + half + 1, H), max(c_lo - half, 0), min(
                c_hi + half + 1, W)
            if (r1 - r0) * (c1 - c0) >= most * H * W:
                return None
            got = None if known is None else known.get((r0, r1, c0, c1))
            if got is None:
                got = self._box_layout(r0, r1, c0, c1)
                if known is not None:
                    known.clear()  # the last box only
                    known[r0, r1, c0, c1] = got
            pos, ids, ext, to, lsel, l_at, dsel, d_at, moved = got
            w = np.where(ext >= 0, (ext.astype(float) + move_ratio) * mul, np.inf)
            wl = np.concatenate([l_w[lsel], np.full(len(dsel), float((move_ratio + DROP) * mul))])
            go = moved > 0
            least = min(per, float((wl[go] / moved[go]).min())) if go.any() else per
            if np.isfinite(w).any():
                least = min(least, float(w.min()))
            if least < per:
                per = least  # something in the box is cheaper per dot: widen it
                continue
            ls = np.concatenate([l_at[0], d_at[0]])
            lt = np.concatenate([l_at[1], d_at[1]])
            return pos, ids, r0, c0, to, w, ls, lt, wl

    def _box_layout(self, r0: int, r1: int, c0: int, c1: int) -> tuple[Any, ...]:
        """The weight-free part of :meth:`_box_steps` for one box."""
        core, board = self.core, self._board
        L, H, W = core.shape
        cmin, rmin, _o = board._owner_grid
        k_n = core.offs.shape[1]
        hexl = core.lat == "hex"
        l_src, l_dst, _b, _e, l_moved = self._reach_links()
        box = board._stand[:, r0:r1, c0:c1]
        bl, br, bc = np.nonzero(box)
        pos = (bl * H + br + r0) * W + bc + c0
        ids = np.full(box.shape, -1, dtype=np.int64)
        ids[bl, br, bc] = np.arange(len(pos))
        bh, bw = r1 - r0, c1 - c0

        def at(p: np.ndarray) -> np.ndarray:
            """Index in the box of positions ``p`` (-1 outside it)."""
            pl, rest = np.divmod(p, H * W)
            pr, pc = rest // W - r0, rest % W - c0
            ok = (pr >= 0) & (pr < bh) & (pc >= 0) & (pc < bw)
            return np.where(ok, ids[pl, np.where(ok, pr, 0), np.where(ok, pc, 0)], -1)

        ext = np.ascontiguousarray(core.gather(pos).T)  # (dot, neighbour)
        # the dot each step leads to, read from the box's ids with a border of -1 (a step
        # out of the box goes nowhere in it)
        padded = np.full((L, bh + 2, bw + 2), -1, dtype=np.int64)
        padded[:, 1:-1, 1:-1] = ids
        base = (bl * (bh + 2) + br + 1) * (bw + 2) + bc + 1
        dj = core.offs[:, :, 1] * (bw + 2) + core.offs[:, :, 0]  # (parity, neighbour)
        par = ((br + r0 + rmin) & 1) if hexl else np.zeros(len(pos), dtype=np.int64)
        to = padded.reshape(-1)[base[:, None] + dj[par]]
        to[ext < 0] = -1
        # stairs, elevators and climbs leaving the box's dots
        lr, lc = (l_src // W) % H, l_src % W
        lsel = np.nonzero((lr >= r0) & (lr < r1) & (lc >= c0) & (lc < c1))[0]
        # and the drops off the roofs of the buildings in the box (sorted by building)
        own = board._owner_grid[2][r0:r1, c0:c1]
        blds = np.unique(own[own >= 0]).astype(np.int64) * (core.npos * k_n)
        lo = np.searchsorted(core.d_key, blds)
        hi = np.searchsorted(core.d_key, blds + core.npos * k_n)
        cand = np.concatenate([np.arange(x, y) for x, y in zip(lo.tolist(), hi.tolist())]
                              + [np.zeros(0, dtype=np.int64)])
        d_from = at(core.d_src[cand])
        dsel = cand[d_from >= 0]
        ps, pd = core.d_src[dsel], core.d_dst[dsel]
        moved = np.concatenate([l_moved[lsel], np.maximum(
            np.abs(ps % W - pd % W), np.abs((ps // W) % H - (pd // W) % H)).astype(float)])
        return (pos, ids, ext, to, lsel, (at(l_src[lsel]), at(l_dst[lsel])), dsel,
                (d_from[d_from >= 0], at(pd)), moved)

    def replaced(self, level: int, index: int, old: Feature, new: Feature) -> MoveGraph | None:
        """This graph with ``old`` changed to ``new`` (a door opened or shut, a door blasted
        into a hole), or None when the change needs a rebuild: patched when the shape is the
        same object and the feature hinders every step it touches, before and after, without
        making it impassable, so the same steps are touched and only their extra MP and
        reasons change.  The arrays are copied, never edited: forks share the graph."""
        if old.geom is not new.geom:
            return None
        was = [_crossing(old, False), _crossing(old, True)]
        now = [_crossing(new, False), _crossing(new, True)]
        if any(r is None or r[0] < 0 for r in was + now):
            return None
        core = self.core
        hit = np.nonzero(core.r_fid == id(old))[0]
        if not len(hit):
            return self  # it hinders no step that is not blocked anyway
        ins = core.r_inside[hit].astype(np.int64)
        delta = np.array([now[k][0] - was[k][0] for k in (0, 1)])[ins]
        new_text = np.array([now[0][1], now[1][1]], dtype=object)[ins]
        npos = core.npos
        k_n = core.offs.shape[1]
        # copy the tiles the door's steps lie in (the rest stay shared), then add
        pos = core.r_key[hit] % npos
        k_t, t_rows, w_t = core.tiles[0].shape
        size = t_rows * w_t
        tiles = list(core.tiles)
        for ti in np.unique(pos // size).tolist():
            tiles[ti] = tiles[ti].copy()
        for j, p, d in zip(((core.r_key[hit] // npos) % k_n).tolist(), pos.tolist(),
                           delta.tolist()):
            tiles[p // size][j, (p % size) // w_t, p % w_t] += d
        texts = core.r_text.copy()
        texts[hit] = core.texts.encode(new_text)
        fid = core.r_fid.copy()
        fid[hit] = id(new)
        out = _CoreGraph(replace(core, tiles=tiles, r=_Rows((core.r_key, texts, fid,
                                                             core.r_inside))), self._board)
        if "_link_dot_rows" in self.__dict__:  # the same board: the same level changes
            out.__dict__["_link_dot_rows"] = self.__dict__["_link_dot_rows"]
        out._mats = _kept_on_patch(self._mats)
        self._patched_layout(out, pos)
        if "why" in self.__dict__:  # laid out already: patch the compact arrays too
            why = self.why
            assert isinstance(why, _Why)
            edge = why.edges[np.searchsorted(why.starts, hit, side="right") - 1]
            extra = self.extra.copy()
            np.add.at(extra, edge, delta)
            wt = why.texts.copy()
            wt[hit] = new_text
            out.__dict__.update({k: self.__dict__[k] for k in _LAZY + ("indptr", "order")
                                 if k in self.__dict__})
            out.__dict__.update(extra=extra, why=_Why(why.edges, why.starts, wt))
        return out


def build_graph(board: Board) -> MoveGraph:
    """The movement graph of a board (cached on the board).

    The crossings (what a wall, door, obstacle ... does to the steps that touch it) are
    computed per compiled unit and cached with it; the graph's core is kept by lattice
    position (:class:`_Core`), so a board compiled from an earlier one (``compile_board(...,
    previous=)``: the editor's drag) patches that one's core where the two differ instead of
    building it again, and an opened door patches the steps it touches."""
    cached = board.__dict__.get("_move_graph")
    if cached is not None:
        return cached
    core = None
    links = None
    parent = board._patch_from.get("_move_graph")
    if parent is not None:
        pc = getattr(parent[0], "core", None)
        if pc is not None and pc.shape == board._stand.shape and pc.lat == board.lattice.name:
            core = _patch_core(pc, board, parent[1])
            links = _link_rows_after(parent[0], board)
        board._patch_from = {k: v for k, v in board._patch_from.items() if k != "_move_graph"}
    if core is None:
        core = _build_core(board)
    g = _CoreGraph(core, board)
    # the level changes as arrays now (from the parent's where the links are the same
    # objects): the first reach on a dragged board reads them
    g.__dict__["_link_dot_rows"] = links if links is not None else g._link_dots()
    board._move_graph = g  # type: ignore[attr-defined]
    return g


def _link_rows_after(pg: MoveGraph, board: Board) -> np.ndarray | None:
    """The parent graph's level-change rows (:func:`_link_rows`) redone for ``board`` where
    its link lists hold other objects (the units that changed); None: build them anew."""
    old_rows = pg.__dict__.get("_link_dot_rows")
    old_board = getattr(pg, "_board", None)
    if old_rows is None or old_board is None:
        return None
    kinds = ("stair_links", "elevator_links", "climb_links")
    olds = [getattr(old_board, k) for k in kinds]
    news = [getattr(board, k) for k in kinds]
    if any(len(a) != len(b) for a, b in zip(olds, news)):
        return None
    rows = old_rows
    at = 0
    redone = getattr(board, "_links_redone", None)
    if redone is not None:
        ref = getattr(old_board, "_ref", None)
        was = redone[0]()
        if was is None or (ref() if ref is not None else old_board) is not was:
            redone = None  # compiled from another board than the graph's: compare every link
    for kind, (old, new) in enumerate(zip(olds, news)):
        if redone is not None:  # (the compile knows where the links may differ: there)
            cand = redone[1][kind]
            diff = cand[np.fromiter(map(operator.is_not, map(old.__getitem__, cand.tolist()),
                                        map(new.__getitem__, cand.tolist())),
                                    dtype=bool, count=len(cand))]
        else:
            diff = np.flatnonzero(~np.fromiter(map(operator.is_, old, new), dtype=bool,
                                               count=len(new)))
        if len(diff):
            if rows is old_rows:
                rows = old_rows.copy()
            lists: list[list] = [[], [], []]
            lists[kind] = [new[k] for k in diff.tolist()]
            redo = _link_rows(*lists)
            idx = at + 2 * diff
            rows[idx], rows[idx + 1] = redo[0::2], redo[1::2]
        at += 2 * len(new)
    return rows


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


#: up to this many rows (nodes of every parity layer) :func:`_bounded` searches the whole
#: matrix: scipy's Dijkstra with a limit settles only what the limit reaches, and its set-up
#: over all the rows costs less than cutting a window out (~0.1 ms against ~0.4 ms on the
#: samples' 2 500-5 000 nodes; a 160 000-node grid takes ~1 ms whole)
WHOLE_SEARCH_MAX = 40_000


def _bounded(board: Board, g: MoveGraph, mat: csr_matrix, i: int, limit: float,
             whole_max: int = WHOLE_SEARCH_MAX) -> tuple[np.ndarray, np.ndarray]:
    """Every node of ``mat`` (its rows: ``g.n`` per parity layer) within ``limit`` of node
    ``i``, and its cost; as scipy's Dijkstra with ``limit`` on the whole matrix answers.

    On a board of more than ``whole_max`` rows the search runs on the window of the board
    the budget can reach: a path of cost at most ``limit`` takes at most ``limit / m`` steps
    that change dots (``m`` the cheapest such step), so it never leaves the rows and columns
    that far around the start, on any level.  The whole board is searched when it is small
    or that window is most of it (tests/engine/test_bounded_whole.py: the same nodes and
    costs either way)."""
    n = g.n
    if mat.shape[0] <= whole_max:
        dist = dijkstra(mat, indices=i, limit=limit)
        idx = np.nonzero(np.isfinite(dist))[0]
        return idx, dist[idx]
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
            ) -> tuple[np.ndarray, csr_matrix, np.ndarray, np.ndarray]:
    """The nodes of every level in the box of columns ``c0..c1`` and rows ``r0..r1`` (each
    parity layer of ``mat``), the submatrix among them (its own arrays), which of them have
    an edge that leaves the box, and the row of each of the submatrix's entries."""
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
    return win, sub, exits, rows


def _astar(board: Board, g: MoveGraph, mat: csr_matrix, i: int, j: int,
           box_out: list | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """A* from node ``i`` to node ``j`` (either parity layer of ``mat``), exact: the search
    runs on a window around the two ends, as Dijkstra on costs reduced by the heuristic
    ``k * dots to j`` (``k``: the cheapest cost per dot of any edge, so no walk is cheaper
    and the reduced costs stay >= 0), with a limit that grows until ``j`` is settled.  A walk
    leaving the window first crosses its rim at a node ``u`` and costs at least ``u``'s cost
    plus its heuristic; while some rim node could be cheaper than the goal the window grows.

    Returns (window nodes, their cost from ``i``: inf beyond the limit, predecessors as
    indexes into the window or -9999), or None when the window became the whole board.
    ``box_out`` gets the last window's box (columns and rows, low then high): the search
    read no weight of a step with an end outside it, nor any figure of the matrix but its
    cheapest cost per dot and its dearest step (:func:`_per_dot`)."""
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
        win, red, exits, src = _window(board, g, mat, *box)
        wn = win % n
        h = per * np.maximum(np.abs(dots[wn, 0] - cb), np.abs(dots[wn, 1] - rb)).astype(float)
        # the window's own matrix takes the reduced costs (no second matrix built)
        red.data = np.maximum(red.data + h[red.indices] - h[src], 0.0)
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
            if box_out is not None:
                box_out.append(box)
            return win, dist + h[si] - h, pred  # back to real costs
        margin *= 2


def _edge(g: MoveGraph, i: int, j: int) -> int | None:
    """The first of node ``i``'s edges (in ``order``) that goes to node ``j``, or None (a
    node has a few edges: read as Python ints, no array operations per step)."""
    dst = g.dst
    for e in g.order[g.indptr.item(i):g.indptr.item(i + 1)].tolist():
        if dst.item(e) == j:
            return e
    return None


def _edge_step(board: Board, g: MoveGraph, i: int, j: int, move_ratio: int, crawl: bool,
               ruleset: str = "dmz1990") -> Step | None:
    e = _edge(g, i, j)
    if e is None:
        return None
    mv = get_ruleset(ruleset).movement
    if mv.units != "MP":
        # this edge alone (g.metres() would measure every edge of the graph for one step)
        diag = 1.5 if mv.diagonal is None else mv.diagonal
        # (Python numbers: the same double operations as on the arrays' scalars, cheaper)
        metres = float((diag if g.diag.item(e) else 1.0) * g.flat.item(e) * METERS_PER_DOT
                       + g.stories.item(e) * METERS_PER_STORY)
        what = [w.rsplit(" +", 1)[0] for w in g.why.get(e, ())]  # the thing, not DMZ's MP
        return Step(board.node_dot(j), round(metres, 2), [f"{metres:g} m"] + what)  # type: ignore[arg-type]
    base = int(g.base.item(e)) * move_ratio
    cost = base + int(g.extra.item(e))
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
    found = _cheapest_chain(board, g, a, b, move_ratio, crawl, ruleset)
    if found is None:
        return PathResult(False, None, [], [], units, None)
    chain, dist_end = found
    if len(chain) == 1:
        return PathResult(True, 0, [board.node_dot(chain[0])], [], units, 0.0)
    steps = [_edge_step(board, g, u, v, move_ratio, crawl, ruleset) for u, v in zip(chain, chain[1:])]
    walked = path_metres(g, chain, ruleset)
    length = walked[-1]
    if units != "MP":  # each step as long as the book counts it at that point of the move
        steps = [Step(st.to, round(w1 - w0, 2), [f"{w1 - w0:g} m", *st.why[1:]])  # type: ignore[arg-type, union-attr]
                 for st, w0, w1 in zip(steps, walked, walked[1:])]
    cost: int | float = int(round(dist_end)) if units == "MP" else length
    return PathResult(True, cost, [board.node_dot(k) for k in chain], steps, units, length)  # type: ignore[arg-type]


def cheapest_dots(board: Board, a: Dot3, b: Dot3, move_ratio: int = 1, crawl: bool = False,
                  ruleset: str = "dmz1990", box_out: list | None = None) -> list[Dot3] | None:
    """The dots of :func:`cheapest_path` (None: no way), without pricing its steps (play's
    bots walk many paths and read only their dots).  ``box_out``: as :func:`_astar`'s
    (nothing added when the search took the whole board)."""
    found = _cheapest_chain(board, build_graph(board), a, b, move_ratio, crawl, ruleset,
                            box_out)
    return None if found is None else [board.node_dot(k) for k in found[0]]


def _cheapest_chain(board: Board, g: MoveGraph, a: Dot3, b: Dot3, move_ratio: int, crawl: bool,
                    ruleset: str, box_out: list | None = None
                    ) -> tuple[list[int], float] | None:
    """The nodes of the cheapest way from ``a`` to ``b`` and its cost (None: no way)."""
    i, j = board.node(a), board.node(b)
    if i == j:
        return [i], 0.0
    # goal-directed (A*): the search stays near the line between the two ends
    mat = g.weights(ruleset, move_ratio, crawl)
    n = g.n
    two = mat.shape[0] > n  # two parity layers: the goal on either
    found = _astar(board, g, mat, i, j, box_out)
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
        return None
    start = int(np.nonzero(win == i)[0][0]) if found is not None else i
    chain = [end]
    while chain[-1] != start:
        chain.append(int(pred[chain[-1]]))
    chain = [int(win[k]) for k in chain]
    return [k % n for k in reversed(chain)], float(dist[end])


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
    got = None if metric else _reach_from_core(g, a, move_ratio, crawl, mp + 0.5)
    if got is not None:
        found, cost = got
    else:
        idx, cost = _bounded(board, g, g.weights(ruleset, move_ratio, crawl), i,
                             mp + (1e-6 if metric else 0.5))
        if len(idx) and idx.max() >= g.n:  # two parity layers: the cheaper of the two
            order = np.lexsort((cost, idx % g.n))
            idx, cost = idx[order] % g.n, cost[order]
            first = np.concatenate([[True], idx[1:] != idx[:-1]])
            idx, cost = idx[first], cost[first]
        found = board._node_dots[idx]
    dots = map(tuple, found.tolist())
    if metric:
        out = {d: round(c, 2) for d, c in zip(dots, cost.tolist())}
    else:  # whole MP (rint rounds half to even, as round does)
        out = dict(zip(dots, np.rint(cost).astype(np.int64).tolist()))
    if occupied:
        for d in occupied:
            if tuple(d) != tuple(a):
                out.pop(tuple(d), None)
    return out  # type: ignore[return-value]


def reach_arrays(board: Board, a: Dot3, move_ratio: int, mp: int = 12, crawl: bool = False
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Like :func:`reach` but as arrays (dots (N, 3), costs (N,)) for drawing."""
    g = build_graph(board)
    i = board.node(a)
    got = _reach_from_core(g, a, move_ratio, crawl, mp + 0.5)
    if got is not None:
        return got[0], np.rint(got[1]).astype(int)
    idx, cost = _bounded(board, g, g.matrix(move_ratio, crawl), i, mp + 0.5)
    return board._node_dots[idx], np.rint(cost).astype(int)


def _reach_from_core(g: MoveGraph, a: Dot3, move_ratio: int, crawl: bool, limit: float
                     ) -> tuple[np.ndarray, np.ndarray] | None:
    """A reach in MP answered from the graph's core on a box around ``a`` while the graph
    has no matrix for this weighting yet (a board just dragged or built), so the first
    question does not build one for the whole board; None: use the matrix."""
    if not isinstance(g, _CoreGraph) or (move_ratio, crawl) in g._mats:
        return None
    return g.reach_window(a, move_ratio, crawl, limit)


def node_dots_of(board: Board, nodes: np.ndarray) -> np.ndarray:
    """(c, r, level) of some nodes, from the positions of the board's standable dots (one
    array, kept with the board) rather than ``board._node_dots``' table of every node: a
    validation asks for a few zones' dots."""
    got = board.__dict__.get("_node_positions")
    if got is None:
        got = board.__dict__["_node_positions"] = np.flatnonzero(board._node_grid.reshape(-1) >= 0)
    _L, H, W = board._node_grid.shape
    cmin, rmin, _o = board._owner_grid
    pos = got[np.asarray(nodes, dtype=np.int64)]
    lv, rest = np.divmod(pos, H * W)
    return np.column_stack([rest % W + cmin, rest // W + rmin, lv])


def walk_window(g: MoveGraph, nodes: np.ndarray, move_ratio: int, crawl: bool, limit: float,
                most: float = 0.5) -> np.ndarray | None:
    """The cheapest MP from the nearest of ``nodes`` to every node, as scipy's multi-source
    Dijkstra (``min_only``) with ``limit`` on the whole MP matrix answers (inf beyond the
    limit), searched on the box of the board that budget can reach from the nodes' box and
    built from the graph's core: validation's walks bounded by the turn limit build no
    matrix of the whole board.  None when that box is more than ``most`` of the board (the
    whole matrix serves better) or the graph has no core."""
    if not isinstance(g, _CoreGraph) or not len(nodes):
        return None
    board = g._board
    cmin, rmin, _o = board._owner_grid
    dots = node_dots_of(board, nodes)
    got = g._box_steps(dots[:, 0] - cmin, dots[:, 1] - rmin, move_ratio, crawl, limit, most,
                       g._mats.setdefault(("walk-boxes",), {}))
    if got is None:
        return None
    pos, ids, r0, c0, to, w, ls, lt, wl = got
    m, k_n = to.shape
    # one row of slots per dot: its steps to neighbours, then its level changes (the
    # cheapest of parallel ones); a slot without a step holds a loop of 0 MP, which no
    # search takes: no sorting, no entry built per step
    ok = lt >= 0
    links = _csr_min(wl[ok], ls[ok], lt[ok], m)
    n_l = np.diff(links.indptr)
    k = k_n + (int(n_l.max()) if len(n_l) else 0)
    itype = np.int32 if m * k < np.iinfo(np.int32).max else np.int64  # scipy's own index type
    own = np.arange(m, dtype=itype)[:, None]
    cols = np.empty((m, k), dtype=itype)
    data = np.zeros((m, k))
    live = to >= 0
    cols[:, :k_n] = np.where(live, to, own)
    data[:, :k_n] = np.where(live, w, 0.0)
    cols[:, k_n:] = own
    if len(links.indices):
        rows = np.repeat(np.arange(m), n_l)
        slot = k_n + np.arange(len(rows)) - links.indptr[rows]
        cols[rows, slot] = links.indices
        data[rows, slot] = links.data
    mat = csr_matrix((data.reshape(-1), cols.reshape(-1), np.arange(m + 1, dtype=itype) * k),
                     shape=(m, m))
    src = np.unique(ids[dots[:, 2], dots[:, 1] - rmin - r0, dots[:, 0] - cmin - c0])
    dist = dijkstra(mat, indices=src, limit=limit, min_only=True)
    out = np.full(g.n, np.inf)
    out[board._node_grid.reshape(-1)[pos]] = dist
    return out


def describe_path(res: PathResult) -> str:
    if not res.reachable:
        return "no path"
    parts = [f"{fmt_dot(s.to)} ({s.cost}: {', '.join(s.why)})" for s in res.steps]
    return f"{res.cost} {res.units}: " + " -> ".join(parts)
