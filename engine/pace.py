"""How far a side's characters walk in a turn, in the scenario's own ruleset.

Validation's timing checks ("objective X needs N turns, limit L") and the tempo and lead lenses
ask the same two questions: how much movement a turn holds, and the cheapest walk from a
deployment zone to every dot.  dmz1990 counts MP at a Move Ratio, 12 MP a turn (seed 000
l.492); sr3, sr1 and darkcon walk metres, as many a turn as the character's sheet gives
(:mod:`engine.rules.turn_movement`, the same figures play's referees use).  Under metres every
character walks the same map, so a side's distance field is shared and only the metres a
turn differ.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order, connected_components, dijkstra

from engine.board import Board
from engine.model import Side
from engine.movement import (
    DROP,
    MoveGraph,
    _CoreGraph,
    _per_dot,
    build_graph,
    dijkstra_until,
    node_dots_of,
    walk_window,
)
from engine.rules import get_ruleset
from engine.rules.turn_movement import turn_metres

#: an uninjured DMZ character's allowance per turn (seed 000 l.492)
MP_PER_TURN = 12
#: move ratio of a side with no characters yet (an average character)
DEFAULT_MOVE_RATIO = 3
#: validation walks at most this many times the turn limit: a place farther away is reported
#: as "more than N turns" (a designer needs to know it is out of reach in time, not by how much)
HORIZON = 2


@dataclass(frozen=True)
class Pace:
    """One character's walk per turn: ``per_turn`` MP at ``move_ratio`` (dmz1990), or
    ``per_turn`` metres (the metre rulesets; ``move_ratio`` unused)."""

    units: str  # "MP" | "m"
    move_ratio: int = 1
    per_turn: float = MP_PER_TURN

    @property
    def label(self) -> str:
        return (f"move ratio {self.move_ratio}" if self.units == "MP"
                else f"{self.per_turn:g} m a turn")

    def turns(self, cost: float | None) -> int | None:
        return None if cost is None else math.ceil(round(cost, 6) / self.per_turn)

    def turns_of(self, cost: np.ndarray) -> np.ndarray:
        """Turns for each cost (NaN where unreachable)."""
        out = np.full(cost.shape, np.nan)
        ok = np.isfinite(cost)
        c = np.rint(cost[ok]) if self.units == "MP" else np.round(cost[ok], 6)
        out[ok] = np.ceil(c / self.per_turn)
        return out

    def text(self, cost: float | None) -> str:
        amount = f"{cost:g} {self.units}" if cost is not None else "no path"
        return f"{amount} = {self.turns(cost)} turn(s)"


def side_paces(ruleset: str, side: Side) -> tuple[Pace, Pace] | None:
    """(fastest, slowest) pace of a side; None when no character's sheet says how far he
    walks under a metre ruleset (the ruleset's stats check names what is missing)."""
    if get_ruleset(ruleset).movement.units == "MP":
        mrs = [c.move_ratio for c in side.characters] or [DEFAULT_MOVE_RATIO]
        return Pace("MP", min(mrs)), Pace("MP", max(mrs))
    metres = [v for c in side.characters
              if (v := turn_metres(ruleset, c)) is not None and v > 0]
    if not metres:
        return None
    return Pace("m", per_turn=max(metres)), Pace("m", per_turn=min(metres))


def weights(g: MoveGraph, ruleset: str, pace: Pace):  # noqa: ANN201 (a scipy sparse matrix)
    """The matrix a walk at ``pace`` runs Dijkstra on."""
    if pace.units == "MP":
        return g.matrix(pace.move_ratio, False)
    return g.metres_matrix(get_ruleset(ruleset).movement.diagonal)


def fold(g: MoveGraph, dist: np.ndarray) -> np.ndarray:
    """Dark Conspiracy's metre graph has two parity layers: a node costs the cheaper."""
    return np.minimum(dist[..., :g.n], dist[..., g.n:]) if dist.shape[-1] > g.n else dist


def walk_field(board: Board, ruleset: str, sources: np.ndarray, pace: Pace) -> np.ndarray:
    """Cheapest walk (MP or metres) from the nearest of the ``sources`` nodes to every node
    (inf: no way)."""
    g = build_graph(board)
    src = np.unique(np.asarray(sources, dtype=np.int64))
    src = src[src >= 0]
    if not len(src):
        return np.full(g.n, np.inf)
    return fold(g, dijkstra(weights(g, ruleset, pace), indices=src, min_only=True))


class WalkField:
    """Cheapest walk (MP or metres) from the nearest of the ``sources`` nodes, searched only
    as far as the questions asked of it need: validation asks how far a few objectives are,
    and an objective within the turn limit is answered by a search that stops at the limit's
    walk (``start``).  A farther one widens the search until some of its dots are reached, so
    every answer is the whole-board search's (:func:`walk_field` gives every node at once)."""

    def __init__(self, board: Board, ruleset: str, sources: np.ndarray, pace: Pace,
                 start: float) -> None:
        self.board = board
        self.g = build_graph(board)
        self.ruleset, self.pace = ruleset, pace
        src = np.unique(np.asarray(sources, dtype=np.int64))
        self.src = src[src >= 0]
        self.limit = float(start)
        self.dist: np.ndarray | None = None  # per node (parity layers folded); inf: beyond
        self.exhausted = not len(self.src)
        self._reached: np.ndarray | None = None  # per node: some walk gets there at all

    @property
    def mat(self):  # noqa: ANN201 (a scipy sparse matrix)
        """The whole board's matrix at this pace, built on first use: a walk bounded by the
        turn limit is searched on a window of the graph's core instead (:meth:`_search`)."""
        got = self.__dict__.get("_mat")
        if got is None:
            got = self.__dict__["_mat"] = weights(self.g, self.ruleset, self.pace)
        return got

    def _least_per_dot(self) -> float:
        """No walk at this pace costs less than this per dot it moves: the matrix's figure
        (:func:`engine.movement._per_dot`) once it is built, else a bound read from the core
        (a step costs its move ratio at least; stairs, climbs and drops by their own cost)."""
        if "_mat" in self.__dict__ or not self._windowed():
            return _per_dot(self.g, self.board, self.mat)[0]
        return _mp_per_dot(self.g, self.pace.move_ratio)

    def _windowed(self) -> bool:
        """Whether bounded walks can be searched on windows of the core (MP on a core graph)."""
        return self.pace.units == "MP" and isinstance(self.g, _CoreGraph)

    def _search(self, limit: float) -> np.ndarray:
        """Every node's cost within ``limit`` (inf beyond), parity layers folded: on the box
        of the core the limit can reach when that is small, else on the whole matrix."""
        if self._windowed() and "_mat" not in self.__dict__:
            got = walk_window(self.g, self.src, self.pace.move_ratio, False, limit)
            if got is not None:
                return got
        return fold(self.g, dijkstra(self.mat, indices=self.src, limit=limit, min_only=True))

    def cost(self, nodes: np.ndarray) -> float:
        """The cheapest walk to any of ``nodes`` (inf: no way)."""
        nodes = np.asarray(nodes, dtype=np.int64)
        nodes = nodes[nodes >= 0]
        if not len(nodes) or not len(self.src):
            return math.inf
        if self.dist is not None:
            v = float(self.dist[nodes].min())
            if math.isfinite(v) or self.exhausted:
                return v
            self.limit *= 2  # the last search stopped short of these
        g = self.g
        # no walk is cheaper than the cheapest cost per dot times the dots between the two
        # sets' boxes: a farther objective starts its search there
        per, wmax = _per_dot(g, self.board, self.mat)
        self.limit = max(self.limit, 1.25 * per * self._gap(nodes) + 4 * wmax)
        dist, self.limit, self.exhausted = dijkstra_until(
            self.board, g, self.mat, self.src,
            lambda d: bool(np.isfinite(fold(g, d)[nodes]).any()), self.limit, min_only=True)
        self.dist = fold(g, dist)
        return float(self.dist[nodes].min())


    def cost_within(self, nodes: np.ndarray, within: float) -> float | None:
        """The cheapest walk to any of ``nodes`` when it is at most ``within``; ``inf`` when
        no walk gets there at all; None when every walk there costs more than ``within``.
        The search goes no farther than ``within`` (a far place is told apart from a sealed
        one by which nodes any walk reaches, :meth:`reached`); the answer does not depend
        on what was asked before."""
        if not math.isfinite(within):
            return self.cost(nodes)
        nodes = np.asarray(nodes, dtype=np.int64)
        nodes = nodes[nodes >= 0]
        if not len(nodes) or not len(self.src):
            return math.inf
        cap = within + 1e-6 * max(1.0, within)  # a walk of ``within`` (rounding aside) is in
        v = math.inf if self.dist is None else float(self.dist[nodes].min())
        # no walk is cheaper than the cheapest cost per dot times the dots between the two
        # sets' boxes: a place farther than ``within`` by that bound is not searched at all
        if v == math.inf and not self.exhausted and (self.dist is None or self.limit < cap) \
                and (least := self._least_per_dot() * self._gap(nodes)) <= cap:
            # a search shorter than the bound finds none of them: start a little past it
            limit = max(self.limit if self.dist is None else self.limit * 2, 1.25 * least)
            while True:
                limit = min(limit, cap)
                dist = self._search(limit)
                if limit >= cap or np.isfinite(dist[nodes]).any():
                    break
                limit *= 2
            self.dist, self.limit = dist, limit
            v = float(dist[nodes].min())
        if v <= cap:
            return v
        if math.isfinite(v) or not (self.exhausted or not self.reaches(nodes)):
            return None  # farther than ``within``
        return math.inf

    def reaches(self, nodes: np.ndarray) -> bool:
        """Whether any walk from the sources gets to any of ``nodes`` at all: at once when
        one of them shares a strongly connected component with a source (the board's
        streets are one), else by :meth:`reached`."""
        n = self.g.n
        lab = core_components(self.g) if self._windowed() else None
        if lab is None:
            lab = strong_components(self.g, self.mat)
        tn = nodes if len(lab) == n else np.concatenate([nodes, nodes + n])  # parity layers
        if np.isin(lab[tn], lab[self.src]).any():
            return True
        return bool(self.reached()[nodes].any())

    def _gap(self, nodes: np.ndarray) -> float:
        """Dots (Chebyshev, columns and rows) between the box of the sources and that of
        ``nodes``: every walk between them moves at least that far."""
        board = getattr(self.g, "_board", self.board)  # the graph's view keeps the positions
        a, b = node_dots_of(board, self.src), node_dots_of(board, nodes)
        return float(np.maximum(np.maximum(a[:, :2].min(axis=0) - b[:, :2].max(axis=0),
                                           b[:, :2].min(axis=0) - a[:, :2].max(axis=0)), 0).max())

    def reached(self) -> np.ndarray:
        """Per node: whether any walk from the sources gets there at all (a breadth-first
        search of the matrix's edges, costs aside; every edge costs a finite amount)."""
        if self._reached is None:
            mat = self.mat
            if not np.isfinite(mat.data).all():
                mat = mat.copy()
                mat.data = np.isfinite(mat.data).astype(float)
                mat.eliminate_zeros()
            seen = np.zeros(mat.shape[0], dtype=bool)
            for s in self.src.tolist():
                if not seen[s]:
                    seen[breadth_first_order(mat, s, directed=True,
                                             return_predecessors=False)] = True
            n = self.g.n
            self._reached = seen[:n] | seen[n:] if len(seen) > n else seen  # parity layers
        return self._reached


def strong_components(g: MoveGraph, mat) -> np.ndarray:  # noqa: ANN001 (scipy sparse)
    """The strongly connected component of each row of ``mat`` (a matrix of ``g``), kept with
    the graph per layout of entries: every move ratio's MP matrix has the same entries, so
    the timing checks' far-or-sealed questions and the sealed-room check share one."""
    key = ("scc", mat.shape[0])
    got = g._mats.get(key)
    if got is None or not (_same(got[0], mat.indptr) and _same(got[1], mat.indices)):
        got = g._mats[key] = (mat.indptr, mat.indices,
                              connected_components(mat, directed=True, connection="strong")[1])
    return got[2]


def core_components(g: MoveGraph) -> np.ndarray | None:
    """The strongly connected component of each node, as :func:`strong_components` partitions
    the nodes of any MP matrix (labels numbered otherwise), found without that matrix: from
    the graph's core of a square lattice (None for any other graph; cached with the graph).

    Dots joined by open steps both ways, side by side or one above the other, are one
    component whatever else holds: they are labelled as connected regions (:func:`_regions`,
    from runs of dots along the rows).  Contracting each region to one node keeps every strong
    component (a region is strongly connected), so the components of the few regions, joined
    by every other step (diagonals, one-way steps, stairs, climbs, drops) whose ends lie in
    two regions, are those of the whole graph.  A city's 580k dots make ~2k regions."""
    if not isinstance(g, _CoreGraph) or g.core.lat != "square":
        return None
    got = g._mats.get(("core-scc",))
    if got is not None:
        return got
    core, board = g.core, g._board
    L, H, W = core.shape
    offs = [tuple(o) for o in core.offs[0].tolist()]
    j_of = {o: j for j, o in enumerate(offs)}

    def live(j: int) -> np.ndarray:  # (L, H, W): the step to neighbour j is open
        return (np.concatenate([t[j] for t in core.tiles])[:L * H] >= 0).reshape(L, H, W)

    grid = board._node_grid.reshape(L, H, W)
    dotlab, n_reg = _regions(grid >= 0,
                             live(j_of[(1, 0)])[:, :, :-1] & live(j_of[(-1, 0)])[:, :, 1:],
                             live(j_of[(0, 1)])[:, :-1, :] & live(j_of[(0, -1)])[:, 1:, :])
    # each dot's region (0: nobody stands there), with a border of 0: the dot a step leads
    # to is a fixed offset away in the flat array
    padded = np.zeros((L, H + 2, W + 2), dtype=dotlab.dtype)
    padded[:, 1:-1, 1:-1] = dotlab
    flat = padded.reshape(-1)
    edge = W + 3  # no step leaves the first or the last row and column of the padding
    src, dst = [], []
    for j, (dc, dr) in enumerate(offs):  # the open steps from a region into another
        d = dr * (W + 2) + dc
        k = edge + np.flatnonzero(flat[edge:len(flat) - edge] != flat[edge + d:len(flat) - edge + d])
        k = k[(flat[k] > 0) & (flat[k + d] > 0)]  # a step joins two dots one stands on
        lv, rest = np.divmod(k, (H + 2) * (W + 2))
        pos = (lv * H + rest // (W + 2) - 1) * W + rest % (W + 2) - 1
        k = k[core.gather(pos)[j] >= 0]
        src.append(flat[k])
        dst.append(flat[k + d])
    inner = dotlab.reshape(-1)
    l_src, l_dst = g._reach_links()[:2]
    src += [inner[l_src], inner[core.d_src]]
    dst += [inner[l_dst], inner[core.d_dst]]
    s, d = np.concatenate(src), np.concatenate(dst)
    keep = s != d
    m = csr_matrix((np.ones(int(keep.sum())), (s[keep], d[keep])), shape=(n_reg + 1, n_reg + 1))
    comp = connected_components(m, directed=True, connection="strong")[1]
    got = g._mats[("core-scc",)] = comp[inner[inner > 0]]
    return got


def _regions(stand: np.ndarray, ew: np.ndarray, ns: np.ndarray) -> tuple[np.ndarray, int]:
    """The connected regions of the dots ``stand`` (levels, rows, columns) joined side by
    side where ``ew`` (a dot and the next one along its row) and one above the other where
    ``ns`` (a dot and the one in the next row): per dot its region 1..n (0: nobody stands
    there), and n.  What a 4-connected labelling of a raster at twice the resolution (dots
    on its even pixels, joins between) finds, numbered otherwise, from runs of joined dots
    along the rows: one run per dot not joined to the one before it, then the runs joined
    by the north-south joins, one per stretch where the same two runs sit side by side."""
    ew = ew & stand[:, :, :-1] & stand[:, :, 1:]
    ns = ns & stand[:, :-1, :] & stand[:, 1:, :]
    start = stand.copy()
    start[:, :, 1:] &= ~ew  # joined to the dot before it: that dot's run goes on
    # each dot's run, from 1 (a sum of booleans in int32: numpy's default int64 from bool
    # is ten times slower)
    run = np.cumsum(start.reshape(-1), dtype=np.int32 if start.size < 1 << 31 else np.int64
                    ).reshape(stand.shape)
    n_run = int(run.reshape(-1)[-1]) if run.size else 0
    # a join whose western neighbour joins the same two runs adds nothing
    first = ns.copy()
    first[:, :, 1:] &= ~(ns[:, :, :-1] & ew[:, :-1, :] & ew[:, 1:, :])
    lv, r, c = np.nonzero(first)
    m = csr_matrix((np.ones(len(lv), dtype=np.int8), (run[lv, r, c] - 1, run[lv, r + 1, c] - 1)),
                   shape=(n_run, n_run))
    n, comp = connected_components(m, directed=False)
    out = np.zeros(stand.shape, dtype=np.int64)
    out[stand] = comp[run[stand] - 1] + 1
    return out, int(n)


def one_component(g: MoveGraph) -> bool | None:
    """Whether every node reaches every other (None: not known without a matrix)."""
    lab = core_components(g)
    if lab is None:
        return None
    return not len(lab) or bool((lab == lab[0]).all())


def _mp_per_dot(g: MoveGraph, move_ratio: int) -> float:
    """A lower bound of any MP walk's cost per dot it moves (Chebyshev) at this move ratio,
    from a core graph's level changes: a step to a neighbour costs the move ratio at least,
    a drop more; stairs and climbs cost their own MP over the dots they move."""
    _f, _t, base, extra, moved = g._reach_links()
    core = g.core  # type: ignore[attr-defined]
    _L, H, W = core.shape
    ps, pd = core.d_src, core.d_dst
    cost = np.concatenate([base * move_ratio + extra, np.full(len(ps), move_ratio + DROP)])
    moved = np.concatenate([moved, np.maximum(np.abs(ps % W - pd % W),
                                              np.abs((ps // W) % H - (pd // W) % H))])
    go = moved > 0
    return min(float(move_ratio), float((cost[go] / moved[go]).min()) if go.any() else np.inf)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a is b or (a.shape == b.shape and bool(np.array_equal(a, b)))


def walk_to(board: Board, ruleset: str, sources: np.ndarray, pace: Pace,
            start: float) -> WalkField:
    """The :class:`WalkField` of these sources at this pace, shared by every check that asks
    (kept with the board's movement graph: objective timing and the tempo gaps ask the same)."""
    g = build_graph(board)
    src = np.unique(np.asarray(sources, dtype=np.int64))
    src = src[src >= 0]
    mv = get_ruleset(ruleset).movement
    how = ("MP", pace.move_ratio) if mv.units == "MP" else ("m", mv.diagonal)
    key = ("walk", how, src.tobytes())
    got = g._mats.get(key)
    if got is None:
        got = g._mats[key] = WalkField(board, ruleset, src, pace, start)
    return got
