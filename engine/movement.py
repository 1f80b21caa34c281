"""Movement: what a step costs, the cheapest path, and every dot within reach of a budget of MP.

The board is turned once into a directed graph whose edges carry two numbers: how many times
the mover's move ratio is paid (1 for a step to an adjacent dot, 0 for stairs, elevators and
climbs, which have no base cost) and the extra MP of the Movement Cost Table for what the step
crosses.  A query then weighs the edges for its move ratio (doubled when crawling) and runs
scipy's C Dijkstra, so a reach or a path on a 120x120-dot city takes milliseconds.

Every edge also keeps the list of (feature, extra MP) that made its cost, so each step of a path
can say *why* it cost what it did.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import shapely
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from engine.board import Board, Feature, fmt_dot
from engine.lattice import Dot3

#: extra MP of the DMZ Movement Cost Table
OPEN_DOOR = 1
CLOSED_DOOR_OPEN = 2
OPEN_WINDOW = 2
CLOSED_WINDOW_OPEN = 4
HOLE = 1
STAIRS = 3
ELEVATOR = 3
CLIMB_UP, CLIMB_UP_ASSISTED = 6, 4
CLIMB_DOWN, CLIMB_DOWN_ASSISTED = 4, 2
DROP = 2

_BLOCKING = ("wall", "fence", "trunk")


@dataclass(frozen=True)
class Step:
    to: Dot3
    cost: int
    why: list[str] = field(default_factory=list)


@dataclass
class PathResult:
    reachable: bool
    cost: int | None
    dots: list[Dot3]
    steps: list[Step]


@dataclass
class MoveGraph:
    src: np.ndarray
    dst: np.ndarray
    base: np.ndarray  # multiples of the move ratio paid on this edge
    extra: np.ndarray  # extra MP
    why: dict[int, list[str]]  # edge -> reasons for its extra MP (edges with extras only)
    indptr: np.ndarray  # edges sorted by source: edges of node i are order[indptr[i]:indptr[i+1]]
    order: np.ndarray

    n: int = 0
    _mats: dict = field(default_factory=dict)

    def matrix(self, move_ratio: int, crawl: bool) -> csr_matrix:
        key = (move_ratio, crawl)
        if key not in self._mats:
            w = (self.base * move_ratio + self.extra).astype(float)
            if crawl:
                w *= 2
            self._mats[key] = csr_matrix((w, (self.src, self.dst)), shape=(self.n, self.n))
        return self._mats[key]


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


def build_graph(board: Board) -> MoveGraph:
    """The movement graph of a board (cached on the board)."""
    cached = board.__dict__.get("_move_graph")
    if cached is not None:
        return cached
    lat = board.lattice
    nodes = board._node_dots
    n = len(nodes)
    src_l: list[np.ndarray] = []
    dst_l: list[np.ndarray] = []
    if n:
        # neighbour lookup through a dense grid per level
        c0, r0 = nodes[:, 0].min(), nodes[:, 1].min()
        w = nodes[:, 0].max() - c0 + 3
        h = nodes[:, 1].max() - r0 + 3
        lv_list = sorted(set(nodes[:, 2].tolist()))
        lv_pos = {lv: i for i, lv in enumerate(lv_list)}
        grid = np.full((len(lv_list), h, w), -1, dtype=np.int64)
        li = np.array([lv_pos[v] for v in nodes[:, 2]])
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
    src = np.concatenate(src_l) if src_l else np.zeros(0, dtype=np.int64)
    dst = np.concatenate(dst_l) if dst_l else np.zeros(0, dtype=np.int64)
    base = np.ones(len(src), dtype=np.int64)
    extra = np.zeros(len(src), dtype=np.int64)
    blocked = np.zeros(len(src), dtype=bool)
    why_of: dict[int, list[str]] = {}

    pts = lat.points(nodes[:, :2]) if n else np.zeros((0, 2))
    for lv in board.levels:
        fs = board.features(lv)
        if not fs:
            continue
        sel = np.nonzero(nodes[src, 2] == lv)[0]
        if not len(sel):
            continue
        segs = shapely.linestrings(np.stack([pts[src[sel]], pts[dst[sel]]], axis=1))
        ei, fi = board.tree(lv).query(segs, predicate="intersects")
        if not len(ei):
            continue
        starts = shapely.points(pts[src[sel[ei]]])
        geoms = np.array([fs[j].geom for j in fi], dtype=object)
        inside = shapely.contains(geoms, starts)
        for e, j, ins in zip(sel[ei], fi, inside):
            res = _crossing(fs[j], bool(ins))
            if res is None:
                continue
            cost, text = res
            if cost < 0:
                blocked[e] = True
            else:
                extra[e] += cost
                why_of.setdefault(int(e), []).append(text)

    keep = ~blocked
    new_index = np.cumsum(keep) - 1
    src, dst, base, extra = src[keep], dst[keep], base[keep], extra[keep]
    why = {int(new_index[e]): w for e, w in why_of.items() if keep[e]}

    # level changes: stairs, elevators, climbs, controlled drops
    links: list[tuple[int, int, int, int]] = []

    def link(a: Dot3, b: Dot3, ex: int, text: str, mr_paid: int = 0) -> None:
        why[len(src) + len(links)] = [text]
        links.append((board.node(a), board.node(b), mr_paid, ex))

    for a, b, f in board.stair_links:
        flights = abs(a[2] - b[2])
        link(a, b, STAIRS * flights, f"stairs {f.id} +{STAIRS * flights}")
        link(b, a, STAIRS * flights, f"stairs {f.id} +{STAIRS * flights}")
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
        link(lo, hi, up * stories, f"{kind} up {f.id} +{up * stories}")
        link(hi, lo, down * stories, f"{kind} down {f.id} +{down * stories}")
    # controlled drops: from a roof dot to a dot one level lower outside that building
    for bld in board.buildings:
        roof = bld.height
        rd = board.dots(roof)
        rd = rd[board.buildings_at(rd) == bld.index] if len(rd) else rd
        for c, r in rd:
            for nc, nr in lat.neighbours((int(c), int(r))):
                low = (nc, nr, roof - 1)
                other = board.building_at((nc, nr))
                if board.standable(low) and (other is None or other.index != bld.index):
                    link((int(c), int(r), roof), low, DROP,
                         f"drop one story from roof of {bld.placement_id} +{DROP}", 1)

    if links:
        arr = np.array(links, dtype=np.int64)
        src, dst = np.concatenate([src, arr[:, 0]]), np.concatenate([dst, arr[:, 1]])
        base, extra = np.concatenate([base, arr[:, 2]]), np.concatenate([extra, arr[:, 3]])
    order = np.argsort(src, kind="stable")
    indptr = np.searchsorted(src[order], np.arange(n + 1))
    g = MoveGraph(src, dst, base, extra, why, indptr, order, n)
    board._move_graph = g  # type: ignore[attr-defined]
    return g


def _edge_step(board: Board, g: MoveGraph, i: int, j: int, move_ratio: int, crawl: bool) -> Step | None:
    cand = g.order[g.indptr[i]:g.indptr[i + 1]]
    hit = cand[g.dst[cand] == j]
    if not len(hit):
        return None
    e = int(hit[0])
    base = int(g.base[e]) * move_ratio
    cost = base + int(g.extra[e])
    why = ([f"move ratio {move_ratio}"] if base else []) + list(g.why.get(e, ()))
    if crawl:
        cost *= 2
        why.append("crawling: x2")
    return Step(board.node_dot(j), cost, why)


def step(board: Board, a: Dot3, b: Dot3, move_ratio: int, crawl: bool = False) -> Step | None:
    """Cost of one move from ``a`` to ``b`` (adjacent, or joined by stairs/elevator/climb/drop)."""
    g = build_graph(board)
    return _edge_step(board, g, board.node(a), board.node(b), move_ratio, crawl)


def cheapest_path(board: Board, a: Dot3, b: Dot3, move_ratio: int, crawl: bool = False) -> PathResult:
    """The cheapest way from ``a`` to ``b``, with each step's cost and reasons."""
    g = build_graph(board)
    i, j = board.node(a), board.node(b)
    if i == j:
        return PathResult(True, 0, [board.node_dot(i)], [])
    dist, pred = dijkstra(g.matrix(move_ratio, crawl), indices=i, return_predecessors=True)
    if not np.isfinite(dist[j]):
        return PathResult(False, None, [], [])
    chain = [j]
    while chain[-1] != i:
        chain.append(int(pred[chain[-1]]))
    chain.reverse()
    steps = [_edge_step(board, g, u, v, move_ratio, crawl) for u, v in zip(chain, chain[1:])]
    return PathResult(True, int(round(dist[j])), [board.node_dot(k) for k in chain], steps)  # type: ignore[arg-type]


def reach(
    board: Board, a: Dot3, move_ratio: int, mp: int = 12, crawl: bool = False,
    occupied: set[Dot3] | None = None,
) -> dict[Dot3, int]:
    """Every dot reachable from ``a`` within ``mp`` MP, with its cheapest cost.

    ``occupied`` dots may be passed through but not ended on (DMZ stacking).
    """
    g = build_graph(board)
    i = board.node(a)
    dist = dijkstra(g.matrix(move_ratio, crawl), indices=i, limit=mp + 0.5)
    idx = np.nonzero(np.isfinite(dist))[0]
    out = {board.node_dot(int(k)): int(round(dist[k])) for k in idx}
    if occupied:
        for d in occupied:
            if tuple(d) != tuple(a):
                out.pop(tuple(d), None)
    return out


def reach_arrays(board: Board, a: Dot3, move_ratio: int, mp: int = 12, crawl: bool = False
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Like :func:`reach` but as arrays (dots (N, 3), costs (N,)) for drawing."""
    g = build_graph(board)
    dist = dijkstra(g.matrix(move_ratio, crawl), indices=board.node(a), limit=mp + 0.5)
    idx = np.nonzero(np.isfinite(dist))[0]
    return board._node_dots[idx], np.rint(dist[idx]).astype(int)


def describe_path(res: PathResult) -> str:
    if not res.reachable:
        return "no path"
    parts = [f"{fmt_dot(s.to)} ({s.cost}: {', '.join(s.why)})" for s in res.steps]
    return f"{res.cost} MP: " + " -> ".join(parts)
