"""The BoardView of play on the engine's compiled board, movement graph and LOS tracer.

Play changes the map as it goes: doors and windows are opened, smoke is laid, barriers are
blasted into holes.  The compiled board caches its movement graph and its LOS primitives, so
each change edits the board's features and drops the caches it affects (a door only the
movement graph; smoke and holes the sight primitives and spatial indexes too).

Movement is in the ruleset's units: MP by the Movement Cost Table under dmz1990, metres walked
under sr3, sr1 and darkcon (:mod:`engine.movement` with ``ruleset=``, the graph and measure the
CLI's ``path`` and ``reach`` use; ``move_ratio`` and crawling do not change a metre cost).

Sight is the scenario ruleset's verdict (:func:`engine.sight.sight`), the same one the CLI,
validation and the editor give: under dmz1990 a closed door interrupts like an open one
(seed 000 l.796), under sr3 and darkcon it hides the target.  Every change play makes is a
new feature in the forked board's overlay (:meth:`engine.board.Board.set_state`,
:meth:`~engine.board.Board.put_feature`); the compiled features are never edited.

Decisions that belong to play rather than to the LOS engine (docs/play.md):

* smoke fills the cells of its dots on their level (a street cloud, being a street feature,
  already reaches one story up; inside a building the floor above gets its own cloud);
* a barrier blasted open gets a one-dot hole where the blast was nearest, which moves and
  covers like a door.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import shapely
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import substring, unary_union

from engine.board import Board, Feature
from engine.lattice import Dot3
from engine.los import (
    fan_lines,
    line_of_sight,
    los_fan,
    openings_met,
    walled,
    warm_lines,
)
from engine.movement import (
    OPENING_REASONS,
    _edge_step,
    _per_dot,
    build_graph,
    cheapest_dots,
    reach,
)
from engine.play.board_view import BarrierInfo, OpeningInfo, Sight, StepInfo
from engine.rules import get_ruleset
from engine.rules.base import barrier_of
from engine.sight import blast_through, fan_verdict, target_blocked, verdict_of

_OPEN_KINDS = ("door", "window", "hole")
_BARRIER_KINDS = ("wall", "fence", "door", "window")
EPS = 1e-7


#: board states whose derived tables (movement graph, sight answers ...) forks share
MEMO_STATES = 48
#: :meth:`EngineBoard.warm_blocked` traces a fan for this many unknown lines or more (one:
#: a line left unknown is traced in full by each question that follows, both ways)
FAN_MIN = 1
#: up to this many targets :meth:`EngineBoard.warm_blocked` traces them as single lines together
LINES_FAN_MAX = 48
#: answers kept in the tables every door state of a board shares (then they start over)
COMMON_MAX = 400_000
_MEMO_KEYS = ("_move_graph", "_los_prims", "_trees")
#: the memo's key of the tables every door state shares (per light and ruleset)
_COMMON = "common"
#: other door states a goal search or a reach is looked for in (each compared with this one)
OTHER_STATES = 6
_UNKNOWN = object()
#: the key beside a state's fans of the dots known from an origin for some visions
_DONE = object()


def fork_board(board: Board) -> Board:
    """A copy of a compiled board that play may change (doors, smoke, holes) freely.

    Every fork of one board shares a memo (kept on that board, so each worker process of a
    pool has its own): per map state (which doors and windows play has opened or shut), the
    movement graph, the sight primitives, the sight answers, the neighbour lists and the
    distance tables the bots ask for.  Games of a balance run start from the same state and
    open the same few doors, so most of them never rebuild anything.
    """
    board.__dict__.setdefault("_play_memo", {})
    board.__dict__.setdefault("_play_rev", {})  # reversed weight matrices (_reversed)
    return board.fork()


def _turned(w: Any, shared: dict | None) -> Any:
    """``w.T.tocsr()``: the entries of ``w`` in the order (and with the index arrays) the
    transpose of any matrix laid out as ``w`` has, found once per layout by turning a matrix
    of entry numbers (kept in ``shared`` by the layout's row pointers, its columns compared)."""
    key = ("layout", id(w.indptr))
    got = None if shared is None else shared.get(key)
    if got is None or got[0] is not w.indptr or not (
            got[1] is w.indices or np.array_equal(got[1], w.indices)):
        numbered = csr_matrix((np.arange(w.nnz, dtype=float), w.indices, w.indptr),
                              shape=w.shape).T.tocsr()
        got = (w.indptr, w.indices, numbered.data.astype(np.int64), numbered.indices,
               numbered.indptr)
        if shared is not None:
            shared[key] = got
    return csr_matrix((w.data[got[2]], got[3], got[4]), shape=(w.shape[1], w.shape[0]))


def _moved_between(pw: Any, w: Any) -> np.ndarray | None:
    """The nodes (in the matrices' numbering) at either end of an entry whose weight differs
    between weight matrices ``pw`` and ``w``; None when they are not laid out alike."""
    if w.shape != pw.shape or w.nnz != pw.nnz or not (
            (w.indptr is pw.indptr or np.array_equal(w.indptr, pw.indptr)) and
            (w.indices is pw.indices or np.array_equal(w.indices, pw.indices))):
        return None
    moved = np.flatnonzero(w.data != pw.data)
    rows = np.searchsorted(w.indptr, moved, side="right") - 1
    return np.unique(np.concatenate([rows, w.indices[moved]]))


class _GoalSearch:
    """Costs to one goal as far as a cut-off search has gone (:meth:`EngineBoard._search_to`),
    and each dot's answer once worked out (the bots ask the same dots of the same goal turn
    after turn, game after game)."""

    __slots__ = ("closed", "costs", "full", "limit", "known", "mins", "runs", "w")

    def __init__(self) -> None:
        self.costs: np.ndarray | None = None  # per node; exact up to ``limit``
        #: exact at ``limit`` too (a search of its own: scipy keeps a cost equal to its
        #: limit), not only below it (a table started from another state's)
        self.closed = False
        #: ``costs`` over every node of the matrix searched (Dark Conspiracy: both layers)
        self.full: np.ndarray | None = None
        self.limit = 0.0
        self.known: dict[Dot3, Any] = {}
        self.runs = 0  # searches made so far
        self.w: Any = None  # the weight matrix ``full`` was searched on
        #: id of an array of nodes -> (the array, ``full`` then, its least cost there)
        self.mins: dict[int, tuple[np.ndarray, np.ndarray, float]] = {}

    def least_at(self, nodes: np.ndarray) -> float:
        """The least of ``full`` at ``nodes`` (kept per array while ``full`` stays: each
        door's nodes are asked by every door state compared with this one)."""
        got = self.mins.get(id(nodes))
        if got is None or got[0] is not nodes or got[1] is not self.full:
            if len(self.mins) > 256:
                self.mins.clear()
            got = self.mins[id(nodes)] = (nodes, self.full,  # type: ignore[assignment]
                                          float(self.full[nodes].min()))  # type: ignore[index]
        return got[2]


class EngineBoard:
    """:class:`engine.play.board_view.BoardView` over an :class:`engine.board.Board`."""

    def __init__(self, board: Board, light: str = "day", ruleset: str = "dmz1990") -> None:
        self.board = board
        self.lattice = board.lattice
        self.light = light
        self.rules = get_ruleset(ruleset)
        #: "MP" or "m": what step, path, reach and costs_to answer in
        self.units = self.rules.movement.units
        self._metric = self.units != "MP"
        self._adj: dict[Dot3, list[Dot3]] | None = None
        self._smoke_n = 0
        #: sight answers and facts of a map state of this game's own (smoke, a hole, a
        #: spell); a memo state's are in :attr:`_common`
        self._sight: dict[tuple, Sight] = {}
        self._facts: dict[tuple, Any] = {}
        self._to_goal: dict[tuple, Any] = {}
        self._rev: dict[int, tuple[Any, Any, float]] = {}
        self._steps: dict[tuple, StepInfo | None] = {}
        self._paths: dict[tuple, tuple[Dot3, ...] | None] = {}
        self._fans: dict[tuple, Any] = {}  # (and the dots known per origin: warm_blocked)
        self._ids: dict[Dot3, int] = {}
        self._ids_of: dict[tuple, np.ndarray] = {}  # (cheapest_to's dots: _dot_ids)
        self._reach: dict[tuple, dict[Dot3, float]] = {}
        self._openings: dict[tuple, list[OpeningInfo]] = {}
        self._plans: dict[tuple, Any] = {}
        self._per_dot_k: dict[int, float] = {}
        self._entry: dict[str, Any] | None = None
        #: sight answers on lines counting no door, window or hole: the same in every door
        #: state, so kept for all of them (None: a state of this game's own, e.g. smoke)
        self._common: dict[str, dict] | None = None
        self._areas: dict[int, tuple[Any, Polygon]] = {}
        self._attach()
        d0 = board.dots(0)
        if len(d0):
            self._edges = (int(d0[:, 0].min()), int(d0[:, 0].max()),
                           int(d0[:, 1].min()), int(d0[:, 1].max()))
        else:
            self._edges = (0, 0, 0, 0)

    # ------------------------------------------------------------------ movement
    def standable(self, dot: Dot3) -> bool:
        return self.board.standable(tuple(dot))

    def neighbours(self, dot: Dot3) -> list[Dot3]:
        # each dot's list made when first asked (a map state's whole adjacency cost ~10-40 ms
        # to build, and a door opened starts another state), kept for the state's games
        d = tuple(dot)
        adj = self._adj
        if adj is None:
            adj = self._adj = {}
            if self._entry is not None:
                self._entry["adj"] = adj
        got = adj.get(d)
        if got is None:
            i = self.board._node_of(d)
            if i < 0:
                got = []
            else:
                g = build_graph(self.board)
                # its edges in edge order (the order the graph lists them in)
                e = np.sort(g.order[g.indptr[i]:g.indptr[i + 1]])
                got = [(int(c), int(r), int(lv))
                       for c, r, lv in self.board._node_dots[g.dst[e]].tolist()]
            adj[d] = got
        return list(got)

    def step(self, a: Dot3, b: Dot3, move_ratio: int, crawl: bool = False) -> StepInfo | None:
        # one step's cost is a fact of the map state: asked again and again by the bots'
        # path walks (and by every game on this state), so it is answered once
        key = (tuple(a), tuple(b), 0, False) if self._metric else \
            (tuple(a), tuple(b), move_ratio, crawl)
        try:
            return self._steps[key]
        except KeyError:
            pass
        # a step no door or window touches is the same in every door state (a door adds or
        # drops no step, it only prices the ones through it): kept once for all of them
        common = self._common
        shared = None if common is None else common["steps"]
        got = _UNKNOWN if shared is None else shared.get(key, _UNKNOWN)
        if got is _UNKNOWN:
            got = self._step_uncached(key[0], key[1], move_ratio, crawl)
            if shared is not None and (got is None or not any(
                    w.startswith(OPENING_REASONS) for w in got.why)):
                if len(shared) > COMMON_MAX:
                    shared.clear()
                shared[key] = got
        if len(self._steps) > 500_000:
            self._steps.clear()
        self._steps[key] = got
        return got

    def _step_uncached(self, a: Dot3, b: Dot3, move_ratio: int, crawl: bool) -> StepInfo | None:
        # :func:`engine.movement.step` on the node ids this map state keeps per dot
        ids = self._ids
        i = ids.get(a)
        if i is None:
            i = ids[a] = self.board._node_of(a)
        j = ids.get(b)
        if j is None:
            j = ids[b] = self.board._node_of(b)
        if i < 0 or j < 0:
            return None
        g = build_graph(self.board)
        if self._metric:
            st = _edge_step(self.board, g, i, j, move_ratio, False, self.rules.name)
            return None if st is None else StepInfo(tuple(st.to), float(st.cost), tuple(st.why))
        st = _edge_step(self.board, g, i, j, move_ratio, crawl)
        return None if st is None else StepInfo(tuple(st.to), int(st.cost), tuple(st.why))

    def path(self, a: Dot3, b: Dot3, move_ratio: int, crawl: bool = False) -> list[Dot3] | None:
        key = (tuple(a), tuple(b), 0, False) if self._metric else \
            (tuple(a), tuple(b), move_ratio, crawl)
        try:
            got = self._paths[key]
        except KeyError:
            got = self._path_from_parent(key, move_ratio, crawl)
            if got is _UNKNOWN:
                box: list = []
                got = self._path_uncached(key[0], key[1], move_ratio, crawl, box)
                self._path_read(key, got, box[0] if box else None, move_ratio, crawl)
            if len(self._paths) > 50_000:
                self._paths.clear()
            self._paths[key] = got
        return None if got is None else list(got)

    def _path_uncached(self, a: Dot3, b: Dot3, move_ratio: int, crawl: bool,
                       box_out: list | None = None) -> tuple[Dot3, ...] | None:
        if not (self.board.standable(a) and self.board.standable(b)):
            return None
        if self._metric:
            dots = cheapest_dots(self.board, a, b, move_ratio, ruleset=self.rules.name,
                                 box_out=box_out)
        else:
            dots = cheapest_dots(self.board, a, b, move_ratio, crawl=crawl, box_out=box_out)
        return None if dots is None else tuple(tuple(d) for d in dots)

    def _path_read(self, key: tuple, got: Any, box: tuple | None, move_ratio: int,
                   crawl: bool) -> None:
        """Keep with the map state what the search for the path of ``key`` read (the box of
        its last window, the matrix and its figures), for another door state to tell
        whether it would find the same (:meth:`_path_from_parent`)."""
        e = self._entry
        if e is None:
            return
        g = build_graph(self.board)
        w = self._weights_kept(g, move_ratio, crawl)
        if w is None:
            return
        boxes = e.setdefault("path_box", {})
        if len(boxes) > 50_000:
            boxes.clear()
        boxes[key] = (got, box, w, _per_dot(g, self.board, w))
        self._note("path", key)

    def reach(self, a: Dot3, move_ratio: int, mp: float, crawl: bool = False
              ) -> dict[Dot3, float]:
        # the same character on the same dot with the same budget asks again (each action
        # of his activation; the same set-up dot in the next game): one search per state
        key = (tuple(a), move_ratio, mp, False if self._metric else crawl)
        got = self._reach.get(key)
        if got is None:
            got = self._reach_from_parent(key, move_ratio, crawl)
        if got is None:
            if self._metric:
                got = reach(self.board, key[0], move_ratio, mp=mp, ruleset=self.rules.name)
            else:
                got = reach(self.board, key[0], move_ratio, mp=mp, crawl=crawl)
            if len(self._reach) > 20_000:
                self._reach.clear()
            self._reach[key] = got
            self._note("reach", key)
        return dict(got)

    def cost_floor(self, a: Dot3, b: Dot3, move_ratio: int) -> float:
        """A cost :meth:`costs_to` never answers below between ``a`` and ``b`` (either way):
        no step costs less than the matrix's cheapest cost per dot it moves (Chebyshev, in
        columns and rows), so no walk costs less than that times the dots between the two;
        less a centimetre for the metres' rounding."""
        k = self._per_dot_k.get(move_ratio)
        if k is None:  # (per map state: _invalidate drops them with the graph)
            w = self._weights(move_ratio)
            k = self._per_dot_k[move_ratio] = _per_dot(build_graph(self.board), self.board, w)[0]
        return k * max(abs(a[0] - b[0]), abs(a[1] - b[1])) - 0.01

    def plans(self) -> dict[tuple, Any]:
        """A table of this map state for what the bots work out from its movement and sight
        answers alone (a friend's way down a goal's costs, the dots a wall may be cast at):
        kept for the state's games like the answers themselves, dropped with them when the
        map changes.  A key must name everything else the entry depends on."""
        if len(self._plans) > 50_000:
            self._plans.clear()
        return self._plans

    def plans_near(self, dot: Dot3, radius: int) -> tuple[dict[tuple, Any], tuple] | None:
        """For what the bots work out from the sight lines within ``radius`` dots of ``dot``
        alone (the dots a wall may be cast at): a table every door state of the board
        shares, and the states of the doors and windows there, which a key must name too
        (a line's facts depend on door states only through the openings it meets, and a
        line between dots within the ring meets none beyond it).  None in a map state of
        this game's own (smoke, a hole, a spell): use :meth:`plans`."""
        common = self._common
        if common is None:
            return None
        near = common["near"]
        key = (tuple(dot), radius)
        fids = near.get(key)
        if fids is None:
            lat = self.lattice
            ring, edge = {key[0][:2]}, [key[0][:2]]
            for _ in range(radius):
                edge = [n for d in edge for n in lat.neighbours(d) if n not in ring]
                ring.update(edge)
            area = shapely.MultiPoint([lat.point(d) for d in sorted(ring)]).convex_hull \
                .buffer(0.5)
            fids = near[key] = tuple(sorted(
                {f.id for lv in sorted(self.board._features)
                 for f in self.board.features_near(lv, area) if f.kind in ("door", "window")}))
        feature = self.board.feature
        return common["plans"], tuple((fid, feature(fid).props.get("state")) for fid in fids)

    def step_floor(self, a: Dot3, move_ratio: int, mp: float) -> dict[Dot3, float] | None:
        """Dark Conspiracy: :meth:`reach` from ``a`` within ``mp`` metres, as a floor under
        every path's metres summed step by step (3 m a diagonal, :meth:`step`): the book's
        count (every other diagonal 4 m, the first 2 m) is never more over a whole walk, less
        a centimetre (reach rounds; an elevator ride weighs 1e-6 m in the search).  That holds
        while every diagonal edge is one flat step; None when the graph has another kind, or
        under another ruleset."""
        if not self._metric or self.rules.movement.diagonal is not None or \
                not self.board.standable(tuple(a)):
            return None
        g = build_graph(self.board)
        if bool(np.any(g.diag & ((g.stories != 0) | (g.flat != 1)))):
            return None
        return self.reach(a, move_ratio, mp)

    def costs_to(self, goal: Dot3, move_ratio: int, dots: list[Dot3]) -> list[float | None]:
        if not self.board.standable(tuple(goal)):
            return [None] * len(dots)
        key = (tuple(goal), 0 if self._metric else move_ratio)
        got = self._to_goal.get(key)
        if got is None:
            if len(self._to_goal) > 64:
                self._to_goal.clear()
            got = self._to_goal[key] = self._goal_from_parent(key, move_ratio) or _GoalSearch()
            self._note("goal", key)
            self._keep()
        known = got.known
        out = [known.get(d if d.__class__ is tuple else tuple(d), _UNKNOWN) for d in dots]
        if _UNKNOWN in out:
            node_of = self.board._node_of
            metric = self._metric
            for k, v in enumerate(out):
                if v is _UNKNOWN:
                    d = tuple(dots[k])
                    i = node_of(d)
                    c = math.inf
                    if i >= 0:
                        if got.costs is not None:
                            c = float(got.costs[i])
                        while not math.isfinite(c) and got.limit < math.inf:
                            self._search_to(key, move_ratio, got, d)
                            c = float(got.costs[i])
                    v = known[d] = None if not math.isfinite(c) else \
                        (round(c, 2) if metric else int(round(c)))
                    out[k] = v
        return out

    def cheapest_to(self, goal: Dot3, move_ratio: int, dots: list[Dot3]
                    ) -> tuple[float | None, list[Dot3]]:
        """The least of :meth:`costs_to` ``(goal, move_ratio, dots)`` and the dots (in the
        order of ``dots``) that cost it; (None, []) when none reaches ``goal``.  One search
        from all of ``dots`` at once (kept for the map state: a carrier asks his way out
        from every dot he stands on) gives the least cost, then the search to ``goal`` goes
        no further than that (and the metres' rounding): the dots beyond cannot be the
        cheapest, and their costs are never asked."""
        if not self.board.standable(tuple(goal)):
            return None, []
        dkey = tuple(d if d.__class__ is tuple else tuple(d) for d in dots)
        ids = self._dot_ids(dkey)
        if not (ids >= 0).any():
            return None, []
        wkey = 0 if self._metric else move_ratio
        w = self._weights(move_ratio)
        plans = self.plans()
        pkey = ("cheapest-from", dkey, wkey)
        got = plans.get(pkey)
        if got is None or got[0] is not w:
            src = np.unique(ids[ids >= 0])
            got = plans[pkey] = (w, dijkstra(w, indices=src, min_only=True))
        g = build_graph(self.board)
        gi = self.board.node(tuple(goal))
        least = float(got[1][gi]) if w.shape[0] == g.n else \
            min(float(got[1][gi]), float(got[1][gi + g.n]))
        if not math.isfinite(least):
            return None, []
        # (the search from the dots adds the same steps the other way round: metres may
        # differ in the last bits, and dots whose metres round alike tie)
        need = least + (0.011 if self._metric else 0.5)
        key = (tuple(goal), wkey)
        search = self._to_goal.get(key)
        if search is None:
            if len(self._to_goal) > 64:
                self._to_goal.clear()
            search = self._to_goal[key] = self._goal_from_parent(key, move_ratio) or \
                _GoalSearch()
            self._note("goal", key)
            self._keep()
        if search.costs is None or search.limit < need or \
                (search.limit == need and not search.closed):
            # (a table started from another state's keeps the costs below its limit only; a
            # carrier asking again from where he stands finds his own search's limit there)
            self._search_to(key, move_ratio, search, tuple(goal), need)
        metric = self._metric
        cs = np.where(ids >= 0, search.costs[np.maximum(ids, 0)], math.inf)
        # the answers round each cost (monotonic): a dot more than a rounding step dearer
        # than the least cannot round to the same answer, so only the few within are rounded
        near = np.flatnonzero(cs <= cs.min() + (0.02 if metric else 1.0)).tolist()
        vals = [((round(c, 2) if metric else int(round(c))), k)
                for k in near if math.isfinite(c := float(cs[k]))]
        best = min(v for v, _k in vals)
        return best, [dots[k] for v, k in vals if v == best]

    def _dot_ids(self, dots: tuple) -> np.ndarray:
        """The graph's node of each of ``dots`` (-1: none), kept per tuple of dots for the
        view (a carrier asks his way out to the same edge dots from every dot he stands on;
        the compiled board numbers the nodes once, as :meth:`known_blocked`'s ids rely on)."""
        got = self._ids_of.get(dots)
        if got is None:
            if len(self._ids_of) > 64:
                self._ids_of.clear()
            node_of = self.board._node_of
            got = self._ids_of[dots] = np.array([node_of(d) for d in dots], dtype=np.int64)
        return got

    def _search_to(self, key: tuple, move_ratio: int, got: _GoalSearch, d: Dot3,
                   limit: float | None = None) -> None:
        """Costs to the goal of ``key`` (Dijkstra from it over the reversed edges) as far as
        ``d`` needs, kept in ``got``.  A search cut off at
        a cost (scipy's ``limit``) finds every cost within it exactly as the whole search does
        (no step costs less than nothing), and the bots ask dots around themselves: about a
        third of the map a goal.  So the first search goes twice the straight way to ``d``
        (at a common step's cost), a second at least twice as far, then the whole map (a dot
        no walk reaches needs it)."""
        goal = key[0]
        g = build_graph(self.board)
        w = self._weights(move_ratio)
        rev, step = self._reversed(w, ("m",) if self._metric else (move_ratio,))
        if limit is None:
            way = step * (2 * self.lattice.distance(goal[:2], d[:2]) +
                          4 * (1 + abs(goal[2] - d[2])))
            limit = max(way, 2 * got.limit)
            if got.runs >= 2 or (got.runs and limit > 4 * got.limit):
                limit = math.inf
        i = self.board.node(goal)
        if w.shape[0] > g.n:
            # Dark Conspiracy's two parity layers (every other diagonal counts double): a
            # move starts on the even layer and may end on either
            full = dijkstra(rev, indices=[i, i + g.n], min_only=True, limit=limit)
        else:
            full = dijkstra(rev, indices=i, limit=limit)
        got.costs, got.full, got.w = full[:g.n], full, w
        got.limit, got.runs, got.closed = limit, got.runs + 1, True

    def _weights(self, move_ratio: int) -> Any:
        """The weight matrix the goal searches of this map state run on."""
        g = build_graph(self.board)
        return g.weights(self.rules.name, 1, False) if self._metric else \
            g.matrix(move_ratio, False)

    def _goal_from_parent(self, key: tuple, move_ratio: int) -> _GoalSearch | None:
        """The costs to the goal of ``key`` that another map state (the one this came from
        first, then the others the memo keeps, most recently used first) already found and
        the doors that differ cannot change, as a search cut off there; None when there are
        none.  Every walk that takes an edge whose weight differs between the two states
        first reaches one of that edge's ends, so it costs at least the least cost ``t`` of
        those ends (the same in both states: the walk there takes no changed edge); below
        ``t`` both states' cheapest walks are the same walks over the same weights, and
        Dijkstra's cost of a node is the least of its neighbours' costs plus the step (the
        same floats).  Police opens doors game after game in varying orders and asks the
        same goals in every state: the state that leaves the most known is taken."""
        best: tuple[float, _GoalSearch] | None = None
        for _e, prev, t in self._goal_others(key, move_ratio):
            if best is None or t > best[0]:
                best = (t, prev)
                if t == math.inf:
                    break
        if best is None:
            return None
        t, prev = best
        got = _GoalSearch()
        got.full = np.where(prev.full < t, prev.full, math.inf)
        got.costs = got.full[:len(prev.costs)]
        got.limit, got.w = t, self._weights(move_ratio)
        return got

    def _goal_others(self, key: tuple, move_ratio: int
                     ) -> Iterator[tuple[dict, _GoalSearch, float]]:
        """(memo entry, its search for the goal of ``key``, ``t``) for the other map states
        (:meth:`_others`) whose costs to that goal below ``t`` > 0 are this state's too, as
        are the weights of their steps between dots costing less (no end of a step whose
        weight differs costs less than ``t``: :meth:`_goal_from_parent`)."""
        found = self._others("goal", key, lambda e: e["to_goal"].get(key))
        if not found:
            return
        w = self._weights(move_ratio)
        for e, prev in found:
            if prev.full is None:
                continue
            moved = self._moved(e, prev.w, w, "m" if self._metric else (move_ratio, False))
            if moved is None:
                continue  # (a door that adds or drops edges: not laid out alike)
            t = min((prev.least_at(m) for m in moved if len(m)), default=math.inf)
            t = min(t, prev.limit)
            if t > 0.0:
                yield e, prev, t

    def _note(self, kind: str, key: tuple) -> None:
        """Note that this map state holds the ``kind`` ("goal", "reach") answer of ``key``
        (:meth:`_others` looks there first)."""
        e = self._entry
        if e is None or self._common is None:
            return
        has = self._common["has"]
        if len(has) > COMMON_MAX:
            has.clear()
        states = has.setdefault((kind, key), [])
        sk = e["key"]
        if states and states[-1] == sk:
            return
        if sk in states:
            states.remove(sk)
        states.append(sk)
        del states[:-OTHER_STATES]

    def _others(self, kind: str, key: tuple, pick: Any) -> list[tuple[dict, Any]]:
        """(memo entry, ``pick(entry)``) of the map state this one came from, then of the
        latest other states the memo still keeps that hold the ``kind`` answer of ``key``
        (:meth:`_note`), where ``pick`` gives something."""
        e = self._entry
        if e is None or self._common is None:
            return []
        memo = self.board.__dict__.get("_play_memo") or {}
        out = []
        up = e.get("parent")
        pe = None if up is None else memo.get(up[0])
        if pe is not None:
            got = pick(pe)
            if got is not None:
                out.append((pe, got))
        for sk in reversed(self._common["has"].get((kind, key), ())):
            oe = memo.get(sk)
            if oe is None or oe is e or oe is pe:
                continue
            got = pick(oe)
            if got is not None:
                out.append((oe, got))
        return out

    def _moved(self, e: dict, pw: Any, w: Any, wkey: Any) -> list[np.ndarray] | None:
        """Nodes (in the matrices' numbering, in one array or several) at either end of
        every entry whose weight may differ between the weight matrices ``pw`` of memo state
        ``e`` and ``w`` of this state, both weighted as ``wkey``; None when they are not
        laid out alike.  The entries a door or window touches are the same in every state
        (a door only prices the steps through it): those of each door that differs between
        the two states, once known, answer without comparing the matrices (some doors more
        than differ: fewer entries taken as known, never a wrong one)."""
        if pw is w:
            return []
        kept = self._entry.setdefault("moved", {})  # type: ignore[union-attr]
        ckey = (id(pw), id(w))
        got = kept.get(ckey)
        if got is not None and got[0] is pw and got[1] is w:
            return got[2]
        if len(kept) > 256:
            kept.clear()
        got = kept[ckey] = (pw, w, self._moved_worked(e, pw, w, wkey))
        return got[2]

    def _moved_worked(self, e: dict, pw: Any, w: Any, wkey: Any) -> list[np.ndarray] | None:
        """:meth:`_moved` worked out (each pair of matrices once per map state)."""
        doors = {fid for fid, _st in e["key"][2] ^ self._entry["key"][2]}  # type: ignore[index]
        table = self._common["doors"]  # type: ignore[index]
        parts = [table.get((fid, wkey)) for fid in doors]
        if doors and all(m is not None for m in parts):
            return parts if self._alike(pw, w) else None  # type: ignore[return-value]
        nodes = _moved_between(pw, w)
        if nodes is not None and len(doors) == 1 and len(nodes):
            # (a door in one overlay only may have the same state in both: recorded when
            # the matrices show it changed something)
            table[(next(iter(doors)), wkey)] = nodes
        return None if nodes is None else [nodes]

    def _alike(self, pw: Any, w: Any) -> bool:
        """Are weight matrices ``pw`` and ``w`` laid out alike (the same entries in the same
        places)?  Each matrix is compared once with the layouts met so far, for every fork
        (door states share their row pointers and copy their columns)."""
        return self._layout(pw) == self._layout(w)

    def _layout(self, w: Any) -> int:
        """A number per layout of weight matrix (:meth:`_alike`)."""
        table = self._common["layouts"]  # type: ignore[index]
        got = table.get(id(w))
        if got is not None and got[0] is w:
            return got[1]
        reps = table.setdefault("reps", [])
        k = next((k for k, (shape, indptr, indices) in enumerate(reps)
                  if shape == w.shape and len(indices) == len(w.indices) and
                  (indptr is w.indptr or np.array_equal(indptr, w.indptr)) and
                  (indices is w.indices or np.array_equal(indices, w.indices))), None)
        if k is None:
            k = len(reps)
            reps.append((w.shape, w.indptr, w.indices))
        if len(table) > 512:
            table.clear()
            table["reps"] = reps
        table[id(w)] = (w, k)
        return k

    def _reversed(self, w: Any, weighting: tuple | None = None) -> tuple[Any, float]:
        """The weight matrix ``w`` with its edges turned round (Dijkstra from a goal gives
        the costs to it) and a common step's cost (the median), made once per matrix for
        every fork (a door leaves the metre matrices as they were: the next map state takes
        them turned already), and turned by a permutation kept per matrix layout (a door
        changes MP weights, not which steps there are).  With a ``weighting`` (what ``w``
        weighs: metres, or MP at a move ratio) the step is the median of the first matrix
        of that layout and weighting, for every door state: it only sets how far a first
        search goes (every cost found is exact whatever the cut-off), and a door moves the
        median of a few thousand steps by nothing or next to nothing."""
        got = self._rev.get(id(w))
        if got is None or got[0] is not w:
            shared = self.board.__dict__.get("_play_rev")
            got = None if shared is None else shared.get(id(w))
            if got is None or got[0] is not w:
                step = None
                skey = None if shared is None or weighting is None else \
                    ("step", id(w.indptr), *weighting)
                if skey is not None:
                    kept = shared.get(skey)
                    if kept is not None and kept[0] is w.indptr:
                        step = kept[1]
                if step is None:
                    step = max(float(np.median(w.data)) if w.nnz else 1.0, 1e-3)
                    if skey is not None:
                        shared[skey] = (w.indptr, step)
                got = (w, _turned(w, shared), step)
                if shared is not None:
                    if len(shared) > 24:
                        shared.clear()
                    shared[id(w)] = got
            if len(self._rev) > 8:
                self._rev.clear()
            self._rev[id(w)] = got
        return got[1], got[2]

    # ------------------------------------------------------------------ sight
    def sight(self, a: Dot3, b: Dot3, posture_a: str, posture_b: str, vision: str) -> Sight:
        key = (tuple(a), tuple(b), posture_a, posture_b, vision)
        common = self._common
        if common is None:  # (a map state of this game's own: smoke, a hole, a spell)
            got = self._sight.get(key)
            if got is None:
                fkey = key[:4]
                facts = self._facts.get(fkey)
                if facts is None:
                    facts = self._facts[fkey] = line_of_sight(
                        self.board, fkey[0], fkey[1], posture_a=posture_a,
                        posture_b=posture_b, light=self.light)
                got = self._sight[key] = self._sight_uncached(a, b, posture_a, posture_b,
                                                              vision, facts)
            return got
        # every door state shares the answers: a line counting no door, window or hole by
        # its key, one counting some by its key and their states (engine.los.openings_met)
        table = common["sight"]
        got = table.get(key)
        if got is not None:
            return got
        doors = openings_met(self.board, key[0], key[1])
        if doors:
            got = table.get((*key, doors))
            if got is not None:
                return got
        # the facts of a line with these postures are the same for every vision
        facts_of = common["facts"]
        fkey = key[:4]
        facts = facts_of.get(fkey if not doors else (*fkey, doors))
        if facts is None:
            facts = line_of_sight(self.board, fkey[0], fkey[1], posture_a=posture_a,
                                  posture_b=posture_b, light=self.light)
            if doors is None:
                doors = openings_met(self.board, key[0], key[1])
                if doors is None:  # (the lines' memo just started over: keep nothing)
                    return self._sight_uncached(a, b, posture_a, posture_b, vision, facts)
            if len(facts_of) > COMMON_MAX:
                facts_of.clear()
            facts_of[fkey if not doors else (*fkey, doors)] = facts
        got = self._sight_uncached(a, b, posture_a, posture_b, vision, facts)
        if len(table) > COMMON_MAX:
            table.clear()
        table[key if not doors else (*key, doors)] = got
        if "_los_prims" not in self._entry["board"]:  # type: ignore[index]
            self._keep()
        return got

    def known_blocked(self, a: Dot3, b: Dot3, vision: str) -> bool:
        """True when the ruleset's verdict on the line ``a``..``b`` is known to be blocked from
        a fan :meth:`warm_blocked` traced from either end; False means "not known": ask
        :meth:`sight`.  Blocking does not depend on posture, and a line is blocked both ways
        or neither (geometry, floors and dead zones are symmetric; the fan and the single
        query share one tracer): tests/play/test_play_caches.py checks both on the samples."""
        if a.__class__ is not tuple:
            a = tuple(a)
        if b.__class__ is not tuple:
            b = tuple(b)
        fans = self._fans
        if not fans:
            return False
        ids = self._ids
        got = fans.get((a, b[2], vision))
        if got is not None:
            i = ids.get(b)
            if i is None:  # (asked tens of thousands of times a game: a dict, not the grid)
                i = ids[b] = self.board._node_of(b)
            if i >= 0 and got.item(i - got.item(-1)) == 1:  # (Python ints: no numpy scalars)
                return True
        got = fans.get((b, a[2], vision))
        if got is not None:
            i = ids.get(a)
            if i is None:
                i = ids[a] = self.board._node_of(a)
            if i >= 0 and got.item(i - got.item(-1)) == 1:
                return True
        return False

    def walled(self, a: Dot3, b: Dot3) -> bool:
        """True when a wall, a floor or a building blocks the line ``a``..``b`` for every
        eye and posture (:func:`engine.los.walled`: a few times cheaper than :meth:`sight`
        on a line not traced yet); False means "ask :meth:`sight`"."""
        return walled(self.board, a, b)

    def warm_blocked(self, origin: Dot3, dots: list[Dot3], visions: set[str] | list[str]
                     ) -> None:
        """Trace one fan from ``origin`` to those of ``dots`` not yet known (per level), so
        that :meth:`known_blocked` answers the lines between them: a bot scoring its
        candidate dots asks whether each can be shot from (or at) one enemy, most of them
        blocked.  Every unknown line is traced (a line left out would be traced in full by
        each question that follows, both ways, where the fan only finds it blocked).  The
        dots known for every vision are kept per (origin, visions) beside the fans, so a
        call that finds them all known asks nothing more (most calls)."""
        o = origin if origin.__class__ is tuple else tuple(origin)
        board = self.board
        visions = sorted(set(visions))
        fans = self._fans
        dkey = (_DONE, o, tuple(visions))
        done = fans.get(dkey)
        if done is None:
            if board._node_of(o) < 0:
                return
            if len(fans) > 20_000:
                fans.clear()
            done = fans[dkey] = {o}
        by_level: dict[int, set[Dot3]] = {}
        for d in dots:
            if d.__class__ is not tuple:
                d = tuple(d)
            if d not in done:
                by_level.setdefault(d[2], set()).add(d)
        if not by_level:
            return
        cmin, rmin, _grid = board._owner_grid
        grid = board._node_grid
        ids = self._ids
        node_of = board._node_of
        for lv, ds in sorted(by_level.items()):
            if not 0 <= lv < grid.shape[0]:
                done.update(ds)  # (no fan on a level the grid lacks: never known)
                continue
            arrs = [self._fan_array(o, lv, v) for v in visions]
            common = [self._common_fan(o, lv, v) for v in visions]
            first = arrs[0].item(-1)
            # the dots not known yet from every vision's array (a bot asks a few at a time:
            # Python ints, no arrays), taking verdicts another door state found on lines no
            # door changes
            todo: list[Dot3] = []
            slots: list[int] = []
            for d in sorted(ds):
                i = ids.get(d)
                if i is None:
                    i = ids[d] = node_of(d)
                if i < 0:
                    done.add(d)
                    continue
                j = i - first
                unknown = False
                for arr, shared in zip(arrs, common, strict=True):
                    if arr.item(j) < 0:
                        w = -1 if shared is None else shared.item(j)
                        if w >= 0:
                            arr[j] = w
                        else:
                            unknown = True
                if unknown:
                    todo.append(d)
                    slots.append(j)
                else:
                    done.add(d)
            if len(todo) < FAN_MIN:
                continue
            if len(todo) <= LINES_FAN_MAX:
                # a few targets: single lines traced together (kept for the queries that
                # follow) cost less than a fan's sweep; each target's verdict from its
                # figures, on Python lists (the same verdicts as the fan's arrays)
                ends = self._few_targets(o, lv, todo, slots, arrs, common, visions, done)
                warm_lines(board, [(o, d) for d in ends] + [(d, o) for d in ends])
                continue
            tg = np.array([d[:2] for d in todo], dtype=np.int64)
            f = los_fan(board, o, radius=1 << 20, level=lv, targets=tg)
            at = grid[lv, f.dots[:, 1] - rmin, f.dots[:, 0] - cmin] - first
            if not len(f.dots):
                continue
            seen = np.zeros(len(f.dots), dtype=bool)
            doorless = None if f.opened is None else f.opened == 0
            for v, arr, shared in zip(visions, arrs, common, strict=True):
                blocked = fan_verdict(f, ruleset=self.rules.name, vision=v,
                                      light=self.light).blocked
                arr[at] = blocked
                if shared is not None and doorless is not None:
                    shared[at[doorless]] = blocked[doorless]
                seen |= ~blocked
            for d, j in zip(todo, slots, strict=True):
                if all(arr.item(j) >= 0 for arr in arrs):
                    done.add(d)
            # the lines still in sight are the ones the bot will ask in full (both ways):
            # traced together now, each single query finds what its line meets kept
            ends = [(int(c), int(r), lv) for c, r in f.dots[seen].tolist()]
            warm_lines(board, [(o, d) for d in ends] + [(d, o) for d in ends])

    def _few_targets(self, o: Dot3, level: int, todo: list[Dot3], slots: list[int],
                     arrs: list[np.ndarray], common: list[np.ndarray | None],
                     visions: list[str], done: set[Dot3]) -> list[Dot3]:
        """:meth:`warm_blocked`'s fan from ``o`` to a few dots ``todo`` of ``level`` (their
        slots in every vision's array ``arrs``, and in the door states' shared ``common``):
        writes each verdict and returns the dots some vision sees, in order."""
        blocked, cover, vis, closed, opened = fan_lines(self.board, o, level, todo)
        name, light = self.rules.name, self.light
        seen = []
        for n, (d, j) in enumerate(zip(todo, slots, strict=True)):
            clear = False
            doorless = opened[n] == 0
            for v, arr, shared in zip(visions, arrs, common, strict=True):
                b = target_blocked(name, v, light, blocked[n], cover[n], vis[n], closed[n])
                arr[j] = b
                if shared is not None and doorless:
                    shared[j] = b
                clear = clear or not b
            done.add(d)
            if clear:
                seen.append(d)
        return seen

    def _fan_array(self, o: Dot3, level: int, vision: str) -> np.ndarray:
        """The fan verdicts known from ``o`` to the dots of ``level``: one slot per graph node
        of the level (1 blocked, 0 not, -1 not traced yet), the level's first node last."""
        key = (o, level, vision)
        got = self._fans.get(key)
        if got is None:
            d0 = self.board.dots(level)
            got = np.full(len(d0) + 1, -1, dtype=np.int64)
            got[-1] = self.board.node((int(d0[0, 0]), int(d0[0, 1]), level)) if len(d0) else 0
            if len(self._fans) > 20_000:
                self._fans.clear()
            self._fans[key] = got
        return got

    def _common_fan(self, o: Dot3, level: int, vision: str) -> np.ndarray | None:
        """Like :meth:`_fan_array`, the verdicts every door state shares: those on lines
        counting no door, window or hole (:attr:`engine.los.Fan.opened`); None in a state
        of this game's own."""
        common = self._common
        if common is None:
            return None
        fans = common["fans"]
        key = (o, level, vision)
        got = fans.get(key)
        if got is None:
            if len(fans) > 20_000:
                fans.clear()
            got = fans[key] = np.full(len(self.board.dots(level)) + 1, -1, dtype=np.int8)
        return got

    def _sight_uncached(self, a: Dot3, b: Dot3, posture_a: str, posture_b: str,
                        vision: str, facts: Any = None) -> Sight:
        """The ruleset's verdict (:func:`engine.sight.sight`), from the line's ``facts`` when
        they are known."""
        if facts is None:
            facts = line_of_sight(self.board, tuple(a), tuple(b), posture_a=posture_a,
                                  posture_b=posture_b, light=self.light)
        # (the numbers alone: the reasons citing the rules are never read in play)
        v = verdict_of(facts, ruleset=self.rules.name, vision=vision, text=False)
        mods = v.mods
        details: dict[str, Any] = {}
        blocked = v.blocked
        if blocked:
            by = v.blocked_by
            if by:
                details["blocked_by"] = by.get("feature") or by.get("kind")
            if mods.get("blind_fire"):
                # no sight, but a shot may go through (Shadowrun's Blind Fire and the Barrier
                # Ratings on the line, seed 001 l.964-969): (feature, kind, rating) each
                details["blind_fire"] = int(mods["blind_fire"])
                details["barriers"] = [(b["feature"], b["kind"], int(b["rating"]))
                                       for b in mods.get("barriers") or ()]
            return Sight(True, facts.range, details=details)
        if mods.get("covered_locations"):
            details["covered"] = list(mods["covered_locations"])  # darkcon: body parts hidden
        parts = {k: int(mods.get(k, 0)) for k in
                 ("cover", "prone", "elevation", "visibility", "target_modifier")}
        # what a ruleset's referee reads beyond the modifiers (sr1: hard cover ratings)
        details.update({k: mods[k] for k in ("range_m", "hard_cover") if k in mods})
        through = sum(int(b.get("rating") or 0) for b in mods.get("barriers") or ()
                      if b.get("kind") in ("window", "fence")) if self._metric else 0
        if through:
            # glass or a fence on a clear line (an open door is none): Shadowrun takes its
            # Barrier Rating off the Power of a shot through it (seed 001 l.967)
            details["barrier_rating"] = through
        return Sight(False, facts.range, total=int(mods["total"]),
                     visibility=parts["visibility"], modifiers=parts, details=details)

    # ------------------------------------------------------------------ openings
    def _segment(self, a: Dot3, b: Dot3) -> LineString:
        return LineString([self.board.dot_point(a), self.board.dot_point(b)])

    def openings_on(self, a: Dot3, b: Dot3) -> list[OpeningInfo]:
        if a[2] != b[2]:
            return []
        # a fact of the map state (a door's state is part of it; smoke, holes and spells
        # start new tables): every melee contact asks it of the same steps again and again
        key = (tuple(a), tuple(b))
        got = self._openings.get(key)
        if got is None:
            got = self._openings_from_parent(key)
        if got is None:
            pa, pb = self.board.dot_point(a), self.board.dot_point(b)
            got = self._openings_meeting(a[2], (min(pa[0], pb[0]), min(pa[1], pb[1]),
                                                max(pa[0], pb[0]), max(pa[1], pb[1])),
                                         lambda: LineString([pa, pb]), _OPEN_KINDS)
            if len(self._openings) > 200_000:
                self._openings.clear()
            self._openings[key] = got
        return list(got)

    def openings_near(self, dot: Dot3) -> list[OpeningInfo]:
        # a fact of the map state like openings_on (kept in its table): Dark Conspiracy's
        # bots ask it of every dot they stand on, every action
        key = ("near", tuple(dot))
        got = self._openings.get(key)
        if got is None:
            got = self._openings_from_parent(key)
        if got is None:
            corners = self.lattice.cell(tuple(dot[:2]))
            xs, ys = [p[0] for p in corners], [p[1] for p in corners]
            # (the cell grown by 0.1 lies inside its bounds grown by 0.1)
            box = (min(xs) - 0.1 - EPS, min(ys) - 0.1 - EPS, max(xs) + 0.1 + EPS,
                   max(ys) + 0.1 + EPS)
            got = self._openings_meeting(dot[2], box, lambda: Polygon(corners).buffer(0.1),
                                         ("door", "window"))
            if len(self._openings) > 200_000:
                self._openings.clear()
            self._openings[key] = got
        return list(got)

    def _openings_meeting(self, level: int, box: tuple[float, float, float, float],
                          shape: Any, kinds: tuple[str, ...]) -> list[OpeningInfo]:
        """The features of ``kinds`` on ``level`` that the geometry ``shape()`` (made only when
        one may) intersects, in the level's feature order: ``Board.features_near`` filtered
        by kind, without its query of every wall and table of the level (a step or a cell
        meets a door a few times a game; ``box`` is a box around the geometry)."""
        fs = self.board.features(level)
        near = [(i, f) for i, (x0, y0, x1, y1) in self._opening_boxes(level, fs)
                if x0 <= box[2] and box[0] <= x1 and y0 <= box[3] and box[1] <= y1
                and (f := fs[i]).kind in kinds]
        if not near:
            return []
        geom = shape()
        return [OpeningInfo(f.id, f.kind, f.props.get("state", "open"))
                for _i, f in near if f.geom.intersects(geom)]

    def _opening_boxes(self, level: int, fs: list[Feature]
                       ) -> list[tuple[int, tuple[float, float, float, float]]]:
        """(index in the level's features, bounds) of its doors, windows and holes: kept with
        the board's feature index (a change of a feature's shape or kind drops that index, a
        door opened or shut keeps it and its shape), so every door state shares them."""
        trees = self.board._trees
        kept = self.board.__dict__.get("_play_opening_boxes")
        if kept is None or kept[0] is not trees:
            kept = self.board.__dict__["_play_opening_boxes"] = (trees, {})
        got = kept[1].get(level)
        if got is None or got[0] != len(fs):
            got = kept[1][level] = (len(fs), [(i, tuple(f.geom.bounds)) for i, f in enumerate(fs)
                                              if f.kind in _OPEN_KINDS])
        return got[1]

    def _parent(self) -> tuple[dict, str] | None:
        """(the memo entry of the map state this one came from, the door or window whose
        opening or shutting made this one), when the memo still has it."""
        e = self._entry
        up = None if e is None else e.get("parent")
        if up is None:
            return None
        pe = (self.board.__dict__.get("_play_memo") or {}).get(up[0])
        return None if pe is None else (pe, up[1])

    def _openings_from_parent(self, key: tuple) -> list[OpeningInfo] | None:
        """The openings the state before found at ``key`` when the door that changed is not
        among them: they are the same features of the same shapes in the same states."""
        up = self._parent()
        if up is None:
            return None
        got = up[0]["openings"].get(key)
        if got is None or any(op.feature == up[1] for op in got):
            return None
        self._openings[key] = got
        return got

    def _reach_from_parent(self, key: tuple, move_ratio: int, crawl: bool
                           ) -> dict[Dot3, float] | None:
        """The reach another map state (the one this came from first, then the others the
        memo keeps) found from the same dot with the same budget, when no step whose weight
        differs between the two states starts or ends on a dot of it: every walk over such
        a step first reaches its near end, which the budget does not reach (nor, over the
        steps that did not change, in this state), so both states reach the same dots at
        the same costs."""
        found = self._others("reach", key, lambda e: self._reach_of(e, key, move_ratio, crawl))
        if not found:
            return None
        g = build_graph(self.board)
        w = g.weights(self.rules.name, 1, False) if self._metric else g.matrix(move_ratio, crawl)
        for e, (got, pw) in found:
            moved = self._moved(e, pw, w, "m" if self._metric else (move_ratio, crawl))
            if moved is None:
                continue
            if any(len(m) and not self._dots_of(m, g.n).isdisjoint(got) for m in moved):
                continue
            self._reach[key] = got
            return got
        return None

    def _dots_of(self, nodes: np.ndarray, n: int) -> frozenset:
        """The dots of ``nodes`` (either parity layer), kept per array for every fork (each
        door's nodes are asked of every reach compared across it)."""
        table = self._common["dots"]  # type: ignore[index]
        got = table.get(id(nodes))
        if got is None or got[0] is not nodes:
            if len(table) > 1024:
                table.clear()
            got = table[id(nodes)] = (nodes, frozenset(
                map(tuple, self.board._node_dots[nodes % n].tolist())))
        return got[1]

    def _reach_of(self, e: dict, key: tuple, move_ratio: int, crawl: bool) -> Any:
        """(the reach of ``key`` memo entry ``e`` holds, the weight matrix it was found on),
        or None."""
        got = e["reach"].get(key)
        if got is None:
            return None
        g = e["board"].get("_move_graph")
        pw = None if g is None else self._weights_kept(g, move_ratio, crawl)
        return None if pw is None else (got, pw)

    def _weights_kept(self, g: Any, move_ratio: int, crawl: bool) -> Any:
        """The weight matrix ``reach`` searches in graph ``g`` when ``g`` has built it
        already (None otherwise: a first reach may answer from the graph's core)."""
        mv = self.rules.movement
        return g._mats.get(("m", mv.diagonal) if self._metric else (move_ratio, crawl))

    def _path_from_parent(self, key: tuple, move_ratio: int, crawl: bool) -> Any:
        """The cheapest path another map state (the one this came from first, then the
        others the memo keeps) found between the same dots, when its search read the same
        numbers here (_UNKNOWN when there is none to take): the same matrix figures (the
        cheapest cost per dot, the dearest step) and no step whose weight differs between
        the two states with an end in the box of its last window (:func:`engine.movement.
        _astar`; under the rulesets that walk metres a door changes no step's weight).
        The same search over the same numbers finds the same path."""
        found = self._others("path", key, lambda e: (e.get("path_box") or {}).get(key))
        if not found:
            return _UNKNOWN
        g = build_graph(self.board)
        w = g.weights(self.rules.name, 1, False) if self._metric else g.matrix(move_ratio, crawl)
        figures = _per_dot(g, self.board, w)
        nd = self.board._node_dots
        for e, (got, box, pw, pf) in found:
            if pf != figures:
                continue
            moved = self._moved(e, pw, w, "m" if self._metric else (move_ratio, crawl))
            if moved is None:
                continue
            if any(len(m) for m in moved):
                if box is None:
                    continue  # (its search took the whole board)
                c0, r0, c1, r1 = box
                if any(bool(np.any((d[:, 0] >= c0) & (d[:, 0] <= c1) & (d[:, 1] >= r0) &
                                   (d[:, 1] <= r1))) for d in (nd[m % g.n] for m in moved)):
                    continue
            self._paths[key] = got
            self._path_read(key, got, box, move_ratio, crawl)
            return got
        return _UNKNOWN

    def set_opening(self, feature: str, state: str) -> None:
        f = self.board.feature(feature)
        if f is None or f.kind not in ("door", "window"):
            return
        if f.props.get("state") != state:
            self._keep()  # this map state's tables go to the memo before the door patches them
            before = self._state_key() if self._entry is not None else None
            self._entry = None
            self.board.set_state(feature, state, patch=True)
            self._invalidate(los=True, board=False)
            if before is not None and self._entry is not None and \
                    "parent" not in self._entry and self._entry is not \
                    self.board.__dict__["_play_memo"].get(before):
                # a new state: it may take the answers of this one on lines not meeting the door
                self._entry["parent"] = (before, feature)

    # ------------------------------------------------------------------ smoke
    def add_smoke(self, dots: list[Dot3]) -> None:
        groups: dict[tuple[int, int | None], list[Any]] = {}
        for c, r, lv in (tuple(d) for d in dots):
            bld = self.board.building_of((c, r, lv))
            if bld is None and lv > 0:
                continue  # a street cloud is a street feature: it already reaches a story up
            key = (lv, None if bld is None else bld.index)
            groups.setdefault(key, []).append(Polygon(self.lattice.cell((c, r))))
        if not groups:
            return
        for (lv, bidx), cells in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] or -1)):
            self._smoke_n += 1
            geom = unary_union(cells).buffer(0)
            self.board.put_feature(
                Feature("smoke", f"play/smoke-{self._smoke_n}", lv, geom, bidx,
                        {"note": "grenade smoke"}))
        self._invalidate(los=True)

    # ------------------------------------------------------------------ spell features
    def add_spell_feature(self, fid: str, kind: str, level: int, geom: Any,
                          props: dict[str, Any]) -> None:
        """A spell's place on the map (a Poltergeist's debris, a Barrier's force-field) as a
        feature of the forked board, seen by movement and sight like smoke
        (engine/play/referee_areas.py)."""
        c = geom.representative_point()
        bld = self.board.building_of((*self.lattice.dot_at((c.x, c.y)), level))
        self.board.put_feature(Feature(kind, fid, level, geom,
                                       None if bld is None else bld.index, props))
        self._invalidate(los=True)

    def remove_spell_feature(self, fid: str) -> None:
        """The spell is dropped: its feature becomes one nothing sees or bumps into."""
        f = self.board.feature(fid)
        if f is None or f.kind == "spent":
            return
        self.board.put_feature(Feature("spent", fid, f.level, f.geom, f.building, {}), fid)
        self._invalidate(los=True)

    # ------------------------------------------------------------------ barriers
    def blast_through(self, burst: Dot3, target: Dot3, grenade: str) -> dict[str, Any] | None:
        return blast_through(self.board, tuple(burst), tuple(target), grenade,
                             ruleset=self.rules.name)

    def barriers_near(self, dot: Dot3, radius: int) -> list[BarrierInfo]:
        p = Point(self.board.dot_point(dot))
        area = p.buffer(radius + 0.5)
        out = []
        for f in self.board.features_near(dot[2], area):
            value = barrier_of(self.rules, {"kind": f.kind, **f.props}) \
                if f.kind in _BARRIER_KINDS else None
            if value is None:
                continue
            near = shapely.ops.nearest_points(f.geom, p)[0]
            x, y = round(near.x * 2) / 2, round(near.y * 2) / 2
            dist = max(0, math.ceil(p.distance(near) - 0.5 - 1e-9))
            if dist > radius:
                continue
            out.append(BarrierInfo(f"{f.id}@{x:g},{y:g}", f.kind, int(value[0]), int(value[1]),
                                   dist, (x, y)))
        return out

    def open_hole(self, feature: str) -> None:
        fid, _, where = feature.rpartition("@")
        f = self.board.feature(fid)
        if f is None:
            return
        x, y = (float(v) for v in where.split(","))
        props = {"state": "open", "note": f"blasted open ({f.kind} {f.id})"}
        if f.kind in ("door", "window"):
            self.board.put_feature(Feature("hole", f.id, f.level, f.geom, f.building, props), f.id)
        else:
            line = f.geom
            if line.geom_type.startswith("Multi"):
                line = min(line.geoms, key=lambda g: g.distance(Point(x, y)))
            d = line.project(Point(x, y))
            span = substring(line, max(0.0, d - 0.5), min(line.length, d + 0.5))
            rest = f.geom.difference(span.buffer(EPS, cap_style="flat"))
            hole = Feature("hole", f"{f.id}/hole@{x:g},{y:g}", f.level, span, f.building, props)
            if rest.is_empty:
                self.board.put_feature(hole, f.id)
            else:
                self.board.put_feature(Feature(f.kind, f.id, f.level, rest, f.building, f.props), f.id)
                self.board.put_feature(hole)
        self._invalidate(los=True)

    # ------------------------------------------------------------------ map edges, zones
    def edge_of(self, dot: Dot3) -> str | None:
        if dot[2] != 0:
            return None
        c0, c1, r0, r1 = self._edges
        c, r = dot[0], dot[1]
        if c == c0:
            return "west"
        if c == c1:
            return "east"
        if r == r0:
            return "north"
        if r == r1:
            return "south"
        return None

    def deploy_dots(self, polygon: Any, level: int, edge: str | None,
                    depth: int | None) -> list[Dot3]:
        lv = level if edge is None else 0
        dots = self.board.dots(lv)
        if not len(dots):
            return []
        if edge is not None:
            k = depth or 3
            c0, c1, r0, r1 = self._edges
            c, r = dots[:, 0], dots[:, 1]
            sel = {"west": c < c0 + k, "east": c > c1 - k, "north": r < r0 + k,
                   "south": r > r1 - k}.get(edge)
            if sel is None:
                return []
        elif polygon is not None:
            pts = self.lattice.points(dots)
            sel = shapely.intersects_xy(Polygon(polygon), pts[:, 0], pts[:, 1])
        else:
            return []
        return [(int(c), int(r), lv) for c, r in dots[np.asarray(sel)]]

    def in_area(self, dot: Dot3, polygon: Any, level: int) -> bool:
        if dot is None or dot[2] != level:
            return False
        x, y = self.board.dot_point(dot)
        # the scenario's few areas are asked about again and again: each made a shape once
        got = self._areas.get(id(polygon))
        if got is None or got[0] is not polygon:
            if len(self._areas) > 256:
                self._areas.clear()
            got = self._areas[id(polygon)] = (polygon, Polygon(polygon))
        return bool(got[1].covers(Point(x, y)))

    # ------------------------------------------------------------------ caches
    def _invalidate(self, los: bool, board: bool = True) -> None:
        self._keep()
        if board:  # (False: the board patched its own tables)
            self.board.invalidate()
        self._adj = None
        self._sight = {}
        self._facts = {}
        self._to_goal = {}
        self._rev = {}
        self._steps = {}
        self._paths = {}
        self._fans = {}
        self._ids = {}
        self._reach = {}
        self._openings = {}
        self._plans = {}
        self._per_dot_k = {}
        self._entry = None
        self._common = None
        self._attach()

    # ------------------------------------------------------------------ shared tables
    def _state_key(self) -> tuple | None:
        """The map state, when it is one forks can share: only doors and windows changed."""
        memo = self.board.__dict__.get("_play_memo")
        if memo is None:
            return None
        state = []
        for fid, f in self.board.overlay.items():
            if f.kind not in ("door", "window"):
                return None  # smoke and holes are this game's own
            state.append((fid, f.props.get("state")))
        return (self.light, self.rules.name, frozenset(state))

    def _attach(self) -> None:
        """Take the tables of this map state from the memo (or start its entry there)."""
        key = self._state_key()
        if key is None:
            return
        memo = self.board.__dict__["_play_memo"]
        entry = memo.pop(key, None)
        if entry is not None:
            memo[key] = entry  # (the least recently used state goes first)
        else:
            if len(memo) >= MEMO_STATES + 1:
                memo.pop(next(k for k in memo if k != _COMMON))
            # (no sight answers or facts: a memo state's are kept in its common tables)
            entry = memo[key] = {"to_goal": {}, "steps": {}, "paths": {},
                                 "fans": {}, "reach": {}, "adj": None, "board": {}, "rev": {},
                                 "ids": {}, "openings": {}, "plans": {}, "key": key}
        self._entry = entry
        self._common = memo.setdefault(_COMMON, {}).setdefault(key[:2], {"sight": {}, "facts": {},
                                                                         "fans": {}, "steps": {},
                                                                         "has": {}, "doors": {},
                                                                         "layouts": {}, "near": {},
                                                                         "plans": {}, "dots": {}})
        self._to_goal = entry["to_goal"]
        self._rev = entry["rev"]
        self._steps = entry["steps"]
        self._paths = entry["paths"]
        self._fans = entry["fans"]
        self._ids = entry["ids"]
        self._reach = entry["reach"]
        self._openings = entry["openings"]
        self._plans = entry["plans"]
        self._adj = entry["adj"]
        for k, v in entry["board"].items():
            self.board.__dict__.setdefault(k, v)

    def _keep(self) -> None:
        """Leave this state's tables built so far in the memo for the next game."""
        e = self._entry
        if e is None:
            return
        e["adj"] = self._adj
        for k in _MEMO_KEYS:
            if k in self.board.__dict__:
                e["board"][k] = self.board.__dict__[k]
