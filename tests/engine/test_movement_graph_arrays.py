"""The array-built movement graph answers exactly as the old per-edge construction did.

The old construction (one shapely LineString per directed edge, a Python loop per tree hit and
per roof dot) lives here only, as the reference: costs, reasons and reachability must match on
the sample scenarios, a hex board and benchmark cities with randomly opened, closed and moved
things.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import shapely
from scipy.sparse.csgraph import dijkstra

from benchmarks.neighbourhood import neighbourhood
from engine.board import Board, compile_board
from engine.io.resolve import load_board
from engine.lattice import Dot3
from engine.model import Area, Layout, Level, Opening, Placement, Sheet, Wall
from engine.movement import (
    _ROWS_PENDING,
    CLIMB_DOWN,
    CLIMB_DOWN_ASSISTED,
    CLIMB_UP,
    CLIMB_UP_ASSISTED,
    DROP,
    ELEVATOR,
    STAIRS,
    MoveGraph,
    _crossing,
    _min_move,
    _per_dot,
    build_graph,
)

ROOT = Path(__file__).resolve().parents[2]


def reference_graph(board: Board) -> MoveGraph:
    """The graph as built before issue 11: one shapely segment per edge, a Python loop per hit."""
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
        # the reasons of one step in the order of the level's features (the tree's own order
        # depends on everything else on the level)
        o = np.lexsort((fi, ei))
        ei, fi = ei[o], fi[o]
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
    links: list[tuple[int, int, int, int, int, int]] = []

    def link(a: Dot3, b: Dot3, ex: int, text: str, mr_paid: int = 0, walked: int = 0) -> None:
        """A level change; ``walked`` stories climbed on foot (stairs, climbs) for metres."""
        why[len(src) + len(links)] = [text]
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

    if lat.name == "hex" or not len(src):
        diag = np.zeros(len(src), dtype=bool)
    else:
        diag = (nodes[src, 0] != nodes[dst, 0]) & (nodes[src, 1] != nodes[dst, 1])
    stories = np.zeros(len(src), dtype=np.int64)
    flat = np.ones(len(src), dtype=np.int64)
    if links:
        arr = np.array(links, dtype=np.int64)
        src, dst = np.concatenate([src, arr[:, 0]]), np.concatenate([dst, arr[:, 1]])
        base, extra = np.concatenate([base, arr[:, 2]]), np.concatenate([extra, arr[:, 3]])
        diag = np.concatenate([diag, np.zeros(len(arr), dtype=bool)])
        stories = np.concatenate([stories, arr[:, 4]])
        flat = np.concatenate([flat, arr[:, 5]])
    order = np.argsort(src, kind="stable")
    indptr = np.searchsorted(src[order], np.arange(n + 1))
    g = MoveGraph(src, dst, base, extra, why, indptr, order, n, diag=diag, stories=stories,
                  flat=flat)
    return g


def _same(board: Board) -> None:
    new, old = build_graph(board), reference_graph(board)
    assert new.n == old.n
    for name in ("src", "dst", "base", "extra", "diag", "stories", "flat", "order", "indptr"):
        assert np.array_equal(getattr(new, name), getattr(old, name)), name
    assert new.why == old.why
    # the matrices the core builds directly equal the ones built from the edge arrays
    flat = MoveGraph(new.src, new.dst, new.base, new.extra, new.why, new.indptr, new.order, new.n)
    for mr, crawl in ((1, False), (2, False), (3, True)):
        a, b = new.matrix(mr, crawl), flat.matrix(mr, crawl)
        for name in ("indptr", "indices", "data"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name
        # the bounds the direct way records equal the ones a pass over the entries finds
        assert _per_dot(new, board, a) == _per_dot(flat, board, b)
        assert _min_move(new, board, a) == _min_move(flat, board, b)
    # reachability and costs from a few dots, under two move ratios and crawling
    rng = random.Random(board.node_count)
    for _ in range(4):
        i = rng.randrange(board.node_count)
        for mr, crawl in ((1, False), (3, True)):
            a = dijkstra(new.matrix(mr, crawl), indices=i, limit=40)
            b = dijkstra(old.matrix(mr, crawl), indices=i, limit=40)
            assert np.array_equal(a, b)


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "scenarios").glob("*.yaml")))
def test_sample_scenarios(name):
    _scen, board = load_board(ROOT / "scenarios" / name)
    _same(board)


def test_benchmark_city_with_random_changes():
    lay, sheets = neighbourhood(seed=11, blocks=2)
    rng = random.Random(5)
    for _ in range(3):
        pl = list(lay.placements)
        k = rng.randrange(len(pl))
        pl[k] = replace(pl[k], at=(pl[k].at[0] + rng.choice((-1, 1)), pl[k].at[1]))
        lay = replace(lay, placements=tuple(pl))
        board = compile_board(lay, sheets)
        _same(board)
        build_graph(board)
        play = board.fork()  # doors and windows opened and closed, as play does: patched
        for f in rng.sample([f for f in board.all_features() if f.kind in ("door", "window")], 25):
            play.set_state(f.id, "closed" if f.props.get("state") != "closed" else "open",
                           patch=True)
        _same(play)
        play.invalidate()  # and rebuilt from the changed units
        _same(play)


def test_hex_board_with_walls_doors_and_a_roof():
    box = ((-0.5, -0.5), (5.5, -0.5), (5.5, 3.5), (-0.5, 3.5))
    hut = Sheet(id="hut", title="Hut", kind="building", lattice="hex", size=(6, 4), outline=box,
                height=1, levels=(
                    Level(0, walls=(Wall(path=(*box, box[0]), exterior=True),),
                          doors=(Opening("door", ((2.0, 3.5), (3.0, 3.5))),),
                          areas=(Area("obstacle", ((1.2, 1.2), (2.8, 1.2), (2.8, 2.2)), cost=2),)),
                    Level(1)))
    pav = Sheet(id="hex-pav", title="Hex pavement", kind="pavement", lattice="hex",
                size=(20, 16), outline=((-0.5, -0.5), (20.0, -0.5), (20.0, 14.5), (-0.5, 14.5)))
    lay = Layout(lattice="hex", pavement=(Placement("hex-pav", (0, 0)),),
                 placements=(Placement("hut", (6, 4), id="h1"),))
    board = compile_board(lay, {"hex-pav": pav, "hut": hut})
    g = build_graph(board)
    assert len(g.why) > 0 and g.extra.max() > 0  # the door and the obstacle cost something
    _same(board)


def test_walls_without_openings_give_no_reasons():
    """A sealed box: steps are only blocked, none costs extra; the only reasons are the drops
    from its roof."""
    box = ((-0.5, -0.5), (5.5, -0.5), (5.5, 5.5), (-0.5, 5.5))
    vault = Sheet(id="vault", title="Vault", kind="building", lattice="square", size=(6, 6),
                  outline=box, height=1,
                  levels=(Level(0, walls=(Wall(path=(*box, box[0]), exterior=True),)), Level(1)))
    pav = Sheet(id="pav", title="Pavement", kind="pavement", lattice="square", size=(20, 20),
                outline=((-0.5, -0.5), (19.5, -0.5), (19.5, 19.5), (-0.5, 19.5)))
    lay = Layout(pavement=(Placement("pav", (0, 0)),),
                 placements=(Placement("vault", (8, 8), id="v1"),))
    board = compile_board(lay, {"pav": pav, "vault": vault})
    g = build_graph(board)
    assert len(g.why) > 0 and all(w[0].startswith("drop one story") for w in g.why.values())
    inside, outside = board.node((10, 10, 0)), board.node((2, 2, 0))
    assert np.isinf(dijkstra(g.matrix(1, False), indices=outside)[inside])
    _same(board)


def _same_graph(g: MoveGraph, f: MoveGraph) -> None:
    """Two graphs equal array for array (node ids, edges in order, costs and reasons)."""
    for name in ("src", "dst", "base", "extra", "diag", "stories", "flat", "order", "indptr"):
        assert np.array_equal(getattr(g, name), getattr(f, name)), name
    assert dict(g.why) == dict(f.why)


def _edit(rng: random.Random, lay: Layout, k: int) -> Layout:
    """Move a random building, add a copy of one at the end, or remove the last one."""
    pl = list(lay.placements)
    op = rng.random()
    i = rng.randrange(len(pl))
    if op < 0.6 or len(pl) < 3:
        pl[i] = replace(pl[i], at=(pl[i].at[0] + rng.choice((-1, 1, 3)),
                                   pl[i].at[1] + rng.choice((0, 1, -2))))
    elif op < 0.8:
        pl.append(replace(pl[i], id=f"added-{k}", at=(pl[i].at[0] + 2, pl[i].at[1] + 1)))
    else:
        pl.pop()
    return replace(lay, placements=tuple(pl))


@pytest.mark.parametrize("seed", [3, 8])
def test_incremental_compile_and_patched_graph_equal_a_rebuild(seed):
    """The editor's drag: a board compiled from the previous one (``previous=``) has the same
    dots, links and features as one compiled from scratch, and its movement graph, patched
    from the previous board's where the two differ, is the one built from scratch, array for
    array; also when the board in between never built its graph (patched from its parent's
    over both changes), and answers as the per-edge reference does."""
    lay, sheets = neighbourhood(seed=seed, blocks=2)
    rng = random.Random(seed)
    prev = compile_board(lay, sheets)
    build_graph(prev)
    n_shared = 0
    for k in range(8):
        lay = _edit(rng, lay, k)
        board = compile_board(lay, sheets, previous=prev)
        fresh = compile_board(lay, sheets)
        assert board._changed is not None  # compiled incrementally
        r0, r1, c0, c1 = board._changed
        assert (r1 - r0) * (c1 - c0) < board._stand[0].size  # ... on a part of the box
        assert np.array_equal(board._stand, fresh._stand)
        assert np.array_equal(board._node_grid, fresh._node_grid)
        assert np.array_equal(board._owner_grid[2], fresh._owner_grid[2])
        for name in ("stair_links", "elevator_links", "climb_links", "broken_links",
                     "loose_openings"):
            assert getattr(board, name) == getattr(fresh, name), name
        assert board.all_features() == fresh.all_features()
        if k % 3 == 2:
            prev = board  # no graph built on this one: the next patches the one before
            continue
        patched = board._patch_from.get("_move_graph")
        assert patched is not None
        old = patched[0].core
        before = old.ext
        g = build_graph(board)
        assert np.array_equal(old.ext, before)  # never written through a shared tile
        # the tiles of rows outside the patched window are shared, the others copied
        r0, r1 = max(patched[1][0] - 2, 0), min(patched[1][1] + 2, board._stand.shape[1])
        t_rows = old.tiles[0].shape[1]
        touched = {(lv * board._stand.shape[1] + r) // t_rows
                   for lv in range(board._stand.shape[0]) for r in range(r0, r1)}
        shared = {t for t, (a, b) in enumerate(zip(g.core.tiles, old.tiles)) if a is b}
        assert shared == set(range(len(old.tiles))) - touched
        n_shared += len(shared)
        _same_graph(g, build_graph(fresh))
        if k % 3 == 0:
            _same(board)
        prev = board
    assert n_shared > 0


def test_patched_graph_then_doors_in_play():
    """A graph patched after a drag patches doors opened in play like a rebuilt one."""
    lay, sheets = neighbourhood(seed=6, blocks=2)
    prev = compile_board(lay, sheets)
    build_graph(prev)
    rng = random.Random(1)
    board = compile_board(_edit(rng, lay, 0), sheets, previous=prev)
    before = build_graph(board).core.ext
    play = board.fork()
    for f in rng.sample([f for f in board.all_features() if f.kind == "door"], 12):
        play.set_state(f.id, "closed" if f.props.get("state") != "closed" else "open",
                       patch=True)
    g = build_graph(play)
    assert g is not build_graph(board)
    assert np.array_equal(build_graph(board).core.ext, before)  # the board's own table kept
    assert not np.array_equal(g.core.ext, before)
    play2 = play.fork()
    play2.invalidate()
    _same_graph(g, build_graph(play2))
    _same(play)
    # a board compiled from the played-on fork takes its layout, not play's doors
    lay2 = _edit(rng, lay, 1)
    after = compile_board(lay2, sheets, previous=play)
    assert not after._patch_from
    _same_graph(build_graph(after), build_graph(compile_board(lay2, sheets)))


def hex_hut() -> Sheet:
    """A hex-lattice hut of two stories with a door, an obstacle and a stair: the building
    the hex drag tests move about (odd and even rows)."""
    from engine.model import Stair

    box = ((-0.5, -0.5), (5.5, -0.5), (5.5, 3.5), (-0.5, 3.5))
    ring = Wall(path=(*box, box[0]), exterior=True)
    return Sheet(id="hut", title="Hut", kind="building", lattice="hex", size=(6, 4), outline=box,
                 height=2, levels=(
                     Level(0, walls=(ring,), doors=(Opening("door", ((2.0, 3.5), (3.0, 3.5))),),
                           areas=(Area("obstacle", ((1.2, 1.2), (2.8, 1.2), (2.8, 2.2)), cost=2),),
                           stairs=(Stair(at=(1.0, 1.0), to=1),)),
                     Level(1, walls=(ring,)), Level(2)))

def test_hex_drag_patches_graph_and_sight_as_a_rebuild():
    """On a hex lattice (neighbours by row parity) too: huts with a stair, a door and an
    obstacle dragged about (odd and even rows), compiled from the previous board."""
    from engine.los import _Prims, prims

    hut = hex_hut()
    pav = Sheet(id="hex-pav", title="Hex pavement", kind="pavement", lattice="hex",
                size=(30, 24), outline=((-0.5, -0.5), (30.0, -0.5), (30.0, 22.5), (-0.5, 22.5)))
    lay = Layout(lattice="hex", pavement=(Placement("hex-pav", (0, 0)),),
                 placements=(Placement("hut", (6, 4), id="h1"), Placement("hut", (16, 10), id="h2"),
                             Placement("hut", (4, 14), id="h3")))
    sheets = {"hex-pav": pav, "hut": hut}
    prev = compile_board(lay, sheets)
    build_graph(prev)
    prims(prev)
    rng = random.Random(2)
    for _ in range(8):
        pl = list(lay.placements)
        k = rng.randrange(len(pl))
        pl[k] = replace(pl[k], at=(pl[k].at[0] + rng.choice((-1, 1, 2)),
                                   pl[k].at[1] + rng.choice((0, 1, -1, 2))))
        lay = replace(lay, placements=tuple(pl))
        board = compile_board(lay, sheets, previous=prev)
        fresh = compile_board(lay, sheets)
        assert board.stair_links == fresh.stair_links and len(board.stair_links) == 3
        _same_graph(build_graph(board), build_graph(fresh))
        p, f = prims(board), _Prims(fresh)
        for name in ("p", "q", "owner", "kind"):
            assert np.array_equal(getattr(p, name), getattr(f, name)), name
        assert np.array_equal(p.grid.seg, f.grid.seg) and np.array_equal(p.grid.start, f.grid.start)
        prev = board
    _same(prev)


def _moved(rng: random.Random, lay: Layout) -> Layout:
    pl = list(lay.placements)
    k = rng.randrange(len(pl))
    pl[k] = replace(pl[k], at=(pl[k].at[0] + rng.choice((-1, 1, 2)),
                               pl[k].at[1] + rng.choice((0, 1, -1, 2))))
    return replace(lay, placements=tuple(pl))


@pytest.mark.parametrize("lattice", ["square", "hex"])
def test_reasons_merged_on_first_read_after_drags_that_never_read_them(lattice):
    """A drag's core keeps its parent's reasons and drops with those of the patched window
    waiting, merged on first read: a chain of drags none of which reads them (longer than
    the windows a core lets wait) gives each board a rebuild's graph, read in any order."""
    if lattice == "square":
        lay, sheets = neighbourhood(seed=6, blocks=2)
    else:
        pav = Sheet(id="hex-pav", title="Hex pavement", kind="pavement", lattice="hex",
                    size=(30, 24), outline=((-0.5, -0.5), (30.0, -0.5), (30.0, 22.5), (-0.5, 22.5)))
        lay = Layout(lattice="hex", pavement=(Placement("hex-pav", (0, 0)),), placements=(
            Placement("hut", (6, 4), id="h1"), Placement("hut", (16, 10), id="h2")))
        sheets = {"hex-pav": pav, "hut": hex_hut()}
    rng = random.Random(4)
    prev = compile_board(lay, sheets)
    build_graph(prev).why  # noqa: B018 - laid out: the chain starts from merged arrays
    chain = []
    for _ in range(_ROWS_PENDING + 6):
        lay = _moved(rng, lay)
        prev = compile_board(lay, sheets, previous=prev)
        chain.append((prev, lay, build_graph(prev)))
    waiting = [g.core.r.base is not None for _b, _l, g in chain]
    assert waiting.count(True) >= _ROWS_PENDING  # the merges waited ...
    assert waiting.count(False) >= 1  # ... until too many windows were waiting
    # read from the last (the longest chain waiting) back, then the first
    for _board, lay, g in [*chain[::-3], chain[0]]:
        _same_graph(g, build_graph(compile_board(lay, sheets)))
        assert g.core.r.base is None and g.core.d.base is None  # merged: the parent's may go
